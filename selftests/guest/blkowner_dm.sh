#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 400
# plan: 11
#
# blkowner.ko under a stacking driver: a file two cgroups dirty at once
# (its mapping mixed), on ext4 on the disk itself and on dm-linear over
# the same disk.  dm sends a clone of each bio to the disk below; the
# clone shares the bio's pages and carries its association, so the walk
# at the dm device, which takes the folios' owners, is the only one: a
# second walk at the disk found the per-folio owners already taken and
# charged everything to the mapping's owner (B got 0 KiB on dm-linear).
# v1 blkio: A and B with limits on the disk, high enough not to hold the
# test up; A dirties MiB 0-8 of the file, then B MiB 8-24 while A's pages
# are still dirty; a sync from root writes it all back.  exempt_sync=0,
# so whoever starts the writeback, the dirtier is charged.
. "$(dirname "$0")/../lib.sh"

P=/sys/module/blkowner/parameters
S=/sys/kernel/debug/blkowner/stats
CG=/sys/fs/cgroup/blkio
stat() { awk -v k="$1" '$1 == k { print $2 }' $S; }
kib() { echo $(( $(v1_charged "$CG/$1") / 1024 )); }
in_cg() { local g=$1; shift; bash -c "echo \$\$ > $CG/$g/cgroup.procs && exec $*"; }
# shared TARGET: mkfs and mount TARGET, A then B dirty the file, sync;
# prints "A_KiB B_KiB mixed" charged meanwhile, mixed the mappings_mixed
# increase (- without blkowner).
shared() {
	local a0 b0 m0=-
	mkfs.ext4 -q -F "$1" >/dev/null 2>&1 && mount "$1" /mnt || bail "mkfs/mount $1"
	sync
	[ -e $S ] && m0=$(stat mappings_mixed)
	a0=$(kib A) b0=$(kib B)
	in_cg A dd if=/dev/urandom of=/mnt/f bs=1M count=8 status=none
	in_cg B dd if=/dev/urandom of=/mnt/f bs=1M seek=8 count=16 conv=notrunc status=none
	[ "$m0" = - ] || m0=$(( $(stat mappings_mixed) - m0 ))
	sync
	echo "$(( $(kib A) - a0 )) $(( $(kib B) - b0 )) $m0"
	umount /mnt
}
# within KIB WANT: KIB within 5% of WANT (ext4 adds a few KiB of its own)
within() { [ "$1" -ge $(($2 * 95 / 100)) ] && [ "$1" -le $(($2 * 105 / 100)) ]; }

scsi_debug_load dev_size_mb=256
mount | grep -q " $CG " || { mkdir -p $CG && mount -t cgroup -o blkio blkio $CG; } || bail "cgroup v1 blkio"
mkdir -p $CG/A $CG/B
# blk-throttle counts a group's bytes once the disk has a limit for it.
echo "$dev $((1 << 30))" > $CG/A/blkio.throttle.write_bps_device
echo "$dev $((64 << 20))" > $CG/B/blkio.throttle.write_bps_device
echo 30000 > /proc/sys/vm/dirty_expire_centisecs
echo 360000 > /proc/sys/vm/dirty_writeback_centisecs
echo $((256 << 20)) > /proc/sys/vm/dirty_background_bytes
# lin: a dm-linear table over the whole disk (it holds the disk: the disk
# case runs without it)
lin() {
	dmsetup create lin --table "0 $(blockdev --getsz "$sd") linear $sd 0" &&
		wait_for_dev /dev/mapper/lin || bail "dm-linear on $sd"
}

lin
read -r a b m <<< "$(shared /dev/mapper/lin)"
expect_eq "vanilla, dm-linear: the writeback is charged to neither group (A, B KiB)" "0 0" "$a $b"
dmsetup remove lin

modprobe blkowner exempt_sync=0 || bail "blkowner"
read -r a b m <<< "$(shared "$sd")"
expect_eq "disk: the file's mapping turned mixed" 1 "$m"
ok_if "disk: A is charged its 8 MiB ($a KiB)" within "$a" 8192
ok_if "disk: B is charged its 16 MiB ($b KiB)" within "$b" 16384
lin
w0=$(stat bios_recharged)
read -r a b m <<< "$(shared /dev/mapper/lin)"
expect_eq "dm-linear: the file's mapping turned mixed" 1 "$m"
ok_if "dm-linear: A is charged its 8 MiB ($a KiB)" within "$a" 8192
ok_if "dm-linear: B is charged its 16 MiB, not the mapping's owner ($b KiB)" within "$b" 16384
ok_if "dm-linear: bios were re-charged ($(( $(stat bios_recharged) - w0 )))" \
	test "$(stat bios_recharged)" -gt "$w0"
expect_eq "dm-linear: nothing is left counted in flight" 0 "$(stat inflight)"
dmsetup remove lin
ok_if "blkowner unloads" rmmod blkowner
expect_eq "the disk is consistent (e2fsck)" 0 "$(e2fsck -fn "$sd" >/dev/null 2>&1; echo $?)"
st_done
