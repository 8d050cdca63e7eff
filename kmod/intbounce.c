// SPDX-License-Identifier: GPL-2.0
/*
 * intbounce: copy write data before T10 PI generation.
 *
 * On a disk with an integrity profile, bio_integrity_prep() computes the
 * protection information (guard tags) over the data pages at submission.
 * If those pages change before the device DMAs them, data and PI disagree
 * and the write fails with a protection error.  Page-cache writeback is
 * safe since stable pages (the folio stays under writeback and writers
 * wait), but direct I/O submits user pages that the application can still
 * modify.
 *
 * From the integrity_prep hook, which runs before blk-mq splits the bio to
 * the queue limits and before PI generation, intbounce replaces such a bio
 * with a clone whose data sits in private bounce pages, so PI is computed
 * over a copy nobody else can touch.  The clone's completion frees the
 * pages and completes the original with the clone's status.
 *
 * A bounce must reach the driver as one request.  If blk-mq split it, its
 * remainder would wait on current->bio_list, holding pool pages, behind
 * bios that need pool pages to be bounced themselves.  So the original is
 * split first: to the queue limits as its own pages are laid out, then to
 * what separate bounce pages can carry in one request.  Every remainder
 * goes back through submit_bio_noacct() holding no pool pages, after the
 * front went to the driver, and is bounced when its turn comes.
 *
 * Bounce pages come from a page mempool.  Only one submitter at a time may
 * wait on the pool, and it holds no pages while it queues for that right;
 * a bounce needs at most BIO_MAX_VECS pages and pool_pages is at least
 * that, and every bounce already sent gives its pages back on completion,
 * so the waiter gets its pages in the end.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/blk-hooks.h>
#include <linux/blk-crypto.h>
#include <linux/blk-integrity.h>
#include <linux/blkdev.h>
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/mempool.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/seq_file.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "blkpolicy_param.h"

#define CREATE_TRACE_POINTS
#include "intbounce_trace.h"

enum ib_mode { IB_OFF, IB_ALWAYS, IB_AUTO, IB_RETRY };

static const char * const ib_mode_names[] = {
	[IB_OFF] = "off",
	[IB_ALWAYS] = "always",
	[IB_AUTO] = "auto",
	[IB_RETRY] = "retry",
};

enum ib_counter {
	IB_BIOS_BOUNCED,
	IB_RETRY_CLONES,
	IB_RETRIES,
	IB_BYTES_BOUNCED,
	IB_BIOS_SPLIT,
	IB_SKIP_NOT_WRITE,
	IB_SKIP_NO_DATA,
	IB_SKIP_HAS_PI,
	IB_SKIP_NOGENERATE,
	IB_SKIP_NO_CHECKSUM,
	IB_SKIP_ATOMIC,
	IB_SKIP_STABLE,
	IB_SKIP_POLLED,
	IB_SKIP_CRYPTO,
	IB_SKIP_OFF,
	IB_POOL_WAITS,
	IB_ALLOC_FAILURES,
	IB_NR_COUNTERS,
};

static const char * const ib_counter_names[IB_NR_COUNTERS] = {
	[IB_BIOS_BOUNCED] = "bios_bounced",
	[IB_BYTES_BOUNCED] = "bytes_bounced",
	[IB_BIOS_SPLIT] = "bios_split",
	[IB_RETRY_CLONES] = "retry_clones",
	[IB_RETRIES] = "retries",
	[IB_SKIP_NOT_WRITE] = "skipped_not_write",
	[IB_SKIP_NO_DATA] = "skipped_no_data",
	[IB_SKIP_HAS_PI] = "skipped_has_integrity",
	[IB_SKIP_NOGENERATE] = "skipped_nogenerate",
	[IB_SKIP_NO_CHECKSUM] = "skipped_no_checksum",
	[IB_SKIP_ATOMIC] = "skipped_atomic_too_large",
	[IB_SKIP_STABLE] = "skipped_stable_pages",
	[IB_SKIP_POLLED] = "skipped_polled",
	[IB_SKIP_CRYPTO] = "skipped_inline_crypto",
	[IB_SKIP_OFF] = "skipped_mode_off",
	[IB_POOL_WAITS] = "pool_waits",
	[IB_ALLOC_FAILURES] = "alloc_failures",
};

static atomic64_t ib_count[IB_NR_COUNTERS];

static int ib_mode = IB_AUTO;
static unsigned int ib_pool_pages = 2 * BIO_MAX_VECS;

static mempool_t *ib_page_pool;
static struct bio_set ib_bio_set;	/* bounce clones */
static struct bio_set ib_split_set;	/* front parts of oversized bios */
static struct bio_set ib_retry_set;	/* retry mode: clones of the original */
static struct workqueue_struct *ib_retry_wq;

