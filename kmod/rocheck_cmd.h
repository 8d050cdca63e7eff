/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a passthrough command would change on the medium: rocheck's
 * passthrough check.  SCSI CDBs in rocheck_cdb.c, NVMe I/O commands in
 * rocheck_nvme.c.
 */
#ifndef ROCHECK_CMD_H
#define ROCHECK_CMD_H

#include <linux/types.h>

struct nvme_command;

enum rc_cmd_effect {
	RC_CMD_NONE,		/* reads, or changes no logical block */
	RC_CMD_RANGE,		/* writes the blocks in *lba, *blocks */
	RC_CMD_UNBOUNDED,	/* writes blocks it does not bound */
};

enum rc_cmd_effect rc_cdb_effect(const u8 *cdb, unsigned int len,
				 bool data_out, u64 *lba, u32 *blocks);
enum rc_cmd_effect rc_nvme_effect(const struct nvme_command *cmd,
				  bool data_out, u64 *lba, u32 *blocks);

#endif
