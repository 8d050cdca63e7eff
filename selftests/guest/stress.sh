#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 1200
# plan: 24
#
# Reliability: the three modules at once under a mixed, verifying workload
# while each is unloaded and reloaded and every parameter is switched, one
# disk flips read-only and back, then fault injection (fail_make_request,
# failslab, fail_page_alloc).  STRESS_CYCLES load/unload cycles per module
# (selftests/run: 50 on the debug kernel, 5 otherwise).
. "$(dirname "$0")/../lib.sh"

cycles=${STRESS_CYCLES:-10}
slow=${ST_SLOW:-1}
MiB=1048576
F=/sys/kernel/debug
W=/tmp/stress
mkdir -p $W

# Three scsi_debug hosts with their own stores, all DIF type 1 with DIX:
# A takes direct and buffered verifying writes, B carries ext4 inside a
# throttled cgroup v1 group, C flips read-only and back.
modprobe scsi_debug dif=1 dix=1 add_host=3 per_host_store=1 dev_size_mb=96 ||
	bail "scsi_debug"
modprobe null_blk nr_devices=1 gb=1 memory_backed=1 || bail "null_blk"
sleep 1
scsi_debug_disks 3
A=${disks[0]} B=${disks[1]} C=${disks[2]}
wait_for_dev /dev/nullb0 || bail "no /dev/nullb0"
diag "A=$A (DIX, direct+buffered) B=$B (ext4, cgroup v1) C=$C (flips RO) null=/dev/nullb0; $cycles cycles"

mkfs.ext4 -q -F "$B" >/dev/null 2>&1 && mount "$B" /mnt || bail "mkfs/mount $B"
CG=/sys/fs/cgroup/blkio
mkdir -p $CG && mount -t cgroup -o blkio blkio $CG || bail "cgroup v1 blkio"
mkdir -p $CG/foo
echo "$(cat /sys/block/${B#/dev/}/dev) $((8 * MiB))" > $CG/foo/blkio.throttle.write_bps_device
echo $MiB > /proc/sys/vm/dirty_background_bytes

for m in rocheck intbounce blkowner; do
	modprobe $m || bail "cannot load $m"
done

# loop_fio NAME FIO-ARGS...: verifying fio runs until $W/stop exists;
# counts runs and failed runs in $W/NAME.  The workload runs at nice 19:
# its I/O stays in flight all the time, while the CPU goes first to the
# cycles of loads, unloads and switches (on the debug kernel under TCG a
# cycle took 36-100 s at nice 0).  Once the cycles end, each loop finishes
# the run it is in; a slow kernel (ST_SLOW > 1) gets runs 1/ST_SLOW the
# size so that this drain stays short: on the debug kernel one 24 MiB
# dix_direct run with verify took 600 s at nice 19.
loop_fio() {
	local name=$1 runs=0 bad=0
	shift
	while [ ! -e $W/stop ]; do
		nice -n 19 fio --name="$name" --rw=randwrite --bsrange=4k-256k --verify=crc32c \
			--do_verify=1 --verify_fatal=1 "$@" > $W/$name.out 2>&1 ||
			{ bad=$((bad + 1)); cp $W/$name.out $W/$name.fail; }
		runs=$((runs + 1))
		echo "$runs $bad" > $W/$name
	done
}
# The read-only flipper: dirty a page cache range, set read-only, fsync
# (refused while rocheck denies), back to read-write.  Counts fsync errors.
flipper() {
	local runs=0 errs=0
	while [ ! -e $W/stop ]; do
		nice -n 19 "$ST_HELPERS/rowrite" "$C" 0 65536 0x42 "blockdev --setro $C" \
			>/dev/null 2>&1 || errs=$((errs + 1))
		blockdev --setrw "$C"
		runs=$((runs + 1))
		echo "$runs $errs" > $W/flip
	done
}