/*
 * Retry mode: the original goes out through a clone sharing its pages; if
 * the clone fails with a protection error, a work item sends the original
 * once more from a bounce copy.  The copy holds whatever the buffer holds
 * at that moment, which is as valid an outcome as any for a buffer the
 * application changed during the write.
 */
struct ib_retry {
	struct blk_hook_end_io end;
	struct work_struct work;
	struct bio *orig;
	struct bio clone;	/* last: bio_set front_pad */
};

/* A bounce bio and what it stands in for. */
struct ib_bounce {
	struct blk_hook_end_io end;
	struct bio *orig;
	struct bio bio;		/* last: bio_set front_pad */
};

/* Held by the one submitter allowed to wait for pool pages. */
static DEFINE_MUTEX(ib_pool_wait_lock);
static atomic_t ib_inflight = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(ib_inflight_wq);
static struct dentry *ib_debugfs;

static inline void ib_inc(enum ib_counter c)
{
	atomic64_inc(&ib_count[c]);
}

/* Count and trace a write left as it is; true, for the hook to return. */
static bool ib_skip(struct bio *bio, enum ib_counter why)
{
	ib_inc(why);
	trace_intbounce_skipped(bio, ib_counter_names[why] +
				     sizeof("skipped_") - 1);
	return true;
}

static struct bp_words ib_mode_words = {
	&ib_mode, ib_mode_names, ARRAY_SIZE(ib_mode_names)
};
module_param_cb(mode, &bp_words_ops, &ib_mode_words, 0600);
MODULE_PARM_DESC(mode,
		 "off; always (bounce every data write to an integrity disk); auto (default: bounce only writes whose pages stable pages do not protect); retry (no copy up front, a write that fails with a protection error is sent once more from a bounce copy; on a zoned disk as auto)");

static struct bp_uint ib_pool_pages_param = {
	.value = &ib_pool_pages, .min = BIO_MAX_VECS, .max = 65536,
};
module_param_cb(pool_pages, &bp_uint_ops, &ib_pool_pages_param, 0400);
MODULE_PARM_DESC(pool_pages,
		 "Bounce pages (of PAGE_SIZE) reserved in the mempool, set at load time (default 512, at least 256: the most one bounce takes)");

/*
 * Whether user space can change @folio while the write is in flight
 * without waiting for it.  Direct I/O submits user memory: anonymous
 * folios, page cache mapped into a process (mmap of a file, shmem,
 * hugetlbfs), or page cache that splice() or sendfile() passed on, which
 * write(2) changes in place, a block device's as a file's.  Page cache
 * under writeback of a stable-writes mapping is safe: writers and
 * page_mkwrite() wait in folio_wait_stable().  So is a swap-cache folio
 * under writeback: swap-out unmapped it, and on a disk with PI the swap
 * device has SWP_STABLE_WRITES, so do_swap_page() will not map it
 * writable again before the write completes.  Any other page cache may
 * change: buffer-head metadata writes (submit_bh()) are not under
 * writeback, and not every filesystem locks its buffers while it changes
 * them.  Memory that is not page cache nor user memory (slab, log
 * buffers) belongs to the kernel code that submitted it and is left
 * alone.
 */
static bool ib_folio_stable(struct folio *folio)
{
	struct address_space *mapping;

	if (folio_test_swapcache(folio))
		return folio_test_writeback(folio);
	if (folio_test_anon(folio))
		return false;
	mapping = folio_mapping(folio);
	if (!mapping)
		return true;
	if (!mapping_stable_writes(mapping))
		return false;
	return folio_test_writeback(folio);
}

