// SPDX-License-Identifier: GPL-2.0
/*
 * blkowner: charge writeback I/O to the cgroup that dirtied the page, and
 * swap-out to the cgroup whose anonymous memory it is.
 *
 * blk-throttle charges a bio to the blkcg it is associated with, which for
 * writeback is the flusher's: the root cgroup.  Buffered writes of a cgroup
 * on the v1 blkio hierarchy therefore escape blkio.throttle.* entirely
 * (cgroup v2 fixed this per inode, and only with the memory controller).
 *
 * blkowner remembers, when a page-cache folio turns dirty, the io/blkio
 * cgroup of the task that dirtied it, and at submission re-associates a
 * write bio with that cgroup before blk-throttle sees it.  A bio whose
 * folios belong to several cgroups is split at the owner boundaries.
 *
 * A file is mostly dirtied by one cgroup at a time, so the owner is kept
 * per mapping (in the word hooks.patch gives every address_space): the
 * cgroup of the task that dirtied a folio while no other folio of the
 * file was dirty or under writeback.  Only a folio dirtied by another
 * cgroup while the owner's folios are still on their way (a file shared
 * by two cgroups at once) gets a word of its own, in a table of one word
 * per folio by pfn (blkowner_table.c), taken when the folio is submitted
 * for writeback; its mapping is then mixed for as long as its inode is
 * in memory.  An owner is the css id and part of the css serial number
 * (ids are reused, serials never are); a folio's word also holds a hash
 * of the folio's mapping and index, so a stale word (a dirty folio
 * truncated and its pfn reused) is detected, as is a removed cgroup, and
 * the bio keeps today's association.  css pointers are never stored, so
 * rmdir needs no help.
 *
 * A re-charged bio sits in blk-throttle while its folios stay under
 * writeback, and the filesystem resources tied to them (ext4's reserved
 * journal credits for unwritten extent conversion, ordered data) are
 * shared: a deep backlog of one throttled cgroup stalls its siblings'
 * fsync.  So blkowner also counts each owner's re-charged bytes in flight
 * and, in the dirty_throttle hook, pauses a task of that cgroup that dirties
 * more while the backlog is above dirty_backlog_kb and held back by
 * blk-throttle, on the task's way back to user space, where it holds no
 * lock: the throttle then applies where the pages are dirtied, as it
 * does for direct I/O.
 *
 * Swap: blk-throttle sees swap-out associated with the folio's memory
 * cgroup, which on v1 with blkio mounted apart from memory (as systemd
 * mounts them) has no blkio controller: the root.  So blkowner also
 * stores, when a folio becomes a process's anonymous memory (a fault, a
 * copy on write, a swap-in), the io/blkio cgroup of the task that faulted
 * (of the mm's owner when the faulting task is not in that mm: a huge page
 * khugepaged collapses), and drops it when the folio is freed.  A swap-out
 * bio (REQ_SWAP) is re-charged to it like writeback; the word stays, since
 * a folio swapped out and faulted back in before it was reclaimed may be
 * swapped again.
 * blk-throttle never holds a REQ_SWAP bio (reclaim must progress): it
 * dispatches it and charges it to the cgroup as debt, which the cgroup's
 * later throttled I/O pays.  That is the rule for swap-out by kswapd or
 * by any task reclaiming for others.  The cgroup's own reclaim at its
 * memory limit (by its tasks, or by khugepaged charging it for a huge page)
 * waits for its writes, so holding them slows that cgroup alone: there
 * blkowner clears REQ_SWAP and blk-throttle queues the bio, and the task
 * waits, outside the hooks, while more than dirty_backlog_kb of them are
 * held.
 *
 * Not re-charged: metadata and journal bios (REQ_META, REQ_PRIO), sync
 * writeback done by another task (REQ_SYNC; optional, see exempt_sync),
 * pages of a block device that a filesystem holds (its metadata), and on
 * cgroup v2 bios that cgroup writeback already attributed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/blk-cgroup.h>
#include <linux/blk-hooks.h>
#include <linux/blkdev.h>
#include <linux/cgroup.h>
#include <linux/debugfs.h>
#include <linux/hash.h>
#include <linux/idr.h>
#include <linux/khugepaged.h>
#include <linux/kthread.h>
#include <linux/memcontrol.h>
#include <linux/mempool.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/swap.h>
#include <linux/wait.h>
#include <linux/writeback.h>
#include <linux/xarray.h>

#include "blkowner_table.h"

#define CREATE_TRACE_POINTS
#include "blkowner_trace.h"
#include "blkpolicy_param.h"

/*
 * Owner word layout: | serial:35 | id:20 | anon:1 | hash:7 | (63 bits).
 * The tag (anon and hash) names the folio the word was stored for.
 */
#define BO_HASH_BITS	7
#define BO_ANON		BIT(BO_HASH_BITS)
#define BO_TAG_BITS	(BO_HASH_BITS + 1)
#define BO_ID_BITS	20
#define BO_SERIAL_BITS	35

/*
 * A folio's owner that is the root group, in a file another cgroup owns:
 * an owner of id 0, which no css has.
 */
#define BO_OWNER_ROOT	BIT(BO_ID_BITS)

/*
 * A mapping's word (i_blk_owner): | mixed:1 | 0:8 | serial:35 | id:20 |,
 * the owner of its dirty folios that have no word of their own (0: the
 * root group).
 */
#define BO_MIXED	BIT(63)

enum bo_hier { BO_V1 = 1, BO_V2 = 2 };

static const char * const bo_hier_names[] = {
	[0] = "none",
	[BO_V1] = "v1",
	[BO_V2] = "v2",
	[BO_V1 | BO_V2] = "both",
};

enum bo_counter {
	BO_MAPPINGS_OWNED,
	BO_MAPPINGS_MIXED,
	BO_PAGES_TAGGED,
	BO_TAG_FAILED,
	BO_BIOS_RECHARGED,
	BO_BIOS_SPLIT,
	BO_BIOS_EXEMPT,
	BO_OWNER_NOT_FOUND,
	BO_OWNER_STALE,
	BO_DIRTIER_PAUSES,
	BO_DIRTIER_PAUSED_MS,
	BO_OWNERS_KEPT,
	BO_OWNERS_MIGRATED,
	BO_OWNERS_SPLIT,
	BO_ANON_TAGGED,
	BO_SWAP_RECHARGED,
	BO_SWAP_THROTTLED,
	BO_SWAP_PAUSES,
	BO_SWAP_PAUSED_MS,
	BO_NR_COUNTERS,
};

