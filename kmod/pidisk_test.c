// SPDX-License-Identifier: GPL-2.0
/*
 * pidisk_test: a memory-backed blk-mq disk with T10 PI (type 1, CRC guard)
 * and queue limits set at load time, for intbounce's selftests.
 *
 * scsi_debug, the only PI-capable test device in 6.12, fixes max_segments
 * at 2048 in its host template, so "a bounce copy must not turn into more
 * segments than the queue allows" could not be tested on it.  This disk
 * takes max_segments, max_sectors_kb, the logical block size, the queue
 * depth and a per-request delay as parameters.  Like a DIX HBA it reads
 * the data of a write only when it executes the request (delay_ms after
 * the request was queued), checks each interval's guard tag against that
 * data, and fails the request with BLK_STS_PROTECTION on a mismatch.  A
 * request with more physical segments than max_segments is failed and
 * counted, as an HBA with a scatterlist that small would have to.
 *
 * Counters: /sys/kernel/debug/pidisk_test/stats.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/blk-integrity.h>
#include <linux/blk-mq.h>
#include <linux/crc-t10dif.h>
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/t10-pi.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "blkpolicy_param.h"

static unsigned int pd_size_mb = 64;
static struct bp_uint pd_size_mb_param = {
	.value = &pd_size_mb, .min = 1, .max = 1024,
};
module_param_cb(size_mb, &bp_uint_ops, &pd_size_mb_param, 0400);
MODULE_PARM_DESC(size_mb, "disk size in MiB, 1 to 1024 (default 64)");

static unsigned int pd_lbs = 512;
static int pd_lbs_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;

	if (!kstrtouint(val, 0, &n) && is_power_of_2(n) && n >= 512 &&
	    n <= 4096) {
		pd_lbs = n;
		return 0;
	}
	pr_err("%s: invalid value, accepted: 512, 1024, 2048, 4096\n",
	       kp->name);
	return -EINVAL;
}

static const struct kernel_param_ops pd_lbs_ops = {
	.set = pd_lbs_set,
	.get = param_get_uint,
};
module_param_cb(lbs, &pd_lbs_ops, &pd_lbs, 0400);
MODULE_PARM_DESC(lbs,
		 "logical block size and protection interval: 512 (default), 1024, 2048 or 4096");

static unsigned int pd_max_segments = 128;
static struct bp_uint pd_max_segments_param = {
	.value = &pd_max_segments, .min = 1, .max = 2048,
};
module_param_cb(max_segments, &bp_uint_ops, &pd_max_segments_param, 0400);
MODULE_PARM_DESC(max_segments,
		 "physical segments per request, 1 to 2048 (default 128)");

static unsigned int pd_max_sectors_kb = 1024;
static struct bp_uint pd_max_sectors_kb_param = {
	.value = &pd_max_sectors_kb, .min = 4, .max = 4096,
};
module_param_cb(max_sectors_kb, &bp_uint_ops, &pd_max_sectors_kb_param,
		0400);
MODULE_PARM_DESC(max_sectors_kb,
		 "largest request in KiB, 4 to 4096 (default 1024)");

static unsigned int pd_queue_depth = 1;
static struct bp_uint pd_queue_depth_param = {
	.value = &pd_queue_depth, .min = 1, .max = 64,
};
module_param_cb(queue_depth, &bp_uint_ops, &pd_queue_depth_param, 0400);
MODULE_PARM_DESC(queue_depth, "requests in flight, 1 to 64 (default 1)");

static unsigned int pd_delay_ms = 10;
static struct bp_uint pd_delay_ms_param = {
	.value = &pd_delay_ms, .max = 1000,
};
module_param_cb(delay_ms, &bp_uint_ops, &pd_delay_ms_param, 0400);
MODULE_PARM_DESC(delay_ms,
		 "time from queueing a request to reading its data, 0 to 1000 ms (default 10)");

enum { PD_READS, PD_WRITES, PD_GUARD_ERRORS, PD_SEGMENT_VIOLATIONS,
	PD_NR_COUNTERS };

static const char * const pd_counter_names[PD_NR_COUNTERS] = {
	[PD_READS] = "reads",
	[PD_WRITES] = "writes",
	[PD_GUARD_ERRORS] = "guard_errors",
	[PD_SEGMENT_VIOLATIONS] = "segment_violations",
};

static atomic_long_t pd_count[PD_NR_COUNTERS];
static atomic_t pd_max_segments_seen;

struct pd_cmd {
	struct delayed_work work;
};

static u8 *pd_data;
static struct t10_pi_tuple *pd_pi;	/* one per interval */
static unsigned int pd_shift;		/* ilog2(lbs) */
static struct workqueue_struct *pd_wq;
static struct blk_mq_tag_set pd_set;
static struct gendisk *pd_disk;
static struct dentry *pd_dir;
static int pd_major;

