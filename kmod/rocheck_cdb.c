// SPDX-License-Identifier: GPL-2.0
/*
 * Which SCSI commands change logical blocks, and which blocks.
 *
 * Passthrough (SG_IO, /dev/sg, bsg) hands the device a CDB the block layer
 * never interprets, so the read-only check has to.  The commands that
 * write a bounded range (WRITE, WRITE AND VERIFY, WRITE SAME, COMPARE AND
 * WRITE, ORWRITE, WRITE ATOMIC) give it; the ones whose range is in a
 * parameter list or is the whole medium (UNMAP, FORMAT UNIT, SANITIZE,
 * WRITE LONG, the variable-length and service-action writes) are unbounded.
 * ATA PASS-THROUGH writes only as a data-out command here: a non-data ATA
 * command that changes the medium is not recognised.  Anything else (reads,
 * inquiries, mode pages, reservations, cache sync) changes no block.
 */
#include <linux/unaligned.h>
#include <scsi/scsi_proto.h>

#include "rocheck_cmd.h"

/* Not named in scsi_proto.h. */
#define RC_SANITIZE		0x48
#define RC_ORWRITE_16		0x8b
#define RC_WRITE_STREAM_16	0x9a
#define RC_SA_READ_32		0x0009
#define RC_SA_VERIFY_32		0x000a

static const u8 rc_cdb_len[8] = { 6, 10, 10, 0, 16, 12, 0, 0 };

enum rc_cmd_effect rc_cdb_effect(const u8 *cdb, unsigned int len,
				 bool data_out, u64 *lba, u32 *blocks)
{
	if (!len || len < rc_cdb_len[cdb[0] >> 5])
		return data_out ? RC_CMD_UNBOUNDED : RC_CMD_NONE;

	switch (cdb[0]) {
	case WRITE_6:
		*lba = get_unaligned_be24(&cdb[1]) & 0x1fffff;
		*blocks = cdb[4] ? cdb[4] : 256;
		return RC_CMD_RANGE;
	case WRITE_10:
	case WRITE_VERIFY:
		*lba = get_unaligned_be32(&cdb[2]);
		*blocks = get_unaligned_be16(&cdb[7]);
		return *blocks ? RC_CMD_RANGE : RC_CMD_NONE;
	case WRITE_12:
	case WRITE_VERIFY_12:
		*lba = get_unaligned_be32(&cdb[2]);
		*blocks = get_unaligned_be32(&cdb[6]);
		return *blocks ? RC_CMD_RANGE : RC_CMD_NONE;
	case WRITE_16:
	case WRITE_VERIFY_16:
	case RC_ORWRITE_16:
	case WRITE_ATOMIC_16:
		*lba = get_unaligned_be64(&cdb[2]);
		*blocks = get_unaligned_be32(&cdb[10]);
		return *blocks ? RC_CMD_RANGE : RC_CMD_NONE;
	case COMPARE_AND_WRITE:
		*lba = get_unaligned_be64(&cdb[2]);
		*blocks = cdb[13];
		return *blocks ? RC_CMD_RANGE : RC_CMD_NONE;
	/* A WRITE SAME of 0 blocks writes up to the last one. */
	case WRITE_SAME:
		*lba = get_unaligned_be32(&cdb[2]);
		*blocks = get_unaligned_be16(&cdb[7]);
		return *blocks ? RC_CMD_RANGE : RC_CMD_UNBOUNDED;
	case WRITE_SAME_16:
		*lba = get_unaligned_be64(&cdb[2]);
		*blocks = get_unaligned_be32(&cdb[10]);
		return *blocks ? RC_CMD_RANGE : RC_CMD_UNBOUNDED;
	case FORMAT_UNIT:
	case UNMAP:
	case RC_SANITIZE:
	case WRITE_LONG:
	case XDWRITEREAD_10:
	case SERVICE_ACTION_OUT_16:	/* WRITE LONG(16), WRITE SCATTERED */
	case RC_WRITE_STREAM_16:
		return RC_CMD_UNBOUNDED;
	case VARIABLE_LENGTH_CMD:
		if (len >= 10 && (get_unaligned_be16(&cdb[8]) == RC_SA_READ_32 ||
				  get_unaligned_be16(&cdb[8]) == RC_SA_VERIFY_32))
			return RC_CMD_NONE;
		return RC_CMD_UNBOUNDED;
	case ATA_12:
	case ATA_16:
		return data_out ? RC_CMD_UNBOUNDED : RC_CMD_NONE;
	default:
		return RC_CMD_NONE;
	}
}
