// SPDX-License-Identifier: GPL-2.0
/*
 * What a SCSI command may change on the medium.
 *
 * Passthrough (SG_IO, /dev/sg, bsg, the kernel's own commands) hands the
 * device a CDB the block layer never interprets, so the read-only check
 * has to.  It works from an allowlist, as scsi_cmd_allowed() does for a
 * read-only open: a command passes a read-only disk only when it is known
 * to read or report and change neither data nor settings.  The writes
 * that give their range (WRITE, WRITE AND VERIFY, ORWRITE, COMPARE AND
 * WRITE, WRITE SAME of a counted range, WRITE ATOMIC) are checked against
 * the read-only partitions they touch; every other command, known or not
 * (MODE SELECT, FORMAT UNIT, SANITIZE, UNMAP, ZBC OUT, WRITE BUFFER,
 * PERSISTENT RESERVE OUT, vendor specific ones), may change anything.
 *
 * Opcodes mean different things to an MMC (CD/DVD) device and a block
 * device (0x42 READ SUB-CHANNEL / UNMAP, 0x51 READ DISC INFORMATION /
 * XPWRITE, 0xa1 BLANK / ATA PASS-THROUGH(12), 0xa3 SEND KEY / MAINTENANCE
 * IN): each device type has its own list.  Opcodes with service actions
 * pass only for the service actions that report.  ATA PASS-THROUGH
 * carries an ATA command, judged in rocheck_ata.c.
 */
#include <linux/cdrom.h>
#include <linux/unaligned.h>
#include <scsi/scsi_proto.h>

#include "rocheck_cmd.h"

/* Not named in scsi_proto.h. */
#define RC_ORWRITE_16		0x8b
#define RC_PRE_FETCH_16		0x90
#define RC_READ_DEFECT_DATA_12	0xb7
#define RC_SA_READ_32		0x0009
#define RC_SA_VERIFY_32		0x000a

/* The shortest CDB of each group, by the top three bits of the opcode. */
static const u8 rc_cdb_len[8] = { 6, 10, 10, 0, 16, 12, 0, 0 };

/*
 * The service actions of SERVICE ACTION IN(16) and ZBC IN that only
 * report: their others (REMOVE ELEMENT AND TRUNCATE, RESTORE ELEMENTS AND
 * REBUILD, STREAM CONTROL, ZONE ACTIVATE) change the medium.
 */
#define RC_SAI16_READ_CAPACITY		0x10
#define RC_SAI16_READ_LONG		0x11
#define RC_SAI16_GET_LBA_STATUS		0x12
#define RC_SAI16_REPORT_REFERRALS	0x13
#define RC_SAI16_GET_STREAM_STATUS	0x16
#define RC_SAI16_GET_PHYS_ELEM_STATUS	0x17
#define RC_ZBC_IN_REPORT_ZONES		0x00
#define RC_ZBC_IN_REPORT_REALMS		0x06
#define RC_ZBC_IN_REPORT_ZONE_DOMAINS	0x07
#define RC_ZBC_IN_ZONE_QUERY		0x09
#define RC_SAI12_READ_MEDIA_SERIAL	0x01
/* MAINTENANCE IN's service actions, all reports (SPC-5). */
#define RC_MI_REPORT_IDENTIFYING_INFO	0x05
#define RC_MI_MANAGEMENT_PROTOCOL_IN	0x10
/* READ BUFFER's error history mode; buffer IDs FEh and FFh clear it. */
#define RC_RB_MODE_ERROR_HISTORY	0x1c
/* MMC: volatile drive settings, and SEND KEY's formats for authentication. */
#define RC_MMC_SET_READ_AHEAD		0xa7
#define RC_MMC_KEY_CHALLENGE		0x01
#define RC_MMC_KEY_KEY2			0x03
#define RC_MMC_KEY_INVALIDATE_AGID	0x3f

