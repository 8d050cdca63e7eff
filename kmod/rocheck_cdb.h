/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a SCSI command would change on the medium: rocheck's passthrough
 * check.  See rocheck_cdb.c.
 */
#ifndef ROCHECK_CDB_H
#define ROCHECK_CDB_H

#include <linux/types.h>

enum rc_cdb_effect {
	RC_CDB_NONE,		/* reads, or changes no logical block */
	RC_CDB_RANGE,		/* writes the blocks in *lba, *blocks */
	RC_CDB_UNBOUNDED,	/* writes blocks it does not bound */
};

enum rc_cdb_effect rc_cdb_effect(const u8 *cdb, unsigned int len,
				 bool data_out, u64 *lba, u32 *blocks);

#endif
