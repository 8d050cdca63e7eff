/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocheck trace events: one per decision that is not a silent pass, so a
 * refusal can be matched to the I/O around it with the block tracepoints.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rocheck

#if !defined(_ROCHECK_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ROCHECK_TRACE_H

#include <linux/blk_types.h>
#include <linux/blkdev.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>

#ifndef _ROCHECK_VERDICT
#define _ROCHECK_VERDICT
/*
 * What rocheck did with a write open, a bio or a passthrough command;
 * silent passes are not traced.
 */
enum rc_verdict {
	RC_VERDICT_EXEMPT,
	RC_VERDICT_WARNED,
	RC_VERDICT_REFUSED,
};
#endif

TRACE_DEFINE_ENUM(RC_VERDICT_EXEMPT);
TRACE_DEFINE_ENUM(RC_VERDICT_WARNED);
TRACE_DEFINE_ENUM(RC_VERDICT_REFUSED);

#define show_rc_verdict(v)					\
	__print_symbolic(v, { RC_VERDICT_EXEMPT, "exempt" },	\
			 { RC_VERDICT_WARNED, "warned" },	\
			 { RC_VERDICT_REFUSED, "refused" })

TRACE_EVENT(rocheck_open,
	    TP_PROTO(struct block_device *bdev, blk_mode_t mode,
		     enum rc_verdict verdict),
	    TP_ARGS(bdev, mode, verdict),
	    TP_STRUCT__entry(__field(dev_t, dev)
			     __field(u32, mode)
			     __field(int, verdict)
			     __field(pid_t, pid)
			     __array(char, comm, TASK_COMM_LEN)),
	    TP_fast_assign(__entry->dev = bdev->bd_dev;
			   __entry->mode = (__force u32)mode;
			   __entry->verdict = verdict;
			   __entry->pid = task_pid_nr(current);
			   memcpy(__entry->comm, current->comm, TASK_COMM_LEN);),
	    TP_printk("%d,%d mode=%s%s %s by %s[%d]",
		      MAJOR(__entry->dev), MINOR(__entry->dev),
		      __entry->mode & (__force u32)BLK_OPEN_READ ? "r" : "",
		      __entry->mode & (__force u32)BLK_OPEN_WRITE ? "w" : "",
		      show_rc_verdict(__entry->verdict),
		      __entry->comm, __entry->pid)
);

/*
 * A write rocheck judged as a bio: rocheck_bio at submission,
 * rocheck_rq for a request-based dm clone; dev is the device the write
 * addresses (the bio's, the clone's disk).
 */
DECLARE_EVENT_CLASS(rocheck_io,
		    TP_PROTO(dev_t dev, sector_t sector, unsigned int bytes,
			     enum req_op op, enum rc_verdict verdict),
		    TP_ARGS(dev, sector, bytes, op, verdict),
		    TP_STRUCT__entry(__field(dev_t, dev)
				     __field(sector_t, sector)
				     __field(unsigned int, bytes)
				     __string(op, blk_op_str(op))
				     __field(int, verdict)
				     __field(pid_t, pid)
				     __array(char, comm, TASK_COMM_LEN)),
		    TP_fast_assign(__entry->dev = dev;
				   __entry->sector = sector;
				   __entry->bytes = bytes;
				   __assign_str(op);
				   __entry->verdict = verdict;
				   __entry->pid = task_pid_nr(current);
				   memcpy(__entry->comm, current->comm, TASK_COMM_LEN);),
		    TP_printk("%d,%d %s %llu + %u bytes %s by %s[%d]",
			      MAJOR(__entry->dev), MINOR(__entry->dev),
			      __get_str(op), (unsigned long long)__entry->sector,
			      __entry->bytes, show_rc_verdict(__entry->verdict),
			      __entry->comm, __entry->pid)
);

DEFINE_EVENT(rocheck_io, rocheck_bio,
	     TP_PROTO(dev_t dev, sector_t sector, unsigned int bytes,
		      enum req_op op, enum rc_verdict verdict),
	     TP_ARGS(dev, sector, bytes, op, verdict));

DEFINE_EVENT(rocheck_io, rocheck_rq,
	     TP_PROTO(dev_t dev, sector_t sector, unsigned int bytes,
		      enum req_op op, enum rc_verdict verdict),
	     TP_ARGS(dev, sector, bytes, op, verdict));

TRACE_EVENT(rocheck_cmd,
	    TP_PROTO(struct block_device *bdev, u8 opcode, sector_t start,
		     sector_t end, enum rc_verdict verdict),
	    TP_ARGS(bdev, opcode, start, end, verdict),
	    TP_STRUCT__entry(__field(dev_t, dev)
			     __field(u8, opcode)
			     __field(sector_t, start)
			     __field(sector_t, end)
			     __field(int, verdict)
			     __field(pid_t, pid)
			     __array(char, comm, TASK_COMM_LEN)),
	    TP_fast_assign(__entry->dev = bdev->bd_dev;
			   __entry->opcode = opcode;
			   __entry->start = start;
			   __entry->end = end;
			   __entry->verdict = verdict;
			   __entry->pid = task_pid_nr(current);
			   memcpy(__entry->comm, current->comm, TASK_COMM_LEN);),
	    TP_printk("%d,%d opcode=0x%02x sectors %llu-%llu %s by %s[%d]",
		      MAJOR(__entry->dev), MINOR(__entry->dev),
		      __entry->opcode, (unsigned long long)__entry->start,
		      (unsigned long long)__entry->end - 1,
		      show_rc_verdict(__entry->verdict),
		      __entry->comm, __entry->pid)
);

#endif /* _ROCHECK_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rocheck_trace
#include <trace/define_trace.h>