static const char * const bo_counter_names[BO_NR_COUNTERS] = {
	[BO_MAPPINGS_OWNED] = "mappings_owned",
	[BO_MAPPINGS_MIXED] = "mappings_mixed",
	[BO_PAGES_TAGGED] = "pages_tagged",
	[BO_TAG_FAILED] = "tag_failed",
	[BO_BIOS_RECHARGED] = "bios_recharged",
	[BO_BIOS_SPLIT] = "bios_split",
	[BO_BIOS_EXEMPT] = "bios_exempt",
	[BO_OWNER_NOT_FOUND] = "owner_not_found",
	[BO_OWNER_STALE] = "owner_stale",
	[BO_DIRTIER_PAUSES] = "dirtier_pauses",
	[BO_DIRTIER_PAUSED_MS] = "dirtier_paused_ms",
	[BO_OWNERS_KEPT] = "owners_kept",
	[BO_OWNERS_MIGRATED] = "owners_migrated",
	[BO_OWNERS_SPLIT] = "owners_split",
	[BO_ANON_TAGGED] = "anon_tagged",
	[BO_SWAP_RECHARGED] = "swap_bios_recharged",
	[BO_SWAP_THROTTLED] = "swap_bios_throttled",
	[BO_SWAP_PAUSES] = "swap_pauses",
	[BO_SWAP_PAUSED_MS] = "swap_paused_ms",
};

/*
 * Re-charged writeback in flight of one cgroup, for the dirty throttle.
 * One per css id seen at submission, kept until unload: ids are allocated
 * smallest first, so there are never more than cgroups existed at once.
 */
struct bo_owner {
	unsigned long owner;		/* serial and id, see bo_owner_of() */
	atomic_long_t inflight;		/* bytes */
	spinlock_t lock;		/* charges */
	struct list_head charges;	/* in flight, oldest first */
};

/* A split front and the bio it was split from. */
struct bo_front {
	struct blk_hook_end_io end;
	struct bio *parent;
	struct bio bio;		/* last: bio_set front_pad */
};

/* One re-charged bio until it completes: what bo_charged_end_io() undoes. */
struct bo_charge {
	struct blk_hook_end_io end;	/* ours, in front of the bio's own */
	bio_end_io_t *end_io;
	void *private;
	struct bo_owner *o;
	struct bio *bio;		/* valid while on o->charges */
	unsigned int bytes;
	struct list_head node;
};

/*
 * Per CPU: pages are tagged and taken on every CPU that dirties or writes
 * back, and one shared cache line per page would bounce between them.
 * entries is the number of tagged folios: the sum over CPUs, since a folio
 * is often tagged on one CPU and taken on another.
 */
struct bo_stats {
	u64 count[BO_NR_COUNTERS];
	long entries;
};

static DEFINE_PER_CPU(struct bo_stats, bo_stats);

static bool bo_enabled = true;
static bool bo_swap = true;
static int bo_hierarchies = BO_V1;
static bool bo_v2_override;
static bool bo_exempt_sync = true;
static unsigned int bo_split_kb;
static unsigned int bo_backlog_kb = 4096;

static struct bio_set bo_split_set;
static DEFINE_XARRAY(bo_wb_owners);	/* css id -> struct bo_owner */
static mempool_t *bo_charge_pool;
static atomic_t bo_inflight = ATOMIC_INIT(0);
static atomic_long_t bo_inflight_bytes;	/* of every owner: a quick no */
static DECLARE_WAIT_QUEUE_HEAD(bo_inflight_wq);
static struct dentry *bo_debugfs;

static inline void bo_inc(enum bo_counter c)
{
	this_cpu_inc(bo_stats.count[c]);
}

static u64 bo_sum(enum bo_counter c)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(bo_stats.count[c], cpu);
	return sum;
}

/*
 * With page_ext, words tagged before a reload are taken without having
 * been counted, so the sum can fall short, and below zero.
 */
static long bo_entries(void)
{
	long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(bo_stats.entries, cpu);
	return max(sum, 0L);
}

module_param_cb(enabled, &bp_bool_ops, &bo_enabled, 0600);
MODULE_PARM_DESC(enabled, "Track owners and re-charge writeback (default: 1)");
module_param_cb(swap, &bp_bool_ops, &bo_swap, 0600);
MODULE_PARM_DESC(swap,
		 "Track the owners of anonymous memory faulted in from now on and re-charge its swap-out to them (default: 1)");
module_param_cb(exempt_sync, &bp_bool_ops, &bo_exempt_sync, 0600);
MODULE_PARM_DESC(exempt_sync,
		 "Leave REQ_SYNC writeback (fsync, sync, journal ordered data) charged to its submitter (default: 1)");
module_param_cb(v2_override, &bp_bool_ops, &bo_v2_override, 0600);
MODULE_PARM_DESC(v2_override,
		 "On cgroup v2, page ownership overrides the owner cgroup writeback gave the bio (default: 0)");

static struct bp_uint bo_split_kb_param = {
	.value = &bo_split_kb, .min = 4, .max = 4096, .step = 4, .zero_off = true,
};
module_param_cb(split_kb, &bp_uint_ops, &bo_split_kb_param, 0600);
MODULE_PARM_DESC(split_kb,
		 "Send re-charged writeback in bios of at most this many KiB (default 0: as built). blk-throttle admits a whole bio at once, so 1 MiB bios under a 1 MiB/s limit move the rate in whole-second steps");

static struct bp_uint bo_backlog_kb_param = {
	.value = &bo_backlog_kb, .min = 64, .max = 4194304, .zero_off = true,
};
module_param_cb(dirty_backlog_kb, &bp_uint_ops, &bo_backlog_kb_param, 0600);
MODULE_PARM_DESC(dirty_backlog_kb,
		 "Pause a task dirtying pages, or swapping out its own cgroup's memory at the limit, while blk-throttle holds more than this many KiB of its cgroup's re-charged writes (default 4096; 0: never)");

