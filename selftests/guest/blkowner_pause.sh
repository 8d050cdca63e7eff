#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
# plan: 7
# mem: 1G
#
# blkowner.ko: where a paced task sleeps.  A dirtier whose cgroup's
# re-charged writeback is held by blk-throttle is paused on its way back
# to user space, as the kernel takes its own cgroup I/O throttling
# (blkcg_schedule_throttle()), not inside write(2) with the file's
# i_rwsem held: shown by sampling its kernel stack, and by the time a task
# of another cgroup waits to write the same file.  A task reclaiming its
# own memory cgroup by swap-out is paused in its reclaim, but never inside
# the block hooks' SRCU section, where every unregister would wait for it.
. "$(dirname "$0")/../lib.sh"

S=/sys/kernel/debug/blkowner/stats
stat() { awk -v k="$1" '$1 == k { print $2 }' $S 2>/dev/null | grep . || echo 0; }
MiB=1048576

# sample PID SECONDS: the kernel stack of PID every 0.1 s; counts the
# samples asleep in a pause of the block hooks or blkowner inside the
# write or page fault that asked for it (inplace), and those asleep in
# it on the way back to user space (resume).
sample() {
	local i st
	inplace=0 resume=0 samples=0
	for ((i = 0; i < $2 * 10; i++)); do
		st=$(cat /proc/$1/stack 2>/dev/null) || break
		samples=$((samples + 1))
		if grep -qE 'blk_hook|bo_swap_pace' <<< "$st"; then
			if grep -qE 'vfs_write|handle_mm_fault|do_user_addr_fault' <<< "$st"; then
				inplace=$((inplace + 1))
				[ $inplace = 1 ] && sed 's/^/# in place: /' <<< "$st" | head -12
			elif grep -q task_work_run <<< "$st"; then
				resume=$((resume + 1))
			fi
		fi
		sleep 0.1
	done
}

# ---- a. a dirtier and another cgroup's writer of the same file ----------
scsi_debug_load dev_size_mb=256
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$sd" >/dev/null 2>&1 &&
	mount "$sd" /mnt || bail "mkfs/mount"
CG=/sys/fs/cgroup/blkio
throttled_dd_setup
mkdir -p $CG/bar
modprobe blkowner || bail "blkowner"
head -c $((72 * MiB)) /dev/zero > /mnt/f
sync

# foo appends to /mnt/f in 64 KiB writes at its 1 MiB/s limit; once it is
# paced, bar writes 4 KiB into the file's head 40 times, 100 ms apart.
p0=$(stat dirtier_pauses)
bash -c "echo \$\$ > $CG/foo/cgroup.procs && exec dd if=/dev/zero of=/mnt/f bs=64k seek=1152 count=2048 conv=notrunc status=none" &
fpid=$!
for ((i = 0; i < 300 && $(stat dirtier_pauses) == p0; i++)); do sleep 0.1; done
expect_gt "foo, writing at its limit, is paced" "$(stat dirtier_pauses)" "$p0"
bash -c "echo \$\$ > $CG/bar/cgroup.procs && exec $ST_HELPERS/writelat /mnt/f 0 40 100" > /tmp/lat &
bpid=$!
sample $fpid 6
wait $bpid
blat=$(sort -n /tmp/lat | tail -1)
diag "foo's stack: $samples samples, $inplace paused inside write(2), $resume on the way back to user space"
diag "bar's 40 writes (us): $(sort -n /tmp/lat | tr '\n' ' ')"
expect_eq "foo is never paused inside write(2), holding the file's i_rwsem" 0 "$inplace"
expect_gt "foo is paused on the way back to user space" "$resume" 0
# Measured: worst 1.8, 8.7 and 14 ms (medians 0.3 ms); paused inside
# write(2), as before, 0.56-4.0 s (median 1.9 s).
ok_if "bar's writes to the same file wait at most 300 ms behind foo (worst $((blat / 1000)) ms)" \
	test "$blat" -le 300000
kill $fpid 2>/dev/null
wait $fpid 2>/dev/null
echo "$dev 0" > $CG/foo/blkio.throttle.write_bps_device
sync

rmmod blkowner
umount /mnt
umount $CG
rmmod scsi_debug

# ---- b. a task swapping out its own memory cgroup --------------------------
# Its reclaim is paced where v1 limit reclaim waits for writeback itself,
# in the page fault, but outside the hooks' SRCU section: an unregister
# (any hooks module's rmmod) does not wait for it.  With the budget cut
# to 64 KiB under a backlog of about 4 MiB, a paced reclaimer waits about
# 4 s: inside the section, rmmod rocheck would wait as long.
v1_swap_setup
P=/sys/module/blkowner/parameters
mkdir -p $CG/foo $MG/foo
echo $((32 * MiB)) > $MG/foo/memory.limit_in_bytes
limit foo $MiB
modprobe blkowner || bail "blkowner"
modprobe rocheck || bail "rocheck"
in_cg foo "$ST_HELPERS/anontouch" 96 40 > /tmp/anon.foo
apid=$!
p0=$(stat swap_pauses)
for ((i = 0; i < 300 && $(stat swap_pauses) == p0; i++)); do sleep 0.1; done
expect_gt "foo's reclaim is paced" "$(stat swap_pauses)" "$p0"
echo 64 > $P/dirty_backlog_kb
sleep 1
t0=${EPOCHREALTIME/./}
rmmod rocheck
t1=${EPOCHREALTIME/./}
echo 4096 > $P/dirty_backlog_kb
# Measured: 98 ms; 4850 ms with the old pause (the same wait inside the
# submit hook, in the section).
ok_if "rmmod rocheck while foo's reclaim waits for a backlog 64 times its budget takes under 1 s ($(( (t1 - t0) / 1000 )) ms)" \
	test $((t1 - t0)) -lt 1000000
wait $apid
expect_eq "anontouch found every page as it left it" 0 "$?"
limit foo 0
rmmod blkowner

exit $ST_FAILED