/* Physical segments as a scatterlist would hold them. */
static unsigned int pd_segments(struct request *rq)
{
	struct req_iterator iter;
	struct bio_vec bv;
	phys_addr_t end = 0;
	unsigned int n = 0;

	rq_for_each_bvec(bv, rq, iter) {
		if (!n || bvec_phys(&bv) != end)
			n++;
		end = bvec_phys(&bv) + bv.bv_len;
	}
	return max(n, (unsigned int)blk_rq_nr_phys_segments(rq));
}

static void pd_note_segments(unsigned int n)
{
	int old = atomic_read(&pd_max_segments_seen);

	while (n > old && !atomic_try_cmpxchg(&pd_max_segments_seen, &old, n))
		;
}

/*
 * Check the guard of each interval @bio wrote against the data now in the
 * store and keep its tuple, or hand the stored tuples to a read.
 */
static blk_status_t pd_pi_transfer(struct bio *bio, bool write)
{
	struct bio_integrity_payload *bip = bio_integrity(bio);
	sector_t iv = bio->bi_iter.bi_sector >> (pd_shift - SECTOR_SHIFT);
	unsigned int n = bio->bi_iter.bi_size >> pd_shift;
	blk_status_t sts = BLK_STS_OK;
	struct bvec_iter iter;
	struct bio_vec bv;

	if (!bip) {
		/* No PI sent (integrity turned off): reads must not check. */
		if (write)
			memset(&pd_pi[iv], 0xff, n * sizeof(*pd_pi));
		return BLK_STS_OK;
	}
	bip_for_each_vec(bv, bip, iter) {
		struct t10_pi_tuple *t = bvec_kmap_local(&bv);
		unsigned int k, nr = bv.bv_len / sizeof(*t);

		for (k = 0; k < nr && n; k++, iv++, n--) {
			if (!write) {
				t[k] = pd_pi[iv];
				continue;
			}
			if (be16_to_cpu(t[k].guard_tag) !=
			    crc_t10dif(pd_data + (iv << pd_shift), 1 << pd_shift)) {
				sts = BLK_STS_PROTECTION;
				continue;
			}
			pd_pi[iv] = t[k];
		}
		kunmap_local(t);
	}
	if (sts) {
		atomic_long_inc(&pd_count[PD_GUARD_ERRORS]);
		pr_err_ratelimited("guard check failed in the write at sector %llu\n",
				   (unsigned long long)bio->bi_iter.bi_sector);
	}
	return sts;
}

static blk_status_t pd_transfer(struct request *rq)
{
	bool write = req_op(rq) == REQ_OP_WRITE;
	loff_t pos = (loff_t)blk_rq_pos(rq) << SECTOR_SHIFT;
	blk_status_t sts = BLK_STS_OK, s;
	struct req_iterator iter;
	struct bio_vec bv;
	unsigned int segs;
	struct bio *bio;

	if (!write && req_op(rq) != REQ_OP_READ)
		return BLK_STS_NOTSUPP;
	if (pos + blk_rq_bytes(rq) > get_capacity(pd_disk) << SECTOR_SHIFT)
		return BLK_STS_IOERR;
	segs = pd_segments(rq);
	pd_note_segments(segs);
	if (segs > pd_max_segments) {
		atomic_long_inc(&pd_count[PD_SEGMENT_VIOLATIONS]);
		pr_err_ratelimited("request with %u segments, the queue allows %u\n",
				   segs, pd_max_segments);
		return BLK_STS_IOERR;
	}
	atomic_long_inc(&pd_count[write ? PD_WRITES : PD_READS]);
	rq_for_each_segment(bv, rq, iter) {
		void *p = bvec_kmap_local(&bv);

		if (write)
			memcpy(pd_data + pos, p, bv.bv_len);
		else
			memcpy(p, pd_data + pos, bv.bv_len);
		kunmap_local(p);
		pos += bv.bv_len;
	}
	__rq_for_each_bio(bio, rq) {
		s = pd_pi_transfer(bio, write);
		if (s)
			sts = s;
	}
	return sts;
}

static void pd_execute(struct work_struct *work)
{
	struct pd_cmd *cmd = container_of(to_delayed_work(work),
					  struct pd_cmd, work);
	struct request *rq = blk_mq_rq_from_pdu(cmd);

	blk_mq_end_request(rq, pd_transfer(rq));
}

static blk_status_t pd_queue_rq(struct blk_mq_hw_ctx *hctx,
				const struct blk_mq_queue_data *bd)
{
	struct pd_cmd *cmd = blk_mq_rq_to_pdu(bd->rq);

	blk_mq_start_request(bd->rq);
	queue_delayed_work(pd_wq, &cmd->work, msecs_to_jiffies(pd_delay_ms));
	return BLK_STS_OK;
}

