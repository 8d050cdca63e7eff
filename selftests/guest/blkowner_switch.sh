#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 400
# plan: 18
#
# blkowner.ko's switches and the cgroup life cycle around a tagged page:
# exempt_sync, enabled=0 while pages are dirtied, hierarchies=none and
# both on cgroup v1, a css id reused by a new cgroup after rmdir, and
# rmdir of a cgroup whose re-charged bios wait in blk-throttle.  Each
# case dirties 4 MiB of ext4 in a v1 blkio group and writes it back with
# fsync from a root task, so what is charged to the group is what
# blkowner re-charged.  Vanilla first: nothing is charged to the group.
. "$(dirname "$0")/../lib.sh"

P=/sys/module/blkowner/parameters
S=/sys/kernel/debug/blkowner/stats
T=/sys/kernel/tracing
CG=/sys/fs/cgroup/blkio
KiB4M=4096
stat() { awk -v k="$1" '$1 == k { print $2 }' $S; }
charged() { echo $(( $(v1_charged "$CG/$1") / 1024 )); }	# KiB written charged to group $1 on the disk
# case_kib GROUP FILE: dirty 4 MiB of a new FILE in GROUP, fsync it from
# here; prints the KiB charged to GROUP meanwhile.  New, not truncated:
# ext4 flushes a truncated file's delayed blocks when it is closed
# (auto_da_alloc), in the dirtier's own context.
case_kib() {
	local c0
	rm -f "$2"
	c0=$(charged "$1")
	bash -c "echo \$\$ > $CG/$1/cgroup.procs && exec dd if=/dev/urandom of=$2 bs=1M count=4 status=none"
	sync "$2"
	echo $(( $(charged "$1") - c0 ))
}

scsi_debug_load dev_size_mb=256
mkfs.ext4 -q -F "$sd" >/dev/null 2>&1 && mount "$sd" /mnt || bail "mkfs/mount"
mount | grep -q " $CG " || { mkdir -p $CG && mount -t cgroup -o blkio blkio $CG; } || bail "cgroup v1 blkio"
mkdir -p $CG/foo
# blk-throttle counts a group's bytes once the disk has a limit for it.
echo "$dev $((1 << 30))" > $CG/foo/blkio.throttle.write_bps_device
# Pages stay dirty until the case's fsync: no periodic flusher wakeups.
echo 30000 > /proc/sys/vm/dirty_expire_centisecs
echo 360000 > /proc/sys/vm/dirty_writeback_centisecs
echo $((256 << 20)) > /proc/sys/vm/dirty_background_bytes

k=$(case_kib foo /mnt/f)
expect_eq "vanilla: foo's pages written back by fsync are charged to nobody (KiB)" 0 "$k"

# ---- exempt_sync -----------------------------------------------------------
modprobe blkowner || bail "blkowner"
e0=$(stat bios_exempt)
k=$(case_kib foo /mnt/f)
expect_eq "exempt_sync=1 (default): fsync's writeback stays its submitter's (KiB to foo)" 0 "$k"
expect_gt "exempt_sync=1: the fsync bios were counted exempt" "$(stat bios_exempt)" "$e0"
echo 0 > $P/exempt_sync
k=$(case_kib foo /mnt/f)
ok_if "exempt_sync=0: fsync's writeback is charged to foo, the dirtier ($k of $KiB4M KiB)" \
	test "$k" -ge $((KiB4M * 95 / 100)) -a "$k" -le $((KiB4M * 105 / 100))

# ---- enabled=0 ---------------------------------------------------------------
echo 0 > $P/enabled
t0="$(stat mappings_owned) $(stat mappings_mixed) $(stat pages_tagged)"
k=$(case_kib foo /mnt/f)
expect_eq "enabled=0: pages dirtied meanwhile give no owner (mappings_owned, mappings_mixed, pages_tagged)" \
	"$t0" "$(stat mappings_owned) $(stat mappings_mixed) $(stat pages_tagged)"
expect_eq "enabled=0: and their writeback is not charged to foo (KiB)" 0 "$k"
echo 1 > $P/enabled
k=$(case_kib foo /mnt/f)
ok_if "enabled=1 again: charged to foo ($k KiB)" test "$k" -ge $((KiB4M * 95 / 100))

