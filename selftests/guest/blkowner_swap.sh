#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 900
# plan: 37
# mem: 1G
#
# blkowner.ko, swap: a cgroup v1 group's swap-out is charged to the owner
# of the anonymous memory, the cgroup of the task that faulted it in.
# blkio and memory are separate hierarchies, as systemd mounts them on v1.
# Each case shows vanilla (blkowner not loaded) first: the swap writes are
# charged to the root and the limit does not apply.
. "$(dirname "$0")/../lib.sh"

P=/sys/module/blkowner/parameters
S=/sys/kernel/debug/blkowner/stats
stat() { awk -v k="$1" '$1 == k { print $2 }' $S 2>/dev/null | grep . || echo 0; }
MiB=1048576
THP=/sys/kernel/mm/transparent_hugepage
slow=${ST_SLOW:-1}
# The debug kernel (KASAN, lockdep: ST_SLOW > 1) swaps a group out at
# 0.6 MiB/s in 4 KiB pages with a third of the host (1.9 MiB/s in huge
# pages), below the 1 and 4 MiB/s of the cases: the limits there are a
# sixteenth, so that vanilla's rates stay well above them.  Huge pages
# are off there (but in case g): blk-throttle lets a 2 MiB page out
# whole, 32 s of a 64 KiB/s limit.  Its runs are longer: a fork costs
# it up to a second.
U=$(( slow > 1 ? MiB / 16 : MiB ))
L="$((U / 1024)) KiB/s"
# The backlog that paces a group's own reclaim: 4 MiB, 4 s of U.  The
# debug kernel's reclaim takes seconds to refill it after a pause, with
# two groups on its two CPUs: 4 s of U read 52 and 183 KiB/s for
# limits of 64 and 256 there.  So it gets 16 s of U (1 MiB).
bo_load() {
	modprobe blkowner dirty_backlog_kb=$(( (slow > 1 ? 16 : 4) * U / 1024 )) ||
		bail "blkowner"
}

v1_swap_setup
[ "$slow" -gt 1 ] && echo never > $THP/enabled

sectors() { local s; read -r _ _ _ _ _ _ s _ < "/sys/block/$name/stat"; echo $((s * 512)); }
vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
# group NAME MEMLIMIT: a group of that name in both hierarchies.
group() {
	mkdir -p $CG/$1 $MG/$1
	echo "$2" > $MG/$1/memory.limit_in_bytes
}
# squeeze GROUP: its memory limit down to 1 MiB, reclaiming what is above
# it.  The write fails (EBUSY) when a reclaim pass frees nothing, as with
# pages still under writeback: it is tried again.  (In one debug-kernel
# run only 22 of foo's 32 MiB went out, with one write and 3 s.)
squeeze() {
	local i
	for ((i = 0; i < 20 * slow; i++)); do
		echo $MiB 2>/dev/null > $MG/$1/memory.limit_in_bytes && return
		sleep 0.5
	done
	diag "squeeze $1: memory.limit_in_bytes stayed above 1 MiB"
}

