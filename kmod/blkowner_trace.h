/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkowner trace events: one per step of the debugfs stats counters of
 * the same name, so a cgroup's writeback can be followed from the page it
 * dirtied to the bio charged to it.  Cgroups are named by their io/blkio
 * css id, as the owner words store them; a re-charged bio also by its
 * cgroup id (the cgroup directory's inode number).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM blkowner

#if !defined(_BLKOWNER_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _BLKOWNER_TRACE_H

#include <linux/blk_types.h>
#include <linux/blkdev.h>
#include <linux/cgroup.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/tracepoint.h>

#ifndef BLKOWNER_TRACE_HELPERS
#define BLKOWNER_TRACE_HELPERS
/* Anonymous memory has no inode; its index is in its anon_vma. */
static inline struct inode *blkowner_folio_host(struct folio *folio)
{
	return folio->mapping && !folio_test_anon(folio) ?
	       folio->mapping->host : NULL;
}
#endif

DECLARE_EVENT_CLASS(blkowner_folio,
		    TP_PROTO(struct folio *folio, int css_id),
		    TP_ARGS(folio, css_id),
		    TP_STRUCT__entry(__field(dev_t, dev)
				     __field(unsigned long, ino)
				     __field(pgoff_t, index)
				     __field(int, css_id)),
		    TP_fast_assign(struct inode *host = blkowner_folio_host(folio);
				   __entry->dev = host ? host->i_sb->s_dev : 0;
				   __entry->ino = host ? host->i_ino : 0;
				   __entry->index = folio->index;
				   __entry->css_id = css_id;),
		    TP_printk("%d,%d ino=%lu index=%lu css=%d",
			      MAJOR(__entry->dev), MINOR(__entry->dev), __entry->ino,
			      (unsigned long)__entry->index, __entry->css_id)
);

/* A folio turned dirty by a task of cgroup @css_id: its owner is stored. */
DEFINE_EVENT(blkowner_folio, blkowner_tagged,
	     TP_PROTO(struct folio *folio, int css_id),
	     TP_ARGS(folio, css_id));

/*
 * A folio turned dirty by a task of cgroup @css_id while no other folio of
 * its file was dirty or under writeback: the cgroup now owns the file's
 * dirty folios, and none of them needs a word.
 */
DEFINE_EVENT(blkowner_folio, blkowner_mapping_owned,
	     TP_PROTO(struct folio *folio, int css_id),
	     TP_ARGS(folio, css_id));

/*
 * A folio turned dirty by a task not of cgroup @css_id, the owner of its
 * file, while others of the file were dirty or under writeback: from now
 * on the file's folios that others dirty get a word each.
 */
DEFINE_EVENT(blkowner_folio, blkowner_mapping_mixed,
	     TP_PROTO(struct folio *folio, int css_id),
	     TP_ARGS(folio, css_id));

/*
 * A folio became anonymous memory of a task of cgroup @css_id: its owner
 * is stored for its swap-out.
 */
DEFINE_EVENT(blkowner_folio, blkowner_anon_tagged,
	     TP_PROTO(struct folio *folio, int css_id),
	     TP_ARGS(folio, css_id));

/* A folio's stored owner belongs to another folio (its pfn was reused). */
DEFINE_EVENT(blkowner_folio, blkowner_owner_stale,
	     TP_PROTO(struct folio *folio, int css_id),
	     TP_ARGS(folio, css_id));

DECLARE_EVENT_CLASS(blkowner_bio,
		    TP_PROTO(struct bio *bio, int css_id),
		    TP_ARGS(bio, css_id),
		    TP_STRUCT__entry(__field(dev_t, dev)
				     __field(sector_t, sector)
				     __field(unsigned int, bytes)
				     __field(int, css_id)),
		    TP_fast_assign(__entry->dev = bio_dev(bio);
				   __entry->sector = bio->bi_iter.bi_sector;
				   __entry->bytes = bio->bi_iter.bi_size;
				   __entry->css_id = css_id;),
		    TP_printk("%d,%d %llu + %u bytes css=%d",
			      MAJOR(__entry->dev), MINOR(__entry->dev),
			      (unsigned long long)__entry->sector, __entry->bytes,
			      __entry->css_id)
);

/* The front of a writeback bio whose folios change owner after it. */
DEFINE_EVENT(blkowner_bio, blkowner_split,
	     TP_PROTO(struct bio *bio, int css_id),
	     TP_ARGS(bio, css_id));

/* The owner's cgroup is gone: the bio keeps the flusher's association. */
DEFINE_EVENT(blkowner_bio, blkowner_owner_not_found,
	     TP_PROTO(struct bio *bio, int css_id),
	     TP_ARGS(bio, css_id));

/*
 * A writeback or swap-out bio associated with its owner, before
 * blk-throttle sees it.
 */
TRACE_EVENT(blkowner_recharged,
	    TP_PROTO(struct bio *bio, struct cgroup_subsys_state *css),
	    TP_ARGS(bio, css),
	    TP_STRUCT__entry(__field(dev_t, dev)
			     __field(sector_t, sector)
			     __field(unsigned int, bytes)
			     __field(int, css_id)
			     __field(u64, cgroup_id)),
	    TP_fast_assign(__entry->dev = bio_dev(bio);
			   __entry->sector = bio->bi_iter.bi_sector;
			   __entry->bytes = bio->bi_iter.bi_size;
			   __entry->css_id = css->id;
			   __entry->cgroup_id = cgroup_id(css->cgroup);),
	    TP_printk("%d,%d %llu + %u bytes css=%d cgroup_id=%llu",
		      MAJOR(__entry->dev), MINOR(__entry->dev),
		      (unsigned long long)__entry->sector, __entry->bytes,
		      __entry->css_id, __entry->cgroup_id)
);

/* A task of cgroup @css_id paused while its writeback backlog is held. */
DECLARE_EVENT_CLASS(blkowner_pause,
		    TP_PROTO(int css_id, long inflight, unsigned int ms),
		    TP_ARGS(css_id, inflight, ms),
		    TP_STRUCT__entry(__field(int, css_id)
				     __field(long, inflight)
				     __field(unsigned int, ms)
				     __field(pid_t, pid)
				     __array(char, comm, TASK_COMM_LEN)),
		    TP_fast_assign(__entry->css_id = css_id;
				   __entry->inflight = inflight;
				   __entry->ms = ms;
				   __entry->pid = task_pid_nr(current);
				   memcpy(__entry->comm, current->comm, TASK_COMM_LEN);),
		    TP_printk("css=%d backlog=%ld bytes: %s[%d] pauses %u ms",
			      __entry->css_id, __entry->inflight, __entry->comm,
			      __entry->pid, __entry->ms)
);

/* ... a dirtier, in balance_dirty_pages() */
DEFINE_EVENT(blkowner_pause, blkowner_dirtier_paused,
	     TP_PROTO(int css_id, long inflight, unsigned int ms),
	     TP_ARGS(css_id, inflight, ms));

/* ... a task reclaiming its own cgroup's memory, at swap-out */
DEFINE_EVENT(blkowner_pause, blkowner_swapper_paused,
	     TP_PROTO(int css_id, long inflight, unsigned int ms),
	     TP_ARGS(css_id, inflight, ms));

#endif /* _BLKOWNER_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE blkowner_trace
#include <trace/define_trace.h>