static struct bp_words bo_hier_words = {
	&bo_hierarchies, bo_hier_names, ARRAY_SIZE(bo_hier_names)
};
module_param_cb(hierarchies, &bp_words_ops, &bo_hier_words, 0600);
MODULE_PARM_DESC(hierarchies,
		 "Which io controller hierarchy to track: v1 (blkio, default), v2 (io), both, none");

/* What names @folio in its word: its kind and a hash of where it is. */
static unsigned long bo_folio_tag(struct folio *folio)
{
	return (folio_test_anon(folio) ? BO_ANON : 0) |
	       hash_long((unsigned long)folio->mapping ^ folio->index,
			 BO_HASH_BITS);
}

static bool bo_word_fits(unsigned long v, struct folio *folio)
{
	return (v & GENMASK(BO_TAG_BITS - 1, 0)) == bo_folio_tag(folio);
}

/* A cgroup as an owner: part of its serial number and its id. */
static unsigned long bo_owner_of(struct cgroup_subsys_state *css)
{
	return ((css->serial_nr & GENMASK_ULL(BO_SERIAL_BITS - 1, 0)) <<
		BO_ID_BITS) | css->id;
}

static int bo_owner_id(unsigned long owner)
{
	return owner & GENMASK(BO_ID_BITS - 1, 0);
}

/* @css's owner word, 0 for the root (the default) or an id too large. */
static unsigned long bo_css_owner(struct cgroup_subsys_state *css)
{
	return css->parent && css->id < (1 << BO_ID_BITS) ? bo_owner_of(css) : 0;
}

/* The io controller's hierarchy is v2 if it is bound to the default one. */
static bool bo_hier_tracked(void)
{
	int want = READ_ONCE(bo_hierarchies);

	return want & (cgroup_subsys_on_dfl(io_cgrp_subsys) ? BO_V2 : BO_V1);
}

/*
 * Whether the io controller's hierarchy has no cgroup but its root: a
 * quick no for every bio, since nothing can be charged elsewhere.
 */
static bool bo_root_only(void)
{
	return atomic_read(&READ_ONCE(io_cgrp_subsys.root)->nr_cgrps) == 1;
}

/*
 * Metadata of a mounted filesystem lives in its block device's page cache;
 * throttling it by the dirtier would stall every user of the filesystem.
 */
static bool bo_mapping_tracked(struct address_space *mapping)
{
	struct inode *host = mapping->host;

	return !(host && S_ISBLK(host->i_mode) &&
		 READ_ONCE(I_BDEV(host)->bd_holder));
}

/* Whether the owners of what tasks dirty and fault in are tracked. */
static __always_inline bool bo_tracking(void)
{
	return READ_ONCE(bo_enabled) && bo_hier_tracked();
}

/*
 * The current task's cgroup as an owner: 0 for the root group (the
 * default owner) or an id too large to pack.  Called in an RCU-sched
 * section, where the per-page hooks run: every page fault and dirtied
 * page asks, and a preemptible kernel's rcu_read_lock() is a call.  The
 * css_set and the css are freed after a grace period all the same.
 */
static __always_inline unsigned long bo_current_css_owner(void)
{
	unsigned long owner;

	/* A loop worker writes its backing file for the cgroup it serves. */
	if (current->flags & PF_KTHREAD) {
		rcu_read_lock();
		owner = bo_css_owner(blk_hooks_current_css());
		rcu_read_unlock();
		return owner;
	}
	return bo_css_owner(task_css(current, io_cgrp_id));
}

/* bo_current_css_owner(), or 0 when not tracking; in an RCU-sched section. */
static __always_inline unsigned long bo_task_owner(void)
{
	return bo_tracking() ? bo_current_css_owner() : 0;
}

/*
 * The owner of anonymous memory faulted into @vma.  A task faulting in an
 * mm not its own does it for the mm's owner: khugepaged replaces a
 * process's pages with a huge page it collapses, access_remote_vm()
 * (ptrace, /proc/pid/mem) faults into the traced process.
 */
static unsigned long bo_anon_owner(struct vm_area_struct *vma)
{
	unsigned long owner = 0;
	struct task_struct *task;

	if (current->mm == vma->vm_mm)
		return bo_task_owner();
	if (!bo_tracking())
		return 0;
	rcu_read_lock();
	task = rcu_dereference(vma->vm_mm->owner);
	if (task)
		owner = bo_css_owner(task_css(task, io_cgrp_id));
	rcu_read_unlock();
	return owner;
}

/*
 * The owner of pages the current task dirties in @mapping, or 0; in an
 * RCU-sched section.
 */
static __always_inline unsigned long bo_current_owner(struct address_space *mapping)
{
	return bo_mapping_tracked(mapping) ? bo_task_owner() : 0;
}

/* Tag @folio with @owner; counts the entry, or the failure. */
static __always_inline bool bo_store_owner(struct folio *folio, unsigned long owner)
{
	int ret;

	ret = bo_table_store(folio, (owner << BO_TAG_BITS) | bo_folio_tag(folio));
	if (ret < 0) {
		bo_inc(BO_TAG_FAILED);
		return false;
	}
	if (!ret)
		this_cpu_inc(bo_stats.entries);
	return true;
}

/*
 * Whether @folio, just marked dirty, is the only folio of @mapping that is
 * dirty or under writeback: then no folio that a bio may yet carry is
 * charged to the mapping's owner, and the owner may change.  The two marks
 * cover a folio from the moment it turns dirty until its write completes:
 * the dirty mark is cleared only as the writeback one is set.  Called
 * with the i_pages lock held.
 */
static bool bo_mapping_idle(struct address_space *mapping, struct folio *folio)
{
	XA_STATE(xas, &mapping->i_pages, 0);
	void *entry;

	if (xa_marked(&mapping->i_pages, PAGECACHE_TAG_WRITEBACK))
		return false;
	xas_for_each_marked(&xas, entry, ULONG_MAX, PAGECACHE_TAG_DIRTY) {
		if (entry != folio)
			return false;
	}
	return true;
}

