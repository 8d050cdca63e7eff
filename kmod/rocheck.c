// SPDX-License-Identifier: GPL-2.0
/*
 * rocheck: enforce the read-only flag of block devices.
 *
 * The block layer has a read-only flag per disk and per partition, but in
 * 6.12 it only guards write(2) on the device node: a write open succeeds,
 * and bio_check_ro() merely warns, once, about write bios that reach a
 * read-only device through writeback or a dm/md/loop stack.
 *
 * rocheck checks the ways a write reaches a disk through the block layer
 * (what it does not see, such as a vendor HBA's own ioctls or a command a
 * dm device forwards to its path, is listed in docs/rocheck.md):
 *   - submission (default "deny"): every bio that would modify a read-only
 *     disk or partition ends with BLK_STS_IOERR before it reaches the
 *     driver.  This is where enforcement belongs: it sees writeback of
 *     pages dirtied before the flag was set and every bio-based stacked
 *     driver (dm, md, loop).
 *   - requests that reach a queue without bio submission, under the same
 *     policy.  Passthrough commands (SG_IO, /dev/sg, bsg, NVMe ioctls and
 *     uring_cmd, the kernel's own driver commands) are judged by
 *     allowlist: on a read-only disk only a command known to read or
 *     report passes, a write of a given range passes only outside the
 *     read-only partitions, and anything else (MODE SELECT, FORMAT UNIT,
 *     a vendor command, a driver rocheck does not understand) is refused:
 *     a SCSI command with CHECK CONDITION, DATA PROTECT / WRITE
 *     PROTECTED, as a write-protected disk answers, any other with
 *     BLK_STS_IOERR.  A request-based dm (multipath) clone is judged as a
 *     bio is and refused with BLK_STS_TARGET, which dm does not take for
 *     a failed path.
 *   - NVMe commands from user space, before the driver builds a request,
 *     under the same policy and allowlist: admin commands go to the
 *     controller's queue, which has no disk, so only here can rocheck see
 *     that a Format NVM or Set Features reaches a read-only namespace;
 *     refused with -EACCES.
 *   - open (default "warn"): a write open of a read-only device is logged,
 *     or refused with -EROFS.  Refusing by default is what broke loop, dm
 *     and md in 2011, and tools that open O_RDWR for read-only work
 *     (SG_IO users, for one) still exist; the checks above already stop
 *     every write, so the open check only reports unless asked to deny.
 *     Opens by kernel holders (md members, dm tables) are exempt by
 *     default; see the open_exempt parameter.
 *
 * Counters per device are in /sys/kernel/debug/rocheck/devices; every
 * warned, exempted or refused decision is also a trace event
 * (rocheck:rocheck_open, rocheck:rocheck_bio, rocheck:rocheck_rq,
 * rocheck:rocheck_cmd).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/blk-hooks.h>
#include <linux/blkdev.h>
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nvme.h>
#include <linux/ratelimit.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>

#include "blkpolicy_param.h"
#include "rocheck_arm.h"
#include "rocheck_cmd.h"
#include "rocheck_lock.h"

#define CREATE_TRACE_POINTS
#include "rocheck_trace.h"

enum rc_policy { RC_OFF, RC_WARN, RC_DENY };

static const char * const rc_policy_names[] = {
	[RC_OFF] = "off",
	[RC_WARN] = "warn",
	[RC_DENY] = "deny",
};

/* Per-device counters, in the order they are printed. */
enum rc_counter {
	RC_OPEN_WARNED,
	RC_OPEN_REFUSED,
	RC_OPEN_EXEMPT,
	RC_BIOS_WARNED,
	RC_BIOS_REFUSED,
	RC_BYTES_REFUSED,
	RC_REFUSED_WRITE,
	RC_REFUSED_DISCARD,
	RC_REFUSED_SECURE_ERASE,
	RC_REFUSED_WRITE_ZEROES,
	RC_REFUSED_ZONE,
	RC_CMDS_WARNED,
	RC_CMDS_REFUSED,
	RC_NR_COUNTERS,
};

static const char * const rc_counter_names[RC_NR_COUNTERS] = {
	[RC_OPEN_WARNED] = "open_warned",
	[RC_OPEN_REFUSED] = "open_refused",
	[RC_OPEN_EXEMPT] = "open_exempt",
	[RC_BIOS_WARNED] = "bios_warned",
	[RC_BIOS_REFUSED] = "bios_refused",
	[RC_BYTES_REFUSED] = "bytes_refused",
	[RC_REFUSED_WRITE] = "write",
	[RC_REFUSED_DISCARD] = "discard",
	[RC_REFUSED_SECURE_ERASE] = "secure_erase",
	[RC_REFUSED_WRITE_ZEROES] = "write_zeroes",
	[RC_REFUSED_ZONE] = "zone",
	[RC_CMDS_WARNED] = "cmds_warned",
	[RC_CMDS_REFUSED] = "cmds_refused",
};

