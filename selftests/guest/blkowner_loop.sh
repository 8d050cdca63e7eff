#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 6
#
# blkowner.ko under a buffered loop device: ext4 on /dev/loop0, whose
# backing file lives on ext4 on the scsi_debug disk.  foo's writeback to
# loop0 is re-charged to foo; loop's worker for foo's cgroup
# (kthread_associate_blkcg()) then writes the backing file through the page
# cache, and those pages must be tagged with foo too, so that their
# writeback to the disk is held by foo's limit there.  Vanilla first: the
# flusher writes the backing file at disk speed, charged to root.
. "$(dirname "$0")/../lib.sh"

MiB=1048576
# The debug kernel (ST_SLOW > 1) moves the loop's two page caches at about
# 0.7 MiB/s with blkowner beside another guest (674 KiB/s over 12 s,
# 2026-12-04), below a 1 MiB/s limit: there the limit is 512 KiB/s, as
# blkowner.sh scales its own.
TD_LIMIT=$(( ${ST_SLOW:-1} > 1 ? MiB / 2 : MiB ))
CG=/sys/fs/cgroup/blkio
S=/sys/kernel/debug/blkowner/stats
stat() { awk -v k="$1" '$1 == k { print $2 }' $S; }
scsi_debug_load dev_size_mb=512
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$sd" >/dev/null 2>&1 &&
	mount "$sd" /mnt || bail "mkfs/mount $sd"
modprobe loop || bail "loop"
truncate -s 256M /mnt/img
loop=$(losetup --find --show /mnt/img) || bail "losetup"
grep -q 0 /sys/block/${loop#/dev/}/loop/dio || bail "$loop is not buffered"
mkdir -p /mnt2
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$loop" >/dev/null 2>&1 &&
	mount "$loop" /mnt2 || bail "mkfs/mount $loop"
sync
throttled_dd_setup

# Foo can be charged at most what it wrote: 32 MiB and the file's share of
# the filesystem above it.
throttled_dd "ext4 on buffered $loop, vanilla" /mnt2/f 32
# Vanilla writes all 32 MiB within the 15 s: 2128-2138 KiB/s here, 1569
# KiB/s on the debug kernel (ST_SLOW > 1), where 1.25x is the bound.
over=$(( ${ST_SLOW:-1} > 1 ? 125 : 150 ))
expect_gt "vanilla: the backing file is written back above the limit (> $over%)" \
	"$total" $((TD_LIMIT * over / 100))
ok_if "vanilla: foo is charged less than 10% of the disk writes ($share%)" test "$share" -lt 10
modprobe blkowner || bail "blkowner"
throttled_dd "ext4 on buffered $loop, blkowner" /mnt2/f 32
# The disk writes not root's over 12 s: 866-1042 KiB/s (20 runs, beside
# another guest, 2026-12-06).  One run of make check wrote 1299 KiB/s in
# the window, root's part not measured, and blkowner_part.sh saw foo
# alone let through at 1122 KiB/s: hence 35%, not 25%.  The share of the
# window's disk writes charged to foo: 93-230% (30 runs).
# What reaches the disk is bounded, not only what is not root's:
# writeback left to root would pass unthrottled.  Root's own writes in
# the window (the journals): 22-880 KiB (20 runs).
ok_if "blkowner: the disk is written within 35% of $((TD_LIMIT / 1024)) KiB/s ($((rate / 1024)) KiB/s)" within "$rate" $TD_LIMIT 35
ok_if "blkowner: root is charged at most 1 MiB in the window, the journals ($((root_window / 1024)) KiB)" \
	test "$root_window" -le $MiB
ok_if "blkowner: foo is charged at least 70% of the disk writes ($share%)" \
	test "$share" -ge 70
ok_if "blkowner: foo is charged at most the 32 MiB it wrote and 2 MiB of metadata ($((charged / 1024)) KiB)" \
	test "$charged" -le $((34 * MiB))
umount /mnt2
losetup -d "$loop"
umount /mnt
st_done
