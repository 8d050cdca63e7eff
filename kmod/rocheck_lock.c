// SPDX-License-Identifier: GPL-2.0
/*
 * rocheck's lock of new devices: with new_devices=ro, every disk that
 * appears afterwards is read-only to rocheck from the moment it is
 * registered, until the unlock parameter names it.
 *
 * "Appears" is the disk's sequence number (diskseq), which the block layer
 * gives every disk it allocates and raises again when a disk's medium is
 * replaced: a hotplugged or rescanned disk, a new dm, md or loop device,
 * a loop device attached again, a new medium in a card reader or CD
 * drive, a removable disk's media change event.  The disks registered
 * when the setting is made are noted by diskseq and keep their state.
 * The check needs no event: every way rocheck judges a write asks
 * rc_disk_locked() beside the read-only flag, so there is no moment
 * between a disk's registration (before its node exists) and its lock,
 * and nothing (udev, a rescan that re-reads the write-protect bit,
 * BLKROSET) undoes it but rocheck's unlock.  At each open of a locked
 * disk that is not read-only, rocheck sets the whole disk's read-only
 * policy flag (what BLKROSET sets, which no driver touches), so tools see
 * it (blockdev --getro, mount); for a disk with partitions the first open
 * is the kernel's own partition scan, before user space hears of it.
 *
 * Partitions are locked with their disk.  A hidden disk (an NVMe
 * multipath path) is not locked: its head is, and the head's bios and
 * commands are judged at the head.  Not judged: a passthrough command to
 * a device whose disk is not registered (a SCSI device before sd has
 * registered its disk, or while sd is unbound: /dev/sgN exists first), and
 * the first connection of an nbd device present before the setting (nbd
 * raises diskseq only when it disconnects).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-hooks.h>
#include <linux/blkdev.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/xarray.h>

#include "rocheck_arm.h"
#include "rocheck_lock.h"

/* What rocheck keeps for a disk, by diskseq: xa_mk_value() of these. */
#define RC_LOCK_PRESENT		BIT(0)	/* registered when ro was set */
#define RC_LOCK_UNLOCKED	BIT(1)	/* unlocked by the unlock parameter */
#define RC_LOCK_KEPT		BIT(2)	/* locked, and new_devices went rw */
#define RC_LOCK_SET_RO		BIT(3)	/* rocheck set its read-only flag */

enum { RC_NEW_RW, RC_NEW_RO };

static const char * const rc_new_names[] = {
	[RC_NEW_RW] = "rw",
	[RC_NEW_RO] = "ro",
};

static int rc_new_policy = RC_NEW_RW;
/* Disks with RC_LOCK_KEPT. */
static unsigned long rc_lock_nr_kept;
DEFINE_STATIC_KEY_FALSE(rc_lock_key);
/* new_devices=ro, or a disk kept locked: rc_disk_locked() must look. */
static bool rc_lock_active;
/* Module init done: the key may be switched (not while loading). */
static bool rc_lock_live;
static DEFINE_XARRAY(rc_lock_disks);
/* Serializes the writers of the state above; exit closes them. */
static DEFINE_MUTEX(rc_lock_mutex);
static bool rc_lock_closed;

/* Under rc_lock_mutex.  A key left on while nothing is locked only costs. */
static void rc_lock_want(bool on)
{
	rc_lock_active = on;
	rc_arm_for_locks(on);
	if (!rc_lock_live)
		return;
	if (on)
		static_branch_enable(&rc_lock_key);
	else
		static_branch_disable(&rc_lock_key);
}

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
		WRITE_ONCE(rc_lock_nr_kept, rc_lock_nr_kept +
			   ((flags & RC_LOCK_KEPT) ? 1 : -1));
	return ret;
}

bool __rc_disk_locked(struct gendisk *disk)
{
	unsigned long flags;

	if (disk->flags & GENHD_FL_HIDDEN)
		return false;
	/* Pairs with the releases in rc_new_set(): the flags are noted. */
	if (smp_load_acquire(&rc_new_policy) == RC_NEW_RO) {
		flags = rc_lock_flags(disk->diskseq);
		if (flags & RC_LOCK_KEPT)
			return true;
		/*
		 * Registered before its node exists; until then only its
		 * driver talks to it, with set-up commands rocheck could not
		 * tell from another driver's (the disk has no parent yet).
		 */
		return !(flags & (RC_LOCK_PRESENT | RC_LOCK_UNLOCKED)) &&
		       device_is_registered(disk_to_dev(disk));
	}
	return READ_ONCE(rc_lock_nr_kept) &&
	       (rc_lock_flags(disk->diskseq) & RC_LOCK_KEPT);
}