# swap_run GROUP SECONDS WSET_MIB: the group's anontouch of WSET_MIB for
# SECONDS.  The disk's write rate is taken from the sample 5 s in to the
# one 5 s before the end, by the clock, not by the count of samples (a
# sample takes more than its second on the debug kernel): the first
# seconds fill the group's memory up to its limit.  The share is taken
# over the whole run, after the group's limit is lifted and what
# blk-throttle still held has gone out.  Leaves the rate in $rate, the
# group's share of all the swap-out in $share (%), anontouch's status
# and output in $anon_status and $out.
swap_run() {
	local g=$1 secs=$2 pid d0 c0 d1 c1 lim s n t0 i a=-1 b=-1 w=() t=() ps=
	lim=$(awk -v d="$dev" '$1 == d { print $2 }' $CG/$g/blkio.throttle.write_bps_device)
	d0=$(sectors); c0=$(charged "$g")
	in_cg "$g" "$ST_HELPERS/anontouch" "$3" "$secs" > /tmp/anon.$g
	pid=$!
	t0=${EPOCHREALTIME/./}
	while :; do
		read -r _ _ _ _ _ _ s _ < "/sys/block/$name/stat"
		n=${#t[@]}
		w[n]=$((s * 512)); t[n]=${EPOCHREALTIME/./}
		[ "$n" -gt 0 ] && ps+=" $(( (w[n] - w[n - 1]) * 1000000 / (t[n] - t[n - 1]) / 1024 ))"
		[ $((t[n] - t0)) -ge $((secs * 1000000)) ] && break
		sleep 1
	done
	wait $pid
	anon_status=$?
	limit "$g" 0
	sleep 2
	d1=$(sectors); c1=$(charged "$g")
	[ -n "$lim" ] && limit "$g" "$lim"
	out=$(cat /tmp/anon.$g)
	for ((i = 0; i <= n; i++)); do
		[ "$a" -lt 0 ] && [ $((t[i] - t0)) -ge 5000000 ] && a=$i
		[ $((t[i] - t0)) -le $(( (secs - 5) * 1000000 )) ] && b=$i
	done
	rate=0
	[ "$a" -ge 0 ] && [ "$b" -gt "$a" ] &&
		rate=$(( (w[b] - w[a]) * 1000000 / (t[b] - t[a]) ))
	persec=${ps# }
	share=$(( d1 > d0 ? (c1 - c0) * 100 / (d1 - d0) : 0 ))
	diag "$g: $(( (d1 - d0) / 1024 )) KiB swapped out, $(( (w[b] - w[a]) / 1024 )) KiB of it in $(( (t[b] - t[a]) / 1000 )) ms from 5 s in ($((rate / 1024)) KiB/s), $share% charged to $g; anontouch: $out"
}

group foo $((32 * MiB))
group bar $((32 * MiB))

# ---- a. the seed case: 96 MiB working set, 32 MiB limit, 1 MiB/s ----------
limit foo $U
swap_run foo 20 96
echo "# swap vanilla per-second disk write rate (KiB/s): $persec"
expect_gt "vanilla: foo's swap-out exceeds the $L limit (> 1.5x)" "$rate" $((U * 3 / 2))
ok_if "vanilla: foo is charged less than 10% of its swap-out ($share%)" test "$share" -lt 10
expect_eq "vanilla: anontouch found every page as it left it" 0 "$anon_status"

bo_load
T=/sys/kernel/tracing
echo > $T/trace
echo 1 > $T/events/blkowner/blkowner_swapper_paused/enable
swap_run foo 40 96
echo 0 > $T/events/blkowner/blkowner_swapper_paused/enable
echo "# swap blkowner per-second disk write rate (KiB/s): $persec"
echo "# seed swap: kibps=$((rate / 1024)) share=$share"
sed 's/^/# stats: /' $S | grep -E 'anon|swap|stale|not_found|entries'
# blk-throttle lets a whole 2 MiB THP out at a time: over the 30 s window
# one THP more or less is 6.7% of the rate.  Measured: 1046, 1059, 1061,
# 1064 KiB/s, 100% charged.  Were khugepaged's reclaim for foo not held,
# a burst after about 28 s: 1071 and 1690 KiB/s, 95% and 74%.
ok_if "blkowner: foo's swap-out is held to the $L limit +-10% over 30 s ($((rate / 1024)) KiB/s)" \
	test "$rate" -ge $((U * 9 / 10)) -a "$rate" -le $((U * 11 / 10))
ok_if "blkowner: foo is charged >= 90% of its swap-out ($share%)" test "$share" -ge 90
expect_eq "blkowner: anontouch found every page as it left it" 0 "$anon_status"
expect_gt "blkowner: anonymous folios were tagged" "$(stat anon_tagged)" 0
expect_gt "blkowner: foo's own reclaim left its swap bios to blk-throttle" "$(stat swap_bios_throttled)" 0
expect_gt "blkowner: foo's reclaim was paced" "$(stat swap_pauses)" 0
grep -m1 ' blkowner_swapper_paused:' $T/trace | sed 's/^ */# /'
expect_eq "blkowner: one blkowner_swapper_paused event per swap_pauses step" \
	"$(stat swap_pauses)" "$(grep -c ' blkowner_swapper_paused:' $T/trace)"

# swap=0: tracking off, the limit escapes again; bad values refused.
echo 0 > $P/swap
swap_run foo $(( slow > 1 ? 25 : 15 )) 96
expect_gt "swap=0: foo's swap-out escapes the limit again (> 1.5x)" "$rate" $((U * 3 / 2))
ok_if "swap=0: foo is charged less than 10% ($share%)" test "$share" -lt 10
ok_if "swap=maybe is refused" bash -c "! echo maybe > $P/swap" 2>/dev/null
expect_eq "swap=maybe left swap at 0" N "$(cat $P/swap)"
ok_if "dmesg names the accepted values of swap" \
	bash -c "dmesg | grep -q 'blkowner: swap: invalid value, accepted: 0, 1, n, y'"
echo 1 > $P/swap
limit foo 0

# ---- b. global pressure: blkowner_global.sh (on the instruction clock) ----

# ---- c. two groups on one swap disk, 1 and 4 MiB/s (a 16th on debug) -----
# A group's rate is what blkio charged it over 40 s.  blkio counts a bio as
# it enters blk-throttle, but a paced group keeps about dirty_backlog_kb
# (4 s of foo's limit, 16 s on the debug kernel) plus one folio (a THP:
# 2 MiB) queued there all along, so the count and the dispatch differ by
# at most that over the window.
# On the debug kernel the backlog takes longer to fill and the window's
# samples take seconds (a fork each): the window starts 10 s in and the
# runs last 65 s there, so that it ends before they do.
lead=$(( slow > 1 ? 10 : 5 )) run=$(( slow > 1 ? 65 : 50 ))
two_groups() {
	local pf pb f0 b0 t0 f1 b1 t1 d0 d1
	limit foo $U
	limit bar $((4 * U))
	in_cg foo "$ST_HELPERS/anontouch" 96 $run > /tmp/anon.foo
	pf=$!
	in_cg bar "$ST_HELPERS/anontouch" 96 $run > /tmp/anon.bar
	pb=$!
	sleep $lead
	f0=$(charged foo); b0=$(charged bar); d0=$(sectors); t0=${EPOCHREALTIME/./}
	sleep 40
	f1=$(charged foo); b1=$(charged bar); d1=$(sectors); t1=${EPOCHREALTIME/./}
	wait $pf
	two_status=$?
	wait $pb
	two_status=$((two_status + $?))
	limit foo 0
	limit bar 0
	rfoo=$(( (f1 - f0) * 1000000 / (t1 - t0) )); rbar=$(( (b1 - b0) * 1000000 / (t1 - t0) ))
	rdisk=$(( (d1 - d0) * 1000000 / (t1 - t0) ))
	diag "two groups: foo charged $((rfoo / 1024)) KiB/s, bar $((rbar / 1024)) KiB/s, the disk wrote $((rdisk / 1024)) KiB/s over $(( (t1 - t0) / 1000 )) ms"
}
rmmod blkowner
two_groups
ok_if "vanilla two groups: the disk's swap-out exceeds the $((5 * U / 1024)) KiB/s of both limits ($((rdisk / 1024)) KiB/s)" \
	test "$rdisk" -gt $((5 * U))
ok_if "vanilla two groups: foo and bar are charged less than 10% of it" \
	test $(( (rfoo + rbar) * 10 )) -lt "$rdisk"
bo_load
two_groups
echo "# two groups: foo_kibps=$((rfoo / 1024)) bar_kibps=$((rbar / 1024)) disk_kibps=$((rdisk / 1024))"
ok_if "two groups: foo is charged its $L +-15% ($((rfoo / 1024)) KiB/s)" \
	test "$rfoo" -ge $((U * 85 / 100)) -a "$rfoo" -le $((U * 115 / 100))
ok_if "two groups: bar is charged its $((4 * U / 1024)) KiB/s +-15% ($((rbar / 1024)) KiB/s)" \
	test "$rbar" -ge $((4 * U * 85 / 100)) -a "$rbar" -le $((4 * U * 115 / 100))
expect_eq "two groups: anontouch found every page as it left it" 0 "$two_status"

# ---- e. fork: shared pages stay their creator's, copies are the writer's -----
# The parent (in foo) writes 32 MiB and forks; the child moves to bar and
# writes half of it, copying those pages.  Then a root task squeezes both
# groups' memory to 1 MiB and nearly all of it swaps out.  The owner of a
# folio is the cgroup of the task that faulted it in: the parent's 32 MiB
# (the half still shared included) are foo's, the child's 16 MiB of
# copies bar's.
fork_case() {
	local f0 b0 d0 i
	echo $((64 * MiB)) > $MG/foo/memory.limit_in_bytes
	echo $((64 * MiB)) > $MG/bar/memory.limit_in_bytes
	f0=$(charged foo); b0=$(charged bar); d0=$(sectors)
	in_cg foo "$ST_HELPERS/anonfork" 32 20 $CG/bar/cgroup.procs $MG/bar/cgroup.procs > /tmp/fork.out
	fpid=$!
	wait_for_line /tmp/fork.out ready 20
	squeeze bar
	squeeze foo
	sleep $((3 * slow))
	fo=$(( ($(charged foo) - f0) / 1024 )); ba=$(( ($(charged bar) - b0) / 1024 ))
	sw=$(( ($(sectors) - d0) / 1024 ))
	# The check at the end faults everything back in: room for it.
	echo $((64 * MiB)) > $MG/foo/memory.limit_in_bytes
	echo $((64 * MiB)) > $MG/bar/memory.limit_in_bytes
	wait $fpid
	fork_status=$?
	diag "fork: $sw KiB swapped out, foo charged $fo KiB, bar $ba KiB; anonfork: $(tr '\n' ' ' < /tmp/fork.out)"
	echo $((32 * MiB)) > $MG/foo/memory.limit_in_bytes
	echo $((32 * MiB)) > $MG/bar/memory.limit_in_bytes
}
rmmod blkowner
fork_case
ok_if "vanilla fork: foo and bar are charged less than 10% of the swap-out ($((fo + ba)) of $sw KiB)" \
	test $(( (fo + ba) * 10 )) -lt "$sw"
expect_eq "vanilla fork: parent and child found every page as they left it" 0 "$fork_status"
bo_load
fork_case
echo "# fork: foo_kib=$fo bar_kib=$ba swapped_kib=$sw"
ok_if "fork: foo is charged its 32 MiB, the shared half included (>= 90%: $fo KiB)" \
	test "$fo" -ge $((32 * 1024 * 9 / 10))
ok_if "fork: bar is charged the child's 16 MiB of copies, not the shared half ($ba KiB)" \
	test "$ba" -ge $((16 * 1024 * 9 / 10)) -a "$ba" -lt $((24 * 1024))
expect_eq "fork: parent and child found every page as they left it" 0 "$fork_status"

# ---- g. khugepaged: the huge pages it collapses for foo are foo's -----------
# foo faults 32 MiB in 4 KiB pages and hands them to khugepaged, which
# runs in the root group: it copies them into huge pages it charges to
# foo.  Then a root task squeezes foo's memory to 1 MiB.  The collapsed
# huge pages are foo's anonymous memory, and so is their swap-out.
collapse_case() {
	local f0 d0 c0 i thp scan
	thp=$(sed 's/.*\[\(.*\)\].*/\1/' $THP/enabled)
	scan=$(cat $THP/khugepaged/scan_sleep_millisecs)
	echo always > $THP/enabled
	echo 100 > $THP/khugepaged/scan_sleep_millisecs
	echo $((64 * MiB)) > $MG/foo/memory.limit_in_bytes
	f0=$(charged foo); d0=$(sectors); c0=$(vmstat thp_collapse_alloc)
	in_cg foo "$ST_HELPERS/anontouch" 32 40 collapse > /tmp/collapse.out
	cpid=$!
	for i in $(seq 300); do
		grep -q ready /tmp/collapse.out &&
			[ $(( $(vmstat thp_collapse_alloc) - c0 )) -ge 12 ] && break
		sleep 0.1
	done
	collapsed=$(( $(vmstat thp_collapse_alloc) - c0 ))
	squeeze foo
	sleep $((3 * slow))
	fo=$(( ($(charged foo) - f0) / 1024 )); sw=$(( ($(sectors) - d0) / 1024 ))
	echo $((64 * MiB)) > $MG/foo/memory.limit_in_bytes
	wait $cpid
	collapse_status=$?
	diag "collapse: khugepaged collapsed $collapsed huge pages; $sw KiB swapped out, foo charged $fo KiB; anontouch: $(tr '\n' ' ' < /tmp/collapse.out)"
	echo $((32 * MiB)) > $MG/foo/memory.limit_in_bytes
	echo "$scan" > $THP/khugepaged/scan_sleep_millisecs
	echo "$thp" > $THP/enabled
}
rmmod blkowner
collapse_case
ok_if "vanilla collapse: foo is charged less than 10% of the swap-out ($fo of $sw KiB)" \
	test $((fo * 10)) -lt "$sw"
expect_eq "vanilla collapse: anontouch found every page as it left it" 0 "$collapse_status"
bo_load
collapse_case
echo "# collapse: collapsed=$collapsed foo_kib=$fo swapped_kib=$sw"
ok_if "collapse: khugepaged collapsed at least 12 of foo's 16 huge pages ($collapsed)" \
	test "$collapsed" -ge 12
ok_if "collapse: foo is charged >= 90% of the swap-out ($fo of $sw KiB)" \
	test $((fo * 10)) -ge $((sw * 9))
expect_eq "collapse: anontouch found every page as it left it" 0 "$collapse_status"

# ---- d. a swap file on ext4 -------------------------------------------------
swapoff "$sd" || bail "swapoff $sd"
# No lazy init: its inode-table zeroing would be disk writes of no group.
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$sd" >/dev/null 2>&1 && mount "$sd" /mnt || bail "mkfs/mount $sd"
dd if=/dev/zero of=/mnt/swapfile bs=1M count=160 status=none && chmod 600 /mnt/swapfile &&
	mkswap /mnt/swapfile >/dev/null && swapon /mnt/swapfile || bail "swap file"
limit foo $U
rmmod blkowner
swap_run foo 15 96
ok_if "vanilla swap file: foo is charged less than 10% of the swap-out ($share%)" test "$share" -lt 10
bo_load
swap_run foo 15 96
ok_if "swap file: foo is charged >= 90% of the swap-out ($share%)" test "$share" -ge 90
expect_eq "swap file: anontouch found every page as it left it" 0 "$anon_status"

# ---- f. unload under swap I/O, rmdir of an owner ------------------------------
in_cg foo "$ST_HELPERS/anontouch" 96 20 > /tmp/anon.foo
pf=$!
sleep 8
r0=$(stat swap_bios_recharged)
ok_if "rmmod blkowner while foo swaps through its limit" rmmod blkowner
diag "swap bios re-charged before rmmod: $r0"
wait $pf
expect_eq "after rmmod: anontouch found every page as it left it" 0 $?
bo_load
# An owner removed while its pages are in memory and swap: its swap-out
# goes to the root, counted as owner_not_found.
# The rmdir waits for the group to reach its limit (the debug kernel
# takes 10 s or more to fault 32 MiB), so that what it faulted before
# is what reclaim swaps out after.
group gone $((32 * MiB))
in_cg gone "$ST_HELPERS/anontouch" 96 $((25 * slow)) > /tmp/anon.gone
pg=$!
for ((i = 0; i < 300 * slow; i++)); do
	[ "$(cat $MG/gone/memory.failcnt)" -gt 0 ] && break
	sleep 0.1
done
echo $pg > $CG/cgroup.procs
rmdir $CG/gone
n0=$(stat owner_not_found)
for ((i = 0; i < 100 * slow; i++)); do
	[ "$(stat owner_not_found)" -gt "$n0" ] && break
	sleep 0.1
done
expect_gt "rmdir of the owner: its swap-out counted owner_not_found" "$(stat owner_not_found)" "$n0"
wait $pg
expect_eq "rmdir of the owner: anontouch found every page as it left it" 0 $?
limit foo 0
swapoff /mnt/swapfile
umount /mnt
