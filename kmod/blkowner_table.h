/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkowner's table of the owners of dirty folios: one word per folio, by
 * pfn.  See blkowner_table.c.
 */
#ifndef BLKOWNER_TABLE_H
#define BLKOWNER_TABLE_H

#include <linux/mm_types.h>

struct seq_file;

int bo_table_init(void);
void bo_table_exit(void);
int bo_table_store(struct folio *folio, unsigned long v);
int bo_table_restore(struct folio *folio, unsigned long v);
unsigned long bo_table_take(struct folio *folio);
unsigned long bo_table_peek(struct folio *folio);
bool bo_table_empty(void);
const char *bo_table_name(void);
void bo_table_show(struct seq_file *m);

#endif