start_workload() {
	rm -f $W/stop
	loop_fio dix_direct --filename="$A" --offset=0 --size=$((24 / slow))m --direct=1 \
		--ioengine=libaio --iodepth=8 &
	loop_fio dix_buffered --filename="$A" --offset=32m --size=$((16 / slow))m \
		--ioengine=psync &
	loop_fio nullb --filename=/dev/nullb0 --size=$((64 / slow))m --direct=1 \
		--ioengine=libaio --iodepth=16 &
	(echo $BASHPID > $CG/foo/cgroup.procs &&
		loop_fio ext4_cgroup --directory=/mnt --size=$((16 / slow))m --ioengine=psync) &
	flipper &
}
stop_workload() {
	touch $W/stop
	wait
}
tally() { cat $W/"$1" 2>/dev/null || echo "0 0"; }
# rmmod_wait MODULE: unload; retry while bios of the module are in flight.
# Fails if it never succeeds (a leaked module reference).
rmmod_wait() {
	local i
	for i in $(seq 100); do
		rmmod "$1" 2>/dev/null && return 0
		busy=$((busy + 1))
		sleep 0.1
	done
	return 1
}
# switch MODULE PARAM VALUE...: write each value, then the first again.
switch() {
	local m=$1 p=$2 v
	shift 2
	for v in "$@" "$1"; do
		echo "$v" > /sys/module/$m/parameters/$p || bad=$((bad + 1))
	done
}

# param_writer MODULE PARAM VALUE...: writes the values in turn, as fast as
# it can, until $W/stop exists.  delete_module() runs a module's exit
# before it removes its parameters from sysfs: some writes land after exit.
param_writer() {
	local m=$1 p=$2 n=0 v
	shift 2
	renice -n 19 $BASHPID >/dev/null
	while [ ! -e $W/stop ]; do
		for v in "$@"; do
			echo "$v" 2>/dev/null > /sys/module/$m/parameters/$p && n=$((n + 1))
		done
	done
	echo $n > $W/writes.$m.$p
}
# At nice 19, beside the workload: four loops that never sleep took the
# cycles' modprobe and rmmod most of the CPU (debug kernel: 65-80 s per
# cycle with them at nice 0).  They still write whenever the cycle waits,
# which is during every unload.
start_writers() {
	param_writer rocheck dev_policy "${C#/dev/}=warn" "" &
	param_writer rocheck open_exempt none kernel &
	param_writer intbounce mode always auto &
	param_writer blkowner split_kb 64 0 &
}

# ---- load/unload and parameter cycles under the workload -------------------
start_workload
start_writers
t0=$(date +%s)
bad=0 busy=0 stuck=0
for i in $(seq "$cycles"); do
	rmmod_wait rocheck || stuck=$((stuck + 1))
	modprobe rocheck || bad=$((bad + 1))
	switch rocheck submit deny off warn
	switch rocheck open warn deny off
	switch rocheck open_exempt kernel none comm:fio
	switch rocheck dev_policy "" "${C#/dev/}=warn" "${A#/dev/}=off"
	rmmod_wait intbounce || stuck=$((stuck + 1))
	modprobe intbounce || bad=$((bad + 1))
	switch intbounce mode auto always off
	rmmod_wait blkowner || stuck=$((stuck + 1))
	modprobe blkowner || bad=$((bad + 1))
	switch blkowner enabled 1 0
	switch blkowner swap 1 0
	switch blkowner hierarchies v1 none both
	switch blkowner exempt_sync 1 0
	switch blkowner split_kb 0 64
	switch blkowner dirty_backlog_kb 4096 0 256
	[ $((i % 10)) -eq 0 ] && diag "cycle $i of $cycles: $(( $(date +%s) - t0 ))s"
done
# The modules as the last cycle left them act on the workload: the direct
# DIX writes bounced, the cgroup's writeback re-charged (up to 20 s: the
# workload runs at nice 19); then, alone, a read-only disk's writeback
# refused.
stat_of() { awk -v k="$2" '$1 == k { print $2 }' $F/$1/stats | grep . || echo 0; }
for _ in $(seq 40); do
	[ "$(stat_of intbounce bios_bounced)" -gt 0 ] &&
		[ "$(stat_of blkowner bios_recharged)" -gt 0 ] && break
	sleep 0.5
