// SPDX-License-Identifier: GPL-2.0
/*
 * rocheck's lock of new devices: with new_devices=ro, every disk that
 * appears afterwards is read-only to rocheck from the moment it exists,
 * until the unlock parameter names it.
 *
 * "Appears" is the disk's sequence number (diskseq), which the block layer
 * raises for every disk it allocates and again when a disk's medium is
 * replaced: a hotplugged or rescanned disk, a new dm, md or loop device,
 * a loop device attached again, a new medium in a card reader or CD
 * drive.  Disks present when the setting is made (those whose diskseq is
 * at most the largest then) keep their state.  The check needs no event:
 * every way rocheck judges a write asks rc_disk_locked() beside the
 * read-only flag, so there is no moment between a disk's appearance and
 * its lock, and nothing (udev, a rescan that re-reads the write-protect
 * bit, BLKROSET) can undo it but rocheck's unlock.  At the disk's first
 * open, which for a disk with partitions is the kernel's own partition
 * scan before user space hears of it, rocheck also sets the disk's
 * read-only flag, so tools see it (blockdev --getro, mount).
 *
 * Partitions are locked with their disk.  Passthrough commands to a
 * device that has no disk yet (a SCSI device before sd binds it) are
 * not judged: there is no disk to be read-only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-hooks.h>
#include <linux/blkdev.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/xarray.h>

#include "rocheck_lock.h"

/* What rocheck keeps for a disk, by diskseq: xa_mk_value() of these. */
#define RC_LOCK_UNLOCKED	BIT(0)	/* unlocked by the unlock parameter */
#define RC_LOCK_KEPT		BIT(1)	/* locked, and new_devices went rw */
#define RC_LOCK_SET_RO		BIT(2)	/* rocheck set its read-only flag */

enum { RC_NEW_RW, RC_NEW_RO };

static const char * const rc_new_names[] = {
	[RC_NEW_RW] = "rw",
	[RC_NEW_RO] = "ro",
};

static int rc_new_policy = RC_NEW_RW;
/* While new_devices=ro: disks with a larger diskseq are new. */
static u64 rc_new_after;
/* Disks with RC_LOCK_KEPT. */
static unsigned long rc_lock_nr_kept;
/* new_devices=ro, or a disk kept locked: rc_disk_locked() must look. */
bool rc_lock_active;
static DEFINE_XARRAY(rc_lock_disks);
/* Serializes the parameters' writers; exit closes them. */
static DEFINE_MUTEX(rc_lock_mutex);
static bool rc_lock_closed;

/*
 * The xarray is indexed by unsigned long: a diskseq beyond 2^32 on a
 * 32-bit kernel (four billion disk allocations since boot) would alias.
 */
static unsigned long rc_lock_flags(u64 seq)
{
	void *v = xa_load(&rc_lock_disks, (unsigned long)seq);

	return v ? xa_to_value(v) : 0;
}

/* Under rc_lock_mutex. */
static int rc_lock_set_flags(u64 seq, unsigned long flags)
{
	unsigned long old = rc_lock_flags(seq);
	int ret = 0;

	if (flags)
		ret = xa_err(xa_store(&rc_lock_disks, (unsigned long)seq,
				      xa_mk_value(flags), GFP_KERNEL));
	else
		xa_erase(&rc_lock_disks, (unsigned long)seq);
	if (!ret && (old ^ flags) & RC_LOCK_KEPT)
		rc_lock_nr_kept += (flags & RC_LOCK_KEPT) ? 1 : -1;
	return ret;
}

/*
 * A new disk is locked once it is registered, which is before its node
 * exists: until then only its driver talks to it, setting it up with
 * commands rocheck could not yet tell from another driver's (the disk has
 * no parent device), and nothing can open it.
 */
bool __rc_disk_locked(struct gendisk *disk)
{
	/* Pairs with the release in rc_new_set(): rc_new_after is set. */
	if (smp_load_acquire(&rc_new_policy) == RC_NEW_RO &&
	    disk->diskseq > READ_ONCE(rc_new_after))
		return device_is_registered(disk_to_dev(disk)) &&
		       !(rc_lock_flags(disk->diskseq) & RC_LOCK_UNLOCKED);
	return READ_ONCE(rc_lock_nr_kept) &&
	       (rc_lock_flags(disk->diskseq) & RC_LOCK_KEPT);
}