static int pd_init_request(struct blk_mq_tag_set *set, struct request *rq,
			   unsigned int hctx_idx, unsigned int numa_node)
{
	struct pd_cmd *cmd = blk_mq_rq_to_pdu(rq);

	INIT_DELAYED_WORK(&cmd->work, pd_execute);
	return 0;
}

static const struct blk_mq_ops pd_mq_ops = {
	.queue_rq = pd_queue_rq,
	.init_request = pd_init_request,
};

static const struct block_device_operations pd_fops = {
	.owner = THIS_MODULE,
};

static int pd_stats_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < PD_NR_COUNTERS; i++)
		seq_printf(m, "%s %ld\n", pd_counter_names[i],
			   atomic_long_read(&pd_count[i]));
	seq_printf(m, "max_segments_seen %d\n",
		   atomic_read(&pd_max_segments_seen));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pd_stats);

static int __init pd_init(void)
{
	struct queue_limits lim = {
		.logical_block_size = pd_lbs,
		.physical_block_size = pd_lbs,
		.max_hw_sectors = pd_max_sectors_kb << 1,
		.max_segments = pd_max_segments,
		.max_segment_size = UINT_MAX,
		.integrity = {
			.flags = BLK_INTEGRITY_DEVICE_CAPABLE |
				 BLK_INTEGRITY_REF_TAG,
			.csum_type = BLK_INTEGRITY_CSUM_CRC,
			.tuple_size = sizeof(struct t10_pi_tuple),
			.interval_exp = ilog2(pd_lbs),
			.tag_size = sizeof(u16),
		},
	};
	size_t bytes = (size_t)pd_size_mb << 20;
	int ret;

	pd_shift = ilog2(pd_lbs);
	pd_data = vzalloc(bytes);
	pd_pi = vmalloc(array_size(bytes >> pd_shift, sizeof(*pd_pi)));
	if (!pd_data || !pd_pi) {
		ret = -ENOMEM;
		goto free_store;
	}
	/* Never written: the application tag escape, reads do not check. */
	memset(pd_pi, 0xff, array_size(bytes >> pd_shift, sizeof(*pd_pi)));

	pd_wq = alloc_workqueue(KBUILD_MODNAME, WQ_MEM_RECLAIM, 0);
	if (!pd_wq) {
		ret = -ENOMEM;
		goto free_store;
	}
	pd_major = register_blkdev(0, "pidisk");
	if (pd_major < 0) {
		ret = pd_major;
		goto free_wq;
	}
	pd_set.ops = &pd_mq_ops;
	pd_set.nr_hw_queues = 1;
	pd_set.queue_depth = pd_queue_depth;
	pd_set.numa_node = NUMA_NO_NODE;
	pd_set.cmd_size = sizeof(struct pd_cmd);
	pd_set.flags = BLK_MQ_F_SHOULD_MERGE;
	ret = blk_mq_alloc_tag_set(&pd_set);
	if (ret)
		goto unregister;
	pd_disk = blk_mq_alloc_disk(&pd_set, &lim, NULL);
	if (IS_ERR(pd_disk)) {
		ret = PTR_ERR(pd_disk);
		goto free_set;
	}
	pd_disk->major = pd_major;
	pd_disk->first_minor = 0;
	pd_disk->minors = 1;
	pd_disk->fops = &pd_fops;
	strscpy(pd_disk->disk_name, "pidisk0", DISK_NAME_LEN);
	set_capacity(pd_disk, bytes >> SECTOR_SHIFT);
	ret = add_disk(pd_disk);
	if (ret)
		goto put_disk;

	pd_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("stats", 0400, pd_dir, NULL, &pd_stats_fops);
	pr_info("pidisk0: %u MiB, T10 PI type 1 (CRC) every %u bytes, max_segments=%u max_sectors_kb=%u queue_depth=%u delay_ms=%u\n",
		pd_size_mb, pd_lbs, pd_max_segments, pd_max_sectors_kb,
		pd_queue_depth, pd_delay_ms);
	return 0;

put_disk:
	put_disk(pd_disk);
free_set:
	blk_mq_free_tag_set(&pd_set);
unregister:
	unregister_blkdev(pd_major, "pidisk");
free_wq:
	destroy_workqueue(pd_wq);
free_store:
	vfree(pd_pi);
	vfree(pd_data);
	return ret;
}

static void __exit pd_exit(void)
{
	debugfs_remove(pd_dir);
	/* Waits for every request, so no work item is left. */
	del_gendisk(pd_disk);
	put_disk(pd_disk);
	blk_mq_free_tag_set(&pd_set);
	unregister_blkdev(pd_major, "pidisk");
	destroy_workqueue(pd_wq);
	vfree(pd_pi);
	vfree(pd_data);
}

module_init(pd_init);
module_exit(pd_exit);
MODULE_DESCRIPTION("Memory-backed test disk with T10 PI and settable segment limits");
MODULE_LICENSE("GPL");
MODULE_VERSION(BLKPOLICY_VERSION);
