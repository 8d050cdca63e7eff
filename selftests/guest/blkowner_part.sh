#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
#
# blkowner.ko with ext4 on a partition (MBR, from 1 MiB): the flusher's
# bios go to sda1 and are remapped to sda, whose blk-throttle limit (v1
# limits are per disk) must hold the group's buffered writes.  Vanilla
# first: the flusher writes at disk speed and the group is charged
# nothing.
. "$(dirname "$0")/../lib.sh"

MiB=1048576
CG=/sys/fs/cgroup/blkio
scsi_debug_load dev_size_mb=256
mbr_partition "$sd" 2048 || bail "MBR partition on $sd"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "${sd}1" >/dev/null 2>&1 &&
	mount "${sd}1" /mnt || bail "mkfs/mount ${sd}1"
mkdir -p $CG && mount -t cgroup -o blkio blkio $CG || bail "cgroup v1 blkio"
mkdir -p $CG/foo
echo $MiB > /proc/sys/vm/dirty_background_bytes
echo $((256 * MiB)) > /proc/sys/vm/dirty_bytes
echo 100 > /proc/sys/vm/dirty_expire_centisecs
echo 100 > /proc/sys/vm/dirty_writeback_centisecs

sectors() { local s; read -r _ _ _ _ _ _ s _ < "/sys/block/$name/stat"; echo $((s * 512)); }
charged() {
	awk -v d="$dev" '$1 == d && $2 == "Write" { print $3 }' \
		$CG/foo/blkio.throttle.io_service_bytes | head -1 | grep . || echo 0
}
echo "$dev $MiB" > $CG/foo/blkio.throttle.write_bps_device

# part_case LABEL: 64 MiB buffered dd into ext4 on the partition from foo
# (limit 1 MiB/s on the disk).  Sets total (disk bytes/s from the dd's
# start over 15 s: vanilla writes all 64 MiB back within them), rate (disk
# bytes/s over the last 12 s: the throttled steady state), share (percent
# of those bytes charged to foo) and share_total (the same from the start).
part_case() {
	local pid c c0 c1 d d0 d1 t t0 t1
	c=$(charged) d=$(sectors) t=${EPOCHREALTIME/./}
	bash -c "echo \$\$ > $CG/foo/cgroup.procs && exec dd if=/dev/zero of=/mnt/f bs=1M count=64 status=none" &
	pid=$!
	sleep 3
	c0=$(charged) d0=$(sectors) t0=${EPOCHREALTIME/./}
	sleep 12
	c1=$(charged) d1=$(sectors) t1=${EPOCHREALTIME/./}
	echo "$dev 0" > $CG/foo/blkio.throttle.write_bps_device
	wait $pid
	sync; rm -f /mnt/f; sync
	echo "$dev $MiB" > $CG/foo/blkio.throttle.write_bps_device
	total=$(( (d1 - d) * 1000000 / (t1 - t) ))
	rate=$(( (d1 - d0) * 1000000 / (t1 - t0) ))
	share=$(( (c1 - c0) * 100 / (d1 - d0 + 1) ))
	share_total=$(( (c1 - c) * 100 / (d1 - d + 1) ))
	diag "$1: disk $((total / 1024)) KiB/s from the start, $((rate / 1024)) KiB/s over the last 12 s (limit 1024), foo charged $(( (c1 - c0) / 1024 )) KiB of $(( (d1 - d0) / 1024 )) KiB ($share%; from the start $share_total%)"
}
part_case "ext4 on ${name}1, vanilla"
expect_gt "vanilla: the flusher writes the partition above the limit (> 1.5x)" "$total" $((MiB * 3 / 2))
ok_if "vanilla: foo is charged less than 10% of the disk writes ($share_total%)" test "$share_total" -lt 10
modprobe blkowner || bail "blkowner"
part_case "ext4 on ${name}1, blkowner"
# The seed case's bounds (blkowner.sh): mean within 25%, charged >= 90%,
# each 1 MiB bio at the 12 s window's edges moving the share by 8%.
ok_if "blkowner: the partition's writeback is held within 25% of 1 MiB/s" within "$rate" $MiB 25
ok_if "blkowner: foo is charged 80-150% of the disk writes ($share%)" \
	test "$share" -ge 80 -a "$share" -le 150
umount /mnt
st_done