static bool ib_bio_stable(struct bio *bio)
{
	struct bvec_iter iter;
	struct bio_vec bv;

	/* Per page: a multi-page bvec may span several folios. */
	bio_for_each_segment(bv, bio, iter) {
		if (!ib_folio_stable(page_folio(bv.bv_page)))
			return false;
	}
	return true;
}

static void ib_free_pages(struct bio *bio)
{
	struct bvec_iter_all iter;
	struct bio_vec *bv;

	bio_for_each_segment_all(bv, bio, iter)
		mempool_free(bv->bv_page, ib_page_pool);
}

/*
 * Fill @bounce with @nr pool pages.  Without waiting first; if the pool is
 * dry, give everything back and queue as the single waiter, so no waiter
 * holds pages another waiter needs.
 */
static bool ib_alloc_pages(struct bio *bounce, unsigned int nr, bool nowait)
{
	struct page *page;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		page = mempool_alloc(ib_page_pool, GFP_NOWAIT | __GFP_NOWARN);
		if (!page)
			break;
		__bio_add_page(bounce, page, PAGE_SIZE, 0);
	}
	if (i == nr)
		return true;

	ib_free_pages(bounce);
	bounce->bi_vcnt = 0;
	bounce->bi_iter.bi_size = 0;
	if (nowait) {
		ib_inc(IB_ALLOC_FAILURES);
		trace_intbounce_alloc_failed(bounce);
		return false;
	}
	ib_inc(IB_POOL_WAITS);
	trace_intbounce_pool_wait(bounce, nr);
	mutex_lock(&ib_pool_wait_lock);
	for (i = 0; i < nr; i++) {
		page = mempool_alloc(ib_page_pool, GFP_NOIO);
		__bio_add_page(bounce, page, PAGE_SIZE, 0);
	}
	mutex_unlock(&ib_pool_wait_lock);
	return true;
}

/*
 * The last step of our completion handlers.  A handler still has its
 * return ahead of it in the module's code when exit wakes up; it runs
 * under blk_hooks_end_io(), whose barrier exit waits for.
 */
static void ib_inflight_put(void)
{
	if (atomic_dec_and_test(&ib_inflight))
		wake_up(&ib_inflight_wq);
}

static void ib_end_io(struct bio *bounce)
{
	struct bio *orig = container_of(bounce, struct ib_bounce, bio)->orig;

	if (bounce->bi_status)
		orig->bi_status = bounce->bi_status;
	/* Where the device wrote it (blk-mq and the zone plug set it). */
	if (bio_op(bounce) == REQ_OP_ZONE_APPEND)
		orig->bi_iter.bi_sector = bounce->bi_iter.bi_sector;
	ib_free_pages(bounce);
	bio_put(bounce);
	bio_endio(orig);
	ib_inflight_put();
}

/*
 * What submit_bio_noacct() has done to @src that it must not do again to
 * @dst: a bounce or retry clone whose remainder blk-mq resubmits would
 * otherwise be remapped by the partition offset, throttled and accounted
 * a second time (block/bounce.c and blk-crypto-fallback.c copy REMAPPED).
 */
static void ib_copy_submit_flags(struct bio *dst, struct bio *src)
{
	if (dst->bi_bdev == src->bi_bdev && bio_flagged(src, BIO_REMAPPED))
		bio_set_flag(dst, BIO_REMAPPED);
	if (bio_flagged(src, BIO_BPS_THROTTLED))
		bio_set_flag(dst, BIO_BPS_THROTTLED);
	if (bio_flagged(src, BIO_CGROUP_ACCT))
		bio_set_flag(dst, BIO_CGROUP_ACCT);
}

/* As blk-mq's bio_unaligned(): misaligned to the logical block size. */
static bool ib_unaligned(const struct bio *bio)
{
	unsigned int mask = bdev_logical_block_size(bio->bi_bdev) - 1;

	return (bio->bi_iter.bi_size | (bio->bi_iter.bi_sector << SECTOR_SHIFT)) &
	       mask;
}

static void ib_end_bio(struct bio *bio, blk_status_t status)
{
	bio->bi_status = status;
	bio_endio(bio);
}