/* SPC and SBC commands that read or report and change nothing. */
static bool rc_sbc_reads(const u8 *cdb)
{
	switch (cdb[0]) {
	case TEST_UNIT_READY:
	case REQUEST_SENSE:
	case READ_6:
	case INQUIRY:
	case MODE_SENSE:
	case START_STOP:		/* power state, no data or setting */
	case RECEIVE_DIAGNOSTIC:
	case ALLOW_MEDIUM_REMOVAL:
	case READ_CAPACITY:
	case READ_10:
	case VERIFY:
	case PRE_FETCH:
	case SYNCHRONIZE_CACHE:		/* writes back what is already written */
	case READ_DEFECT_DATA:
	case READ_LONG:
	case MODE_SENSE_10:
	case PERSISTENT_RESERVE_IN:
	case READ_16:
	case READ_ATTRIBUTE:
	case VERIFY_16:
	case RC_PRE_FETCH_16:
	case SYNCHRONIZE_CACHE_16:
	case REPORT_LUNS:
	case SECURITY_PROTOCOL_IN:
	case READ_12:
	case VERIFY_12:
	case RC_READ_DEFECT_DATA_12:
		return true;
	case SERVICE_ACTION_IN_16:
		switch (cdb[1] & 0x1f) {
		case RC_SAI16_READ_CAPACITY:
		case RC_SAI16_READ_LONG:
		case RC_SAI16_GET_LBA_STATUS:
		case RC_SAI16_REPORT_REFERRALS:
		case RC_SAI16_GET_STREAM_STATUS:
		case RC_SAI16_GET_PHYS_ELEM_STATUS:
			return true;
		}
		return false;
	case ZBC_IN:
		switch (cdb[1] & 0x1f) {
		case RC_ZBC_IN_REPORT_ZONES:
		case RC_ZBC_IN_REPORT_REALMS:
		case RC_ZBC_IN_REPORT_ZONE_DOMAINS:
		case RC_ZBC_IN_ZONE_QUERY:
			return true;
		}
		return false;
	case SERVICE_ACTION_IN_12:
		return (cdb[1] & 0x1f) == RC_SAI12_READ_MEDIA_SERIAL;
	case MAINTENANCE_IN:		/* REPORT SUPPORTED OPCODES, RTPG, ... */
		return (cdb[1] & 0x1f) == RC_MI_REPORT_IDENTIFYING_INFO ||
		       ((cdb[1] & 0x1f) >= MI_REPORT_TARGET_PGS &&
			(cdb[1] & 0x1f) <= RC_MI_MANAGEMENT_PROTOCOL_IN);
	case LOG_SENSE:			/* SP would save the parameters */
		return !(cdb[1] & 1);
	case READ_BUFFER:
		return !((cdb[1] & 0x1f) == RC_RB_MODE_ERROR_HISTORY &&
			 cdb[2] >= 0xfe);
	}
	return false;
}

/*
 * MMC (CD/DVD) commands that read or report, after scsi_cmd_allowed(),
 * and those that set the drive's volatile state (speed, streaming, read
 * ahead, DVD authentication keys): a drive that cannot write is read-only
 * to the kernel (cdrom.c), and playing a DVD needs them.  Not SECURITY
 * PROTOCOL IN (0xa2 is SEND EVENT here) nor ATA PASS-THROUGH(12) (0xa1 is
 * BLANK); SEND KEY (0xa3) for the authentication formats only, not the
 * region (RPC), which persists.
 */
static bool rc_mmc_reads(const u8 *cdb)
{
	switch (cdb[0]) {
	case START_STOP:		/* FL would format a layer */
		return !(cdb[4] & 4);
	case GPCMD_SEND_KEY:
		switch (cdb[10] & 0x3f) {
		case RC_MMC_KEY_CHALLENGE:
		case RC_MMC_KEY_KEY2:
		case RC_MMC_KEY_INVALIDATE_AGID:
			return true;
		}
		return false;
	case TEST_UNIT_READY:
	case REQUEST_SENSE:
	case READ_6:
	case INQUIRY:
	case MODE_SENSE:
	case ALLOW_MEDIUM_REMOVAL:
	case READ_CAPACITY:
	case READ_10:
	case GPCMD_VERIFY_10:
	case READ_BUFFER:
	case LOG_SENSE:
	case MODE_SENSE_10:
	case READ_12:
	case GPCMD_READ_FORMAT_CAPACITIES:
	case GPCMD_SEEK:
	case GPCMD_READ_SUBCHANNEL:
	case GPCMD_READ_TOC_PMA_ATIP:
	case GPCMD_READ_HEADER:
	case GPCMD_PLAY_AUDIO_10:
	case GPCMD_GET_CONFIGURATION:
	case GPCMD_PLAY_AUDIO_MSF:
	case GPCMD_PLAY_AUDIO_TI:
	case GPCMD_GET_EVENT_STATUS_NOTIFICATION:
	case GPCMD_PAUSE_RESUME:
	case GPCMD_STOP_PLAY_SCAN:
	case GPCMD_READ_DISC_INFO:
	case GPCMD_READ_TRACK_RZONE_INFO:
	case GPCMD_READ_BUFFER_CAPACITY:
	case GPCMD_REPORT_KEY:
	case GPCMD_GET_PERFORMANCE:
	case GPCMD_READ_DVD_STRUCTURE:
	case GPCMD_READ_CD_MSF:
	case GPCMD_SCAN:
	case GPCMD_PLAY_CD:
	case GPCMD_MECHANISM_STATUS:
	case GPCMD_READ_CD:
	case GPCMD_SET_SPEED:
	case GPCMD_SET_STREAMING:
	case RC_MMC_SET_READ_AHEAD:
		return true;
	}
	return false;
}

