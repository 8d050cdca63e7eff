// SPDX-License-Identifier: GPL-2.0
/*
 * blkowner's owner words: one per dirty folio, found by the pfn of its
 * first page.  A word is stored when the folio turns dirty (under the
 * mapping's i_pages lock, IRQs off) and taken when it is submitted for
 * writeback (put back if the folio was dirtied again meanwhile); it moves
 * to the new pfn when the folio migrates and is copied to the parts when
 * a large folio splits.  0 means no owner.
 *
 * By default the words live in chunks of one page (509 words and a
 * header), each covering 509 consecutive pfns, found through a flat
 * directory of one pointer per chunk (sized at load from the online
 * nodes' spans: 20 KiB for a 3 GiB guest whose pfns span 5 GiB).  A chunk
 * is one page so that its allocation, in the dirtying path with IRQs off,
 * is an order-0 GFP_NOWAIT one that leaves the atomic reserves alone.  A
 * chunk is allocated when its first word is stored and freed when its
 * last is taken, so clean memory costs nothing beyond the directory, and
 * densely dirty memory 8 bytes a page.  Both sides read the directory
 * slot under RCU and exchange one word; nothing takes a lock (an xarray by
 * pfn takes its lock and allocates or frees a node for nearly every page).  Pages above
 * the directory (memory hot-added after load) are not tracked
 * (tag_failed).
 *
 * Readers of the directory are RCU-sched sections (preemption off: two
 * instructions, where a preemptible kernel's rcu_read_lock() is a call
 * each way); call_rcu() waits for them as for any reader.
 *
 * A chunk's used count is its non-zero words plus the storers between
 * reserving a word and storing it; it reaches zero only when every word
 * is zero, and a chunk at zero is never used again (atomic_inc_not_zero),
 * so freeing it after a grace period loses no owner.
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

#define BO_CHUNK_SIZE	struct_size_t(struct bo_chunk, word, BO_CHUNK_WORDS)

struct bo_chunk __rcu **bo_dir;
unsigned long bo_dir_size;
atomic_long_t bo_nr_chunks;
bool bo_use_ext;
static struct kmem_cache *bo_chunk_cache;

static void bo_chunk_free_rcu(struct rcu_head *head)
{
	kmem_cache_free(bo_chunk_cache, container_of(head, struct bo_chunk, rcu));
}

/* The last count of @c is gone: unlink and free the chunk. */
void bo_chunk_release(struct bo_chunk *c, unsigned long index)
{
	/* A storer may have replaced the dead chunk already: then keep its. */
	cmpxchg(&bo_dir[index], RCU_INITIALIZER(c), NULL);
	atomic_long_dec(&bo_nr_chunks);
	call_rcu(&c->rcu, bo_chunk_free_rcu);
}

/*
 * The live chunk for @index with one count reserved for the caller,
 * allocated if there is none.  NULL if no memory: the caller runs with
 * IRQs off.  bo_chunk_get() tried the live one already.
 */
struct bo_chunk *bo_chunk_get_slow(unsigned long index)
{
	struct bo_chunk *c, *new = NULL, *old;

	rcu_read_lock_sched();
	for (;;) {
		c = rcu_dereference_sched(bo_dir[index]);
		if (c && atomic_inc_not_zero(&c->used))
			break;
		/* None, or dead (at zero): install a new one in its place. */
		if (!new) {
			new = kmem_cache_zalloc(bo_chunk_cache,
						GFP_NOWAIT | __GFP_NOWARN);
			if (!new)
				break;
			atomic_set(&new->used, 1);
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
	rcu_read_unlock_sched();
	if (new)
		kmem_cache_free(bo_chunk_cache, new);
	return c;
}

/*
 * Store @v (non-zero) for @folio only if it has no word.  Returns 0 if
 * stored, 1 if the folio had a word (kept), -ENOMEM if it could not be
 * stored.
 */
int bo_table_restore(struct folio *folio, unsigned long v)
{
	unsigned long pfn = folio_pfn(folio), index = pfn / BO_CHUNK_WORDS;
	struct bo_chunk *c;

	if (bo_use_ext)
		return blk_page_ext_cmpxchg(folio_page(folio, 0), 0, v) != 0;
	if (index >= bo_dir_size)
		return -ENOMEM;
	c = bo_chunk_get(index);
	if (!c)
		return -ENOMEM;
	if (!cmpxchg(&c->word[pfn % BO_CHUNK_WORDS], 0, v))
		return 0;	/* the reserved count is now the word's */
	bo_chunk_put(c, index);
	return 1;
}

/* The owner word of @folio, left in place; 0 if it has none. */
unsigned long bo_table_peek(struct folio *folio)
{
	unsigned long pfn = folio_pfn(folio), index = pfn / BO_CHUNK_WORDS;
	struct bo_chunk *c;
	unsigned long v = 0;

	if (bo_use_ext)
		return blk_page_ext_cmpxchg(folio_page(folio, 0), 0, 0);
	if (index >= bo_dir_size)
		return 0;
	rcu_read_lock_sched();
	c = rcu_dereference_sched(bo_dir[index]);
	if (c)
		v = READ_ONCE(c->word[pfn % BO_CHUNK_WORDS]);
	rcu_read_unlock_sched();
	return v;
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
		bytes = atomic_long_read(&bo_nr_chunks) *
			kmem_cache_size(bo_chunk_cache);
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
	if (!bo_dir)
		return -ENOMEM;
	bo_chunk_cache = kmem_cache_create("blkowner_chunk", BO_CHUNK_SIZE,
					   0, 0, NULL);
	if (!bo_chunk_cache) {
		kvfree(bo_dir);
		return -ENOMEM;
	}
	return 0;
}

/* After the hooks are gone: nothing stores or takes any more. */
void bo_table_exit(void)
{
	struct bo_chunk *c;
	unsigned long index;

	if (bo_use_ext)
		return;
	for (index = 0; index < bo_dir_size; index++) {
		c = rcu_dereference_protected(bo_dir[index], true);
		if (c)
			kmem_cache_free(bo_chunk_cache, c);
	}
	rcu_barrier();	/* chunks freed by bo_chunk_put() */
	kmem_cache_destroy(bo_chunk_cache);
	kvfree(bo_dir);
}
