// SPDX-License-Identifier: GPL-2.0
/*
 * rocheck's submit hook is armed only while something is read-only.
 *
 * Nearly every bio a machine submits is a read, or a write to a writable
 * disk, about which rocheck has nothing to say.  While no disk or
 * partition is read-only and no disk is locked, the hook is disarmed and
 * bio submission pays a load and a branch for it.
 *
 * Arming is the fast side and comes first:
 * - every read-only flag changes in blk_hooks_set_read_only(), which calls
 *   rc_arm_set_ro() before the flag is set, so a write submitted after
 *   the flag can be seen meets the hook;
 * - a disk its driver made read-only before adding it is announced again
 *   once it is in the block class, before it can be opened or sent a bio
 *   (blk_hooks_disk_added());
 * - new_devices=ro, or a lock kept, arms it for as long as it lasts.
 *
 * Disarming is the slow side: when a flag turns writable or the locks go,
 * a work looks at every disk and partition and disarms only if none is
 * read-only, nothing asked to arm since it began (rc_arm_gen) and no flag
 * began to change during the look (blk_hooks_ro_retry()), all checked
 * under rc_arm_lock, which every arming takes.  A disk not yet in the
 * block class when the look walks is announced after it joins, which
 * either shows in the look's checks or arms after it.  A read-only disk
 * that is removed leaves the hook armed until the next look.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-hooks.h>
#include <linux/blkdev.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "rocheck_arm.h"

static DEFINE_SPINLOCK(rc_arm_lock);
/* Set once the hooks are registered, cleared before they are removed. */
static struct blk_hook_ops *rc_arm_ops;
/* As blk_hooks_register() leaves a submit callback. */
static bool rc_armed = true;
/* new_devices=ro, or a lock kept. */
static bool rc_arm_locks;
/* Raised by every request to arm. */
static unsigned long rc_arm_gen;
static unsigned long rc_arm_nr_armed, rc_arm_nr_disarmed, rc_arm_nr_looks;

static void rc_arm_look(struct work_struct *work);
static DECLARE_WORK(rc_arm_work, rc_arm_look);

/* Under rc_arm_lock. */
static void rc_arm_now(void)
{
	rc_arm_gen++;
	if (rc_armed)
		return;
	rc_armed = true;
	rc_arm_nr_armed++;
	blk_hooks_submit_arm(rc_arm_ops, true);
}

/* Under rc_arm_lock.  Not once rc_arm_exit() has begun. */
static void rc_arm_look_later(void)
{
	if (rc_arm_ops)
		queue_work(system_unbound_wq, &rc_arm_work);
}

/* The set_ro hook, inside the seqlock's write section of a change. */
void rc_arm_set_ro(struct gendisk *disk, struct block_device *bdev,
		   bool read_only)
{
	unsigned long flags;

	spin_lock_irqsave(&rc_arm_lock, flags);
	if (read_only)
		rc_arm_now();
	else
		rc_arm_look_later();
	spin_unlock_irqrestore(&rc_arm_lock, flags);
}

/* From rocheck_lock.c whenever the locks start or stop mattering. */
void rc_arm_for_locks(bool on)
{
	unsigned long flags;

	spin_lock_irqsave(&rc_arm_lock, flags);
	rc_arm_locks = on;
	if (on)
		rc_arm_now();
	else
		rc_arm_look_later();
	spin_unlock_irqrestore(&rc_arm_lock, flags);
}

static int rc_disk_read_only(struct gendisk *disk, void *data)
{
	return rc_disk_any_ro(disk);
}

static void rc_arm_look(struct work_struct *work)
{
	unsigned long gen;
	unsigned int seq;
	int ro;

	spin_lock_irq(&rc_arm_lock);
	gen = rc_arm_gen;
	spin_unlock_irq(&rc_arm_lock);
	seq = blk_hooks_ro_begin();
	ro = blk_hooks_walk_disks(rc_disk_read_only, NULL);
	spin_lock_irq(&rc_arm_lock);
	rc_arm_nr_looks++;
	if (!ro && rc_armed && rc_arm_ops && !rc_arm_locks &&
	    gen == rc_arm_gen && !blk_hooks_ro_retry(seq)) {
		rc_armed = false;
		rc_arm_nr_disarmed++;
		blk_hooks_submit_arm(rc_arm_ops, false);
	}
	spin_unlock_irq(&rc_arm_lock);
}

/* Once @ops is registered (armed): disarm if nothing is read-only. */
void rc_arm_init(struct blk_hook_ops *ops)
{
	spin_lock_irq(&rc_arm_lock);
	rc_arm_ops = ops;
	spin_unlock_irq(&rc_arm_lock);
	rc_arm_look(NULL);
}

/* Before the hooks are removed: armed to the end. */
void rc_arm_exit(void)
{
	spin_lock_irq(&rc_arm_lock);
	rc_arm_now();
	rc_arm_ops = NULL;
	spin_unlock_irq(&rc_arm_lock);
	cancel_work_sync(&rc_arm_work);
}

int rc_arm_state_show(struct seq_file *m, void *v)
{
	spin_lock_irq(&rc_arm_lock);
	seq_printf(m, "armed %d\nlocks %d\narmed_count %lu\ndisarmed_count %lu\nlooks %lu\n",
		   rc_armed, rc_arm_locks, rc_arm_nr_armed,
		   rc_arm_nr_disarmed, rc_arm_nr_looks);
	spin_unlock_irq(&rc_arm_lock);
	return 0;
}