/* Bytes a bounce carries in one request: one segment per bounce page. */
static unsigned int ib_max_bounce(struct bio *bio)
{
	unsigned int segs = bdev_max_segments(bio->bi_bdev);

	return min(segs, BIO_MAX_VECS) << PAGE_SHIFT;
}

/*
 * As blk-merge.c's get_max_io_size() for a write that is not atomic, with
 * one bounce's worth as one more limit: the most a request of @bio's
 * bounce may carry from where @bio starts, its end on a physical block if
 * it can be.  In sectors, so nothing overflows.
 */
static unsigned int ib_max_io_sectors(struct bio *bio,
				      const struct queue_limits *lim)
{
	unsigned int pbs = lim->physical_block_size >> SECTOR_SHIFT;
	unsigned int lbs = lim->logical_block_size >> SECTOR_SHIFT;
	unsigned int max, start, end;

	max = min(lim->max_sectors, ib_max_bounce(bio) >> SECTOR_SHIFT);
	if (lim->chunk_sectors)
		max = min(max, blk_boundary_sectors_left(bio->bi_iter.bi_sector,
							 lim->chunk_sectors));
	start = bio->bi_iter.bi_sector & (pbs - 1);
	end = (start + max) & ~(pbs - 1);
	if (end > start)
		return end - start;
	return max & ~(lbs - 1);
}

/*
 * Split @bio so that its bounce copy, one page per PAGE_SIZE of data, is
 * a single request: at the first point where either the queue limits (as
 * blk-mq would split @bio as its own pages are laid out) or one bounce's
 * pages end, so the pieces reach the driver in order and the one
 * remainder, the bio as submitted, keeps what submit_bio_noacct() marked
 * on it (BIO_BPS_THROTTLED).  The remainder is resubmitted; it queues on
 * current->bio_list behind the front, which holds no pool pages yet.
 * REQ_NOWAIT bios that need a split end with BLK_STS_AGAIN, as blk-mq
 * ends them.  An atomic write or a zone append is split to the limits only
 * (where blk-mq fails one that would need a split), never torn: it comes
 * back whole even if one bounce cannot carry it.  Returns the front, or
 * NULL if @bio was ended.
 */
static struct bio *ib_split(struct bio *bio)
{
	const struct queue_limits *lim = &bdev_get_queue(bio->bi_bdev)->limits;
	unsigned int nsegs;
	struct bio *split;
	int sectors;

	if ((bio->bi_opf & REQ_ATOMIC) || bio_op(bio) == REQ_OP_ZONE_APPEND)
		return bio_split_to_limits(bio);
	sectors = bio_split_rw_at(bio, lim, &nsegs,
				  ib_max_io_sectors(bio, lim) << SECTOR_SHIFT);
	if (sectors < 0) {
		ib_end_bio(bio, errno_to_blk_status(sectors));
		return NULL;
	}
	if (!sectors)
		return bio;
	split = bio_split(bio, sectors, GFP_NOIO, &ib_split_set);
	if (IS_ERR_OR_NULL(split)) {
		ib_end_bio(bio, BLK_STS_RESOURCE);
		return NULL;
	}
	/* As bio_submit_split(): the front is not merged with others. */
	split->bi_opf |= REQ_NOMERGE;
	ib_inc(IB_BIOS_SPLIT);
	trace_intbounce_split(split);
	bio_chain(split, bio);
	submit_bio_noacct(bio);
	return split;
}

static struct bio *ib_bounce(struct bio *orig)
{
	bool nowait = orig->bi_opf & REQ_NOWAIT;
	unsigned int nr, done = 0;
	struct bvec_iter iter;
	struct ib_bounce *b;
	struct bio_vec bv;
	struct bio *bounce;
	int i = 0;

	nr = DIV_ROUND_UP(orig->bi_iter.bi_size, PAGE_SIZE);
	bounce = bio_alloc_bioset(orig->bi_bdev, nr, orig->bi_opf,
				  nowait ? GFP_NOWAIT : GFP_NOIO, &ib_bio_set);
	if (!bounce) {
		ib_inc(IB_ALLOC_FAILURES);
		trace_intbounce_alloc_failed(orig);
		return NULL;
	}
	if (!ib_alloc_pages(bounce, nr, nowait)) {
		bio_put(bounce);
		return NULL;
	}

