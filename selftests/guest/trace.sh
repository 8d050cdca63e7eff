#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 400
# plan: 45
#
# The trace events of intbounce.ko and blkowner.ko: each step of a debugfs
# stats counter is one event of the matching name (rocheck's events are
# checked in rocheck.sh and rocheck_sg.sh).  The workloads move the main
# counters, and the test asserts they moved, so an equality of zeros
# cannot stand for a working event: a counter the workload leaves at 0 is
# reported as a SKIP, not a pass.
. "$(dirname "$0")/../lib.sh"

T=/sys/kernel/tracing
[ -d $T/events ] || bail "no tracefs at $T"
# Per CPU; about 80 bytes an event, and the blkowner part tags 2048 pages.
echo 16384 > $T/buffer_size_kb
stat() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
events() { grep -cE "$1" $T/trace; }
lost() { cat $T/per_cpu/cpu*/stats | awk '/^overrun:/ { s += $2 } END { print s + 0 }'; }
# check STATS "COUNTER EVENT-REGEX"...: one event per counter step since
# the snapshot in the array "before", for each pair.
check() {
	local s=$1 c re d
	shift
	for pair in "$@"; do
		c=${pair%% *} re=${pair#* }
		d=$(( $(stat "$s" "$c") - ${before[$c]} ))
		moved[$c]=$d
		# 0 steps and 0 events would pass for a missing event: a SKIP.
		if [ "$d" = 0 ] && [ "$(events "$re")" = 0 ]; then
			skip "$c: one '${re%%:*}' event per step" "the workload did not move the counter"
		else
			expect_eq "$c: one '${re%%:*}' event per step ($d)" "$d" "$(events "$re")"
		fi
	done
}
snapshot() {	# snapshot STATS: every counter into "before"
	local k v
	while read -r k v; do before[$k]=$v; done < "$1"
}
declare -A before moved

# ---- intbounce --------------------------------------------------------------
IS=/sys/kernel/debug/intbounce/stats
IP=/sys/module/intbounce/parameters
# The PI race reproducer's disk (intbounce.sh): every raced write fails its
# protection check without a bounce.
modprobe scsi_debug dif=1 dix=1 guard=0 dev_size_mb=48 max_queue=1 delay=10 ||
	bail "scsi_debug with PI"
sleep 0.5
sd=$(scsi_debug_disk) && wait_for_dev "$sd" || bail "no scsi_debug disk"
name=${sd#/dev/}
echo 64 > /sys/block/$name/queue/max_sectors_kb
modprobe intbounce || bail "intbounce"
snapshot $IS
echo > $T/trace
echo 1 > $T/events/intbounce/enable
echo always > $IP/mode
r=$("$ST_HELPERS/pirace" "$sd" 2 1024 512)
diag "always: $r"
echo auto > $IP/mode
dd if=/dev/urandom of="$sd" bs=64k count=4 conv=fsync status=none
dd if="$sd" of=/dev/null bs=64k count=4 iflag=direct status=none
echo retry > $IP/mode
r=$("$ST_HELPERS/pirace" "$sd" 2 1024 512)
diag "retry: $r"
# A disk told not to generate protection information: its writes pass
# untouched (skipped_nogenerate).
echo auto > $IP/mode
echo 0 > /sys/block/$name/integrity/write_generate
dd if=/dev/urandom of="$sd" bs=64k count=2 oflag=direct status=none
echo 1 > /sys/block/$name/integrity/write_generate
echo off > $IP/mode
dd if=/dev/zero of="$sd" bs=64k count=1 oflag=direct status=none
# Polled writes (io_uring, hipri) on a PI disk with a poll queue: their
# completion is polled on the original bio, so they pass untouched
# (skipped_polled).
echo auto > $IP/mode
rmmod scsi_debug || bail "rmmod scsi_debug"
modprobe scsi_debug dif=1 dix=1 guard=0 dev_size_mb=16 submit_queues=2 \
	poll_queues=1 || bail "scsi_debug with a poll queue"
sleep 0.5
sd=$(scsi_debug_disk) && wait_for_dev "$sd" || bail "no scsi_debug disk"
fio --name=polled --filename="$sd" --ioengine=io_uring --hipri=1 --direct=1 \
	--rw=write --bs=64k --size=1m --output=/tmp/fio.out >/dev/null 2>&1 ||
	diag "fio hipri: $(grep -m1 -i error /tmp/fio.out)"
# blk-mq splits to the queue limits before the hook; intbounce splits what
# is left larger than one bounce request: max_segments=4 pages here.
modprobe pidisk_test max_segments=4 max_sectors_kb=1024 || bail "pidisk_test"
wait_for_dev /dev/pidisk0 || bail "no /dev/pidisk0"
echo always > $IP/mode
dd if=/dev/urandom of=/dev/pidisk0 bs=1M count=1 oflag=direct status=none
echo 0 > $T/events/intbounce/enable
expect_eq "intbounce: the trace buffer lost no event" 0 "$(lost)"
grep -m1 ' intbounce_bounced:' $T/trace | sed 's/^ */# /'
grep -m1 ' intbounce_skipped:' $T/trace | sed 's/^ */# /'
check $IS "bios_bounced intbounce_bounced:" "bios_split intbounce_split:" \
	"retry_clones intbounce_retry_armed:" "retries intbounce_retried:" \
	"pool_waits intbounce_pool_wait:" "alloc_failures intbounce_alloc_failed:"
for c in $(awk '$1 ~ /^skipped_/ { print $1 }' $IS); do
	check $IS "$c intbounce_skipped: .*: ${c#skipped_}\$"
done
for c in bios_bounced bios_split retry_clones retries skipped_stable_pages \
	 skipped_not_write skipped_mode_off skipped_nogenerate skipped_polled; do
	expect_gt "intbounce: the workload moved $c" "${moved[$c]}" 0
done
rmmod intbounce
rmmod pidisk_test
rmmod scsi_debug

# ---- blkowner ---------------------------------------------------------------
BS=/sys/kernel/debug/blkowner/stats
BP=/sys/module/blkowner/parameters
CG=/sys/fs/cgroup/blkio
scsi_debug_load dev_size_mb=128
mkfs.ext4 -q -F "$sd" >/dev/null 2>&1 && mount "$sd" /mnt || bail "mkfs/mount"
throttled_dd_setup
mkdir -p $CG/gone
modprobe blkowner split_kb=64 dirty_backlog_kb=64 || bail "blkowner"
snapshot $BS
echo > $T/trace
echo 1 > $T/events/blkowner/enable
# foo at 1 MiB/s, 8 MiB: owns its file, re-charged in 64 KiB pieces, and
# paced once 64 KiB of its writeback is held.
p0=$(stat $BS dirtier_pauses)
bash -c "echo \$\$ > $CG/foo/cgroup.procs && exec dd if=/dev/zero of=/mnt/foo bs=1M count=8 status=none" &
pid=$!
for i in $(seq 150); do
	[ "$(stat $BS dirtier_pauses)" -gt "$p0" ] && break
	sleep 0.1
done
# The root group dirties a page of foo's file while foo's writeback is
# held: the file is mixed, and the page gets a word of its own.
dd if=/dev/zero of=/mnt/foo bs=4096 count=1 seek=4096 conv=notrunc status=none
echo "$dev 0" > $CG/foo/blkio.throttle.write_bps_device
wait $pid
sync
# A removed owner: its pages written back by the flusher find no cgroup.
bash -c "echo \$\$ > $CG/gone/cgroup.procs && exec dd if=/dev/zero of=/mnt/gone bs=1M count=1 status=none"
rmdir $CG/gone
sleep 4
sync
echo 0 > $T/events/blkowner/enable
expect_eq "blkowner: the trace buffer lost no event" 0 "$(lost)"
grep -m1 ' blkowner_recharged:' $T/trace | sed 's/^ */# /'
grep -m1 ' blkowner_dirtier_paused:' $T/trace | sed 's/^ */# /'
check $BS "mappings_owned blkowner_mapping_owned:" "mappings_mixed blkowner_mapping_mixed:" \
	"pages_tagged blkowner_tagged:" "bios_recharged blkowner_recharged:" \
	"bios_split blkowner_split:" "owner_not_found blkowner_owner_not_found:" \
	"owner_stale blkowner_owner_stale:" "dirtier_pauses blkowner_dirtier_paused:" \
	"anon_tagged blkowner_anon_tagged:"
# dd's own anonymous memory (its buffer, stack, libc data) in foo and gone.
for c in mappings_owned mappings_mixed pages_tagged bios_recharged bios_split owner_not_found \
	 dirtier_pauses anon_tagged; do
	expect_gt "blkowner: the workload moved $c" "${moved[$c]}" 0
done
ino=$(command stat -c %i $CG/foo)
expect_eq "blkowner_recharged names foo by its cgroup id ($ino)" \
	"$(events ' blkowner_recharged:')" "$(events " blkowner_recharged: .* cgroup_id=$ino\$")"
st_done
