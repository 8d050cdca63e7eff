/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkowner's table of the owners of dirty folios: one word per folio, by
 * pfn.  See blkowner_table.c.  Storing and taking a word are inline: they
 * run for every page faulted in, dirtied, freed and written back.  They,
 * and their callers in blkowner.c on those paths, are always inlined:
 * left to itself the compiler made calls of them, which cost 0.2% of the
 * buffered-write bench (271651 against 272215 KiB/s, instruction clock).
 */
#ifndef BLKOWNER_TABLE_H
#define BLKOWNER_TABLE_H

#include <linux/atomic.h>
#include <linux/blk-hooks.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>

struct seq_file;

struct bo_chunk {
	atomic_t used;
	struct rcu_head rcu;
	unsigned long word[];
};

#define BO_CHUNK_WORDS	((PAGE_SIZE - sizeof(struct bo_chunk)) / \
			 sizeof(unsigned long))

extern struct bo_chunk __rcu **bo_dir;
extern unsigned long bo_dir_size;
extern atomic_long_t bo_nr_chunks;
extern bool bo_use_ext;

struct bo_chunk *bo_chunk_get_slow(unsigned long index);
void bo_chunk_release(struct bo_chunk *c, unsigned long index);

int bo_table_init(void);
void bo_table_exit(void);
int bo_table_restore(struct folio *folio, unsigned long v);
unsigned long bo_table_peek(struct folio *folio);
const char *bo_table_name(void);
void bo_table_show(struct seq_file *m);

/* Drop one count of @c; the last one unlinks and frees the chunk. */
static inline void bo_chunk_put(struct bo_chunk *c, unsigned long index)
{
	if (atomic_dec_and_test(&c->used))
		bo_chunk_release(c, index);
}

/*
 * The live chunk for @index with one count reserved for the caller,
 * allocated if there is none; NULL if no memory.
 */
static inline struct bo_chunk *bo_chunk_get(unsigned long index)
{
	struct bo_chunk *c;

	rcu_read_lock_sched();
	c = rcu_dereference_sched(bo_dir[index]);
	if (c && !atomic_inc_not_zero(&c->used))
		c = NULL;
	rcu_read_unlock_sched();
	return c ?: bo_chunk_get_slow(index);
}

/*
 * Store owner word @v (non-zero) for @folio.  Returns 1 if it replaced a
 * word, 0 if the folio had none, -ENOMEM if it could not be stored.
 */
static __always_inline int bo_table_store(struct folio *folio, unsigned long v)
{
	unsigned long pfn = folio_pfn(folio), index = pfn / BO_CHUNK_WORDS;
	struct bo_chunk *c;
	unsigned long old;

	if (bo_use_ext)
		return blk_page_ext_xchg(folio_page(folio, 0), v) != 0;
	if (index >= bo_dir_size)
		return -ENOMEM;
	c = bo_chunk_get(index);
	if (!c)
		return -ENOMEM;
	old = xchg(&c->word[pfn % BO_CHUNK_WORDS], v);
	if (!old)
		return 0;	/* the reserved count is now the word's */
	bo_chunk_put(c, index);	/* the replaced word's */
	return 1;
}

/* Take (and clear) the owner word of @folio; 0 if it has none. */
static __always_inline unsigned long bo_table_take(struct folio *folio)
{
	unsigned long pfn = folio_pfn(folio), index = pfn / BO_CHUNK_WORDS;
	unsigned long *word, v = 0;
	struct bo_chunk *c;

	if (bo_use_ext)
		return blk_page_ext_xchg(folio_page(folio, 0), 0);
	if (index >= bo_dir_size)
		return 0;
	rcu_read_lock_sched();
	c = rcu_dereference_sched(bo_dir[index]);
	if (c) {
		word = &c->word[pfn % BO_CHUNK_WORDS];
		/* Most folios of a bio with owners have one: no test first. */
		v = xchg(word, 0);
		if (v)
			bo_chunk_put(c, index);
	}
	rcu_read_unlock_sched();
	return v;
}

/* Whether no folio can have a word: a quick no for untracked writes. */
static inline bool bo_table_empty(void)
{
	return !bo_use_ext && !atomic_long_read(&bo_nr_chunks);
}

#endif