struct rc_dev_stats {
	dev_t dev;
	char name[BDEVNAME_SIZE];
	atomic64_t count[RC_NR_COUNTERS];
};

#define RC_MAX_COMMS	8
#define RC_MAX_DEVS	16

/* Parsed open_exempt: immutable once published, replaced under RCU. */
struct rc_exempt {
	bool kernel;
	int nr_comms;
	char comm[RC_MAX_COMMS][TASK_COMM_LEN];
};

/* Parsed dev_policy: immutable once published, replaced under RCU. */
struct rc_dev_policies {
	int nr;
	struct {
		dev_t dev;			/* 0: match by name */
		char name[BDEVNAME_SIZE];
		enum rc_policy policy;
	} ent[RC_MAX_DEVS];
};

static int rc_open_policy = RC_WARN;
static int rc_submit_policy = RC_DENY;
static struct rc_exempt __rcu *rc_exempt;
static struct rc_dev_policies __rcu *rc_devs;
/* Serializes parameter writers of the RCU-published settings. */
static DEFINE_MUTEX(rc_param_lock);
/*
 * Set by exit under rc_param_lock.  delete_module() runs exit before it
 * removes the parameters from sysfs, so a write can still arrive then.
 */
static bool rc_param_closed;

static DEFINE_XARRAY(rc_stats);
static atomic64_t rc_stats_lost;
static struct dentry *rc_debugfs;

/* ---- parameters ---- */

static struct bp_words rc_open_words = {
	&rc_open_policy, rc_policy_names, ARRAY_SIZE(rc_policy_names)
};

static struct bp_words rc_submit_words = {
	&rc_submit_policy, rc_policy_names, ARRAY_SIZE(rc_policy_names)
};

module_param_cb(open, &bp_words_ops, &rc_open_words, 0600);
MODULE_PARM_DESC(open,
		 "Write opens of a read-only device: off, warn (default; log and allow), deny (fail with EROFS)");
module_param_cb(submit, &bp_words_ops, &rc_submit_words, 0600);
MODULE_PARM_DESC(submit,
		 "Bios and passthrough commands that would modify a read-only device: off, warn (log and pass), deny (default; fail with EIO, SCSI commands with DATA PROTECT)");

/*
 * Split a parameter list at commas.  Returns the next token (trimmed) or
 * NULL at the end; empty tokens are skipped.
 */
static char *rc_next_token(char **s)
{
	char *tok;

	while ((tok = strsep(s, ",")) != NULL) {
		tok = strim(tok);
		if (*tok)
			return tok;
	}
	return NULL;
}

static bool rc_printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x21 || *s > 0x7e)
			return false;
	return true;
}

/*
 * Parse @val with @parse into a fresh zeroed setting of @size bytes and
 * publish it in @slot.  Readers under RCU see the old or the new setting,
 * never a half-parsed one; on error the old one stays.
 */