	/* Pack the data densely: every bounce page but the last is full. */
	bio_for_each_segment(bv, orig, iter) {
		/* The iterator advances by bv.bv_len: consume a copy. */
		unsigned int src_off = bv.bv_offset, left = bv.bv_len;

		while (left) {
			struct bio_vec *dst = &bounce->bi_io_vec[i];
			unsigned int off = done & (PAGE_SIZE - 1);
			unsigned int n = min(left, PAGE_SIZE - off);

			memcpy_from_page(page_address(dst->bv_page) + off,
					 bv.bv_page, src_off, n);
			src_off += n;
			left -= n;
			done += n;
			if (!(done & (PAGE_SIZE - 1)))
				i++;
		}
	}
	/* The last page holds only the tail. */
	if (done & (PAGE_SIZE - 1))
		bounce->bi_io_vec[bounce->bi_vcnt - 1].bv_len =
			done & (PAGE_SIZE - 1);
	bounce->bi_iter.bi_size = done;
	bounce->bi_iter.bi_sector = orig->bi_iter.bi_sector;
	bounce->bi_ioprio = orig->bi_ioprio;
	bounce->bi_write_hint = orig->bi_write_hint;
	b = container_of(bounce, struct ib_bounce, bio);
	b->orig = orig;
	b->end.fn = ib_end_io;
	bounce->bi_private = &b->end;
	bounce->bi_end_io = blk_hooks_end_io;
	bio_clone_blkg_association(bounce, orig);
	return bounce;
}

/*
 * Split *@bio_ptr to one bounce's worth and put its bounce clone in
 * *@bio_ptr for the caller to send; false if the bio was ended with an
 * error.
 */
static bool ib_bounce_and_replace(struct bio **bio_ptr)
{
	struct bio *orig = *bio_ptr, *bio, *bounce;

	bio = ib_split(orig);
	if (!bio)
		return false;
	*bio_ptr = bio;
	if (bio->bi_iter.bi_size > ib_max_bounce(bio))
		return ib_skip(bio, IB_SKIP_ATOMIC);
	bounce = ib_bounce(bio);
	if (!bounce) {
		ib_end_bio(bio, (bio->bi_opf & REQ_NOWAIT) ? BLK_STS_AGAIN :
							   BLK_STS_RESOURCE);
		return false;
	}
	/* From the bio as submitted: a split front has only BIO_REMAPPED. */
	ib_copy_submit_flags(bounce, orig);
#ifdef CONFIG_BLK_CGROUP
	/* io.latency times the request from the bio's issue, not from 0. */
	bounce->bi_issue = orig->bi_issue;
#endif
	atomic_inc(&ib_inflight);
	ib_inc(IB_BIOS_BOUNCED);
	trace_intbounce_bounced(bio);
	atomic64_add(bounce->bi_iter.bi_size, &ib_count[IB_BYTES_BOUNCED]);
	*bio_ptr = bounce;
	return true;
}

/*
 * Send the original of a write that failed with a protection error once
 * more.  It goes back through submit_bio_noacct(), which already remapped
 * it, and the hook bounces it because it runs in this worker (ib_retrying()):
 * the split front goes to the driver before the remainder, as in the first
 * pass.  REQ_NOWAIT no longer applies, its submitter is long gone.
 */
static void ib_retry_work(struct work_struct *work)
{
	struct ib_retry *r = container_of(work, struct ib_retry, work);
	struct bio *orig = r->orig;

	ib_inc(IB_RETRIES);
	trace_intbounce_retried(orig);
	orig->bi_opf &= ~REQ_NOWAIT;
	/*
	 * The clone, and the work item in it, are freed only after the
	 * resubmission: ib_retrying() reads this work item to know that the
	 * hook runs for a retry.
	 */
	submit_bio_noacct(orig);
	bio_put(&r->clone);
	ib_inflight_put();
}

static bool ib_retrying(void)
{
	struct work_struct *work = current_work();

	return work && work->func == ib_retry_work;
}

