#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 900
# plan: 34
# icount: 2
#
# blkowner.ko: buffered writes of a cgroup v1 blkio group are throttled once
# the flusher's writeback is charged to the page owner.  Each case shows
# vanilla first (the limit is not applied, the group is charged nothing).
# The guest clock counts instructions (# icount): rates and the isolation
# cases' shares are then the guest's own, whatever else loads the host.
. "$(dirname "$0")/../lib.sh"

P=/sys/module/blkowner/parameters
S=/sys/kernel/debug/blkowner/stats
stat() { awk -v k="$1" '$1 == k { print $2 }' $S; }
MiB=1048576
CG=/sys/fs/cgroup/blkio
# U is the limit of every case (1 MiB/s) and the block size of every
# write, so a case takes as many seconds whatever U is.  The debug kernel
# (KASAN, lockdep: ST_SLOW > 1) writes ext4 at 0.2-1 MiB/s under TCG, below
# the limits themselves: there U is 128 KiB, split_kb 8 instead of 64, and
# fsync latencies may be ST_SLOW times longer.  Comments below speak of
# the plain kernel's U.
slow=${ST_SLOW:-1}
U=$MiB
[ "$slow" -gt 1 ] && U=$((MiB / 8))
L="$((U / 1024)) KiB/s"

# per_host_store: the second host (test b) must not share the first one's RAM.
modprobe scsi_debug dev_size_mb=400 per_host_store=1 || bail "scsi_debug"
sleep 0.5
sd=$(scsi_debug_disk) && wait_for_dev "$sd" || bail "no scsi_debug disk"
name=${sd#/dev/}
dev=$(cat /sys/block/$name/dev)
# No lazy init: its background inode-table zeroing would pollute the disk rate.
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$sd" >/dev/null 2>&1 && mount "$sd" /mnt || bail "mkfs/mount"
mkdir -p $CG && mount -t cgroup -o blkio blkio $CG || bail "cgroup v1 blkio"
echo $MiB > /proc/sys/vm/dirty_background_bytes
echo $((256 * MiB)) > /proc/sys/vm/dirty_bytes
echo 100 > /proc/sys/vm/dirty_expire_centisecs
echo 100 > /proc/sys/vm/dirty_writeback_centisecs

# Sectors written, field 7 of the stat file; read by the shell itself and
# timed with $EPOCHREALTIME: on the debug kernel under load one fork and
# exec of awk or date took seconds, which a rate over a fixed interval
# counted as time the disk had not written (two groups read 27% over).
sectors() { local s; read -r _ _ _ _ _ _ s _ < "/sys/block/$1/stat"; echo $((s * 512)); }
disk_written() { sectors "$name"; }
now_ns() { echo "${EPOCHREALTIME/./}000"; }
charged() { v1_charged "$CG/$1"; }	# bytes written charged to cgroup $1 on the disk
limit() { echo "$dev $2" > $CG/$1/blkio.throttle.write_bps_device; }
in_cg() {	# in_cg GROUP CMD...: run CMD in GROUP, in the background
	local g=$1
	shift
	bash -c 'echo $$ > '"$CG/$g"'/cgroup.procs && exec "$@"' _ "$@" &
}
settle() { sync; echo 3 > /proc/sys/vm/drop_caches; }

# sample SECONDS [STOP_BYTES]: per-second disk write rates (bytes/s), one
# per line, each over the time that really passed (a round takes longer
# than a second on a slow guest, such as the debug kernel), ending early
# once STOP_BYTES have been written: a sample after the writer's data is
# all on disk would measure the end of the job, not the throttle.
sample() {
	local i start prev cur t tprev
	start=$(disk_written); prev=$start; tprev=$(now_ns)
	for i in $(seq "$1"); do
		sleep 1
		cur=$(disk_written); t=$(now_ns)
		echo $(( (cur - prev) * 1000000 / ((t - tprev) / 1000) ))
		prev=$cur tprev=$t
		[ -n "${2:-}" ] && [ $((cur - start)) -ge "$2" ] && break
	done
}
mean() { awk '{ s += $1; n++ } END { printf "%d\n", n ? s / n : 0 }'; }

mkdir -p $CG/foo $CG/bar

# ---- a. the seed case ---------------------------------------------------
seed_case() {	# seed_case LABEL SECONDS: dd 64 MiB in foo at 1 MiB/s
	limit foo $U
	c0=$(charged foo); d0=$(disk_written)
	in_cg foo dd if=/dev/zero of=/mnt/seed bs=$U count=64 status=none
	local pid=$!
	sleep 2
	rates=$(sample "$2" $((48 * U)))
	n=$(echo "$rates" | grep -c .)
	c1=$(charged foo); d1=$(disk_written)
	limit foo 0
	wait $pid
	settle
	ctot=$(( $(charged foo) - c0 ))
	rm -f /mnt/seed
	echo "# $1 per-second disk write rate (KiB/s): $(echo "$rates" | awk '{ printf "%d ", $1 / 1024 }')"
}
# Vanilla: how long until the 64 MiB reach the disk (at 1 MiB/s: 64 s).
limit foo $U
d0=$(disk_written); t0=$(now_ns)
in_cg foo dd if=/dev/zero of=/mnt/seed bs=$U count=64 status=none
pid=$!
c0=$(charged foo)
vrates= prev=$d0
while [ $(( $(disk_written) - d0 )) -lt $((60 * U)) ] && [ $(( ($(now_ns) - t0) / 1000000000 )) -lt 40 ]; do
	sleep 1
	cur=$(disk_written)
	vrates+="$(( (cur - prev) / 1024 )) "
	prev=$cur
done
t1=$(now_ns); d1=$(disk_written); c1=$(charged foo)
echo "# vanilla per-second disk write rate (KiB/s): $vrates"
wait $pid; limit foo 0; settle; rm -f /mnt/seed
m=$(( (d1 - d0) * 1000 / ((t1 - t0) / 1000000) ))
diag "vanilla: $(( (d1 - d0) / MiB )) MiB on disk in $(( (t1 - t0) / 1000000 )) ms: $((m / 1024)) KiB/s; foo charged $(( (c1 - c0) / 1024 )) KiB"
echo "# vanilla seed: disk_kibps=$((m / 1024)) foo_charged_kib=$(( (c1 - c0) / 1024 ))"
expect_gt "vanilla: flusher writeback exceeds the $L limit (> 1.5x)" "$m" $((U * 3 / 2))
ok_if "vanilla: foo is charged less than 10% of the disk writes" \
	test $(( (c1 - c0) * 10 )) -lt $(( d1 - d0 ))

modprobe blkowner || bail "cannot load blkowner"
# blkowner_ext.sh runs this file again on a kernel booted with blk_page_ext=on.
expect_eq "owners are kept in the ${BO_STORE:-pfn_table}" "${BO_STORE:-pfn_table}" "$(stat store)"
seed_case blkowner 22
m=$(echo "$rates" | mean)
inband=$(echo "$rates" | while read -r r; do within "$r" $U 10 && echo y; done | grep -c y)
diag "blkowner: mean $((m / 1024)) KiB/s, $inband/$n seconds within 10%, foo charged $(( (c1 - c0) / 1024 )) KiB of $(( (d1 - d0) / 1024 )) KiB"
echo "# blkowner seed: mean_kibps=$((m / 1024)) seconds_within_10pct=$inband/$n"
# Writeback bios here are ~1.2 MiB, so one bio is more than a second's
# budget: per-second rates swing 0..2 MiB/s around the limit (see
# docs/blkowner.md).  The mean is what the throttle can hold.
ok_if "blkowner: mean disk write rate over $n s within 25% of $L" within "$m" $U 25
ok_if "blkowner: foo is charged >= 90% of the bytes written to the disk" \
	test $(( (c1 - c0) * 10 )) -ge $(( (d1 - d0) * 9 ))
# blk-throttle counts a bio as it enters, before it waits, so over the
# window the charge leads the disk by the bios held (115-122% at 1 MiB/s,
# 186% at the debug kernel's 128 KiB/s, where one ext4 bio is 10 s of
# budget).  Once all is written the charge is what foo wrote, 64 U, or
# less (sync's writeback is exempt): a double count would be 200%.
ok_if "blkowner: once written back, foo is charged at most once for its $((64 * U / 1024)) KiB ($((ctot / 1024)) KiB)" \
	test $((ctot * 100)) -le $((64 * U * 105))

# The same with split_kb=64: 16 bios per second of budget, so each
# second's rate is within one bio (6%) and one throttle slice of the
# limit: blk-throttle rounds the time a group has waited up to its slice
# (100 ms, 10% of a second's budget) and may let that much go early.  On
# the instruction clock four runs read 913-1140 KiB/s a second (-11%
# to +11%; 19-21 of 22 seconds within 10%, a second over it about every
# 6 s whether the journal committed or not), so the band is 15%.
sk=$((U / 16384))
echo $sk > $P/split_kb
sp=$(stat bios_split)
seed_case "blkowner split_kb=$sk" 22
m=$(echo "$rates" | mean)
inband=$(echo "$rates" | while read -r r; do within "$r" $U 15 && echo y; done | grep -c y)
diag "split_kb=$sk: mean $((m / 1024)) KiB/s, $inband/$n seconds within 15%, foo charged $(( (c1 - c0) / 1024 )) KiB of $(( (d1 - d0) / 1024 )) KiB"
echo "# blkowner split_kb=$sk seed: mean_kibps=$((m / 1024)) seconds_within_15pct=$inband/$n"
expect_gt "split_kb=$sk: writeback bios were split" "$(stat bios_split)" "$sp"
ok_if "split_kb=$sk: mean disk write rate over $n s within 10% of $L" within "$m" $U 10
ok_if "split_kb=$sk: at least 80% of the $n seconds within 15% of $L ($inband)" \
	test $((inband * 10)) -ge $((n * 8)) -a "$n" -ge 8
echo 0 > $P/split_kb
mo=$(stat mappings_owned) pt=$(stat pages_tagged)
ok_if "blkowner: foo owns the files it alone dirties, no word stored per page (mappings_owned $mo, pages_tagged $pt)" \
	test "$mo" -gt 0 -a "$pt" -eq 0
expect_gt "blkowner: bios re-charged" "$(stat bios_recharged)" 0

# ---- b. two groups, 1 and 4 MiB/s, each on its own disk ---------------------
# v1 io_service_bytes counts bios when they enter blk-throttle, not when
# they leave it, so per-group rates are read from two disks' own counters.
modprobe scsi_debug 2>/dev/null
echo 1 > /sys/bus/pseudo/drivers/scsi_debug/add_host
sleep 1
sd2=
for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
	[ "/dev/${d##*/}" != "$sd" ] && sd2=/dev/${d##*/}
done
wait_for_dev "$sd2" || bail "no second scsi_debug disk"
name2=${sd2#/dev/}; dev2=$(cat /sys/block/$name2/dev)
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$sd2" >/dev/null 2>&1 &&
	mkdir -p /mnt2 && mount "$sd2" /mnt2 || bail "mkfs/mount second disk"
written2() { sectors "$name2"; }
# bar's limit is 4 U, but the debug kernel writes bar's ext4 at 298-327
# KiB/s beside foo at 128 (four runs, 2026-12-04..07; 514-567 alone),
# below 4 U = 512: there bar's limit is 2 U, under what it can write
# (228 KiB/s of 256 measured, foo 118 of 128).
BU=$((4 * U))
[ "$slow" -gt 1 ] && BU=$((2 * U))
limit foo $U
echo "$dev2 $BU" > $CG/bar/blkio.throttle.write_bps_device
# A writeback bio stays ~1.2 MiB whatever U is: at U = 128 KiB/s a 20 s
# window holds two or three of foo's bios, so on a slow kernel the bios
# are split to 1/16 of U as in the split_kb case.
[ "$slow" -gt 1 ] && echo $((U / 16384)) > $P/split_kb
in_cg foo dd if=/dev/zero of=/mnt/f1 bs=$U count=64 status=none; p1=$!
in_cg bar dd if=/dev/zero of=/mnt2/f2 bs=$U count=160 status=none; p2=$!
sleep 3
ta=$(now_ns); a1=$(disk_written); a2=$(written2)
sleep 20
b1=$(disk_written); b2=$(written2); tb=$(now_ns)
limit foo 0; echo "$dev2 0" > $CG/bar/blkio.throttle.write_bps_device
echo 0 > $P/split_kb
wait $p1 $p2
settle; rm -f /mnt/f1 /mnt2/f2; umount /mnt2
rf=$(( (b1 - a1) * 1000 / ((tb - ta) / 1000000) )); rb=$(( (b2 - a2) * 1000 / ((tb - ta) / 1000000) ))
diag "two groups: foo $((rf / 1024)) KiB/s (limit $((U / 1024))), bar $((rb / 1024)) KiB/s (limit $((BU / 1024)))"
echo "# two groups: foo_kibps=$((rf / 1024)) bar_kibps=$((rb / 1024))"
ok_if "two groups: foo within 15% of $L" within "$rf" $U 15
ok_if "two groups: bar within 15% of $((BU / 1024)) KiB/s" within "$rb" "$BU" 15

# ---- c. shared file, interleaved 1 MiB regions ----------------------------
f0=$(charged foo); b0=$(charged bar)
for i in $(seq 0 2 14); do
	in_cg foo dd if=/dev/zero of=/mnt/shared bs=$U seek=$i count=1 conv=notrunc status=none; wait $!
	in_cg bar dd if=/dev/zero of=/mnt/shared bs=$U seek=$((i + 1)) count=1 conv=notrunc status=none; wait $!
done
sleep 6	# the flusher writes back (dirty_expire 1 s)
f1=$(charged foo); b1=$(charged bar)
diag "shared file: foo charged $(( (f1 - f0) / 1024 )) KiB, bar $(( (b1 - b0) / 1024 )) KiB ($((8 * U / 1024)) each expected)"
ok_if "shared file: foo charged its own $((8 * U / 1024)) KiB (within 10%)" within $((f1 - f0)) $((8 * U)) 10
ok_if "shared file: bar charged its own $((8 * U / 1024)) KiB (within 10%)" within $((b1 - b0)) $((8 * U)) 10
rm -f /mnt/shared

# ---- e. raw block device buffered writes -----------------------------------
umount /mnt
limit foo $U
in_cg foo dd if=/dev/zero of="$sd" bs=$U count=32 seek=100 status=none; pid=$!
sleep 2
rates=$(sample 10 $((24 * U)))
limit foo 0
wait $pid; settle
m=$(echo "$rates" | mean)
diag "raw device: mean $((m / 1024)) KiB/s"
echo "# raw device: mean_kibps=$((m / 1024))"
ok_if "raw device buffered writes in foo held within 25% of $L" within "$m" $U 25
# The raw writes went over the filesystem's blocks: make a new one.
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$sd" >/dev/null 2>&1 &&
	mount "$sd" /mnt || bail "mkfs/mount after the raw writes"

# ---- f. rmdir of the owner and rmmod with dirty pages pending ---------------
hold() {	# keep dirty pages dirty until flush
	echo 50 > /proc/sys/vm/dirty_background_ratio
	echo 3000 > /proc/sys/vm/dirty_expire_centisecs
}
flush() {	# let the flusher write back (not sync: that is REQ_SYNC)
	echo $MiB > /proc/sys/vm/dirty_background_bytes
	echo 100 > /proc/sys/vm/dirty_expire_centisecs
	sleep 6
}
hold
mkdir -p $CG/gone
in_cg gone dd if=/dev/zero of=/mnt/orphan bs=$U count=16 status=none; wait $!
rmdir $CG/gone
nf=$(stat owner_not_found)
flush
expect_gt "rmdir: writeback of a removed owner's pages falls back (owner_not_found)" \
	"$(stat owner_not_found)" "$nf"
hold
# The root group dirties the file's last page first, so that foo's pages
# are dirtied beside another owner's: each gets a word in the table.
dd if=/dev/zero of=/mnt/pending bs=4096 count=1 seek=$((16 * U / 4096)) status=none
# Random data: a write lost after rmmod would read back as the zeros of
# an unwritten extent, which a file of zeros could not tell apart.
head -c $((16 * U)) /dev/urandom > /tmp/pending
want=$(md5sum < /tmp/pending | cut -c1-32)
in_cg foo dd if=/tmp/pending of=/mnt/pending bs=$U count=16 conv=notrunc status=none; wait $!
e=$(stat entries)
expect_gt "tagged dirty pages are pending before rmmod" "$e" 0
diag "$(stat store) holds $(stat store_bytes) bytes for $e tagged folios, and $(stat store_fixed_bytes) whatever is tagged"
ok_if "rmmod with $e tagged dirty pages pending succeeds" rmmod blkowner
d0=$(disk_written)
flush
sync
expect_gt "the pending pages are written back after rmmod (bytes on disk)" \
	$(( $(disk_written) - d0 )) $((16 * U - 1))
echo 3 > /proc/sys/vm/drop_caches
expect_eq "and read back from the disk as written (random, $((16 * U / 1024)) KiB)" \
	"$want" "$(head -c $((16 * U)) /mnt/pending | md5sum | cut -c1-32)"
rm -f /mnt/orphan /mnt/pending

# ---- g. isolation: an unthrottled sibling -----------------------------------
sib() {	# sib: buffered write throughput (KiB/s) of bar over three rounds of
	# 48 MiB + fsync; a stall in any round shows.
	local i t0 t1
	t0=$(now_ns)
	for i in 1 2 3; do
		in_cg bar dd if=/dev/zero of=/mnt/sib bs=$U count=48 conv=fsync status=none; wait $!
		rm -f /mnt/sib
	done
	t1=$(now_ns)
	echo $(( 3 * 48 * U / 1024 * 1000000000 / (t1 - t0) ))
}
fsync_ms() {	# worst latency (ms) of 5 small write+fsync in bar
	# fsynclat times the calls alone, in a process already in bar: joining
	# a group takes 7 to 20 ms (once in a while a second) under TCG.
	in_cg bar "$ST_HELPERS/fsynclat" /mnt/small 5 300 > /tmp/fsynclat
	wait $! || bail "fsynclat in bar"
	echo $(( $(sort -n /tmp/fsynclat | tail -1) / 1000 ))
}
# isolation LABEL WINDOWS: the sibling's share of its solo throughput
# beside a throttled foo.  Solo and busy windows alternate (solo, busy,
# solo, ... solo); each busy window is compared with the mean of the solo
# windows on either side of it, and the share is the median of those
# ratios.  The file runs on the instruction clock (# icount): on the wall
# clock a TCG guest's speed drifts with the host's (solo windows read
# 29274 and 40921 KiB/s around one busy window; the share read 69-77%
# beside another guest, 89-97% alone), on icount the solo windows read
# 8583-8773 KiB/s.  Sets share (%) and lat, the worst fsync latency (ms)
# beside foo over all busy windows.
isolation() {
	local hog before after busy i lat1 r ratios=
	before=$(sib)
	lat=0
	for i in $(seq "$2"); do
		limit foo $U
		in_cg foo dd if=/dev/zero of=/mnt/hog bs=$U count=$((64 * MiB / U)) status=none; hog=$!
		sleep 3
		busy=$(sib)
		lat1=$(fsync_ms)
		limit foo 0
		wait $hog; settle; rm -f /mnt/hog /mnt/small
		after=$(sib)
		r=$(( busy * 200 / (before + after) ))
		ratios+="$r "
		[ "$lat1" -gt "$lat" ] && lat=$lat1
		diag "isolation, $1: sibling solo $before and $after KiB/s around $busy KiB/s beside throttled foo: $r%; worst fsync $lat1 ms"
		before=$after
	done
	share=$(echo $ratios | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	echo "# isolation $1 share_pct=$share ratios_pct=${ratios% } worst_fsync_ms=$lat"
}
# The share that counts as kept: 80% of solo.  On a slow kernel 50%: the
# debug kernel's solo rate varied from 1022 to 1750 KiB/s within one run,
# so 80% lies inside its noise; starved there reads 16-37% without the
# pause, and a pause too weak to hold foo back (one capped wait per
# ratelimit point) read 38%.
keep=80
[ "$slow" -gt 1 ] && keep=50
# A stall is an fsync longer than the backlog the pause leaves foo (4 s
# of its limit, below) and a second: with data=ordered a journal commit
# writes the data of foo's inode it carries, so the sibling's fsync may
# wait for up to the whole backlog.  Worst fsync beside the paused foo
# per case, seven runs of the two files on the instruction clock: 104,
# 131, 142, 158, 193, 226, 226, 261, 278, 447, 548, 657, 1198, 1670 ms;
# without the pause 90-1449 ms, and 10.5 s in single rounds on the wall
# clock.
stall_ms=$(( (4 + 1) * 1000 * slow ))
isolated() {	# isolated LABEL: the goal, >= $keep% of solo and no stall
	ok_if "$1: sibling keeps >= $keep% of its solo throughput (median $share%)" test "$share" -ge $keep
	ok_if "$1: no fsync stall beyond foo's backlog (worst $lat ms < $stall_ms ms)" \
		test "$lat" -lt $stall_ms
}
# Baseline: re-charging alone lets foo dirty 64 MiB at memory speed; the
# flusher queues all of it behind the 1 MiB/s limit, and ext4 (journal
# credits reserved for each bio's unwritten extents, ordered data) makes
# the sibling's fsync wait for foo's backlog.  The hog is 64 MiB on every
# kernel, not 64 U: what starves the sibling is the number of foo's bios
# held in the throttle, not their seconds.  At U = 128 KiB/s, 8 MiB left
# the sibling at 107% of solo, 32 MiB at 21-56% (56% beside another
# guest), 64 MiB at 16-37%.  The pause's backlog is 4 s of the limit
# (4096 KiB at 1 MiB/s).
modprobe blkowner dirty_backlog_kb=0
isolation "data=ordered, dirty_backlog_kb=0" 1
ok_if "baseline: without the dirty pause the sibling is starved (< $keep%: $share%) or stalls (fsync >= $stall_ms ms: $lat ms)" \
	test "$share" -lt $keep -o "$lat" -ge $stall_ms
echo $((4 * U / 1024)) > $P/dirty_backlog_kb
p0=$(stat dirtier_pauses)
isolation data=ordered 3
isolated data=ordered
expect_gt "foo's dirtier was paused" "$(stat dirtier_pauses)" "$p0"
umount /mnt && mount -o data=writeback "$sd" /mnt || bail "remount data=writeback"
isolation data=writeback 3
isolated data=writeback
umount /mnt && mount "$sd" /mnt || bail "remount"

# A dirtier that blkowner paces sleeps outside the hooks' SRCU section, so
# unloading another module (blk_hooks_unregister() waits for every running
# hook callback) does not wait for the pause.  The smallest budget (64
# KiB) so foo is paced within a second of its start.
limit foo $U
echo 64 > $P/dirty_backlog_kb
p0=$(stat dirtier_pauses)
in_cg foo dd if=/dev/zero of=/mnt/pause bs=$U count=32 status=none
pid=$!
for i in $(seq 100); do
	[ "$(stat dirtier_pauses)" -gt "$p0" ] && break
	sleep 0.1
done
modprobe blkhooks_test || bail "blkhooks_test"
t0=$(now_ns)
rmmod blkhooks_test
ms=$(( ($(now_ns) - t0) / 1000000 ))
expect_gt "foo's dirtier is being paced" "$(stat dirtier_pauses)" "$p0"
ok_if "rmmod of another module while foo's dirtier is paced takes < $slow s ($ms ms)" \
	test "$ms" -lt $((1000 * slow))
limit foo 0
wait $pid
settle
rm -f /mnt/pause
echo $((4 * U / 1024)) > $P/dirty_backlog_kb

# ---- parameters -------------------------------------------------------------
old=$(cat $P/hierarchies)
ok_if "hierarchies=v3 is refused" bash -c "! echo v3 > $P/hierarchies 2>/dev/null"
expect_eq "hierarchies keeps its value" "$old" "$(cat $P/hierarchies)"
ok_if "dmesg names the accepted values" \
	bash -c "dmesg | grep -q 'blkowner: hierarchies: invalid value, accepted: none, v1, v2, both'"
settle
cat $S | sed 's/^/# stats: /'
# Every file written since the reload was written back: no word is left,
# and the pfn table has freed every chunk.
expect_eq "no tagged folio left after sync" 0 "$(stat entries)"
[ "$(stat store)" = pfn_table ] &&
	expect_eq "pfn table: no memory held once every owner is taken" 0 "$(stat store_bytes)"
umount /mnt
rmmod blkowner
st_done