done
t1=$(date +%s)
stop_workload
diag "workload drained in $(( $(date +%s) - t1 ))s"
"$ST_HELPERS/rowrite" "$C" 0 65536 0x42 "blockdev --setro $C" >/dev/null 2>&1
rc_st=$?
blockdev --setrw "$C"
rc_refused=$(grep -o 'bios_refused=[0-9]*' $F/rocheck/devices | awk -F= '{ s += $2 } END { print s + 0 }')
diag "cycles: $cycles in $(( $(date +%s) - t0 ))s; rmmod retried $busy times while I/O was in flight"
expect_eq "$cycles load/unload cycles of each module: every rmmod succeeded once I/O drained" 0 "$stuck"
expect_eq "every load and parameter switch succeeded" 0 "$bad"
ok_if "after the cycles rocheck refuses writeback to a read-only disk (fsync fails, $rc_refused bios refused)" \
	test "$rc_st" -eq 1 -a "$rc_refused" -gt 0
expect_gt "after the cycles intbounce bounces writes to the DIX disk" \
	"$(stat_of intbounce bios_bounced)" 0
expect_gt "after the cycles blkowner re-charges the cgroup's writeback" \
	"$(stat_of blkowner bios_recharged)" 0
for j in dix_direct dix_buffered nullb ext4_cgroup; do
	read -r runs fails < <(tally $j)
	diag "$j: $runs fio runs, $fails failed"
	[ -f $W/$j.fail ] && grep -E 'err=|verify|bad' $W/$j.fail | head -n 5 | sed 's/^/#   /'
	ok_if "$j: fio verify=crc32c ran ($runs runs) with 0 errors" test "$runs" -gt 0 -a "$fails" -eq 0
done
read -r runs errs < <(tally flip)
diag "read-only flipper: $runs rounds, $errs fsync errors (refusals while rocheck denied)"
ok_if "the read-only disk flipped $runs times" test "$runs" -gt 0
for w in $W/writes.*; do
	diag "parameter writer ${w#$W/writes.}: $(cat "$w") writes during the cycles"
	expect_gt "parameter writes ran during the unloads (${w#$W/writes.})" "$(cat "$w")" 0
done

# blkhooks_test: its "attached" switch written while it unloads must not
# put its hooks back on the list after exit (freed code called by the
# next bio); I/O afterwards shows the list is clean.  4 rounds per cycle,
# 1/ST_SLOW of that on a slow kernel (a round took 4 s on the debug kernel).
rounds=$((cycles * 4 / slow > 0 ? cycles * 4 / slow : 1))
t1=$(date +%s)
rm -f $W/stop
param_writer blkhooks_test attached 1 0 &
bad=0
for i in $(seq $rounds); do
	modprobe blkhooks_test || bad=$((bad + 1))
	rmmod blkhooks_test || bad=$((bad + 1))
done
touch $W/stop
wait
diag "blkhooks_test: $rounds load/unload cycles in $(( $(date +%s) - t1 ))s, $(cat $W/writes.blkhooks_test.attached) writes of attached"
expect_eq "blkhooks_test loads and unloads while attached is written" 0 "$bad"
ok_if "I/O after the unloads (no hook left behind)" \
	dd if=/dev/zero of="$A" bs=64k count=16 oflag=direct status=none

# ---- fault injection ------------------------------------------------------
inject() {	# inject NAME PROBABILITY
	echo "$2" > $F/$1/probability
	echo 1 > $F/$1/interval
	echo $BUDGET > $F/$1/times	# counts down once per forced failure
	echo 0 > $F/$1/verbose
}
BUDGET=1000000
forced() { echo $((BUDGET - $(cat $F/$1/times))); }
errors_of() { sed -n 's/.*err= *\([0-9]*\).*/\1/p' "$1" | sort -n | tail -n 1; }