/* From the open hook, under the disk's open_mutex. */
void rc_lock_open(struct gendisk *disk)
{
	unsigned long flags;
	bool set = false;

	if (!rc_disk_locked(disk) || get_disk_ro(disk))
		return;
	/* Again under the mutex: an unlock may have come in between. */
	mutex_lock(&rc_lock_mutex);
	if (rc_disk_locked(disk) && !get_disk_ro(disk)) {
		blk_hooks_set_read_only(disk, disk->part0, true);
		flags = rc_lock_flags(disk->diskseq);
		if (rc_lock_set_flags(disk->diskseq, flags | RC_LOCK_SET_RO))
			pr_warn_ratelimited("%s: no memory to note its read-only flag: unlock will leave it set\n",
					    disk->disk_name);
		set = true;
	}
	mutex_unlock(&rc_lock_mutex);
	if (set)
		pr_info("%s: new device (diskseq %llu), read-only (new_devices=ro)\n",
			disk->disk_name, disk->diskseq);
}

/* ---- walks of the disks present, under rc_lock_mutex ---- */

static int rc_note_present(struct gendisk *disk, void *data)
{
	unsigned long flags = rc_lock_flags(disk->diskseq);

	return rc_lock_set_flags(disk->diskseq, flags | RC_LOCK_PRESENT);
}

static int rc_keep_lock(struct gendisk *disk, void *data)
{
	unsigned long flags = rc_lock_flags(disk->diskseq);

	if (!rc_disk_locked(disk))
		return 0;
	return rc_lock_set_flags(disk->diskseq, flags | RC_LOCK_KEPT);
}

static int rc_note_seen(struct gendisk *disk, void *data)
{
	return xa_err(xa_store(data, (unsigned long)disk->diskseq,
			       xa_mk_value(1), GFP_KERNEL));
}

/*
 * Forget the disks that are gone (a diskseq is never given again), and
 * with @present_too the notes of new_devices=ro's start.
 */
static void rc_lock_prune(bool present_too)
{
	struct xarray seen;
	unsigned long idx, flags;
	void *v;

	xa_init(&seen);
	if (blk_hooks_walk_disks(rc_note_seen, &seen))
		goto out;	/* no memory: keep everything */
	xa_for_each(&rc_lock_disks, idx, v) {
		flags = xa_to_value(v);
		if (!xa_load(&seen, idx))
			flags = 0;
		else if (present_too)
			flags &= ~RC_LOCK_PRESENT;
		rc_lock_set_flags(idx, flags);
	}
out:
	xa_destroy(&seen);
	rc_lock_want(rc_new_policy == RC_NEW_RO || rc_lock_nr_kept);
}

