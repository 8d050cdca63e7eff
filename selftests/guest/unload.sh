#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
# plan: 6
# append: preempt=full
#
# Unload while completion handlers run in process context.  pidisk_test
# completes every request from a workqueue (delay_ms after it was queued),
# so intbounce's and blkowner's completion handlers run in a kworker that
# full preemption (preempt=full) may preempt anywhere, also just after the
# handler woke the waiting exit and before it returned from the module's
# code.  Each cycle waits until bios of the module are in flight, unloads
# it (exit waits for them and for every handler to have left the module:
# the core calls each handler through blk_hooks_end_io() and exit waits
# for blk_hooks_end_io_barrier()) and loads it again, while
# fio verifies every write.  A handler returning into freed module text
# would oops (the runner fails the file on any splat).  The window is a few
# instructions wide: the cycles show unload overlapping completions; they
# cannot show the window being hit.
. "$(dirname "$0")/../lib.sh"

cycles=${UNLOAD_CYCLES:-15}
MiB=1048576
W=/tmp/unload
mkdir -p $W
grep -q 'preempt=full' /proc/cmdline || bail "booted without preempt=full"
modprobe pidisk_test size_mb=256 queue_depth=16 delay_ms=5 || bail "pidisk_test"
wait_for_dev /dev/pidisk0 || bail "no /dev/pidisk0"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 /dev/pidisk0 >/dev/null 2>&1 &&
	mount /dev/pidisk0 /mnt || bail "mkfs/mount pidisk0"
dev=$(cat /sys/block/pidisk0/dev)
CG=/sys/fs/cgroup/blkio
mkdir -p $CG && mount -t cgroup -o blkio blkio $CG || bail "cgroup v1 blkio"
mkdir -p $CG/foo
# High enough never to hold bios: charged bios complete from the disk.
echo "$dev $((512 * MiB))" > $CG/foo/blkio.throttle.write_bps_device
echo $MiB > /proc/sys/vm/dirty_background_bytes
echo 10 > /proc/sys/vm/dirty_writeback_centisecs
echo 10 > /proc/sys/vm/dirty_expire_centisecs

# loop_fio NAME FIO-ARGS...: verifying fio runs of 32 MiB until $W/stop
# exists; "runs failed" in $W/NAME, the last failure's output in
# $W/NAME.fail.
loop_fio() {
	local name=$1 runs=0 bad=0
	shift
	while [ ! -e $W/stop ]; do
		fio --name="$name" --size=32m --rw=randwrite --bsrange=4k-256k \
			--verify=crc32c --do_verify=1 --verify_fatal=1 --eta=never \
			"$@" > $W/$name.out 2>&1 ||
			{ bad=$((bad + 1)); cp $W/$name.out $W/$name.fail; }
		runs=$((runs + 1))
		echo "$runs $bad" > $W/$name
	done
}
# fio_result NAME: check the runs of loop_fio NAME, once stopped.
fio_result() {
	local runs fails
	read -r runs fails < $W/$1
	[ -f $W/$1.fail ] && grep -E 'err=|verify|bad' $W/$1.fail | head -n 3 | sed 's/^/# /'
	ok_if "$1: fio verify=crc32c ran ($runs runs) with 0 errors" \
		test "$runs" -gt 0 -a "$fails" -eq 0
}

# inflight MODULE: its bios in flight through its completion handlers.
inflight() { awk '$1 == "inflight" { print $2 }' /sys/kernel/debug/$1/stats 2>/dev/null || echo 0; }
# cycle MODULE ARGS...: wait (up to 5 s) for bios of MODULE in flight,
# unload it, load it again with ARGS.  Counts overlapping unloads in
# $overlap, failures in $bad; adds the unload time to $ms.
cycle() {
	local m=$1 i n=0 t
	shift
	for i in $(seq 50); do
		n=$(inflight "$m")
		[ "$n" -gt 0 ] && break
		sleep 0.1
	done
	[ "$n" -gt 0 ] && overlap=$((overlap + 1))
	t=${EPOCHREALTIME/./}
	rmmod "$m" || bad=$((bad + 1))
	ms=$((ms + (${EPOCHREALTIME/./} - t) / 1000))
	modprobe "$m" "$@" || bad=$((bad + 1))
}

# --- intbounce: bounce clones end in ib_end_io() ------------------------------
modprobe intbounce mode=always || bail "intbounce"
rm -f $W/stop
loop_fio intbounce --filename=/mnt/ib --direct=1 --ioengine=libaio --iodepth=16 &
overlap=0 bad=0 ms=0
for _ in $(seq "$cycles"); do
	cycle intbounce mode=always
done
touch $W/stop; wait
diag "intbounce: $overlap of $cycles unloads with bounces in flight, $((ms / cycles)) ms per unload"
expect_eq "intbounce: every unload had bounces in flight" "$cycles" "$overlap"
expect_eq "intbounce: every unload and reload succeeded" 0 "$bad"
fio_result intbounce
rmmod intbounce

# --- blkowner: re-charged writeback ends in bo_charged_end_io() ---------------
modprobe blkowner split_kb=64 || bail "blkowner"
rm -f $W/stop
(echo $BASHPID > $CG/foo/cgroup.procs && loop_fio blkowner --filename=/mnt/bo --ioengine=psync) &
overlap=0 bad=0 ms=0
for _ in $(seq "$cycles"); do
	cycle blkowner split_kb=64
done
touch $W/stop; wait
diag "blkowner: $overlap of $cycles unloads with re-charged bios in flight, $((ms / cycles)) ms per unload"
expect_eq "blkowner: every unload had re-charged bios in flight" "$cycles" "$overlap"
expect_eq "blkowner: every unload and reload succeeded" 0 "$bad"
fio_result blkowner
rmmod blkowner
umount /mnt
st_done