enum rc_cmd_effect rc_cdb_effect(const u8 *cdb, unsigned int len, bool mmc,
				 u64 *lba, u32 *blocks)
{
	if (!len || len < rc_cdb_len[cdb[0] >> 5])
		return RC_CMD_UNBOUNDED;
	if (mmc ? rc_mmc_reads(cdb) : rc_sbc_reads(cdb))
		return RC_CMD_NONE;

	switch (cdb[0]) {
	case WRITE_6:
		*lba = get_unaligned_be24(&cdb[1]) & 0x1fffff;
		*blocks = cdb[4] ? cdb[4] : 256;
		return RC_CMD_RANGE;
	case WRITE_10:
	case WRITE_VERIFY:
		*lba = get_unaligned_be32(&cdb[2]);
		*blocks = get_unaligned_be16(&cdb[7]);
		return RC_CMD_RANGE;
	case WRITE_12:
	case WRITE_VERIFY_12:
		*lba = get_unaligned_be32(&cdb[2]);
		*blocks = get_unaligned_be32(&cdb[6]);
		return RC_CMD_RANGE;
	case WRITE_16:
	case WRITE_VERIFY_16:
	case RC_ORWRITE_16:
		*lba = get_unaligned_be64(&cdb[2]);
		*blocks = get_unaligned_be32(&cdb[10]);
		return RC_CMD_RANGE;
	case WRITE_ATOMIC_16:
		*lba = get_unaligned_be64(&cdb[2]);
		*blocks = get_unaligned_be16(&cdb[12]);
		return RC_CMD_RANGE;
	case COMPARE_AND_WRITE:
		*lba = get_unaligned_be64(&cdb[2]);
		*blocks = cdb[13];
		return RC_CMD_RANGE;
	/* A WRITE SAME of 0 blocks writes up to the last one. */
	case WRITE_SAME:
		*lba = get_unaligned_be32(&cdb[2]);
		*blocks = get_unaligned_be16(&cdb[7]);
		return *blocks ? RC_CMD_RANGE : RC_CMD_UNBOUNDED;
	case WRITE_SAME_16:
		*lba = get_unaligned_be64(&cdb[2]);
		*blocks = get_unaligned_be32(&cdb[10]);
		return *blocks ? RC_CMD_RANGE : RC_CMD_UNBOUNDED;
	case VARIABLE_LENGTH_CMD:
		if (len >= 10 && (get_unaligned_be16(&cdb[8]) == RC_SA_READ_32 ||
				  get_unaligned_be16(&cdb[8]) == RC_SA_VERIFY_32))
			return RC_CMD_NONE;
		return RC_CMD_UNBOUNDED;
	/* SAT: fields at the same offsets as libata-scsi reads them. */
	case ATA_16:
		if (!mmc && rc_ata_reads_only(cdb[14],
					      get_unaligned_be16(&cdb[3]),
					      cdb[6]))
			return RC_CMD_NONE;
		return RC_CMD_UNBOUNDED;
	case ATA_12:
		if (!mmc && rc_ata_reads_only(cdb[9], cdb[3], cdb[4]))
			return RC_CMD_NONE;
		return RC_CMD_UNBOUNDED;
	default:
		return RC_CMD_UNBOUNDED;
	}
}
