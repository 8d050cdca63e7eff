/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkowner's table of the owners of dirty folios: one word per folio, by
 * pfn.  See blkowner_table.c.  Storing and taking a word are inline: they
 * run for every page faulted in, dirtied, freed and written back.  They,
 * and their callers in blkowner.c on those paths, are always inlined:
 * left to itself the compiler made calls of them, a measurable cost on
 * the buffered-write bench (docs/blkowner.md).
 */
#ifndef BLKOWNER_TABLE_H
#define BLKOWNER_TABLE_H

#include <linux/atomic.h>
#include <linux/blk-hooks.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>

struct seq_file;

/*
 * A chunk is one page of words, for as many consecutive pfns: the chunk of
 * a pfn is a shift away and densely dirty memory costs 8 bytes a page.
 * The directory points to the chunk's struct page, which holds its count
 * (page->private, the page's owner's to use) and the rcu_head that frees
 * it.
 */
#define BO_CHUNK_SHIFT	(PAGE_SHIFT - ilog2(sizeof(unsigned long)))
#define BO_CHUNK_WORDS	BIT(BO_CHUNK_SHIFT)

extern struct page __rcu **bo_dir;
extern unsigned long bo_dir_size;
extern atomic_long_t bo_nr_chunks;
extern bool bo_use_ext;

struct page *bo_chunk_get_slow(unsigned long index);
void bo_chunk_release(struct page *c, unsigned long index);

int bo_table_init(void);
void bo_table_exit(void);
int bo_table_restore(struct folio *folio, unsigned long v);
unsigned long bo_table_peek(struct folio *folio);
const char *bo_table_name(void);
void bo_table_show(struct seq_file *m);

/*
 * Every function here is called in an RCU-sched section: the per-page
 * hooks run in the hook core's, the submission walk holds its own.
 */

/* The chunk of @pfn in the directory, and the word's place in it. */
static __always_inline unsigned long bo_slot(unsigned long pfn,
					     unsigned long *index)
{
	*index = pfn >> BO_CHUNK_SHIFT;
	return pfn & (BO_CHUNK_WORDS - 1);
}

static __always_inline unsigned long *bo_chunk_word(struct page *c,
						    unsigned long i)
{
	return (unsigned long *)page_address(c) + i;
}

/*
 * The chunk's count: its non-zero words plus the storers between
 * reserving a word and storing it.
 */
static __always_inline atomic_long_t *bo_chunk_used(struct page *c)
{
	return (atomic_long_t *)&c->private;
}

/* Drop one count of @c; the last one unlinks and frees the chunk. */
static inline void bo_chunk_put(struct page *c, unsigned long index)
{
	if (atomic_long_dec_and_test(bo_chunk_used(c)))
		bo_chunk_release(c, index);
}

/*
 * The live chunk for @index with one count reserved for the caller,
 * allocated if there is none; NULL if no memory.
 */
static inline struct page *bo_chunk_get(unsigned long index)
{
	struct page *c = rcu_dereference_sched(bo_dir[index]);

	if (c && atomic_long_inc_not_zero(bo_chunk_used(c)))
		return c;
	return bo_chunk_get_slow(index);
}

/*
 * Store owner word @v (non-zero) for @folio.  Returns 1 if it replaced a
 * word, 0 if the folio had none, -ENOMEM if it could not be stored.
 */
static __always_inline int bo_table_store(struct folio *folio, unsigned long v)
{
	unsigned long index, i = bo_slot(folio_pfn(folio), &index);
	struct page *c;

	if (bo_use_ext)
		return blk_page_ext_xchg(folio_page(folio, 0), v) != 0;
	if (index >= bo_dir_size)
		return -ENOMEM;
	c = bo_chunk_get(index);
	if (!c)
		return -ENOMEM;
	if (!xchg(bo_chunk_word(c, i), v))
		return 0;	/* the reserved count is now the word's */
	bo_chunk_put(c, index);	/* the replaced word's */
	return 1;
}

/*
 * A walk over the folios of a bio takes their words through a cursor:
 * the chunk of the last pfn stays at hand, and the counts of the words
 * taken from it are dropped together when the walk moves to another
 * chunk or ends (a writeback bio's folios are mostly consecutive pfns).
 * The counts held keep the chunk alive; one that died before the walk
 * came to it has only zero words left.
 */
struct bo_cursor {
	struct page *c;
	unsigned long *words;
	unsigned long index;
	unsigned int taken;
};

static __always_inline void bo_cursor_init(struct bo_cursor *cur)
{
	cur->c = NULL;
	cur->index = ULONG_MAX;
	cur->taken = 0;
}

/* Drop the counts of the words taken from the chunk at hand. */
static __always_inline void bo_cursor_put(struct bo_cursor *cur)
{
	if (cur->taken &&
	    atomic_long_sub_and_test(cur->taken, bo_chunk_used(cur->c)))
		bo_chunk_release(cur->c, cur->index);
	cur->taken = 0;
}

/* Take (and clear) the owner word of @folio, in a walk; 0 if it has none. */
static __always_inline unsigned long bo_cursor_take(struct bo_cursor *cur,
						    struct folio *folio)
{
	unsigned long index, i = bo_slot(folio_pfn(folio), &index), v;

	if (bo_use_ext)
		return blk_page_ext_xchg(folio_page(folio, 0), 0);
	if (index != cur->index) {
		bo_cursor_put(cur);
		cur->index = index;
		cur->c = index < bo_dir_size ?
			 rcu_dereference_sched(bo_dir[index]) : NULL;
		if (cur->c)
			cur->words = page_address(cur->c);
	}
	if (!cur->c)
		return 0;
	v = xchg(&cur->words[i], 0);
	if (v)
		cur->taken++;
	return v;
}

/* Take (and clear) the owner word of @folio; 0 if it has none. */
static __always_inline unsigned long bo_table_take(struct folio *folio)
{
	struct bo_cursor cur;
	unsigned long v;

	bo_cursor_init(&cur);
	v = bo_cursor_take(&cur, folio);
	bo_cursor_put(&cur);
	return v;
}

/* Whether no folio can have a word: a quick no for untracked writes. */
static inline bool bo_table_empty(void)
{
	return !bo_use_ext && !atomic_long_read(&bo_nr_chunks);
}

#endif