/*
 * @folio was dirtied by @owner, not the owner of @mapping, or the mapping
 * is mixed.  The dirtier becomes the owner of an idle mapping; otherwise
 * the mapping is mixed and the folio gets a word unless its dirtier is the
 * mapping's owner.
 */
static noinline void bo_mapping_dirtied(struct folio *folio,
					struct address_space *mapping,
					unsigned long owner)
{
	unsigned long w = mapping->i_blk_owner;

	if (!bo_mapping_tracked(mapping))
		return;
	if (!(w & BO_MIXED)) {
		if (bo_mapping_idle(mapping, folio)) {
			WRITE_ONCE(mapping->i_blk_owner, owner);
			bo_inc(BO_MAPPINGS_OWNED);
			trace_blkowner_mapping_owned(folio, bo_owner_id(owner));
			return;
		}
		w |= BO_MIXED;
		WRITE_ONCE(mapping->i_blk_owner, w);
		bo_inc(BO_MAPPINGS_MIXED);
		trace_blkowner_mapping_mixed(folio, bo_owner_id(w));
	}
	if (owner == (w & ~BO_MIXED))
		return;
	if (bo_store_owner(folio, owner ?: BO_OWNER_ROOT)) {
		bo_inc(BO_PAGES_TAGGED);
		trace_blkowner_tagged(folio, bo_owner_id(owner));
	}
}

/*
 * A folio of @mapping turned dirty.  Nothing is stored while its dirtier
 * owns the mapping, which is nearly always; the i_pages lock, held here,
 * orders every change of the mapping's word.
 */
static void bo_folio_dirtied(struct folio *folio,
			     struct address_space *mapping)
{
	unsigned long owner;

	if (!bo_tracking())
		return;
	owner = bo_current_css_owner();
	if (owner != READ_ONCE(mapping->i_blk_owner))
		bo_mapping_dirtied(folio, mapping, owner);
}

/*
 * A folio became anonymous memory of the current task: its swap-out is
 * the task's cgroup's.  Root-group memory stores nothing.
 */
static void bo_anon_folio_new(struct folio *folio, struct vm_area_struct *vma)
{
	unsigned long owner;

	if (!READ_ONCE(bo_swap))
		return;
	owner = bo_anon_owner(vma);
	if (owner && bo_store_owner(folio, owner)) {
		bo_inc(BO_ANON_TAGGED);
		trace_blkowner_anon_tagged(folio, bo_owner_id(owner));
	}
}

/* Freed: the pfn's next folio must not inherit the word. */
static void bo_anon_folio_free(struct folio *folio)
{
	if (!bo_table_empty() && bo_table_take(folio))
		this_cpu_dec(bo_stats.entries);
}

/*
 * The owner of @folio, anonymous memory being swapped out, or 0.  The word
 * is left in place: a folio faulted back in before it was reclaimed may be
 * swapped out again.  A word that is not this folio's was stored for a
 * page-cache folio at this pfn and never taken (truncated while dirty).
 */
static unsigned long bo_swap_owner(struct folio *folio)
{
	unsigned long v;

	if (!READ_ONCE(bo_swap) || !folio_test_swapcache(folio) ||
	    !folio_test_writeback(folio))
		return 0;
	v = bo_table_peek(folio);
	if (!v)
		return 0;
	if (!bo_word_fits(v, folio)) {
		if (bo_table_take(folio))
			this_cpu_dec(bo_stats.entries);
		bo_inc(BO_OWNER_STALE);
		trace_blkowner_owner_stale(folio, bo_owner_id(v >> BO_TAG_BITS));
		return 0;
	}
	return v >> BO_TAG_BITS;
}

/*
 * What a walk over a bio's folios keeps at hand: the table's cursor, and
 * the last mapping with the owner of its folios that have no word.
 */
struct bo_walker {
	struct bo_cursor cur;
	struct address_space *mapping;
	unsigned long owner;
	bool mixed;
};

/*
 * The owner of @mapping's folios that have no word of their own.  A block
 * device's mapping that a filesystem holds now may have been given one
 * before it was mounted.
 */
static __always_inline void bo_walker_mapping(struct bo_walker *w,
					      struct address_space *mapping)
{
	unsigned long owner = READ_ONCE(mapping->i_blk_owner);

	w->mapping = mapping;
	w->mixed = owner & BO_MIXED;
	w->owner = bo_mapping_tracked(mapping) ? owner & ~BO_MIXED : 0;
}

/*
 * The owner of @folio (css serial and id, without the tag), or 0, for a
 * walk in its RCU-sched section: its mapping's, unless the mapping is
 * mixed and the folio has a word of its own.
 * A word is consumed: the folio is clean and under writeback now, and
 * if it is dirtied again the hook stores a fresh one for its next
 * writeback.  A folio not under writeback is in the bio as a direct I/O
 * buffer (a mapped file): the write belongs to its submitter, and the
 * word to the folio's own writeback later.
 *
 * Filesystems clear the dirty bit before they build the bio, so a folio
 * can be dirtied again before it is submitted here; the entry taken is
 * then also its next writeback's, and is put back unless a newer one is
 * there.  The dirty hook sets the dirty bit before it stores, and the
 * take is a full barrier before the test: whichever of the two stores
 * lands last, the folio is left with an owner.
 */
static __always_inline unsigned long bo_take_owner(struct bo_walker *w,
						   struct folio *folio)
{
	unsigned long v;

	if (folio_test_anon(folio))
		return bo_swap_owner(folio);
	if (!folio->mapping || !folio_test_writeback(folio))
		return 0;
	if (folio->mapping != w->mapping)
		bo_walker_mapping(w, folio->mapping);
	if (!w->mixed)
		return w->owner;
	v = bo_cursor_take(&w->cur, folio);
	if (!v)
		return w->owner;
	/* A word left by a folio truncated dirty; this one stored none. */
	if (!bo_word_fits(v, folio)) {
		this_cpu_dec(bo_stats.entries);
		bo_inc(BO_OWNER_STALE);
		trace_blkowner_owner_stale(folio, bo_owner_id(v >> BO_TAG_BITS));
		return w->owner;
	}
	if (folio_test_dirty(folio) && !bo_table_restore(folio, v))
		bo_inc(BO_OWNERS_KEPT);
	else
		this_cpu_dec(bo_stats.entries);
	v >>= BO_TAG_BITS;
	return v == BO_OWNER_ROOT ? 0 : v;
}

