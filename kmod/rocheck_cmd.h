/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a passthrough command may change: rocheck's command check.  SCSI
 * CDBs in rocheck_cdb.c, the ATA commands ATA PASS-THROUGH carries in
 * rocheck_ata.c, NVMe commands in rocheck_nvme.c.  Each is an allowlist:
 * a command not known to only read or report may change anything.
 */
#ifndef ROCHECK_CMD_H
#define ROCHECK_CMD_H

#include <linux/types.h>

struct nvme_command;

enum rc_cmd_effect {
	RC_CMD_NONE,		/* reads or reports, changes nothing */
	RC_CMD_RANGE,		/* writes the blocks in *lba, *blocks only */
	RC_CMD_UNBOUNDED,	/* may change any block or setting */
};

enum rc_cmd_effect rc_cdb_effect(const u8 *cdb, unsigned int len, bool mmc,
				 u64 *lba, u32 *blocks);
bool rc_ata_reads_only(u8 cmd, u16 feature, u8 count);
enum rc_cmd_effect rc_nvme_effect(const struct nvme_command *cmd,
				  u64 *lba, u32 *blocks);
bool rc_nvme_admin_changes_nothing(const struct nvme_command *cmd,
				   bool kernel);

#endif
