// SPDX-License-Identifier: GPL-2.0
/*
 * What an NVMe command may change on a namespace.
 *
 * I/O commands (the namespace's block or generic char device ioctl,
 * io_uring uring_cmd, and the kernel's own on the namespace's queue) are
 * judged by an allowlist: reads, compare, verify, flush, Dataset
 * Management without Deallocate (hints only), Zone Management Receive
 * and Reservation Report change nothing; Write, Write Uncorrectable and
 * Write Zeroes give their range (but a Write Zeroes of the whole
 * namespace); every other command (Copy, Zone Append,
 * Zone Management Send, Deallocate, the reservation changes, vendor
 * specific and unknown ones) may change anything.  The driver refuses an
 * I/O command that names another namespace (nvme_validate_passthru_nsid()),
 * so the blocks are those of the namespace the command is sent to.
 *
 * Admin commands go to the controller, which has no disk.  Those that only
 * read or report (Identify, Get Log Page, Get Features, Security Receive,
 * Get LBA Status, Directive Receive's reports, the Fabrics Property Get,
 * ...) pass.  So do those that only set up the host's side of the
 * controller, when the driver sends them at each reset (@kernel): queue
 * creation and deletion, Doorbell Buffer Config, the Fabrics Connect,
 * Property Set and authentication, and Set Features of the volatile
 * host-interface features (power state, queue count, interrupts,
 * asynchronous events, autonomous power states, host memory buffer,
 * timestamp, keep alive, host behavior), unless asked to save them.  From
 * a user they are refused: an I/O queue a user creates on memory of its
 * own carries commands the controller runs and no hook sees.  Every other
 * admin command (Format NVM, Sanitize, Security Send, Set Features of
 * anything else, such as the volatile write cache or a temperature
 * threshold, Firmware Download and Commit, Namespace Management and
 * Attachment, Device Self-test, vendor specific ones) may change any
 * namespace or setting: whatever NSID it names, Format NVM may format them
 * all (the controller's Format NVM Attributes say so, not the command),
 * Sanitize and Firmware Commit act on the whole controller, and Set
 * Features' scope depends on the feature.
 */
#include <asm/byteorder.h>
#include <linux/bits.h>
#include <linux/nvme.h>

#include "rocheck_cmd.h"

/*
 * Write Zeroes' Namespace Zeroes bit (NVMe 2.1; CDW12 bit 23, so bit 7 of
 * rw.control): the whole namespace, whatever range the command gives.
 */
#define RC_NVME_WZ_NSZ		BIT(7)

/* Directive Receive operations that report (DOPER, CDW11 bits 7:0). */
#define RC_NVME_DIR_RCV_RETURN_PARAMS	0x01
#define RC_NVME_DIR_RCV_GET_STATUS	0x02

enum rc_cmd_effect rc_nvme_effect(const struct nvme_command *cmd,
				  u64 *lba, u32 *blocks)
{
	switch (cmd->common.opcode) {
	case nvme_cmd_write_zeroes:
		if (le16_to_cpu(cmd->rw.control) & RC_NVME_WZ_NSZ)
			return RC_CMD_UNBOUNDED;
		fallthrough;
	case nvme_cmd_write:
	case nvme_cmd_write_uncor:
		/* The block count is 0's based. */
		*lba = le64_to_cpu(cmd->rw.slba);
		*blocks = le16_to_cpu(cmd->rw.length) + 1;
		return RC_CMD_RANGE;
	case nvme_cmd_dsm:
		if (le32_to_cpu(cmd->dsm.attributes) & NVME_DSMGMT_AD)
			return RC_CMD_UNBOUNDED;
		return RC_CMD_NONE;
	case nvme_cmd_flush:
	case nvme_cmd_read:
	case nvme_cmd_compare:
	case nvme_cmd_verify:
	case nvme_cmd_resv_report:
	case nvme_cmd_zone_mgmt_recv:
		return RC_CMD_NONE;
	default:
		return RC_CMD_UNBOUNDED;
	}
}

/* Set Features: Save (CDW10 bit 31) and the Feature Identifier (7:0). */
#define RC_NVME_FEAT_SAVE	BIT(31)
#define RC_NVME_FEAT_FID	0xff

static bool rc_nvme_feature_host_side(const struct nvme_command *cmd)
{
	u32 cdw10 = le32_to_cpu(cmd->features.fid);

	if (cdw10 & RC_NVME_FEAT_SAVE)
		return false;
	switch (cdw10 & RC_NVME_FEAT_FID) {
	case NVME_FEAT_POWER_MGMT:
	case NVME_FEAT_NUM_QUEUES:
	case NVME_FEAT_IRQ_COALESCE:
	case NVME_FEAT_IRQ_CONFIG:
	case NVME_FEAT_ASYNC_EVENT:
	case NVME_FEAT_AUTO_PST:
	case NVME_FEAT_HOST_MEM_BUF:
	case NVME_FEAT_TIMESTAMP:
	case NVME_FEAT_KATO:
	case NVME_FEAT_HOST_BEHAVIOR:
		return true;
	}
	return false;
}

bool rc_nvme_admin_changes_nothing(const struct nvme_command *cmd,
				   bool kernel)
{
	switch (cmd->common.opcode) {
	case nvme_admin_get_log_page:
	case nvme_admin_identify:
	case nvme_admin_abort_cmd:
	case nvme_admin_get_features:
	case nvme_admin_async_event:
	case nvme_admin_keep_alive:
	case nvme_admin_security_recv:
	case nvme_admin_get_lba_status:
		return true;
	case nvme_admin_delete_sq:
	case nvme_admin_create_sq:
	case nvme_admin_delete_cq:
	case nvme_admin_create_cq:
	case nvme_admin_dbbuf:
		return kernel;
	case nvme_admin_set_features:
		return kernel && rc_nvme_feature_host_side(cmd);
	case nvme_admin_directive_recv:	/* not Allocate Resources */
		switch (le32_to_cpu(cmd->common.cdw11) & 0xff) {
		case RC_NVME_DIR_RCV_RETURN_PARAMS:
		case RC_NVME_DIR_RCV_GET_STATUS:
			return true;
		}
		return false;
	case nvme_fabrics_command:
		switch (cmd->fabrics.fctype) {
		case nvme_fabrics_type_property_get:
			return true;
		case nvme_fabrics_type_property_set:
		case nvme_fabrics_type_connect:
		case nvme_fabrics_type_auth_send:
		case nvme_fabrics_type_auth_receive:
			return kernel;
		}
		return false;
	}
	return false;
}
