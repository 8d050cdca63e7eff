/* SPDX-License-Identifier: GPL-2.0 */
/*
 * intbounce trace events: one per counter step in the debugfs stats, so a
 * write that failed or took long can be matched with what intbounce did
 * with it, beside the block tracepoints.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM intbounce

#if !defined(_INTBOUNCE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _INTBOUNCE_TRACE_H

#include <linux/blk_types.h>
#include <linux/blkdev.h>
#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(intbounce_bio,
		    TP_PROTO(struct bio *bio),
		    TP_ARGS(bio),
		    TP_STRUCT__entry(__field(dev_t, dev)
				     __field(sector_t, sector)
				     __field(unsigned int, bytes)),
		    TP_fast_assign(__entry->dev = bio_dev(bio);
				   __entry->sector = bio->bi_iter.bi_sector;
				   __entry->bytes = bio->bi_iter.bi_size;),
		    TP_printk("%d,%d %llu + %u bytes",
			      MAJOR(__entry->dev), MINOR(__entry->dev),
			      (unsigned long long)__entry->sector, __entry->bytes)
);

/* A write's data copied to pool pages; the copy goes to the disk. */
DEFINE_EVENT(intbounce_bio, intbounce_bounced,
	     TP_PROTO(struct bio *bio), TP_ARGS(bio));

/* The front of a write larger than one bounce, split off to be bounced. */
DEFINE_EVENT(intbounce_bio, intbounce_split,
	     TP_PROTO(struct bio *bio), TP_ARGS(bio));

/* Retry mode: a write sent as it is, through a clone that catches failure. */
DEFINE_EVENT(intbounce_bio, intbounce_retry_armed,
	     TP_PROTO(struct bio *bio), TP_ARGS(bio));

/* Retry mode: a write that failed its protection check, sent again bounced. */
DEFINE_EVENT(intbounce_bio, intbounce_retried,
	     TP_PROTO(struct bio *bio), TP_ARGS(bio));

/* No bio, clone or pool page without waiting: the write fails or goes as is. */
DEFINE_EVENT(intbounce_bio, intbounce_alloc_failed,
	     TP_PROTO(struct bio *bio), TP_ARGS(bio));

/* A write left as it is, and why (the stats counter without "skipped_"). */
TRACE_EVENT(intbounce_skipped,
	    TP_PROTO(struct bio *bio, const char *reason),
	    TP_ARGS(bio, reason),
	    TP_STRUCT__entry(__field(dev_t, dev)
			     __field(sector_t, sector)
			     __field(unsigned int, bytes)
			     __string(op, blk_op_str(bio_op(bio)))
			     __string(reason, reason)),
	    TP_fast_assign(__entry->dev = bio_dev(bio);
			   __entry->sector = bio->bi_iter.bi_sector;
			   __entry->bytes = bio->bi_iter.bi_size;
			   __assign_str(op);
			   __assign_str(reason);),
	    TP_printk("%d,%d %s %llu + %u bytes: %s",
		      MAJOR(__entry->dev), MINOR(__entry->dev), __get_str(op),
		      (unsigned long long)__entry->sector, __entry->bytes,
		      __get_str(reason))
);

/* The pool is dry: the submitter waits, alone, for @pages pool pages. */
TRACE_EVENT(intbounce_pool_wait,
	    TP_PROTO(struct bio *bio, unsigned int pages),
	    TP_ARGS(bio, pages),
	    TP_STRUCT__entry(__field(dev_t, dev)
			     __field(unsigned int, pages)),
	    TP_fast_assign(__entry->dev = bio_dev(bio);
			   __entry->pages = pages;),
	    TP_printk("%d,%d waits for %u pool pages",
		      MAJOR(__entry->dev), MINOR(__entry->dev), __entry->pages)
);

#endif /* _INTBOUNCE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE intbounce_trace
#include <trace/define_trace.h>
