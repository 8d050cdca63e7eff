// SPDX-License-Identifier: GPL-2.0
/*
 * blkhooks_test: attach to every block layer hook and count the calls.
 *
 * The counts are in /sys/kernel/debug/blkhooks_test/counters.  The module
 * changes nothing; the platform selftests use it to show that each hook
 * fires where it should and stops firing once the module is gone.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/blk-hooks.h>
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/writeback.h>

#include "blkpolicy_param.h"

enum { HT_OPEN, HT_OPEN_WRITE, HT_SUBMIT, HT_SUBMIT_WRITE, HT_PASSTHROUGH,
	HT_PREP, HT_DIRTY, HT_THROTTLE, HT_MIGRATE, HT_SPLIT, HT_ANON_NEW,
	HT_ANON_FREE, HT_SET_RO, HT_SET_RO_ON, HT_SET_RO_ADDED, HT_NR };

static const char * const ht_names[HT_NR] = {
	[HT_OPEN] = "open",
	[HT_OPEN_WRITE] = "open_write",
	[HT_SUBMIT] = "submit",
	[HT_SUBMIT_WRITE] = "submit_write",
	[HT_PASSTHROUGH] = "passthrough",
	[HT_PREP] = "integrity_prep",
	[HT_DIRTY] = "folio_dirtied",
	[HT_THROTTLE] = "dirty_throttle",
	[HT_MIGRATE] = "folio_migrate",
	[HT_SPLIT] = "folio_split",
	[HT_ANON_NEW] = "anon_folio_new",
	[HT_ANON_FREE] = "anon_folio_free",
	[HT_SET_RO] = "set_ro",
	[HT_SET_RO_ON] = "set_ro_on",
	[HT_SET_RO_ADDED] = "set_ro_added",
};

static atomic_long_t ht_count[HT_NR];
static struct dentry *ht_dir;

static int ht_open(struct block_device *bdev, blk_mode_t mode, void *holder,
		   const struct blk_holder_ops *hops, struct file *bdev_file)
{
	atomic_long_inc(&ht_count[HT_OPEN]);
	if (mode & BLK_OPEN_WRITE)
		atomic_long_inc(&ht_count[HT_OPEN_WRITE]);
	return 0;
}

static blk_status_t ht_submit(struct bio *bio)
{
	atomic_long_inc(&ht_count[HT_SUBMIT]);
	if (op_is_write(bio_op(bio)))
		atomic_long_inc(&ht_count[HT_SUBMIT_WRITE]);
	return BLK_STS_OK;
}

static blk_status_t ht_passthrough(struct request *rq)
{
	atomic_long_inc(&ht_count[HT_PASSTHROUGH]);
	return BLK_STS_OK;
}

static bool ht_integrity_prep(struct bio **bio)
{
	/* Prove the contract: this hook may sleep. */
	might_sleep();
	atomic_long_inc(&ht_count[HT_PREP]);
	return true;
}

static void ht_folio_dirtied(struct folio *folio,
			     struct address_space *mapping)
{
	atomic_long_inc(&ht_count[HT_DIRTY]);
}

static int ht_dirty_throttle(struct address_space *mapping, unsigned int flags)
{
	/* Prove the contract: this hook may sleep unless BDP_ASYNC. */
	if (!(flags & BDP_ASYNC))
		might_sleep();
	atomic_long_inc(&ht_count[HT_THROTTLE]);
	return 0;
}

static void ht_folio_migrate(struct folio *dst, struct folio *src)
{
	atomic_long_inc(&ht_count[HT_MIGRATE]);
}

static void ht_folio_split(struct folio *folio, int old_order, int new_order)
{
	atomic_long_inc(&ht_count[HT_SPLIT]);
}

static void ht_anon_folio_new(struct folio *folio, struct vm_area_struct *vma)
{
	atomic_long_inc(&ht_count[HT_ANON_NEW]);
}

static void ht_anon_folio_free(struct folio *folio)
{
	atomic_long_inc(&ht_count[HT_ANON_FREE]);
}

/* A change is announced before it is made: read-only already means added. */
static void ht_set_ro(struct gendisk *disk, struct block_device *bdev,
		      bool read_only)
{
	atomic_long_inc(&ht_count[HT_SET_RO]);
	if (read_only)
		atomic_long_inc(&ht_count[get_disk_ro(disk) ? HT_SET_RO_ADDED :
					  HT_SET_RO_ON]);
}

static struct blk_hook_ops ht_ops = {
	.open = ht_open,
	.submit = ht_submit,
	.passthrough = ht_passthrough,
	.integrity_prep = ht_integrity_prep,
	.folio_dirtied = ht_folio_dirtied,
	.dirty_throttle = ht_dirty_throttle,
	.folio_migrate = ht_folio_migrate,
	.folio_split = ht_folio_split,
	.anon_folio_new = ht_anon_folio_new,
	.anon_folio_free = ht_anon_folio_free,
	.set_ro = ht_set_ro,
};

static DEFINE_MUTEX(ht_lock);
static bool ht_ready;
static bool ht_attached = true;

/* Caller holds ht_lock. */
static int ht_attach(bool on)
{
	int ret = 0;

	if (on && !ht_attached)
		ret = blk_hooks_register(&ht_ops);
	else if (!on && ht_attached)
		blk_hooks_unregister(&ht_ops);
	if (!ret)
		ht_attached = on;
	return ret;
}

static int ht_attached_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret;

	ret = bp_bool_parse(val, &on);
	if (ret) {
		pr_err("attached: invalid value, accepted: 0, 1, n, y\n");
		return ret;
	}
	mutex_lock(&ht_lock);
	if (ht_ready)
		ret = ht_attach(on);
	else
		ht_attached = on;
	mutex_unlock(&ht_lock);
	return ret;
}

static const struct kernel_param_ops ht_attached_ops = {
	.set = ht_attached_set,
	.get = param_get_bool,
};
module_param_cb(attached, &ht_attached_ops, &ht_attached, 0600);
MODULE_PARM_DESC(attached, "Hooks registered (1, default) or detached with counters kept (0)");

static int ht_counters_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < HT_NR; i++)
		seq_printf(m, "%s %ld\n", ht_names[i],
			   atomic_long_read(&ht_count[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ht_counters);

static int __init ht_init(void)
{
	int ret;

	ht_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("counters", 0400, ht_dir, NULL, &ht_counters_fops);
	mutex_lock(&ht_lock);
	ret = ht_attached ? blk_hooks_register(&ht_ops) : 0;
	ht_ready = !ret;
	mutex_unlock(&ht_lock);
	if (ret) {
		debugfs_remove_recursive(ht_dir);
		return ret;
	}
	pr_info("loaded, hooks %s\n", ht_attached ? "attached" : "detached");
	return 0;
}

static void __exit ht_exit(void)
{
	/*
	 * delete_module() runs exit before it removes the parameters from
	 * sysfs: a later write to "attached" must not register again.
	 */
	mutex_lock(&ht_lock);
	ht_attach(false);
	ht_ready = false;
	mutex_unlock(&ht_lock);
	debugfs_remove_recursive(ht_dir);
	pr_info("detached\n");
}

module_init(ht_init);
module_exit(ht_exit);
MODULE_DESCRIPTION("Count calls of the block layer policy hooks");
MODULE_LICENSE("GPL");
MODULE_VERSION(BLKPOLICY_VERSION);