# fail_make_request on disk A: I/O errors reach the writer, nothing hangs.
echo always > /sys/module/intbounce/parameters/mode
echo 1 > /sys/block/${A#/dev/}/make-it-fail
inject fail_make_request 10
fio --name=fmr --filename="$A" --rw=randwrite --bs=64k --direct=1 --ioengine=libaio \
	--iodepth=8 --size=16m --continue_on_error=io > $W/fmr.out 2>&1
inject fail_make_request 0
echo 0 > /sys/block/${A#/dev/}/make-it-fail
diag "fail_make_request: $(grep -Eo 'Input/output error|err= *[0-9]+' $W/fmr.out | sort | uniq -c | tr '\n' ' ')"
ok_if "fail_make_request 10%: write errors surface to fio as EIO" grep -q 'Input/output error' $W/fmr.out
ok_if "after fail_make_request: writes to A work again" \
	dd if=/dev/zero of="$A" bs=64k count=16 oflag=direct status=none

# failslab and fail_page_alloc for the writers only (task-filter), for
# kernel allocations only: user and page cache pages (__GFP_HIGHMEM) are
# left alone, or the OOM path would kill fio instead of failing its I/O.
# Bounce pages, bios, integrity payloads and slab objects see failures.
for f in failslab fail_page_alloc; do
	echo Y > $F/$f/task-filter
	echo N > $F/$f/ignore-gfp-wait
	inject $f 5
done
echo Y > $F/fail_page_alloc/ignore-gfp-highmem
echo 0 > $F/fail_page_alloc/min-order
# fio (threads) gets the injection only once its buffers are set up: a
# failed malloc in fio's own code is fio's crash, not ours.
fio --thread --name=d --filename="$A" --rw=randwrite --bsrange=4k-1m \
	--direct=1 --ioengine=libaio --iodepth=8 --size=16m --continue_on_error=all \
	--name=b --directory=/mnt --size=8m --rw=write --end_fsync=1 \
	--continue_on_error=all > $W/slab.out 2>&1 &
pid=$!
# Job threads only, each from its first second on (fio's main thread
# dereferences a failed malloc(): seen on the debug kernel as a segfault
# at 0 in libc); threads that appear later are caught on the next round.
sleep 1
while kill -0 $pid 2>/dev/null; do
	for t in /proc/$pid/task/*; do
		[ "${t##*/}" = "$pid" ] || echo 1 > "$t/make-it-fail"
	done 2>/dev/null
	sleep 0.5
done
wait $pid
st=$?
fs=$(forced failslab) fp=$(forced fail_page_alloc)
for f in failslab fail_page_alloc; do inject $f 0; done
diag "failslab+fail_page_alloc 5%: fio exit $st; $(grep -Eo 'err= *[0-9]+' $W/slab.out | sort | uniq -c | tr '\n' ' ')"
# fio's exit status counts its jobs that saw errors (continue_on_error):
# 0 to 2 for these two (seen: 1 and 2); a crash or a kill is 128 and above.
ok_if "failslab+fail_page_alloc: fio ran to its end (exit $st: 0 to 2, run status printed)" \
	test "$st" -le 2 -a -n "$(grep 'Run status group' $W/slab.out)"
diag "intbounce: $(grep -E 'pool_waits|alloc_failures|bios_bounced' $F/intbounce/stats | tr '\n' ' ')"
expect_gt "failslab forced failures during the run ($fs)" "$fs" 0
expect_gt "fail_page_alloc forced failures during the run ($fp)" "$fp" 0
expect_eq "no bounce in flight after the injection" 0 \
	"$(awk '$1 == "inflight" { print $2 }' $F/intbounce/stats)"

# Every module still unloads, and comes back.
umount /mnt
ok=0
for m in rocheck intbounce blkowner; do rmmod_wait $m && ok=$((ok + 1)); done
expect_eq "after fault injection all three modules unload" 3 "$ok"
for m in rocheck intbounce blkowner; do modprobe $m || fail "reload $m"; done
ok_if "and the disk takes verified writes with all three loaded" \
	fio --name=after --filename="$A" --rw=randwrite --bs=64k --direct=1 --size=8m --eta=never \
	--verify=crc32c --do_verify=1 --verify_fatal=1 --output=/dev/null
st_done