/*
 * Migration: the owner moves with the folio's contents, dirty state and,
 * for anonymous memory, its anon_vma and index.
 */
static void bo_folio_migrate(struct folio *dst, struct folio *src)
{
	unsigned long v;
	int ret;

	if (bo_table_empty())
		return;
	v = bo_table_take(src);
	if (!v)
		return;
	ret = bo_table_store(dst, v);
	if (ret)	/* not stored, or replaced a (stale) word */
		this_cpu_dec(bo_stats.entries);
	if (ret < 0)
		bo_inc(BO_TAG_FAILED);
	else
		bo_inc(BO_OWNERS_MIGRATED);
}

/*
 * A large folio split: each part still in the page cache and dirty, or
 * still anonymous memory, gets the first part's owner, with its own tag.
 */
static void bo_folio_split(struct folio *folio, int old_order, int new_order)
{
	unsigned long v, owner, i, step = 1UL << new_order;
	bool anon = folio_test_anon(folio);
	struct folio *part;

	if (bo_table_empty() || !folio->mapping)
		return;
	v = bo_table_peek(folio);
	if (!v || !bo_word_fits(v, folio))
		return;
	owner = v >> BO_TAG_BITS;
	for (i = step; i < 1UL << old_order; i += step) {
		part = page_folio(folio_page(folio, i));
		if (part->mapping != folio->mapping ||
		    (!anon && !folio_test_dirty(part)))
			continue;
		if (bo_store_owner(part, owner))
			bo_inc(BO_OWNERS_SPLIT);
	}
}

/*
 * The in-flight record of @owner, created on first use.  A record whose
 * css id was reused by a new cgroup passes to it once the old cgroup's
 * bios have completed; until then the new one's bios go uncounted.
 */
static struct bo_owner *bo_wb_owner(unsigned long owner, gfp_t gfp)
{
	unsigned long id = bo_owner_id(owner), cur;
	struct bo_owner *o, *old;

	o = xa_load(&bo_wb_owners, id);
	if (!o) {
		o = kzalloc(sizeof(*o), gfp);
		if (!o)
			return NULL;
		o->owner = owner;
		spin_lock_init(&o->lock);
		INIT_LIST_HEAD(&o->charges);
		old = xa_cmpxchg(&bo_wb_owners, id, NULL, o, gfp);
		if (old) {
			kfree(o);
			if (xa_is_err(old))
				return NULL;
			o = old;
		}
	}
	cur = READ_ONCE(o->owner);
	if (cur != owner) {
		if (atomic_long_read(&o->inflight))
			return NULL;
		if (cmpxchg(&o->owner, cur, owner) != cur &&
		    READ_ONCE(o->owner) != owner)
			return NULL;
	}
	return o;
}

/*
 * The last step of our completion handlers.  A handler still has its
 * return ahead of it in the module's code when exit wakes up; it runs
 * under blk_hooks_end_io(), whose barrier exit waits for.
 */
static void bo_inflight_put(void)
{
	if (atomic_dec_and_test(&bo_inflight))
		wake_up(&bo_inflight_wq);
}

static void bo_charged_end_io(struct bio *bio)
{
	struct bo_charge *c = container_of(bio->bi_private, struct bo_charge,
					   end);
	struct bo_owner *o = c->o;
	unsigned long flags;

	bio->bi_end_io = c->end_io;
	bio->bi_private = c->private;
	spin_lock_irqsave(&o->lock, flags);
	list_del(&c->node);
	spin_unlock_irqrestore(&o->lock, flags);
	atomic_long_sub(c->bytes, &o->inflight);
	atomic_long_sub(c->bytes, &bo_inflight_bytes);
	mempool_free(c, bo_charge_pool);
	bio->bi_end_io(bio);
	bo_inflight_put();
}

/*
 * Count @bio in @owner's backlog until it completes.  The bio keeps its
 * own completion; ours runs first and hands over to it.
 */
static void bo_account(struct bio *bio, unsigned long owner)
{
	gfp_t gfp = bio->bi_opf & REQ_NOWAIT ? GFP_NOWAIT : GFP_NOIO;
	struct bo_charge *c;
	struct bo_owner *o;

	/*
	 * Inside a submit_bio, the bios whose completion would give a record
	 * back may wait on current->bio_list behind this one: a wait for the
	 * pool could last forever.  Not counting one bio only loosens the
	 * dirty throttle's budget.
	 */
	if (current->bio_list)
		gfp = GFP_NOWAIT;

	if (!READ_ONCE(bo_backlog_kb) || !bio->bi_end_io || !bio->bi_iter.bi_size)
		return;
	o = bo_wb_owner(owner, gfp);
	if (!o)
		return;
	c = mempool_alloc(bo_charge_pool, gfp);
	if (!c)
		return;
	c->end_io = bio->bi_end_io;
	c->private = bio->bi_private;
	c->o = o;
	c->bio = bio;
	c->bytes = bio->bi_iter.bi_size;
	spin_lock_irq(&o->lock);
	list_add_tail(&c->node, &o->charges);
	spin_unlock_irq(&o->lock);
	atomic_long_add(c->bytes, &o->inflight);
	atomic_long_add(c->bytes, &bo_inflight_bytes);
	atomic_inc(&bo_inflight);
	c->end.fn = bo_charged_end_io;
	bio->bi_private = &c->end;
	bio->bi_end_io = blk_hooks_end_io;
}

/* Associate @bio with the cgroup @owner names; false if it is gone. */
static bool bo_associate(struct bio *bio, unsigned long owner)
{
	int id = bo_owner_id(owner);
	u64 serial = owner >> BO_ID_BITS;
	struct cgroup_subsys_state *css;
	bool found = false;

	rcu_read_lock();
	/* css_from_id() is not exported; it is this lookup. */
	css = idr_find(&io_cgrp_subsys.css_idr, id);
	if (css && (css->serial_nr & GENMASK_ULL(BO_SERIAL_BITS - 1, 0)) ==
		   serial && css_tryget_online(css))
		found = true;
	rcu_read_unlock();
	if (!found) {
		bo_inc(BO_OWNER_NOT_FOUND);
		trace_blkowner_owner_not_found(bio, id);
		return false;
	}
	bio_associate_blkg_from_css(bio, css);
	bo_inc(BO_BIOS_RECHARGED);
	if (bio->bi_opf & REQ_SWAP)
		bo_inc(BO_SWAP_RECHARGED);
	trace_blkowner_recharged(bio, css);
	css_put(css);
	bo_account(bio, owner);
	return true;
}

