/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocheck's submit hook, armed only while something is read-only
 * (rocheck_arm.c).
 */
#ifndef ROCHECK_ARM_H
#define ROCHECK_ARM_H

#include <linux/types.h>

struct blk_hook_ops;
struct block_device;
struct gendisk;
struct seq_file;

void rc_arm_set_ro(struct gendisk *disk, struct block_device *bdev,
		   bool read_only);
void rc_arm_for_locks(bool on);
void rc_arm_init(struct blk_hook_ops *ops);
void rc_arm_exit(void);
int rc_arm_state_show(struct seq_file *m, void *v);
/* In rocheck.c. */
bool rc_disk_any_ro(struct gendisk *disk);

#endif
