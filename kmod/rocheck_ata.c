// SPDX-License-Identifier: GPL-2.0
/*
 * Which ATA commands only read or report, for ATA PASS-THROUGH (SAT) to a
 * read-only disk: hdparm, smartctl and the HDIO ioctls send them so.
 *
 * An allowlist: reads of data, logs and identification (IDENTIFY DEVICE,
 * READ NATIVE MAX ADDRESS for HPA detection, SMART READ DATA, READ LOG EXT,
 * DCO IDENTIFY, SANITIZE STATUS, the zone reports), power state queries
 * and cache flushes.
 * Everything else is refused on a read-only disk, known (WRITE SECTORS,
 * DATA SET MANAGEMENT, SECURITY ERASE UNIT, SET MAX ADDRESS, DCO SET,
 * DOWNLOAD MICROCODE, SET FEATURES, SMART WRITE LOG, which carries SCT
 * commands such as Write Same) or not.
 */
#include <linux/ata.h>

#include "rocheck_cmd.h"

/* Not named in ata.h. */
#define RC_ATA_SMART_READ_LOG		0xd5
#define RC_ATA_SMART_RETURN_STATUS	0xda
#define RC_ATA_DCO_IDENTIFY_DMA		0xc4
#define RC_ATA_SANITIZE_STATUS		0x0000
#define RC_ATA_ZAC_REPORT_REALMS	0x06
#define RC_ATA_ZAC_REPORT_ZONE_DOMAINS	0x07
#define RC_ATA_ZAC_ZONE_QUERY		0x09
#define RC_ATA_READ_DMA_QUEUED_EXT	0x26

bool rc_ata_reads_only(u8 cmd, u16 feature, u8 count)
{
	switch (cmd) {
	case ATA_CMD_PIO_READ:
	case ATA_CMD_PIO_READ_EXT:
	case ATA_CMD_READ:
	case ATA_CMD_READ_EXT:
	case RC_ATA_READ_DMA_QUEUED_EXT:
	case ATA_CMD_READ_MULTI:
	case ATA_CMD_READ_MULTI_EXT:
	case ATA_CMD_FPDMA_READ:
	case ATA_CMD_VERIFY:
	case ATA_CMD_VERIFY_EXT:
	case ATA_CMD_READ_LOG_EXT:
	case ATA_CMD_READ_LOG_DMA_EXT:
	case ATA_CMD_READ_NATIVE_MAX:
	case ATA_CMD_READ_NATIVE_MAX_EXT:
	case ATA_CMD_ID_ATA:
	case ATA_CMD_ID_ATAPI:
	case ATA_CMD_PMP_READ:		/* READ BUFFER */
	case ATA_CMD_PMP_READ_DMA:
	case ATA_CMD_TRUSTED_RCV:
	case ATA_CMD_TRUSTED_RCV_DMA:
	case ATA_CMD_REQ_SENSE_DATA:
	case ATA_CMD_FLUSH:
	case ATA_CMD_FLUSH_EXT:
	case ATA_CMD_STANDBYNOW1:
	case ATA_CMD_IDLEIMMEDIATE:
	case ATA_CMD_CHK_POWER:
		return true;
	case ATA_CMD_SMART:
		switch (feature & 0xff) {
		case ATA_SMART_READ_VALUES:
		case ATA_SMART_READ_THRESHOLDS:
		case RC_ATA_SMART_READ_LOG:
		case RC_ATA_SMART_RETURN_STATUS:
			return true;
		}
		return false;
	case ATA_CMD_CONF_OVERLAY:
		switch (feature & 0xff) {
		case ATA_DCO_IDENTIFY:
		case RC_ATA_DCO_IDENTIFY_DMA:
			return true;
		}
		return false;
	case ATA_CMD_SANITIZE_DEVICE:	/* count bit 0 clears a failure */
		return feature == RC_ATA_SANITIZE_STATUS && !(count & 1);
	case ATA_CMD_ZAC_MGMT_IN:	/* not ZONE ACTIVATE */
		switch (feature & 0xff) {
		case ATA_SUBCMD_ZAC_MGMT_IN_REPORT_ZONES:
		case RC_ATA_ZAC_REPORT_REALMS:
		case RC_ATA_ZAC_REPORT_ZONE_DOMAINS:
		case RC_ATA_ZAC_ZONE_QUERY:
			return true;
		}
		return false;
	}
	return false;
}