static void ib_retry_end_io(struct bio *clone)
{
	struct ib_retry *r = container_of(clone, struct ib_retry, clone);
	struct bio *orig = r->orig;

	/* Completion may run in interrupt context: bounce from a worker. */
	if (clone->bi_status == BLK_STS_PROTECTION) {
		INIT_WORK(&r->work, ib_retry_work);
		queue_work(ib_retry_wq, &r->work);
		return;
	}
	orig->bi_status = clone->bi_status;
	bio_put(clone);
	bio_endio(orig);
	ib_inflight_put();
}

/* Retry mode: send @bio through a clone whose failure we can catch. */
static void ib_retry_prepare(struct bio **bio_ptr)
{
	struct bio *orig = *bio_ptr, *clone;
	struct ib_retry *r;

	clone = bio_alloc_clone(orig->bi_bdev, orig,
				(orig->bi_opf & REQ_NOWAIT) ? GFP_NOWAIT : GFP_NOIO,
				&ib_retry_set);
	if (!clone) {
		ib_inc(IB_ALLOC_FAILURES);
		trace_intbounce_alloc_failed(orig);
		return;		/* sent as it is, without a second chance */
	}
	ib_copy_submit_flags(clone, orig);
	r = container_of(clone, struct ib_retry, clone);
	r->orig = orig;
	r->end.fn = ib_retry_end_io;
	clone->bi_private = &r->end;
	clone->bi_end_io = blk_hooks_end_io;
	atomic_inc(&ib_inflight);
	ib_inc(IB_RETRY_CLONES);
	trace_intbounce_retry_armed(orig);
	*bio_ptr = clone;
}

static bool ib_integrity_prep(struct bio **bio_ptr)
{
	struct bio *bio = *bio_ptr;
	struct blk_integrity *bi;
	int mode = READ_ONCE(ib_mode);

	/*
	 * A retry clone comes back here when blk-mq splits it and resubmits
	 * the remainder; a bounce would, had the queue limits shrunk since
	 * ib_split() read them.  Its data is already taken care of.  Ours are
	 * known by the bio_set they came from: their bi_end_io is the core's
	 * blk_hooks_end_io(), as any other module's may be.
	 */
	if (bio->bi_pool == &ib_bio_set || bio->bi_pool == &ib_retry_set)
		return true;
	if (ib_retrying())
		return ib_bounce_and_replace(bio_ptr);
	if (bio_op(bio) != REQ_OP_WRITE && bio_op(bio) != REQ_OP_ZONE_APPEND)
		return ib_skip(bio, IB_SKIP_NOT_WRITE);
	if (!bio_has_data(bio) || !bio_sectors(bio))
		return ib_skip(bio, IB_SKIP_NO_DATA);
	if (mode == IB_OFF)
		return ib_skip(bio, IB_SKIP_OFF);
	if (bio_integrity(bio))
		return ib_skip(bio, IB_SKIP_HAS_PI);
	bi = blk_get_integrity(bio->bi_bdev->bd_disk);
	if (!bi || (bi->flags & BLK_INTEGRITY_NOGENERATE))
		return ib_skip(bio, IB_SKIP_NOGENERATE);
	/* Metadata without a guard: nothing computed over the data. */
	if (bi->csum_type == BLK_INTEGRITY_CSUM_NONE)
		return ib_skip(bio, IB_SKIP_NO_CHECKSUM);
	/* blk-mq fails it before any split; a split here could not. */
	if (ib_unaligned(bio))
		return true;
	if (bio->bi_opf & REQ_POLLED)
		return ib_skip(bio, IB_SKIP_POLLED);
	if (bio_has_crypt_ctx(bio))
		return ib_skip(bio, IB_SKIP_CRYPTO);
	/*
	 * On a zoned disk a failed write has moved the write pointer past
	 * what it got written before its error, so a resend from its start
	 * would fail; a zone append's resend could land elsewhere.  Retry
	 * mode bounces there up front, as auto does.
	 */
	if (mode == IB_RETRY && bdev_is_zoned(bio->bi_bdev))
		mode = IB_AUTO;
	if (mode == IB_AUTO && ib_bio_stable(bio))
		return ib_skip(bio, IB_SKIP_STABLE);

	if (mode == IB_RETRY) {
		ib_retry_prepare(bio_ptr);
		return true;
	}
	return ib_bounce_and_replace(bio_ptr);
}