/*
 * @owner's in-flight record if it has one and it is still @owner's (not
 * passed to a cgroup that reused the id).  Records live until unload,
 * which first unregisters the hooks that call this.
 */
static struct bo_owner *bo_wb_owner_of(unsigned long owner)
{
	struct bo_owner *o = xa_load(&bo_wb_owners, bo_owner_id(owner));

	return o && READ_ONCE(o->owner) == owner ? o : NULL;
}

/*
 * Bytes of @o's re-charged writeback that blk-throttle holds: bios that
 * have not left submit_bio_noacct() for the driver yet, so their issue
 * time (blkcg_bio_issue_init() in submit_bio_noacct_nocheck()) is unset.
 * A cgroup whose bios merely complete slowly holds none.
 */
static long bo_held_bytes(struct bo_owner *o)
{
	struct bo_charge *c;
	long held = 0;

	spin_lock_irq(&o->lock);
	list_for_each_entry(c, &o->charges, node) {
		if (!READ_ONCE(c->bio->bi_issue.value))
			held += c->bytes;
	}
	spin_unlock_irq(&o->lock);
	return held;
}

/* How long one pause lasts before the backlog is checked again. */
#define BO_PAUSE	(HZ / 20)

/*
 * Pace a task that reclaims its own cgroup's memory (or khugepaged, for
 * it), as bo_dirty_throttle() paces a dirtier: v1 limit reclaim starts
 * writeback on every folio it meets before it waits for any, so unpaced
 * it puts its whole limit under blk-throttle in one burst (32 MiB for a
 * 32 MiB limit) and the swap disk's rate depends on where a window falls
 * in it.  The task is paced in its reclaim, where v1 limit reclaim also
 * waits for the writeback of folios it meets again, but right after the
 * hooks return, outside their SRCU section: before @bio joins the queue,
 * it waits while blk-throttle holds more than the backlog budget of the
 * owner's writes (bo_submit_pause()).  Not inside a stacked driver's
 * submit_bio (current->bio_list), where the wait would hold up others.
 */
static void bo_swap_pace(struct bio *bio, unsigned long owner)
{
	long budget = (long)READ_ONCE(bo_backlog_kb) << 10;
	struct bo_owner *o;

	if (!budget || current->bio_list)
		return;
	o = bo_wb_owner_of(owner);
	/* @bio is counted but not queued yet: it waits on the others. */
	if (o && bo_held_bytes(o) - bio->bi_iter.bi_size > budget)
		blk_hooks_pause_after_submit();
}

/* The pause bo_swap_pace() asked for, slept outside the hooks' section. */
static int bo_submit_pause(struct bio *bio)
{
	long budget = (long)READ_ONCE(bo_backlog_kb) << 10;
	struct cgroup_subsys_state *css;
	unsigned long owner;
	struct bo_owner *o;
	long held;

	if (!budget || !READ_ONCE(bo_swap) ||
	    ((current->flags & PF_KTHREAD) && kthread_should_stop()))
		return 0;
	/* bo_submit() associated @bio with its owner's cgroup. */
	css = bio_blkcg_css(bio);
	owner = css ? bo_css_owner(css) : 0;
	o = owner ? bo_wb_owner_of(owner) : NULL;
	if (!o)
		return 0;
	held = bo_held_bytes(o) - bio->bi_iter.bi_size;
	if (held <= budget)
		return 0;
	bo_inc(BO_SWAP_PAUSES);
	this_cpu_add(bo_stats.count[BO_SWAP_PAUSED_MS],
		     jiffies_to_msecs(BO_PAUSE));
	trace_blkowner_swapper_paused(bo_owner_id(owner), held,
				      jiffies_to_msecs(BO_PAUSE));
	return BO_PAUSE;
}

/*
 * Whether swap-out bio @bio, re-charged to @owner, may wait in blk-throttle:
 * only when the owner's memory cgroup is reclaimed at its limit by a task
 * of the owner, or by khugepaged charging it for a huge page it collapses
 * for one (waiting there delays only collapses).  cgroup v1 limit reclaim
 * waits for the writeback of folios it has met before, so the owner
 * slows, and only the owner.  On a bio-based device (dm, md) the bio stays
 * a swap bio: dm limits swap bios in flight to keep reclaim going, and its
 * clone to the disk below comes here again.
 */
static bool bo_swap_throttle(struct bio *bio, unsigned long owner)
{
	struct mem_cgroup *memcg;
	unsigned long usage, max;
	bool at_limit = false, mine;

	if (current_is_kswapd() ||
	    bdev_test_flag(bio->bi_bdev, BD_HAS_SUBMIT_BIO))
		return false;
	rcu_read_lock_sched();
	mine = bo_task_owner() == owner;
	rcu_read_unlock_sched();
	if (!mine && !current_is_khugepaged())
		return false;
	rcu_read_lock();
	memcg = folio_memcg(bio_first_folio_all(bio));
	if (memcg && memcg->css.parent) {
		usage = page_counter_read(&memcg->memory);
		max = READ_ONCE(memcg->memory.max);
		/* Reclaim has freed up to a batch below the limit by now. */
		at_limit = usage + (max >> 4) >= max;
	}
	rcu_read_unlock();
	return at_limit;
}

static bool bo_bio_exempt(struct bio *bio)
{
	if (bio->bi_opf & (REQ_META | REQ_PRIO))
		return true;
	/* Swap-out is reclaim's, whoever waits for it. */
	if ((bio->bi_opf & (REQ_SYNC | REQ_SWAP)) == REQ_SYNC &&
	    READ_ONCE(bo_exempt_sync))
		return true;
	/* cgroup writeback (v2 with memcg) already chose an owner. */
	if (cgroup_subsys_on_dfl(io_cgrp_subsys) && !READ_ONCE(bo_v2_override) &&
	    bio->bi_blkg && bio_blkcg_css(bio)->parent)
		return true;
	return false;
}