/* From the open hook, under the disk's open_mutex. */
void rc_lock_open(struct gendisk *disk)
{
	unsigned long flags;

	if (!rc_disk_locked(disk) || get_disk_ro(disk))
		return;
	set_disk_ro(disk, true);
	mutex_lock(&rc_lock_mutex);
	flags = rc_lock_flags(disk->diskseq);
	if (rc_lock_set_flags(disk->diskseq, flags | RC_LOCK_SET_RO))
		pr_warn_ratelimited("%s: no memory to note its read-only flag: rmmod will leave it set\n",
				    disk->disk_name);
	mutex_unlock(&rc_lock_mutex);
	pr_info("%s: new device (diskseq %llu), read-only (new_devices=ro)\n",
		disk->disk_name, disk->diskseq);
}

static int rc_max_seq(struct gendisk *disk, void *data)
{
	u64 *max = data;

	*max = max(*max, disk->diskseq);
	return 0;
}

static int rc_keep_lock(struct gendisk *disk, void *data)
{
	unsigned long flags = rc_lock_flags(disk->diskseq);

	if (disk->diskseq <= rc_new_after || (flags & RC_LOCK_UNLOCKED))
		return 0;
	return rc_lock_set_flags(disk->diskseq, flags | RC_LOCK_KEPT);
}

static int rc_new_set(const char *val, const struct kernel_param *kp)
{
	int new = sysfs_match_string(rc_new_names, val), ret = 0;
	u64 max = 0;

	if (new < 0) {
		pr_err("new_devices: invalid value, accepted: rw, ro\n");
		return -EINVAL;
	}
	mutex_lock(&rc_lock_mutex);
	if (rc_lock_closed) {
		ret = -ENODEV;
	} else if (new == RC_NEW_RO && rc_new_policy != RC_NEW_RO) {
		/* The disks present now are not new. */
		blk_hooks_walk_disks(rc_max_seq, &max);
		WRITE_ONCE(rc_new_after, max);
		WRITE_ONCE(rc_lock_active, true);
		/* Readers that see ro see rc_new_after (__rc_disk_locked()). */
		smp_store_release(&rc_new_policy, RC_NEW_RO);
		pr_info("new_devices=ro: every disk that appears from now on (diskseq above %llu) is read-only until unlocked\n",
			max);
	} else if (new == RC_NEW_RW && rc_new_policy != RC_NEW_RW) {
		/* The disks locked so far stay locked. */
		ret = blk_hooks_walk_disks(rc_keep_lock, NULL);
		if (ret) {
			pr_err("new_devices: no memory to keep the locks; still ro\n");
		} else {
			WRITE_ONCE(rc_new_policy, RC_NEW_RW);
			WRITE_ONCE(rc_lock_active, rc_lock_nr_kept != 0);
			pr_info("new_devices=rw: disks that appear from now on are not locked; those locked stay so\n");
		}
	}
	mutex_unlock(&rc_lock_mutex);
	return ret;
}

static int rc_new_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", rc_new_names[READ_ONCE(rc_new_policy)]);
}

static const struct kernel_param_ops rc_new_ops = {
	.set = rc_new_set,
	.get = rc_new_get,
};

module_param_cb(new_devices, &rc_new_ops, NULL, 0600);
MODULE_PARM_DESC(new_devices,
		 "Disks that appear later (hotplug, rescan, new dm/md/loop devices, loop attach, new media): rw (default), ro (read-only from the moment they exist, until named in unlock)");

struct rc_unlock_req {
	const char *name;
	dev_t dev;
	struct gendisk *disk;
};

static int rc_find_disk(struct gendisk *disk, void *data)
{
	struct rc_unlock_req *req = data;

	if (req->dev ? disk_devt(disk) == req->dev :
	    !strcmp(disk->disk_name, req->name)) {
		req->disk = disk;
		return 1;
	}
	return 0;
}