static int rc_publish(void __rcu **slot, size_t size, const char *val,
		      int (*parse)(const char *val, void *out))
{
	void *new, *old;
	int ret;

	new = kzalloc(size, GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	ret = parse(val, new);
	if (ret) {
		kfree(new);
		return ret;
	}
	mutex_lock(&rc_param_lock);
	if (rc_param_closed) {
		mutex_unlock(&rc_param_lock);
		kfree(new);
		return -ENODEV;
	}
	old = rcu_replace_pointer(*slot, new, lockdep_is_held(&rc_param_lock));
	mutex_unlock(&rc_param_lock);
	kfree_rcu_mightsleep(old);
	return 0;
}

static int rc_exempt_parse(const char *val, void *out)
{
	struct rc_exempt *ex = out;
	char *buf, *s, *tok;
	int ret = 0;

	if (strlen(val) > 512)
		return -EINVAL;
	buf = kstrdup(val, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	s = buf;
	while ((tok = rc_next_token(&s)) != NULL) {
		if (!strcmp(tok, "kernel")) {
			ex->kernel = true;
		} else if (!strcmp(tok, "none")) {
			continue;
		} else if (str_has_prefix(tok, "comm:") &&
			   tok[5] && strlen(tok + 5) < TASK_COMM_LEN &&
			   rc_printable(tok + 5) &&
			   ex->nr_comms < RC_MAX_COMMS) {
			strscpy(ex->comm[ex->nr_comms++], tok + 5,
				TASK_COMM_LEN);
		} else {
			ret = -EINVAL;
			break;
		}
	}
	kfree(buf);
	return ret;
}

static int rc_exempt_set(const char *val, const struct kernel_param *kp)
{
	int ret;

	ret = rc_publish((void __rcu **)&rc_exempt, sizeof(struct rc_exempt),
			 val, rc_exempt_parse);
	if (ret == -EINVAL)
		pr_err("open_exempt: invalid value, accepted: a comma-separated list of kernel, none, comm:NAME (at most %d names of at most %d characters)\n",
		       RC_MAX_COMMS, TASK_COMM_LEN - 1);
	return ret;
}

static int rc_exempt_get(char *buf, const struct kernel_param *kp)
{
	struct rc_exempt *ex;
	int i, len = 0;

	rcu_read_lock();
	ex = rcu_dereference(rc_exempt);
	if (ex && ex->kernel)
		len += sysfs_emit_at(buf, len, "kernel");
	for (i = 0; ex && i < ex->nr_comms; i++)
		len += sysfs_emit_at(buf, len, "%scomm:%s", len ? "," : "",
				     ex->comm[i]);
	rcu_read_unlock();
	if (!len)
		len += sysfs_emit_at(buf, len, "none");
	return len + sysfs_emit_at(buf, len, "\n");
}

static const struct kernel_param_ops rc_exempt_ops = {
	.set = rc_exempt_set,
	.get = rc_exempt_get,
};

module_param_cb(open_exempt, &rc_exempt_ops, NULL, 0600);
MODULE_PARM_DESC(open_exempt,
		 "Write opens the open check lets through: comma-separated kernel (opens by an in-kernel holder such as md or dm; default), comm:NAME (opens by a task of that name; any process can take a name with PR_SET_NAME, so this is a convenience, not a security boundary), none");

static int rc_dev_policies_parse(const char *val, void *out)
{
	struct rc_dev_policies *dp = out;
	char *buf, *s, *tok, *eq;
	int p, ret = 0;

	if (strlen(val) > 1024)
		return -EINVAL;
	buf = kstrdup(val, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	s = buf;
	while ((tok = rc_next_token(&s)) != NULL) {
		eq = strchr(tok, '=');
		if (!eq || eq == tok || dp->nr >= RC_MAX_DEVS) {
			ret = -EINVAL;
			break;
		}
		*eq = '\0';
		p = match_string(rc_policy_names, ARRAY_SIZE(rc_policy_names),
				 eq + 1);
		if (p < 0 || strlen(tok) >= BDEVNAME_SIZE ||
		    !rc_printable(tok)) {
			ret = -EINVAL;
			break;
		}
		dp->ent[dp->nr].policy = p;
		/* A colon only appears in MAJ:MIN, never in a disk name. */
		if (strchr(tok, ':') &&
		    !rc_parse_majmin(tok, &dp->ent[dp->nr].dev)) {
			ret = -EINVAL;
			break;
		}
		strscpy(dp->ent[dp->nr].name, tok, BDEVNAME_SIZE);
		dp->nr++;
	}
	kfree(buf);
	return ret;
}

static int rc_devs_set(const char *val, const struct kernel_param *kp)
{
	int ret;

	ret = rc_publish((void __rcu **)&rc_devs,
			 sizeof(struct rc_dev_policies), val,
			 rc_dev_policies_parse);
	if (ret == -EINVAL)
		pr_err("dev_policy: invalid value, accepted: a comma-separated list of DEV=POLICY, DEV a name (sdb, sdb1) or MAJ:MIN, POLICY off, warn or deny, at most %d entries\n",
		       RC_MAX_DEVS);
	return ret;
}

static int rc_devs_get(char *buf, const struct kernel_param *kp)
{
	struct rc_dev_policies *dp;
	int i, len = 0;

	rcu_read_lock();
	dp = rcu_dereference(rc_devs);
	for (i = 0; dp && i < dp->nr; i++)
		len += sysfs_emit_at(buf, len, "%s%s=%s", i ? "," : "",
				     dp->ent[i].name,
				     rc_policy_names[dp->ent[i].policy]);
	rcu_read_unlock();
	return len + sysfs_emit_at(buf, len, "\n");
}

static const struct kernel_param_ops rc_devs_ops = {
	.set = rc_devs_set,
	.get = rc_devs_get,
};

module_param_cb(dev_policy, &rc_devs_ops, NULL, 0600);
MODULE_PARM_DESC(dev_policy,
		 "Per-device policy for both checks, overriding open and submit: comma-separated DEV=off|warn|deny, DEV a name (sdb, sdb1) or MAJ:MIN; a partition entry wins over its disk's");

/* ---- policy lookup and counters ---- */

/* The policy for @bdev: a partition's own entry, then its disk's, then @def. */
static enum rc_policy rc_policy_for(struct block_device *bdev, int def)
{
	struct block_device *whole = bdev_whole(bdev);
	struct rc_dev_policies *dp;
	enum rc_policy p = def;
	char name[BDEVNAME_SIZE];
	int i, best = 0;

	rcu_read_lock();
	dp = rcu_dereference(rc_devs);
	if (dp && dp->nr) {
		snprintf(name, sizeof(name), "%pg", bdev);
		for (i = 0; i < dp->nr; i++) {
			int score = 0;

			if (dp->ent[i].dev ? dp->ent[i].dev == bdev->bd_dev :
			    !strcmp(dp->ent[i].name, name))
				score = 2;
			else if (dp->ent[i].dev ?
				 dp->ent[i].dev == whole->bd_dev :
				 !strcmp(dp->ent[i].name,
					 bdev->bd_disk->disk_name))
				score = 1;
			if (score > best) {
				best = score;
				p = dp->ent[i].policy;
			}
		}
	}
	rcu_read_unlock();
	return p;
}

static struct rc_dev_stats *rc_stats_get(struct block_device *bdev, gfp_t gfp)
{
	struct rc_dev_stats *st, *cur;

	st = xa_load(&rc_stats, bdev->bd_dev);
	if (st)
		return st;
	st = kzalloc(sizeof(*st), gfp | __GFP_NOWARN);
	if (!st)
		return NULL;
	st->dev = bdev->bd_dev;
	snprintf(st->name, sizeof(st->name), "%pg", bdev);
	cur = xa_cmpxchg(&rc_stats, bdev->bd_dev, NULL, st, gfp);
	if (cur) {
		kfree(st);
		return xa_is_err(cur) ? NULL : cur;
	}
	return st;
}

static void rc_count(struct block_device *bdev, gfp_t gfp,
		     enum rc_counter c, enum rc_counter c2, u64 bytes)
{
	struct rc_dev_stats *st = rc_stats_get(bdev, gfp);

	if (!st) {
		atomic64_inc(&rc_stats_lost);
		return;
	}
	atomic64_inc(&st->count[c]);
	if (c2 != RC_NR_COUNTERS) {
		atomic64_inc(&st->count[c2]);
		atomic64_add(bytes, &st->count[RC_BYTES_REFUSED]);
	}
}

/* ---- hooks ---- */

/* Read-only by its flag (or its disk's), or locked by new_devices=ro. */
static inline bool rc_read_only(struct block_device *bdev)
{
	return bdev_read_only(bdev) || rc_disk_locked(bdev->bd_disk);
}

static bool rc_open_exempt(void *holder, struct file *bdev_file)
{
	struct rc_exempt *ex;
	bool exempt = false;
	int i;

	rcu_read_lock();
	ex = rcu_dereference(rc_exempt);
	if (ex) {
		/* User space O_EXCL opens hold with their own file. */
		if (ex->kernel && holder && holder != bdev_file)
			exempt = true;
		for (i = 0; !exempt && i < ex->nr_comms; i++)
			exempt = !strncmp(current->comm, ex->comm[i],
					  TASK_COMM_LEN);
	}
	rcu_read_unlock();
	return exempt;
}

static int rc_open(struct block_device *bdev, blk_mode_t mode, void *holder,
		   const struct blk_holder_ops *hops, struct file *bdev_file)
{
	enum rc_policy p;

	if (static_branch_unlikely(&rc_lock_key))
		rc_lock_open(bdev->bd_disk);
	if (!(mode & BLK_OPEN_WRITE) || !rc_read_only(bdev))
		return 0;
	p = rc_policy_for(bdev, READ_ONCE(rc_open_policy));
	if (p == RC_OFF)
		return 0;
	if (rc_open_exempt(holder, bdev_file)) {
		rc_count(bdev, GFP_KERNEL, RC_OPEN_EXEMPT, RC_NR_COUNTERS, 0);
		trace_rocheck_open(bdev, mode, RC_VERDICT_EXEMPT);
		return 0;
	}
	if (p == RC_WARN) {
		rc_count(bdev, GFP_KERNEL, RC_OPEN_WARNED, RC_NR_COUNTERS, 0);
		trace_rocheck_open(bdev, mode, RC_VERDICT_WARNED);
		pr_warn_ratelimited("%pg: write open of read-only device by %s[%d] allowed (open=warn)\n",
				    bdev, current->comm,
				    task_pid_nr(current));
		return 0;
	}
	rc_count(bdev, GFP_KERNEL, RC_OPEN_REFUSED, RC_NR_COUNTERS, 0);
	trace_rocheck_open(bdev, mode, RC_VERDICT_REFUSED);
	pr_warn_ratelimited("%pg: write open of read-only device by %s[%d] refused\n",
			    bdev, current->comm, task_pid_nr(current));
	return -EROFS;
}

static enum rc_counter rc_op_counter(enum req_op op)
{
	switch (op) {
	case REQ_OP_WRITE:
		return RC_REFUSED_WRITE;
	case REQ_OP_DISCARD:
		return RC_REFUSED_DISCARD;
	case REQ_OP_SECURE_ERASE:
		return RC_REFUSED_SECURE_ERASE;
	case REQ_OP_WRITE_ZEROES:
		return RC_REFUSED_WRITE_ZEROES;
	default:
		return RC_REFUSED_ZONE;
	}
}

/*
 * Count, trace and log a write of @bytes at @sector of @target that would
 * change read-only @bdev: a bio, or a request-based dm clone (@clone).
 * Returns the policy that applies.
 */
static enum rc_policy rc_io_verdict(struct block_device *bdev,
				    struct block_device *target,
				    enum req_op op, sector_t sector,
				    unsigned int bytes, bool clone, gfp_t gfp)
{
	enum rc_policy p = rc_policy_for(bdev, READ_ONCE(rc_submit_policy));
	enum rc_verdict v;

	if (p == RC_OFF)
		return p;
	if (p == RC_WARN) {
		rc_count(bdev, gfp, RC_BIOS_WARNED, RC_NR_COUNTERS, 0);
		v = RC_VERDICT_WARNED;
	} else {
		rc_count(bdev, gfp, RC_BIOS_REFUSED, rc_op_counter(op), bytes);
		v = RC_VERDICT_REFUSED;
	}
	if (clone)
		trace_rocheck_rq(target->bd_dev, sector, bytes, op, v);
	else
		trace_rocheck_bio(target->bd_dev, sector, bytes, op, v);
	pr_warn_ratelimited("%pg: %s%s%s of %u bytes at sector %llu of %pg to read-only device by %s[%d]%s\n",
			    bdev, p == RC_DENY ? "refused " : "",
			    clone ? "cloned " : "", blk_op_str(op), bytes,
			    (unsigned long long)sector, target, current->comm,
			    task_pid_nr(current),
			    p == RC_WARN ? " passed (submit=warn)" : "");
	return p;
}

/* The verdict on @bio, a write that would change read-only @bdev. */
static blk_status_t rc_verdict(struct bio *bio, struct block_device *bdev,
			       gfp_t gfp)
{
	if (rc_io_verdict(bdev, bio->bi_bdev, bio_op(bio),
			  bio->bi_iter.bi_sector, bio->bi_iter.bi_size, false,
			  gfp) == RC_DENY)
		return BLK_STS_IOERR;
	return BLK_STS_OK;
}

/*
 * A read-only partition of @disk that sectors [@start, @end) touch, or
 * NULL.  Under rcu_read_lock(): partitions are freed after a grace period.
 * Every write to a whole disk with partitions asks, so the walk is the
 * xarray's advanced API in the caller's RCU section: xa_for_each() would
 * take an RCU section of its own in xa_find() for each step.
 */
static __always_inline struct block_device *
rc_ro_part_in_range(struct gendisk *disk, sector_t start, sector_t end)
{
	XA_STATE(xas, &disk->part_tbl, 1);
	struct block_device *part;

	xas_for_each(&xas, part, ULONG_MAX) {
		if (xas_retry(&xas, part))
			continue;
		if (bdev_read_only(part) && start < bdev_nr_sectors(part) +
		    part->bd_start_sect && end > part->bd_start_sect)
			return part;
	}
	return NULL;
}

/*
 * Whether @disk has partitions.  part0 is index 0 of part_tbl, and the
 * xarray keeps a lone index-0 entry in its head pointer, not in a node
 * (the test mapping_shrinkable() makes of a page cache): a head that is
 * not a node means nothing to walk.  It only reads the pointer, so it
 * needs no RCU section; a partition added meanwhile races with the walk
 * alike.  Every write asks, and most disks written have no partitions
 * (docs/rocheck.md has the cost with and without the test).
 */
static bool rc_disk_has_parts(struct gendisk *disk)
{
	return xa_is_node(rcu_access_pointer(disk->part_tbl.xa_head));
}

/*
 * A write to a read-only device, or to a whole disk with partitions: out
 * of line, so the common case (a writable disk) pays for no stack frame.
 */
static noinline blk_status_t rc_submit_slow(struct bio *bio)
{
	struct block_device *bdev = bio->bi_bdev, *part;
	blk_status_t ret = BLK_STS_OK;

	if (rc_read_only(bdev))
		return rc_verdict(bio, bdev, (bio->bi_opf & REQ_NOWAIT) ?
					     GFP_NOWAIT : GFP_NOIO);
	/* Addressed to the whole disk: a dm or md table on it, a plain write. */
	rcu_read_lock();
	part = rc_ro_part_in_range(bdev->bd_disk, bio->bi_iter.bi_sector,
				   bio_end_sector(bio));
	if (part)
		ret = rc_verdict(bio, part, GFP_NOWAIT);
	rcu_read_unlock();
	return ret;
}

static blk_status_t rc_submit(struct bio *bio)
{
	struct block_device *bdev = bio->bi_bdev;

	/* Every op that changes data or zone state has the write bit. */
	if (!op_is_write(bio_op(bio)))
		return BLK_STS_OK;
	/* An empty flush changes nothing on the medium. */
	if (op_is_flush(bio->bi_opf) && !bio_sectors(bio))
		return BLK_STS_OK;
	if (!rc_read_only(bdev) &&
	    (bdev_is_partition(bdev) || !bio_sectors(bio) ||
	     !rc_disk_has_parts(bdev->bd_disk)))
		return BLK_STS_OK;
	return rc_submit_slow(bio);
}

/*
 * The read-only device among @disk and its partitions that sectors
 * [@start, @end) touch, or NULL.  Under rcu_read_lock().
 */
static struct block_device *rc_ro_in_range(struct gendisk *disk,
					   sector_t start, sector_t end)
{
	if (rc_read_only(disk->part0))
		return disk->part0;
	if (!rc_disk_has_parts(disk))
		return NULL;
	return rc_ro_part_in_range(disk, start, end);
}

/* Whether @disk or any partition of it is read-only to rocheck. */
bool rc_disk_any_ro(struct gendisk *disk)
{
	bool ro;

	rcu_read_lock();
	ro = rc_ro_in_range(disk, 0, (sector_t)-1);
	rcu_read_unlock();
	return ro;
}

enum rc_proto {
	RC_PROTO_OTHER,
	RC_PROTO_SCSI,
	RC_PROTO_MMC,
	RC_PROTO_NVME,
	RC_PROTO_VIRTIO,
};

/*
 * Whose commands a passthrough request to @disk carries.  A SCSI disk's
 * parent is its scsi_device, whose queue carries scsi_cmnds
 * (scsi_device_from_queue() is not exported); an MMC device's CDBs read
 * differently.  An NVMe namespace's parent is its controller, of class
 * "nvme"; every NVMe transport's request starts with struct nvme_request
 * (nvme_req() in the driver's private nvme.h), which starts with the
 * command's address.  virtio-blk has no passthrough from user space: its
 * driver commands are the kernel's own, and those that read (REQ_OP_DRV_IN)
 * are its reports (the serial number, zone reports).
 */
static enum rc_proto rc_rq_proto(struct request *rq, struct gendisk *disk)
{
	struct device *parent = disk_to_dev(disk)->parent;
	struct scsi_device *sdev;

	if (!parent)
		return RC_PROTO_OTHER;
	if (scsi_is_sdev_device(parent)) {
		sdev = to_scsi_device(parent);
		if (sdev->request_queue != rq->q)
			return RC_PROTO_OTHER;
		return sdev->type == TYPE_ROM || sdev->type == TYPE_WORM ?
		       RC_PROTO_MMC : RC_PROTO_SCSI;
	}
	if (parent->class && !strcmp(parent->class->name, "nvme"))
		return RC_PROTO_NVME;
	if (parent->bus && !strcmp(parent->bus->name, "virtio"))
		return RC_PROTO_VIRTIO;
	return RC_PROTO_OTHER;
}

/*
 * The sectors of @disk a command of effect @e, on blocks [@lba, +@blocks),
 * may change, in [*start, *end); false if none.  A range that does not fit
 * the disk may change any of it.
 */
static bool rc_effect_range(struct gendisk *disk, enum rc_cmd_effect e,
			    u64 lba, u32 blocks, sector_t *start,
			    sector_t *end)
{
	unsigned int shift;

	*start = 0;
	*end = get_capacity(disk);
	if (e != RC_CMD_RANGE)
		return e == RC_CMD_UNBOUNDED;
	/*
	 * Past the capacity the kernel knows, the device may still take it:
	 * a disk left at capacity 0 (a format the driver cannot use), or
	 * resized and not yet revalidated.
	 */
	shift = ilog2(queue_logical_block_size(disk->queue)) - SECTOR_SHIFT;
	if (lba >= *end >> shift || blocks > (*end >> shift) - lba)
		return true;
	*start = lba << shift;
	*end = (lba + blocks) << shift;
	return true;
}

/*
 * The sectors of @disk a passthrough command may change, in [*start,
 * *end), or false if it changes nothing; *op is its opcode.  SCSI and NVMe
 * commands are decoded by allowlist, virtio-blk's by direction; another
 * driver's commands, in or out, are not understood, so each may change
 * anything (an MMC card's erase goes as a command without data).
 */
static bool rc_rq_writes(struct request *rq, struct gendisk *disk,
			 enum rc_proto proto, u8 *op, sector_t *start,
			 sector_t *end)
{
	struct nvme_command *ncmd;
	struct scsi_cmnd *scmd;
	enum rc_cmd_effect e;
	u32 blocks = 0;
	u64 lba = 0;

	*op = 0;
	switch (proto) {
	case RC_PROTO_SCSI:
	case RC_PROTO_MMC:
		scmd = blk_mq_rq_to_pdu(rq);
		*op = scmd->cmnd[0];
		e = rc_cdb_effect(scmd->cmnd, scmd->cmd_len,
				  proto == RC_PROTO_MMC, &lba, &blocks);
		break;
	case RC_PROTO_NVME:
		ncmd = *(struct nvme_command **)blk_mq_rq_to_pdu(rq);
		*op = ncmd->common.opcode;
		e = rc_nvme_effect(ncmd, &lba, &blocks);
		break;
	case RC_PROTO_VIRTIO:
		e = req_op(rq) == REQ_OP_DRV_IN ? RC_CMD_NONE :
						  RC_CMD_UNBOUNDED;
		break;
	default:
		e = RC_CMD_UNBOUNDED;
		break;
	}
	return rc_effect_range(disk, e, lba, blocks, start, end);
}

/* Count, trace and log a command that would change @bdev. */
static enum rc_policy rc_cmd_verdict(struct block_device *bdev, u8 op,
				     sector_t start, sector_t end)
{
	enum rc_policy p = rc_policy_for(bdev, READ_ONCE(rc_submit_policy));

	if (p == RC_WARN) {
		rc_count(bdev, GFP_NOWAIT, RC_CMDS_WARNED, RC_NR_COUNTERS, 0);
		trace_rocheck_cmd(bdev, op, start, end, RC_VERDICT_WARNED);
		pr_warn_ratelimited("%pg: passthrough command 0x%02x that may change sectors %llu-%llu of read-only device by %s[%d] passed (submit=warn)\n",
				    bdev, op, (unsigned long long)start,
				    (unsigned long long)end - 1, current->comm,
				    task_pid_nr(current));
	} else if (p == RC_DENY) {
		rc_count(bdev, GFP_NOWAIT, RC_CMDS_REFUSED, RC_NR_COUNTERS, 0);
		trace_rocheck_cmd(bdev, op, start, end, RC_VERDICT_REFUSED);
		pr_warn_ratelimited("%pg: refused passthrough command 0x%02x that may change sectors %llu-%llu of read-only device by %s[%d]\n",
				    bdev, op, (unsigned long long)start,
				    (unsigned long long)end - 1, current->comm,
				    task_pid_nr(current));
	}
	return p;
}

/*
 * A request-based dm (multipath) clone: made of bios that passed the
 * submit hook at the dm device, not at this disk.  Judged as a bio is.
 * Refused with BLK_STS_TARGET, not an I/O error: dm-multipath takes an
 * I/O error for a path failure, fails the path and retries on the others,
 * and with none left reads would fail too (blk_path_error()).
 */
static blk_status_t rc_clone(struct request *rq, struct gendisk *disk)
{
	enum req_op op = req_op(rq);
	struct block_device *bdev;

	if (!op_is_write(op) || (op_is_flush(rq->cmd_flags) &&
				 !blk_rq_sectors(rq)))
		return BLK_STS_OK;
	bdev = rc_ro_in_range(disk, blk_rq_pos(rq),
			      blk_rq_pos(rq) + blk_rq_sectors(rq));
	if (bdev && rc_io_verdict(bdev, disk->part0, op, blk_rq_pos(rq),
				  blk_rq_bytes(rq), true,
				  GFP_NOWAIT) == RC_DENY)
		return BLK_STS_TARGET;
	return BLK_STS_OK;
}

static blk_status_t rc_passthrough(struct request *rq)
{
	blk_status_t ret = BLK_STS_OK;
	enum rc_policy p = RC_OFF;
	struct block_device *bdev;
	struct scsi_cmnd *scmd;
	struct gendisk *disk;
	enum rc_proto proto;
	sector_t start, end;
	u8 op;

	/*
	 * disk_release() clears q->disk; the gendisk itself is freed after
	 * an RCU grace period (bdev_free_inode()).  Read it once, inside.
	 */
	rcu_read_lock();
	disk = READ_ONCE(rq->q->disk);
	if (!disk)
		goto out;
	if (!blk_rq_is_passthrough(rq)) {
		ret = rc_clone(rq, disk);
		goto out;
	}
	proto = rc_rq_proto(rq, disk);
	if (!rc_rq_writes(rq, disk, proto, &op, &start, &end))
		goto out;
	bdev = rc_ro_in_range(disk, start, end);
	if (bdev)
		p = rc_cmd_verdict(bdev, op, start, end);
	if (p != RC_DENY)
		goto out;
	ret = BLK_STS_IOERR;
	if (proto == RC_PROTO_SCSI || proto == RC_PROTO_MMC) {
		/*
		 * What a write-protected disk answers: DATA PROTECT, 27h/00h.
		 * The buffer is cleared only when a command is dispatched.
		 */
		scmd = blk_mq_rq_to_pdu(rq);
		memset(scmd->sense_buffer, 0, SCSI_SENSE_BUFFERSIZE);
		scsi_build_sense(scmd, 0, DATA_PROTECT, 0x27, 0x00);
		scmd->sense_len = min(8 + scmd->sense_buffer[7],
				      SCSI_SENSE_BUFFERSIZE);
	}
out:
	rcu_read_unlock();
	return ret;
}

/*
 * An NVMe command the passthrough hook cannot judge: an admin command,
 * asked about once for each namespace it can reach, or a user's I/O
 * command to a multipath head.  @disk is the namespace's disk as the user
 * sees it (a multipath head, whose path disks' queues the request goes
 * to), so its partitions and read-only state are the ones set.  The
 * set-up of a controller's host side (its queues, unsaved host-interface
 * features) passes only from the driver itself: from a user, a queue it
 * creates could carry commands no hook sees.
 */
static int rc_nvme_cmd(struct gendisk *disk, u32 nsid,
		       const struct nvme_command *cmd, unsigned int flags)
{
	struct block_device *bdev;
	enum rc_policy p = RC_OFF;
	enum rc_cmd_effect e;
	sector_t start, end;
	u32 blocks = 0;
	u64 lba = 0;

	if (flags & BLK_HOOK_NVME_ADMIN)
		e = rc_nvme_admin_changes_nothing(cmd,
						  flags & BLK_HOOK_NVME_KERNEL) ?
		    RC_CMD_NONE : RC_CMD_UNBOUNDED;
	else
		e = rc_nvme_effect(cmd, &lba, &blocks);
	if (!rc_effect_range(disk, e, lba, blocks, &start, &end))
		return 0;
	rcu_read_lock();
	bdev = rc_ro_in_range(disk, start, end);
	if (bdev)
		p = rc_policy_for(bdev, READ_ONCE(rc_submit_policy));
	/* A user's command asked about again was counted when it passed. */
	if (bdev && (!(flags & BLK_HOOK_NVME_AGAIN) || p == RC_DENY))
		p = rc_cmd_verdict(bdev, cmd->common.opcode, start, end);
	rcu_read_unlock();
	return p == RC_DENY ? -EACCES : 0;
}

static struct blk_hook_ops rc_hook_ops = {
	.open = rc_open,
	.submit = rc_submit,
	.passthrough = rc_passthrough,
	.nvme_cmd = rc_nvme_cmd,
	.set_ro = rc_arm_set_ro,
};

/* ---- debugfs ---- */

static int rc_devices_show(struct seq_file *m, void *v)
{
	struct rc_dev_stats *st;
	unsigned long idx;
	int i;

	xa_for_each(&rc_stats, idx, st) {
		seq_printf(m, "%s %u:%u", st->name, MAJOR(st->dev),
			   MINOR(st->dev));
		for (i = 0; i < RC_NR_COUNTERS; i++)
			seq_printf(m, " %s=%lld", rc_counter_names[i],
				   atomic64_read(&st->count[i]));
		seq_putc(m, '\n');
	}
	if (atomic64_read(&rc_stats_lost))
		seq_printf(m, "# events not counted (no memory): %lld\n",
			   atomic64_read(&rc_stats_lost));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rc_devices);
DEFINE_SHOW_ATTRIBUTE(rc_locks);
DEFINE_SHOW_ATTRIBUTE(rc_arm_state);

/* ---- module ---- */

static int __init rc_init(void)
{
	int ret;

	/* Default exemption unless open_exempt= was given at load time. */
	if (!rcu_access_pointer(rc_exempt)) {
		ret = rc_exempt_set("kernel", NULL);
		if (ret)
			return ret;
	}
	rc_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("devices", 0400, rc_debugfs, NULL,
			    &rc_devices_fops);
	debugfs_create_file("locks", 0400, rc_debugfs, NULL, &rc_locks_fops);
	debugfs_create_file("submit", 0400, rc_debugfs, NULL, &rc_arm_state_fops);
	rc_lock_init();
	ret = blk_hooks_register(&rc_hook_ops);
	if (ret) {
		debugfs_remove_recursive(rc_debugfs);
		rc_lock_exit();
		kfree(rcu_access_pointer(rc_exempt));
		return ret;
	}
	rc_arm_init(&rc_hook_ops);
	pr_info("loaded: open=%s submit=%s new_devices=%s\n",
		rc_policy_names[rc_open_policy],
		rc_policy_names[rc_submit_policy],
		rc_lock_policy());
	return 0;
}

static void __exit rc_exit(void)
{
	struct rc_dev_policies *devs;
	struct rc_dev_stats *st;
	struct rc_exempt *ex;
	unsigned long idx;

	rc_arm_exit();
	blk_hooks_unregister(&rc_hook_ops);
	debugfs_remove_recursive(rc_debugfs);
	rc_lock_exit();
	xa_for_each(&rc_stats, idx, st)
		kfree(st);
	xa_destroy(&rc_stats);
	mutex_lock(&rc_param_lock);
	rc_param_closed = true;
	ex = rcu_replace_pointer(rc_exempt, NULL,
				 lockdep_is_held(&rc_param_lock));
	devs = rcu_replace_pointer(rc_devs, NULL,
				   lockdep_is_held(&rc_param_lock));
	mutex_unlock(&rc_param_lock);
	/* Parameter readers (sysfs show) may still hold the old settings. */
	synchronize_rcu();
	kfree(ex);
	kfree(devs);
	rcu_barrier();
	pr_info("unloaded\n");
}

module_init(rc_init);
module_exit(rc_exit);
MODULE_DESCRIPTION("Enforce the read-only flag of block devices at open and at bio submission");
MODULE_LICENSE("GPL");
MODULE_VERSION(BLKPOLICY_VERSION);