static void bo_split_end_io(struct bio *front)
{
	struct bio *parent = container_of(front, struct bo_front, bio)->parent;

	if (front->bi_status && !parent->bi_status)
		parent->bi_status = front->bi_status;
	bio_put(front);
	bio_endio(parent);
	bo_inflight_put();
}

/*
 * Send the first @bytes of @bio, owned by @owner, as a bio of their own and
 * leave @bio with the rest.  Like bio_chain(), but counted, so unload can
 * wait until no bio from our bio_set is left.  The front ends on a logical
 * block (zoned writes: on their granularity), as bio_split_rw() splits;
 * direct I/O buffers need only dma_alignment, so a run of one owner's
 * folios may end mid-block.  An atomic write is never torn.  Returns the
 * bytes sent, 0 if none.
 */
static unsigned int bo_submit_front(struct bio *bio, unsigned int bytes,
				    unsigned long owner)
{
	const struct queue_limits *lim = &bdev_get_queue(bio->bi_bdev)->limits;
	struct bo_front *f;
	struct bio *front;

	bytes = rounddown(bytes, lim->zone_write_granularity ?:
				 lim->logical_block_size);
	if (!bytes || bytes >= bio->bi_iter.bi_size ||
	    (bio->bi_opf & (REQ_ATOMIC | REQ_NOWAIT)))
		return 0;
	/* As bio_split_rw_at(): a split bio is not polled. */
	bio_clear_polled(bio);
	front = bio_split(bio, bytes >> SECTOR_SHIFT, GFP_NOIO, &bo_split_set);
	if (IS_ERR_OR_NULL(front))
		return 0;
	atomic_inc(&bo_inflight);
	bo_inc(BO_BIOS_SPLIT);
	trace_blkowner_split(front, bo_owner_id(owner));
	f = container_of(front, struct bo_front, bio);
	f->parent = bio;
	f->end.fn = bo_split_end_io;
	front->bi_private = &f->end;
	front->bi_end_io = blk_hooks_end_io;
	bio_inc_remaining(bio);
	if (owner)
		bo_associate(front, owner);
	submit_bio_noacct(front);
	return bytes;
}

/*
 * Whether @bio's folios were walked already.  A bio larger than the queue's
 * limits comes back through submit_bio_noacct() with the rest after each
 * piece is split off (bio_submit_split()): walking it again each time costs
 * time quadratic in the bio's size, and a second walk could take the entry
 * of a folio that was dirtied again meanwhile, which belongs to its next
 * writeback.
 * submit_bio_noacct_nocheck() marks every bio it queues, after this hook.
 * A stacking driver (dm) that sends a clone on to the device below while
 * it handles the bio (current->bio_list is set inside a submit_bio) sends
 * one the hook saw at its own device: the clone shares that bio's pages
 * and was given its association (dm_submit_bio_remap()), and a second
 * walk would find the folios' own owners taken and charge them all to
 * their mapping's.  A clone sent from elsewhere (a filesystem's own split
 * or mirror, md's and dm-crypt's workers) may be the first its pages see,
 * and is walked.  A swap-out clone is walked again too: a walk does not
 * take an anonymous folio's owner, and whether the owner's own reclaim may
 * wait in blk-throttle is decided at the disk (bo_swap_throttle()).  The
 * pieces we split off ourselves were charged when we split them.
 */
static bool bo_bio_walked(struct bio *bio)
{
	return bio_flagged(bio, BIO_TRACE_COMPLETION) ||
	       (bio_flagged(bio, BIO_CLONED) && current->bio_list &&
		!(bio->bi_opf & REQ_SWAP)) ||
	       bio->bi_pool == &bo_split_set;
}

/*
 * Take the owners of @bio's folios; return the owner of what is left in
 * @bio.  With @split, at each folio whose owner differs from the run so
 * far, the run goes out on its own; a block shared by two owners' folios
 * goes with the second one, and where no split is possible the run so
 * far keeps its owner.  Without, the owners are only dropped: an exempt
 * bio (fsync, sync, metadata) cleans its folios all the same, and clean
 * pages would otherwise keep their words until the pfn is tagged again.
 *
 * The walk goes over a copy of the iterator on the shared bvec table, so
 * splitting @bio under it is fine, a multi-page bvec at a time (a
 * writeback bio's folios are mostly contiguous) and in it a page at a
 * time.  It holds an RCU-sched section for the table, left while a run
 * is sent.
 */
static unsigned long bo_walk(struct bio *bio, bool split)
{
	unsigned int bytes = 0, sent, left, room, len;
	struct folio *folio, *prev = NULL;
	struct bo_walker w = { .mapping = NULL };
	unsigned long owner = 0, o;
	struct bvec_iter iter;
	struct bio_vec bv;
	struct page *page;

	rcu_read_lock_sched();
	bo_cursor_init(&w.cur);
	bio_for_each_bvec(bv, bio, iter) {
		page = nth_page(bv.bv_page, bv.bv_offset >> PAGE_SHIFT);
		room = PAGE_SIZE - offset_in_page(bv.bv_offset);
		for (left = bv.bv_len; left; left -= len) {
			len = min(room, left);
			folio = page_folio(page);
			if (folio != prev) {
				o = bo_take_owner(&w, folio);
				if (!prev) {
					owner = o;
				} else if (o != owner && split) {
					bo_cursor_put(&w.cur);
					bo_cursor_init(&w.cur);
					rcu_read_unlock_sched();
					sent = bo_submit_front(bio, bytes, owner);
					rcu_read_lock_sched();
					if (sent) {
						bytes -= sent;
						owner = o;
					}
				}
				prev = folio;
			}
			bytes += len;
			page = nth_page(page, 1);
			room = PAGE_SIZE;
		}
	}
	bo_cursor_put(&w.cur);
	rcu_read_unlock_sched();
	return owner;
}