# ---- hierarchies -------------------------------------------------------------
echo none > $P/hierarchies
k=$(case_kib foo /mnt/f)
expect_eq "hierarchies=none: nothing is charged to foo (KiB)" 0 "$k"
echo v2 > $P/hierarchies
k=$(case_kib foo /mnt/f)
expect_eq "hierarchies=v2 on a v1 blkio hierarchy: nothing is charged to foo (KiB)" 0 "$k"
echo both > $P/hierarchies
k=$(case_kib foo /mnt/f)
ok_if "hierarchies=both: v1 is tracked, charged to foo ($k KiB)" test "$k" -ge $((KiB4M * 95 / 100))
echo v1 > $P/hierarchies

# ---- a css id reused after rmdir ----------------------------------------------
# css ids are allocated smallest first: a group made right after another
# is removed gets its id.  The owner word keeps part of the css serial
# number, which is never reused, so the new group is not charged for the
# old one's pages.
echo 1 > $T/events/blkowner/blkowner_mapping_owned/enable || bail "no blkowner_mapping_owned event"
echo > $T/trace
mkdir $CG/old
bash -c "echo \$\$ > $CG/old/cgroup.procs && exec dd if=/dev/urandom of=/mnt/old bs=1M count=4 status=none"
rmdir $CG/old
mkdir $CG/new
echo "$dev $((1 << 30))" > $CG/new/blkio.throttle.write_bps_device
bash -c "echo \$\$ > $CG/new/cgroup.procs && exec dd if=/dev/urandom of=/mnt/new bs=4k count=1 status=none"
echo 0 > $T/events/blkowner/blkowner_mapping_owned/enable
grep -o 'blkowner_mapping_owned: .* css=[0-9]*' $T/trace | sed 's/.*css=//' > /tmp/ids
id_old=$(head -1 /tmp/ids) id_new=$(tail -1 /tmp/ids)
diag "files owned: $(wc -l < /tmp/ids), the first by css $id_old, the last by css $id_new"
ok_if "css id reuse: the new group has the removed group's css id ($id_old, $id_new)" \
	test -n "$id_new" -a "$id_old" = "$id_new"
nf=$(stat owner_not_found)
c0=$(charged new)
sync /mnt/old
expect_eq "css id reuse: the removed group's writeback is not charged to the new one (KiB)" \
	0 $(( $(charged new) - c0 ))
expect_gt "css id reuse: it is counted as owner_not_found" "$(stat owner_not_found)" "$nf"
sync /mnt/new
rmdir $CG/new

# ---- rmdir while re-charged bios wait in blk-throttle -------------------------
# foo at 256 KiB/s; the flusher queues its 4 MiB (16 s of budget), and foo
# is removed while they wait.  blk-throttle keeps the removed group's
# queue and its limit: the bios go out at foo's rate (15980 ms measured
# for the 4 MiB), not at once.  The data must all land, the bios
# re-charged to a group that no longer exists must complete, and the
# module must unload after them.  The bound is about twice foo's rate.
echo 100 > /proc/sys/vm/dirty_writeback_centisecs
echo 100 > /proc/sys/vm/dirty_expire_centisecs
echo $((1 << 20)) > /proc/sys/vm/dirty_background_bytes
echo "$dev 262144" > $CG/foo/blkio.throttle.write_bps_device
head -c $((4 << 20)) /dev/urandom > /tmp/q
want=$(md5sum < /tmp/q | cut -c1-32)
bash -c "echo \$\$ > $CG/foo/cgroup.procs && exec dd if=/tmp/q of=/mnt/q bs=1M status=none"
for i in $(seq 100); do
	[ "$(stat inflight)" -gt 0 ] && break
	sleep 0.1
done
held=$(stat inflight)
ok_if "rmdir: foo has re-charged bios in flight ($held)" test "$held" -gt 0
ok_if "rmdir of foo with its bios held in blk-throttle succeeds" rmdir $CG/foo
t0=${EPOCHREALTIME/./}
timeout 120 sync /mnt/q
rc=$?
ms=$(( (${EPOCHREALTIME/./} - t0) / 1000 ))
ok_if "rmdir: the writeback completes afterwards ($ms ms; 4 MiB at 256 KiB/s is 16 s)" \
	test $rc -eq 0 -a $ms -lt $((30000 * ST_SLOW))
echo 3 > /proc/sys/vm/drop_caches
expect_eq "rmdir: the file reads back as written" "$want" "$(md5sum < /mnt/q | cut -c1-32)"
ok_if "blkowner unloads" rmmod blkowner
st_done