static int rc_unlock_disk(struct gendisk *disk, void *data)
{
	struct rc_unlock_req *req = data;
	unsigned long flags;
	int ret;

	if (rc_find_disk(disk, req) != 1)
		return 0;
	if (!rc_disk_locked(disk))
		return -EALREADY;
	flags = rc_lock_flags(disk->diskseq);
	ret = rc_lock_set_flags(disk->diskseq,
				(flags & ~(RC_LOCK_KEPT | RC_LOCK_SET_RO)) |
				RC_LOCK_UNLOCKED);
	if (ret)
		return ret;
	if (flags & RC_LOCK_SET_RO)
		set_disk_ro(disk, false);
	pr_info("%s: unlocked (diskseq %llu) by %s[%d]%s\n", disk->disk_name,
		disk->diskseq, current->comm, task_pid_nr(current),
		get_disk_ro(disk) ? "; its read-only flag was not rocheck's and stays" : "");
	return 1;
}

static int rc_unlock_set(const char *val, const struct kernel_param *kp)
{
	struct rc_unlock_req req = { };
	char name[BDEVNAME_SIZE];
	unsigned int major, minor;
	int ret;
	char c;

	if (strscpy(name, skip_spaces(val), sizeof(name)) < 0)
		goto bad;
	strim(name);
	if (!*name)
		goto bad;
	if (strchr(name, ':')) {
		if (sscanf(name, "%u:%u%c", &major, &minor, &c) != 2 ||
		    major > MINORMASK >> 8 || minor > MINORMASK)
			goto bad;
		req.dev = MKDEV(major, minor);
	}
	req.name = name;
	mutex_lock(&rc_lock_mutex);
	ret = rc_lock_closed ? -ENODEV :
	      blk_hooks_walk_disks(rc_unlock_disk, &req);
	if (ret == 1 || ret == -ENODEV) {
		ret = ret == 1 ? 0 : ret;
	} else if (ret == -EALREADY) {
		pr_err("unlock: %s is not locked\n", name);
		ret = -EINVAL;
	} else if (!ret) {
		pr_err("unlock: no disk %s (a partition is unlocked with its disk)\n",
		       name);
		ret = -ENOENT;
	}
	mutex_unlock(&rc_lock_mutex);
	return ret;
bad:
	pr_err("unlock: invalid value, accepted: one disk, by name (sdb) or MAJ:MIN (8:16)\n");
	return -EINVAL;
}

static const struct kernel_param_ops rc_unlock_ops = {
	.set = rc_unlock_set,
};

module_param_cb(unlock, &rc_unlock_ops, NULL, 0200);
MODULE_PARM_DESC(unlock,
		 "Write a disk's name (sdb) or MAJ:MIN to make it writable again after new_devices=ro locked it; logged");

static int rc_lock_show_disk(struct gendisk *disk, void *data)
{
	struct seq_file *m = data;

	if (rc_disk_locked(disk) ||
	    (rc_lock_flags(disk->diskseq) & RC_LOCK_UNLOCKED))
		seq_printf(m, "%s %u:%u diskseq=%llu %s\n", disk->disk_name,
			   MAJOR(disk_devt(disk)), MINOR(disk_devt(disk)),
			   disk->diskseq,
			   rc_disk_locked(disk) ? "locked" : "unlocked");
	return 0;
}

int rc_locks_show(struct seq_file *m, void *v)
{
	seq_printf(m, "# new_devices=%s, new after diskseq %llu\n",
		   rc_new_names[READ_ONCE(rc_new_policy)],
		   READ_ONCE(rc_new_after));
	mutex_lock(&rc_lock_mutex);
	blk_hooks_walk_disks(rc_lock_show_disk, m);
	mutex_unlock(&rc_lock_mutex);
	return 0;
}

static int rc_lock_clear_ro(struct gendisk *disk, void *data)
{
	if (rc_lock_flags(disk->diskseq) & RC_LOCK_SET_RO)
		set_disk_ro(disk, false);
	return 0;
}

/*
 * On unload: no more parameter writes, and the read-only flags rocheck
 * set are cleared, as loading it never happened for those disks.
 */
void rc_lock_exit(void)
{
	mutex_lock(&rc_lock_mutex);
	rc_lock_closed = true;
	WRITE_ONCE(rc_lock_active, false);
	blk_hooks_walk_disks(rc_lock_clear_ro, NULL);
	mutex_unlock(&rc_lock_mutex);
	xa_destroy(&rc_lock_disks);
}
