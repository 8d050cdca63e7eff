// SPDX-License-Identifier: GPL-2.0
/*
 * Which NVMe I/O commands change logical blocks, and which blocks.
 *
 * NVMe passthrough (the namespace's block or generic char device ioctl,
 * io_uring uring_cmd) sends its command on the namespace's own queue, and
 * the driver refuses a command that names another namespace
 * (nvme_validate_passthru_nsid()), so the blocks are those of the queue's
 * disk.  Write, Write Uncorrectable and Write Zeroes give their range;
 * Dataset Management with Deallocate, Copy, Zone Append and Zone
 * Management Send write where their range list, or the zone's write
 * pointer, says: unbounded.  Other commands that carry data to the device
 * (vendor specific ones) are unbounded too; the rest (reads, compare,
 * verify, flush, reservations) change no block.
 */
#include <asm/byteorder.h>
#include <linux/nvme.h>

#include "rocheck_cmd.h"

/* Not named in nvme.h. */
#define RC_NVME_COPY		0x19

enum rc_cmd_effect rc_nvme_effect(const struct nvme_command *cmd,
				  bool data_out, u64 *lba, u32 *blocks)
{
	switch (cmd->common.opcode) {
	case nvme_cmd_write:
	case nvme_cmd_write_uncor:
	case nvme_cmd_write_zeroes:
		/* The block count is 0's based. */
		*lba = le64_to_cpu(cmd->rw.slba);
		*blocks = le16_to_cpu(cmd->rw.length) + 1;
		return RC_CMD_RANGE;
	case nvme_cmd_dsm:
		if (le32_to_cpu(cmd->dsm.attributes) & NVME_DSMGMT_AD)
			return RC_CMD_UNBOUNDED;
		return RC_CMD_NONE;
	case RC_NVME_COPY:
	case nvme_cmd_zone_append:
	case nvme_cmd_zone_mgmt_send:
		return RC_CMD_UNBOUNDED;
	case nvme_cmd_flush:
	case nvme_cmd_read:
	case nvme_cmd_compare:
	case nvme_cmd_verify:
	case nvme_cmd_resv_register:
	case nvme_cmd_resv_report:
	case nvme_cmd_resv_acquire:
	case nvme_cmd_resv_release:
	case nvme_cmd_zone_mgmt_recv:
		return RC_CMD_NONE;
	default:
		return data_out ? RC_CMD_UNBOUNDED : RC_CMD_NONE;
	}
}
