/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocheck's lock of new devices (rocheck_lock.c): whether a disk is
 * read-only to rocheck beside its own read-only flag.
 */
#ifndef ROCHECK_LOCK_H
#define ROCHECK_LOCK_H

#include <linux/blkdev.h>

struct seq_file;

extern bool rc_lock_active;
bool __rc_disk_locked(struct gendisk *disk);

/* One load and a branch while nothing is locked. */
static inline bool rc_disk_locked(struct gendisk *disk)
{
	return READ_ONCE(rc_lock_active) && __rc_disk_locked(disk);
}

void rc_lock_open(struct gendisk *disk);
int rc_locks_show(struct seq_file *m, void *v);
void rc_lock_exit(void);

#endif