static int rc_new_set(const char *val, const struct kernel_param *kp)
{
	int new = sysfs_match_string(rc_new_names, val), ret = 0;

	if (new < 0) {
		pr_err("new_devices: invalid value, accepted: rw, ro\n");
		return -EINVAL;
	}
	mutex_lock(&rc_lock_mutex);
	if (rc_lock_closed) {
		ret = -ENODEV;
	} else if (new == RC_NEW_RO && rc_new_policy != RC_NEW_RO) {
		rc_lock_prune(true);
		/* The disks present now are not new. */
		ret = blk_hooks_walk_disks(rc_note_present, NULL);
		if (ret) {
			rc_lock_prune(true);
			pr_err("new_devices: no memory to note the disks present; still rw\n");
		} else {
			rc_lock_want(true);
			/* Readers that see ro see the disks noted present. */
			smp_store_release(&rc_new_policy, RC_NEW_RO);
			pr_info("new_devices=ro: every disk that appears from now on is read-only until unlocked\n");
		}
	} else if (new == RC_NEW_RW && rc_new_policy != RC_NEW_RW) {
		/* The disks locked so far stay locked. */
		ret = blk_hooks_walk_disks(rc_keep_lock, NULL);
		if (ret) {
			pr_err("new_devices: no memory to keep the locks; still ro\n");
		} else {
			/* Readers that see rw see the locks kept. */
			smp_store_release(&rc_new_policy, RC_NEW_RW);
			rc_lock_prune(true);
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

/* MAJ:MIN, as dev_policy and unlock take a device; false if it is not. */
bool rc_parse_majmin(const char *s, dev_t *dev)
{
	unsigned int major, minor;
	char c;

	if (sscanf(s, "%u:%u%c", &major, &minor, &c) != 2 ||
	    major > MINORMASK >> 8 || minor > MINORMASK)
		return false;
	*dev = MKDEV(major, minor);
	return true;
}

struct rc_unlock_req {
	const char *name;
	dev_t dev;
};

static int rc_unlock_disk(struct gendisk *disk, void *data)
{
	struct rc_unlock_req *req = data;
	unsigned long flags;
	int ret;

	if (req->dev ? disk_devt(disk) != req->dev :
	    strcmp(disk->disk_name, req->name))
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
		blk_hooks_set_read_only(disk, disk->part0, false);
	pr_info("%s: unlocked (diskseq %llu) by %s[%d]%s\n", disk->disk_name,
		disk->diskseq, current->comm, task_pid_nr(current),
		get_disk_ro(disk) ? "; its read-only flag is not rocheck's and stays" : "");
	return 1;
}

static int rc_unlock_set(const char *val, const struct kernel_param *kp)
{
	struct rc_unlock_req req = { };
	char name[BDEVNAME_SIZE];
	int ret;

	if (strscpy(name, skip_spaces(val), sizeof(name)) < 0)
		goto bad;
	strim(name);
	if (!*name)
		goto bad;
	if (strchr(name, ':') && !rc_parse_majmin(name, &req.dev))
		goto bad;
	req.name = name;
	mutex_lock(&rc_lock_mutex);
	ret = rc_lock_closed ? -ENODEV :
	      blk_hooks_walk_disks(rc_unlock_disk, &req);
	if (ret == 1) {
		ret = 0;
		rc_lock_prune(false);
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
	bool locked = rc_disk_locked(disk);

	if (locked || (rc_lock_flags(disk->diskseq) & RC_LOCK_UNLOCKED))
		seq_printf(m, "%s %u:%u diskseq=%llu %s\n", disk->disk_name,
			   MAJOR(disk_devt(disk)), MINOR(disk_devt(disk)),
			   disk->diskseq, locked ? "locked" : "unlocked");
	return 0;
}

int rc_locks_show(struct seq_file *m, void *v)
{
	seq_printf(m, "# new_devices=%s\n",
		   rc_new_names[READ_ONCE(rc_new_policy)]);
	mutex_lock(&rc_lock_mutex);
	blk_hooks_walk_disks(rc_lock_show_disk, m);
	mutex_unlock(&rc_lock_mutex);
	return 0;
}

const char *rc_lock_policy(void)
{
	return rc_new_names[READ_ONCE(rc_new_policy)];
}

/* After the parameters given at load time: switch the key as they want. */
void rc_lock_init(void)
{
	mutex_lock(&rc_lock_mutex);
	rc_lock_live = true;
	rc_lock_want(rc_lock_active);
	mutex_unlock(&rc_lock_mutex);
}

static int rc_lock_clear_ro(struct gendisk *disk, void *data)
{
	if (rc_lock_flags(disk->diskseq) & RC_LOCK_SET_RO)
		blk_hooks_set_read_only(disk, disk->part0, false);
	return 0;
}

/*
 * On unload: no more parameter writes, and the read-only flags rocheck
 * set are cleared, as if it had never locked those disks.
 */
void rc_lock_exit(void)
{
	mutex_lock(&rc_lock_mutex);
	rc_lock_closed = true;
	rc_lock_want(false);
	blk_hooks_walk_disks(rc_lock_clear_ro, NULL);
	mutex_unlock(&rc_lock_mutex);
	xa_destroy(&rc_lock_disks);
}