static struct blk_hook_ops ib_hook_ops = {
	.integrity_prep = ib_integrity_prep,
};

static int ib_stats_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < IB_NR_COUNTERS; i++)
		seq_printf(m, "%s %lld\n", ib_counter_names[i],
			   atomic64_read(&ib_count[i]));
	seq_printf(m, "inflight %d\n", atomic_read(&ib_inflight));
	seq_printf(m, "pool_pages %u\n", ib_pool_pages);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ib_stats);

static int __init ib_init(void)
{
	int ret;

	ib_page_pool = mempool_create_page_pool(ib_pool_pages, 0);
	if (!ib_page_pool)
		return -ENOMEM;
	/*
	 * All three bio_sets are allocated from inside submit_bio, where bios
	 * split off before wait on current->bio_list: the rescuer sends those
	 * on when a pool runs dry.
	 */
	ret = bioset_init(&ib_bio_set, BIO_POOL_SIZE,
			  offsetof(struct ib_bounce, bio),
			  BIOSET_NEED_BVECS | BIOSET_NEED_RESCUER);
	if (ret)
		goto free_pool;
	ret = bioset_init(&ib_split_set, BIO_POOL_SIZE, 0, BIOSET_NEED_RESCUER);
	if (ret)
		goto free_bioset;
	ret = bioset_init(&ib_retry_set, BIO_POOL_SIZE,
			  offsetof(struct ib_retry, clone), BIOSET_NEED_RESCUER);
	if (ret)
		goto free_split;
	/* Retries run under memory pressure too: a rescuer guarantees progress. */
	ib_retry_wq = alloc_workqueue("intbounce_retry", WQ_MEM_RECLAIM, 0);
	if (!ib_retry_wq) {
		ret = -ENOMEM;
		goto free_retry_set;
	}
	ib_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("stats", 0400, ib_debugfs, NULL, &ib_stats_fops);
	ret = blk_hooks_register(&ib_hook_ops);
	if (ret)
		goto free_all;
	pr_info("loaded: mode=%s pool_pages=%u\n", ib_mode_names[ib_mode],
		ib_pool_pages);
	return 0;

free_all:
	debugfs_remove_recursive(ib_debugfs);
	destroy_workqueue(ib_retry_wq);
free_retry_set:
	bioset_exit(&ib_retry_set);
free_split:
	bioset_exit(&ib_split_set);
free_bioset:
	bioset_exit(&ib_bio_set);
free_pool:
	mempool_destroy(ib_page_pool);
	return ret;
}

/*
 * Wait until no completion handler runs the module's code.  After the
 * count drops to zero a handler may still be returning, perhaps preempted
 * in a task (a driver completing from a workqueue); the core called it
 * through blk_hooks_end_io(), so the core's barrier outlasts it.  The
 * retry worker's return is destroy_workqueue()'s to wait for.
 */
static void ib_wait_handlers(void)
{
	wait_event(ib_inflight_wq, !atomic_read(&ib_inflight));
	blk_hooks_end_io_barrier();
}

static void __exit ib_exit(void)
{
	blk_hooks_unregister(&ib_hook_ops);
	/* No new bounces now; wait for the ones the device still holds. */
	ib_wait_handlers();
	debugfs_remove_recursive(ib_debugfs);
	/* The last retry worker may still be returning from its callback. */
	destroy_workqueue(ib_retry_wq);
	bioset_exit(&ib_retry_set);
	bioset_exit(&ib_split_set);
	bioset_exit(&ib_bio_set);
	mempool_destroy(ib_page_pool);
	pr_info("unloaded\n");
}

module_init(ib_init);
module_exit(ib_exit);
MODULE_DESCRIPTION("Bounce write data before T10 PI generation so in-flight buffer changes cannot fail writes");
MODULE_LICENSE("GPL");
MODULE_VERSION(BLKPOLICY_VERSION);