static blk_status_t bo_submit(struct bio *bio)
{
	unsigned long owner;
	unsigned int split;

	if (!bo_tracking() || bio_op(bio) != REQ_OP_WRITE ||
	    !bio_has_data(bio) || bo_root_only() || bo_bio_walked(bio))
		return BLK_STS_OK;
	if (bo_bio_exempt(bio)) {
		bo_inc(BO_BIOS_EXEMPT);
		if (!bo_table_empty())
			bo_walk(bio, false);
		return BLK_STS_OK;
	}
	owner = bo_walk(bio, true);
	if (!owner)
		return BLK_STS_OK;
	split = READ_ONCE(bo_split_kb) << (10 - SECTOR_SHIFT);
	while (split && bio_sectors(bio) > split)
		if (!bo_submit_front(bio, split << SECTOR_SHIFT, owner))
			break;
	if (bo_associate(bio, owner) && (bio->bi_opf & REQ_SWAP) &&
	    bo_swap_throttle(bio, owner)) {
		bio->bi_opf &= ~REQ_SWAP;
		bo_inc(BO_SWAP_THROTTLED);
		bo_swap_pace(bio, owner);
	}
	return BLK_STS_OK;
}

/*
 * Pace a task that dirties pages while blk-throttle holds more than the
 * budget of its cgroup's re-charged writeback: without it the task fills
 * the page cache at memory speed and the flusher queues all of it behind
 * the throttle.  The hook core sleeps the pause on the task's way back to
 * user space (BLK_HOOK_RESUME, @mapping NULL), after write(2) dropped the
 * file's i_rwsem, outside the SRCU section, and asks again, so the task
 * goes on within BO_PAUSE of the backlog falling within the budget.
 */
static int bo_dirty_throttle(struct address_space *mapping, unsigned int flags)
{
	long budget = (long)READ_ONCE(bo_backlog_kb) << 10;
	unsigned long owner;
	struct bo_owner *o;

	if (!budget || atomic_long_read(&bo_inflight_bytes) <= budget)
		return 0;
	rcu_read_lock_sched();
	owner = mapping ? bo_current_owner(mapping) : bo_task_owner();
	rcu_read_unlock_sched();
	if (!owner)
		return 0;
	o = bo_wb_owner_of(owner);
	/* Held bytes are part of those in flight: count them only if need be. */
	if (!o || atomic_long_read(&o->inflight) <= budget ||
	    bo_held_bytes(o) <= budget)
		return 0;
	if (flags & BDP_ASYNC)
		return -EAGAIN;
	/* Without BLK_HOOK_SLEEP the core arms the pause: count it later. */
	if (!(flags & BLK_HOOK_SLEEP))
		return BO_PAUSE;
	bo_inc(BO_DIRTIER_PAUSES);
	trace_blkowner_dirtier_paused(bo_owner_id(owner),
				      atomic_long_read(&o->inflight),
				      jiffies_to_msecs(BO_PAUSE));
	this_cpu_add(bo_stats.count[BO_DIRTIER_PAUSED_MS],
		     jiffies_to_msecs(BO_PAUSE));
	return BO_PAUSE;
}

static struct blk_hook_ops bo_hook_ops = {
	.submit = bo_submit,
	.folio_dirtied = bo_folio_dirtied,
	.dirty_throttle = bo_dirty_throttle,
	.submit_pause = bo_submit_pause,
	.folio_migrate = bo_folio_migrate,
	.folio_split = bo_folio_split,
	.anon_folio_new = bo_anon_folio_new,
	.anon_folio_free = bo_anon_folio_free,
};

static int bo_stats_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < BO_NR_COUNTERS; i++)
		seq_printf(m, "%s %llu\n", bo_counter_names[i], bo_sum(i));
	seq_printf(m, "entries %ld\n", bo_entries());
	seq_printf(m, "inflight %d\n", atomic_read(&bo_inflight));
	bo_table_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(bo_stats);

static int __init bo_init(void)
{
	int ret;

	ret = bo_table_init();
	if (ret)
		return ret;
	bo_charge_pool = mempool_create_kmalloc_pool(BIO_POOL_SIZE,
						     sizeof(struct bo_charge));
	if (!bo_charge_pool) {
		ret = -ENOMEM;
		goto out_table;
	}
	/*
	 * Fronts are split off inside submit_bio, where the earlier fronts
	 * wait on current->bio_list: the rescuer sends those on when the pool
	 * runs dry, as for any stacking driver's bio_set.
	 */
	ret = bioset_init(&bo_split_set, BIO_POOL_SIZE,
			  offsetof(struct bo_front, bio), BIOSET_NEED_RESCUER);
	if (ret)
		goto out_pool;
	bo_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("stats", 0400, bo_debugfs, NULL, &bo_stats_fops);
	ret = blk_hooks_register(&bo_hook_ops);
	if (ret)
		goto out_debugfs;
	pr_info("loaded: hierarchies=%s store=%s\n",
		bo_hier_names[bo_hierarchies], bo_table_name());
	return 0;

out_debugfs:
	debugfs_remove_recursive(bo_debugfs);
	bioset_exit(&bo_split_set);
out_pool:
	mempool_destroy(bo_charge_pool);
out_table:
	bo_table_exit();
	return ret;
}

/*
 * Wait until no completion handler runs the module's code.  After the
 * count drops to zero a handler may still be returning, perhaps preempted
 * in a task (a driver completing from a workqueue); the core called it
 * through blk_hooks_end_io(), so the core's barrier outlasts it.
 */
static void bo_wait_handlers(void)
{
	wait_event(bo_inflight_wq, !atomic_read(&bo_inflight));
	blk_hooks_end_io_barrier();
}

static void __exit bo_exit(void)
{
	struct bo_owner *o;
	unsigned long id;

	blk_hooks_unregister(&bo_hook_ops);
	debugfs_remove_recursive(bo_debugfs);
	/* Split-off and counted bios end in our code. */
	bo_wait_handlers();
	xa_for_each(&bo_wb_owners, id, o)
		kfree(o);
	xa_destroy(&bo_wb_owners);
	mempool_destroy(bo_charge_pool);
	bioset_exit(&bo_split_set);
	bo_table_exit();
	pr_info("unloaded\n");
}

module_init(bo_init);
module_exit(bo_exit);
MODULE_DESCRIPTION("Charge writeback I/O to the cgroup that dirtied the page");
MODULE_LICENSE("GPL");
MODULE_VERSION(BLKPOLICY_VERSION);
