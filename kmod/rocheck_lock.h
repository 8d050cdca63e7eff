/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocheck's lock of new devices (rocheck_lock.c): whether a disk is
 * read-only to rocheck beside its own read-only flag.
 */
#ifndef ROCHECK_LOCK_H
#define ROCHECK_LOCK_H

#include <linux/blkdev.h>
#include <linux/jump_label.h>

struct seq_file;

/* On while new_devices=ro or a disk is kept locked. */
DECLARE_STATIC_KEY_FALSE(rc_lock_key);
bool __rc_disk_locked(struct gendisk *disk);

/* Nothing at all while nothing can be locked. */
static inline bool rc_disk_locked(struct gendisk *disk)
{
	return static_branch_unlikely(&rc_lock_key) && __rc_disk_locked(disk);
}

bool rc_parse_majmin(const char *s, dev_t *dev);
void rc_lock_open(struct gendisk *disk);
const char *rc_lock_policy(void);
void rc_lock_init(void);
int rc_locks_show(struct seq_file *m, void *v);
void rc_lock_exit(void);

#endif
