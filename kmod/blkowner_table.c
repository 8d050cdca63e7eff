// SPDX-License-Identifier: GPL-2.0
/*
 * blkowner's owner words: one per dirty folio, found by the pfn of its
 * first page.  A word is stored when the folio turns dirty (under the
 * mapping's i_pages lock, IRQs off) and taken when it is submitted for
 * writeback (put back if the folio was dirtied again meanwhile); it moves
 * to the new pfn when the folio migrates and is copied to the parts when
 * a large folio splits.  0 means no owner.
 *
 * By default the words live in chunks of one page, 512 words for 512
 * consecutive pfns, found through a flat directory of one struct page
 * pointer per chunk (sized at load from the online nodes' spans: 20 KiB
 * for a 3 GiB guest whose pfns span 5 GiB).  A chunk comes from the page
 * allocator: in the dirtying path with IRQs off that is an order-0
 * GFP_NOWAIT allocation, which leaves the atomic reserves alone; densely
 * dirty memory costs 8 bytes a page, with no slab rounding; and the
 * chunk and the word of a pfn are a shift and a mask away.  A chunk is
 * allocated when its first word is stored and freed when its last is
 * taken, so clean memory costs nothing beyond the directory.  Both sides
 * read the directory slot under RCU and exchange one word; nothing takes
 * a lock (an xarray by pfn takes its lock and allocates or frees a node
 * for nearly every page).  Pages above the directory (memory hot-added
 * after load) are not tracked (tag_failed).
 *
 * Readers of the directory are RCU-sched sections (preemption off: two
 * instructions, where a preemptible kernel's rcu_read_lock() is a call
 * each way): the hook core's around the per-page hooks, the submission
 * walk's own.  call_rcu() waits for them as for any reader.
 *
 * A chunk's count, in its struct page, is its non-zero words plus the
 * storers between reserving a word and storing it; it reaches zero only
 * when every word is zero, and a chunk at zero is never used again
 * (atomic_long_inc_not_zero()), so freeing it after a grace period loses
 * no owner.  A walk over a bio's folios drops the counts of the words it
 * took from one chunk together (struct bo_cursor).
 *
 * Booted with blk_page_ext=on, the words live in page_ext instead (see
 * hooks.patch): 8 bytes of every page of RAM, allocated by the kernel at
 * boot, and no lookup beyond the page's own extension.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-hooks.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "blkowner_table.h"

struct page __rcu **bo_dir;
unsigned long bo_dir_size;
atomic_long_t bo_nr_chunks;
bool bo_use_ext;

static void bo_chunk_free_rcu(struct rcu_head *head)
{
	__free_page(container_of(head, struct page, rcu_head));
}

/* The last count of @c is gone: unlink and free the chunk. */
void bo_chunk_release(struct page *c, unsigned long index)
{
	/* A storer may have replaced the dead chunk already: then keep its. */
	cmpxchg(&bo_dir[index], RCU_INITIALIZER(c), NULL);
	atomic_long_dec(&bo_nr_chunks);
	call_rcu(&c->rcu_head, bo_chunk_free_rcu);
}

/*
 * The live chunk for @index with one count reserved for the caller,
 * allocated if there is none.  NULL if no memory: the caller runs with
 * IRQs off.  bo_chunk_get() tried the live one already.
 */
struct page *bo_chunk_get_slow(unsigned long index)
{
	struct page *c, *new = NULL, *old;

	for (;;) {
		c = rcu_dereference_sched(bo_dir[index]);
		if (c && atomic_long_inc_not_zero(bo_chunk_used(c)))
			break;
		/* None, or dead (at zero): install a new one in its place. */
		if (!new) {
			new = alloc_page(GFP_NOWAIT | __GFP_NOWARN | __GFP_ZERO);
			if (!new)
				break;
			atomic_long_set(bo_chunk_used(new), 1);
		}
		old = unrcu_pointer(cmpxchg(&bo_dir[index], RCU_INITIALIZER(c),
					    RCU_INITIALIZER(new)));
		if (old == c) {
			atomic_long_inc(&bo_nr_chunks);
			c = new;
			new = NULL;
			break;
		}
	}
	if (new)
		__free_page(new);
	return c;
}

/*
 * Store @v (non-zero) for @folio only if it has no word.  Returns 0 if
 * stored, 1 if the folio had a word (kept), -ENOMEM if it could not be
 * stored.
 */
int bo_table_restore(struct folio *folio, unsigned long v)
{
	unsigned long index, i = bo_slot(folio_pfn(folio), &index);
	struct page *c;

	if (bo_use_ext)
		return blk_page_ext_cmpxchg(folio_page(folio, 0), 0, v) != 0;
	if (index >= bo_dir_size)
		return -ENOMEM;
	c = bo_chunk_get(index);
	if (!c)
		return -ENOMEM;
	if (!cmpxchg(bo_chunk_word(c, i), 0, v))
		return 0;	/* the reserved count is now the word's */
	bo_chunk_put(c, index);
	return 1;
}

/* The owner word of @folio, left in place; 0 if it has none. */
unsigned long bo_table_peek(struct folio *folio)
{
	unsigned long index, i = bo_slot(folio_pfn(folio), &index);
	struct page *c;

	if (bo_use_ext)
		return blk_page_ext_cmpxchg(folio_page(folio, 0), 0, 0);
	if (index >= bo_dir_size)
		return 0;
	c = rcu_dereference_sched(bo_dir[index]);
	return c ? READ_ONCE(*bo_chunk_word(c, i)) : 0;
}

const char *bo_table_name(void)
{
	return bo_use_ext ? "page_ext" : "pfn_table";
}

/*
 * The store and its memory: what the words of tracked folios take now,
 * and what is held whatever is tracked (the directory).
 */
void bo_table_show(struct seq_file *m)
{
	unsigned long bytes = 0, fixed;

	if (bo_use_ext) {
		fixed = totalram_pages() * sizeof(unsigned long);
	} else {
		bytes = atomic_long_read(&bo_nr_chunks) * PAGE_SIZE;
		fixed = bo_dir_size * sizeof(*bo_dir);
	}
	seq_printf(m, "store %s\n", bo_table_name());
	seq_printf(m, "store_bytes %lu\n", bytes);
	seq_printf(m, "store_fixed_bytes %lu\n", fixed);
}

int bo_table_init(void)
{
	unsigned long end_pfn = 0;
	int nid;

	bo_use_ext = blk_page_ext_enabled();
	if (bo_use_ext)
		return 0;
	for_each_online_node(nid)
		end_pfn = max(end_pfn, node_end_pfn(nid));
	bo_dir_size = DIV_ROUND_UP(end_pfn, BO_CHUNK_WORDS);
	bo_dir = kvcalloc(bo_dir_size, sizeof(*bo_dir), GFP_KERNEL);
	return bo_dir ? 0 : -ENOMEM;
}

/* After the hooks are gone: nothing stores or takes any more. */
void bo_table_exit(void)
{
	struct page *c;
	unsigned long index;

	if (bo_use_ext)
		return;
	for (index = 0; index < bo_dir_size; index++) {
		c = rcu_dereference_protected(bo_dir[index], true);
		if (c) {
			set_page_private(c, 0);
			__free_page(c);
		}
	}
	rcu_barrier();	/* chunks freed by bo_chunk_put() */
	kvfree(bo_dir);
}
