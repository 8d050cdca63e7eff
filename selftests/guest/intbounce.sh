#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 900
# plan: 104
#
# intbounce.ko: direct I/O buffers rewritten while a write is in flight must
# not fail T10 PI writes.  Every case first shows vanilla failing.
. "$(dirname "$0")/../lib.sh"

P=/sys/module/intbounce/parameters
S=/sys/kernel/debug/intbounce/stats
stat() { awk -v k="$1" '$1 == k { print $2 }' $S; }
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
# damaged RESULT: raced writes that failed, or succeeded with blocks that
# read back torn or with a PI error (1 MiB writes of $lbs-byte blocks)
damaged() {
	local per=$((1048576 / lbs))
	echo $(( $(field failed "$1") + ($(field torn "$1") + $(field unreadable "$1") + per - 1) / per ))
}
# pi_damaged RESULT: damaged(), if every failed write failed with a
# protection error (EILSEQ); -1 if one failed otherwise, which is not the
# race the baseline is about.
pi_damaged() {
	if [ "$(field eilseq "$1")" = "$(field failed "$1")" ]; then
		damaged "$1"
	else
		echo -1
	fi
}

# sdload DIF GUARD SECTOR_SIZE [extra scsi_debug args]
sdload() {
	rmmod scsi_debug 2>/dev/null
	modprobe scsi_debug dif="$1" dix=1 guard="$2" sector_size="$3" \
		dev_size_mb=48 "${@:4}" || bail "scsi_debug dif=$1 guard=$2"
	sleep 0.5
	sd=$(scsi_debug_disk) && wait_for_dev "$sd" || bail "no scsi_debug disk"
	name=${sd#/dev/}
}
# The reproducer's disk.  delay=2 (jiffies) races in 1 of 8 writes under
# single-threaded TCG; delay=10 makes every write race (measured 8 of 8).
racy() {	# racy DIF GUARD SECTOR_SIZE
	sdload "$1" "$2" "$3" max_queue=1 delay=10
	echo 64 > /sys/block/$name/queue/max_sectors_kb
}
race() { "$ST_HELPERS/pirace" "$sd" "${1:-8}" 1024 "$lbs"; }

# ---- a. the AIO race, vanilla then always and auto ------------------------
lbs=512
racy 1 0 512
r=$(race 8)
diag "vanilla: $r"
# 8/8 on an idle host; a busy host (other guests) lets one slip through.
ok_if "vanilla: raced 1 MiB writes fail with EILSEQ (dif=1 guard=0): $(pi_damaged "$r")/8 damaged, >= 6" \
	test "$(pi_damaged "$r")" -ge 6
modprobe intbounce || bail "cannot load intbounce"
expect_eq "default mode is auto" auto "$(cat $P/mode)"
for m in always auto; do
	echo $m > $P/mode
	b=$(stat bios_bounced)
	r=$(race 8)
	diag "$m: $r"
	expect_eq "$m: no raced write fails" 0 "$(field failed "$r")"
	expect_eq "$m: read back equals the data at submission, no torn block" \
		"0 16384" "$(field torn "$r") $(field intact "$r")"
	expect_gt "$m: bios were bounced" "$(stat bios_bounced)" "$b"
done
echo off > $P/mode
r=$(race 4)
ok_if "mode=off: raced writes fail with EILSEQ again (>= 2/4: $(field eilseq "$r"))" test "$(field eilseq "$r")" -ge 2
# retry: no copy up front; the failed writes are sent again from a copy
# of what the buffer holds then (the racer's scribble), and PI verifies.
echo retry > $P/mode
rt=$(stat retries)
r=$(race 8)
diag "retry: $r"
expect_eq "retry: no raced write fails" 0 "$(field failed "$r")"
expect_eq "retry: every block reads back with valid PI" 0 "$(field unreadable "$r")"
expect_gt "retry: protection errors were retried from a bounce copy" "$(stat retries)" "$rt"
# The retried data is a copy taken while the racer still writes: blocks
# may mix two scribbles (torn), which is what the application asked for.
# One 1 MiB write is one retry clone, whatever blk-mq splits it into
# (64 KiB requests here): each remainder it resubmits is the clone itself,
# known by its bio_set.  Taken for a new write, each would be cloned again
# (16 clones, nested, from a pool of two).
rc=$(stat retry_clones)
dd if=/dev/urandom of="$sd" bs=1M count=1 oflag=direct status=none
expect_eq "retry: one 1 MiB write split into 64 KiB requests is one retry clone" \
	1 $(( $(stat retry_clones) - rc ))
echo auto > $P/mode

# ---- b. matrix: dif 1/2/3 x guard 0/1 x sector 512/4096 --------------------
for dif in 1 2 3; do
	for guard in 0 1; do
		for lbs in 512 4096; do
			rmmod intbounce
			racy $dif $guard $lbs
			v=$(field eilseq "$(race 4)")
			modprobe intbounce
			r=$(race 4)
			if [ "$v" -ge 2 ] && [ "$(field failed "$r")" = 0 ] &&
			   [ "$(field torn "$r")" = 0 ] && [ "$(field unreadable "$r")" = 0 ]; then
				pass "dif=$dif guard=$guard lbs=$lbs: vanilla >= 2/4 fail with EILSEQ, auto 0/4 fail, 0 torn"
			else
				fail "dif=$dif guard=$guard lbs=$lbs: vanilla >= 2/4 fail with EILSEQ, auto 0/4 fail, 0 torn"
				diag "vanilla failed=$v; auto: $r"
			fi
		done
	done
done
lbs=512

# ---- c. fio verify=crc32c, direct and buffered, every mode -----------------
# 32 MiB a run; 16 on a slow kernel (ST_SLOW > 1: the debug kernel took
# 44 s a run for 32 MiB, 264 s for the six).
fio_mb=32
[ "${ST_SLOW:-1}" -gt 1 ] && fio_mb=16
sdload 1 0 512
for m in off always auto; do
	echo $m > $P/mode
	for direct in 1 0; do
		fio --name=v --filename="$sd" --rw=randwrite --bsrange=4k-1m \
			--ioengine=libaio --iodepth=16 --direct=$direct --size=${fio_mb}m \
			--verify=crc32c --do_verify=1 --verify_fatal=1 \
			--output=/tmp/fio.out >/dev/null 2>&1
		st=$?
		errs=$(grep -o 'err= *[0-9]*' /tmp/fio.out | tr -dc '0-9\n' | sort -u | tr '\n' ' ')
		ok_if "fio randwrite bs 4k-1m direct=$direct verify=crc32c, mode=$m: 0 errors" \
			test $st -eq 0 -a "$errs" = "0 "
	done
done

# ---- d. ext4 on the DIX disk, raced through an O_DIRECT file ---------------
rmmod intbounce
racy 1 0 512
mkfs.ext4 -q -F "$sd" >/dev/null 2>&1 && mount "$sd" /mnt || bail "mkfs/mount"
fallocate -l 16M /mnt/f && sync
r=$("$ST_HELPERS/pirace" /mnt/f 4 1024 512)
diag "ext4 vanilla: $r"
ok_if "ext4 O_DIRECT file, vanilla: raced writes fail with EILSEQ or read back damaged ($(pi_damaged "$r")/4, >= 2)" \
	test "$(pi_damaged "$r")" -ge 2
modprobe intbounce
r=$("$ST_HELPERS/pirace" /mnt/f 4 1024 512)
diag "ext4 auto: $r"
# A block written elsewhere reads back as another write's or as zeros,
# which pirace counts as scribbled: none may be, every block intact.
expect_eq "ext4 O_DIRECT file, auto: no raced write fails, no torn, scribbled or unreadable block" \
	"0 0 0 0" "$(field failed "$r") $(field torn "$r") $(field scribbled "$r") $(field unreadable "$r")"

# ---- d2. page cache in direct I/O: splice into an O_DIRECT file ---------
# splice() from a file into a pipe and on into an O_DIRECT file puts the
# source's page-cache pages into the direct write; write(2) to the source
# changes them in place, since they are not under writeback.  On this
# stable-writes disk auto once took unmapped page cache for stable.
rmmod intbounce
r=$("$ST_HELPERS/splicerace" /mnt/src /mnt/f 4)
diag "splice vanilla: $r"
ok_if "splice of page cache into an O_DIRECT file, vanilla: raced writes fail with EILSEQ ($(field eilseq "$r")/4, >= 2)" \
	test "$(field eilseq "$r")" -ge 2
modprobe intbounce
r=$("$ST_HELPERS/splicerace" /mnt/src /mnt/f 4)
diag "splice auto: $r"
expect_eq "splice of page cache into an O_DIRECT file, auto: no raced write fails" 0 "$(field failed "$r")"

# ---- e. auto leaves page-cache writeback alone ----------------------------
echo auto > $P/mode
b=$(stat bytes_bounced); s=$(stat skipped_stable_pages)
dd if=/dev/urandom of=/mnt/buffered bs=1M count=8 status=none && sync
# What is bounced is the journal's and the metadata's buffer-head writes
# (not under writeback, so not stable): tens of KiB, against the 8 MiB
# of data writeback that a bounce of it would add.
b=$(( $(stat bytes_bounced) - b ))
diag "auto: buffered ext4 write of 8 MiB and sync: $b bytes bounced"
ok_if "auto: buffered ext4 writeback is not bounced (< 1 MiB of 8 bounced: $b bytes)" \
	test "$b" -lt $((1 << 20))
expect_gt "auto: its bios are counted as stable-page skips" "$(stat skipped_stable_pages)" "$s"
umount /mnt
b=$(stat bios_bounced)
dd if=/dev/urandom of="$sd" bs=1M count=4 status=none && sync
expect_eq "auto: buffered raw-device writeback is not bounced" "$b" "$(stat bios_bounced)"

# ---- f. a physically contiguous buffer -------------------------------------
# A 1 MiB write from one 2 MiB huge page is a bio with a single multi-page
# bvec; its bounce copy is 256 separate pages.  max_sectors_kb=64 makes the
# queue take 16 pages per request, so the copy must be split to the queue
# limits after the hook.  (scsi_debug's max_segments is fixed at 2048 by its
# host template; max_sectors is the limit we can make small there.  The
# same race on pidisk_test, whose max_segments is a parameter, follows.)
echo 8 > /proc/sys/vm/nr_hugepages
# contiguous_race PREFIX: the race from a hugetlbfs and from a THP buffer
# on $sd: vanilla must fail or read back damaged, always and auto must
# neither fail nor tear a block nor print a warning.  On pidisk0 the disk
# must also have seen guard errors in the vanilla race.
contiguous_race() {
	local buf m r w g
	for buf in hugetlb thp; do
		rmmod intbounce 2>/dev/null
		[ "$sd" = /dev/pidisk0 ] && g=$(pdstat guard_errors)
		r=$(PIRACE_BUF=$buf race 4)
		diag "${1}vanilla, $buf buffer: $r"
		ok_if "${1}vanilla, $buf buffer: raced writes fail with EILSEQ or read back damaged ($(pi_damaged "$r")/4, >= 2)" \
			test "$(pi_damaged "$r")" -ge 2
		[ "$sd" = /dev/pidisk0 ] &&
			expect_gt "${1}vanilla, $buf buffer: the disk saw guard errors" "$(pdstat guard_errors)" "$g"
		[ $buf = thp ] && ok_if "${1}the thp buffer is one transparent huge page" \
			test "$(field thp_kib "$r")" -ge 2048
		for m in always auto; do
			modprobe intbounce mode=$m || bail "intbounce mode=$m"
			w=$(dmesg | grep -c 'WARNING\|intbounce: \|pidisk_test: ')
			r=$(PIRACE_BUF=$buf race 4)
			diag "$1$m, $buf buffer: $r"
			expect_eq "$1$m, $buf buffer: no write fails, no torn block" \
				"0 0 8192" "$(field failed "$r") $(field torn "$r") $(field intact "$r")"
			expect_eq "$1$m, $buf buffer: no warning or error in dmesg" "$w" \
				"$(dmesg | grep -c 'WARNING\|intbounce: \|pidisk_test: ')"
			rmmod intbounce
		done
	done
}
racy 1 0 512
diag "queue: max_segments=$(cat /sys/block/$name/queue/max_segments) max_sectors_kb=$(cat /sys/block/$name/queue/max_sectors_kb)"
contiguous_race ""

# pidisk_test: a PI disk (type 1, CRC) that reads a write's data delay_ms
# after it was queued, with max_segments=4 and 1 MiB requests.  A 1 MiB
# write from one huge page is one segment, one request; its bounce copy is
# 256 pages, which blk-mq must split into requests of at most 4 segments.
# The disk fails and counts any request with more segments than it allows.
PD=/sys/kernel/debug/pidisk_test/stats
pdstat() { awk -v k="$1" '$1 == k { print $2 }' $PD; }
modprobe pidisk_test max_segments=4 max_sectors_kb=1024 delay_ms=10 ||
	bail "pidisk_test"
sd=/dev/pidisk0 name=pidisk0
wait_for_dev $sd || bail "no $sd"
diag "pidisk0: max_segments=$(cat /sys/block/$name/queue/max_segments) max_sectors_kb=$(cat /sys/block/$name/queue/max_sectors_kb) integrity=$(cat /sys/block/$name/integrity/format)"
contiguous_race "pidisk max_segments=4, "
cat $PD | sed 's/^/# pidisk: /'
expect_eq "pidisk: no request had more segments than max_segments=4" 0 "$(pdstat segment_violations)"
expect_eq "pidisk: requests of 4 segments arrived (the limit was reached)" 4 "$(pdstat max_segments_seen)"
ok_if "pidisk_test unloads" rmmod pidisk_test
# One write split both by the queue limits (64 KiB requests) and by what
# one bounce carries (4 pages): the pieces must reach the disk in order
# (a zoned disk fails a write out of order).  Split in two steps, the
# queue's remainder was resubmitted before the bounce's, and the disk saw
# [0, 16K), [64K, 80K), ..., [16K, 32K) ...
modprobe pidisk_test max_segments=4 max_sectors_kb=64 queue_depth=1 ||
	bail "pidisk_test max_sectors_kb=64"
wait_for_dev $sd || bail "no $sd"
modprobe intbounce mode=always || bail "intbounce"
TR=/sys/kernel/tracing
echo > $TR/trace
echo 1 > $TR/events/block/block_rq_issue/enable
# On one CPU: requests a task sends from two CPUs sit in two per-CPU
# software queues, which blk-mq dispatches by CPU, not by age (one make
# check run beside another guest saw the order broken once).
PIRACE_BUF=hugetlb taskset -c 0 "$ST_HELPERS/pirace" "$sd" 1 1024 512 >/dev/null
echo 0 > $TR/events/block/block_rq_issue/enable
devno=$(tr : , < /sys/block/$name/dev)
issued=$(grep "block_rq_issue: $devno W" $TR/trace | awk '{ for (i = 1; i < NF; i++) if ($(i + 1) == "+") { print $i; break } }')
diag "a 512 KiB write from a huge page, always: $(echo "$issued" | wc -l) requests at sectors $(echo $issued)"
ok_if "pidisk max_sectors_kb=64 max_segments=4, always: a 512 KiB write's requests reach the disk in order" \
	test "$(echo "$issued" | wc -l)" -ge 8 -a "$(echo $issued)" = "$(echo "$issued" | sort -n | tr '\n' ' ' | sed 's/ $//')"
rmmod intbounce
rmmod pidisk_test

# ---- i. a partition: data lands where it was aimed -------------------------
# The racy disk (max_sectors_kb=64: blk-mq splits every 1 MiB write).  A
# bounce is new to submit_bio_noacct(); had blk-mq split it, or retry mode
# resubmitted it, its remainder would have been remapped by the partition
# offset a second time.  Per mode, with the partition's first 16 MiB
# zeroed: a 1 MiB dd at partition MiB 4, and pirace's raced writes at
# partition MiB 8-11 (four of 1 MiB; always: two of 2 MiB from huge
# pages, bios that intbounce splits itself).  The disk's first 17 MiB must
# then read back as the MBR, zeros and the pattern outside pirace's range,
# which pirace checks itself.
racy 1 0 512
mbr_partition "$sd" 2048 || bail "MBR partition on $sd"
part=${sd}1
head -c 1M /dev/urandom > /tmp/pattern
part_case() {	# part_case LABEL COUNT KIB [pirace env]
	local label=$1 count=$2 kib=$3 r
	shift 3
	dd if=/dev/zero of=$part bs=1M count=16 oflag=direct status=none
	dd if=$sd of=/tmp/expect bs=1M count=17 iflag=direct status=none
	dd if=/tmp/pattern of=/tmp/expect bs=1M seek=5 conv=notrunc status=none
	ok_if "$label: 1 MiB O_DIRECT dd to the partition succeeds" \
		dd if=/tmp/pattern of=$part bs=1M seek=4 oflag=direct status=none
	r=$(env "$@" "$ST_HELPERS/pirace" $part "$count" "$kib" 512 8192)
	diag "$label: partition race: $r"
	dd if=$sd of=/tmp/disk bs=1M count=17 iflag=direct status=none
	ok_if "$label: the disk holds the pattern at partition MiB 4 and nothing stray" \
		eval "cmp -n $((9 << 20)) /tmp/disk /tmp/expect &&
		      cmp -i $((13 << 20)) /tmp/disk /tmp/expect"
	race_out=$r
}
part_case "partition, vanilla" 4 1024
for m in always auto retry; do
	modprobe intbounce mode=$m || bail "intbounce mode=$m"
	b=$(stat bios_bounced) rt=$(stat retries)
	if [ $m = always ]; then
		part_case "partition, $m" 2 2048 PIRACE_BUF=hugetlb
	else
		part_case "partition, $m" 4 1024
	fi
	if [ $m = retry ]; then
		# retry sends the buffer as it is at the retry: scribbles.
		expect_eq "partition, $m: no raced write fails, none unreadable" "0 0" \
			"$(field failed "$race_out") $(field unreadable "$race_out")"
	else
		expect_eq "partition, $m: no raced write fails, every block intact (none torn, scribbled or unreadable)" \
			"0 0 0 0" "$(field failed "$race_out") $(field torn "$race_out") $(field scribbled "$race_out") $(field unreadable "$race_out")"
	fi
	expect_gt "partition, $m: bios were bounced" "$(stat bios_bounced)" "$b"
	[ $m = retry ] && expect_gt "partition, retry: failed writes were retried" \
		"$(stat retries)" "$rt"
	rmmod intbounce
done

# ---- j. forward progress with the pool as the only source of pages -------
# fail_page_alloc fails every page allocation made with intbounce's code
# on the stack (require-start/end: its text, from /proc/kallsyms), waiting
# or not, so each bounce page comes from the 256-page reserve.  Four
# writers at once of 2 MiB bios (huge-page buffers) that intbounce must
# split, max_sectors_kb=64: every write completes, the reserve is reused.
modprobe intbounce mode=always pool_pages=256 || bail "pool_pages=256"
fail_page_alloc_in intbounce
w=$(stat pool_waits)
for i in 0 1 2 3; do
	PIRACE_BUF=hugetlb "$ST_HELPERS/pirace" "$sd" 2 2048 512 $((i * 4096)) > /tmp/fp.$i &
done
t=0
while [ "$(jobs -r | wc -l)" -gt 0 ] && [ $t -lt 240 ]; do sleep 1; t=$((t + 1)); done
injected=$(fail_page_alloc_off)
[ "$(jobs -r | wc -l)" -eq 0 ] || { cat /sys/kernel/debug/intbounce/stats | sed 's/^/# /'; bail "pool-only writers still blocked after ${t} s"; }
wait
bad=0
for i in 0 1 2 3; do
	diag "pool-only writer $i: $(cat /tmp/fp.$i)"
	[ "$(field writes "$(cat /tmp/fp.$i)") $(field failed "$(cat /tmp/fp.$i)") $(field intact "$(cat /tmp/fp.$i)")" = "2 0 8192" ] ||
		bad=$((bad + 1))
done
diag "pool only: $injected page allocations failed, pool_waits $w -> $(stat pool_waits), done in ${t} s"
expect_eq "pool only: four writers of 2 MiB bios complete, every block intact" 0 $bad
expect_gt "pool only: intbounce's page allocations were failed" $injected 0
expect_eq "pool only: no bounce left in flight" 0 "$(stat inflight)"
rmmod intbounce

echo 0 > /proc/sys/vm/nr_hugepages
sdload 1 0 512
modprobe intbounce

# ---- g. memory pressure: small pool, failslab and fail_page_alloc ----------
# Fault injection scoped to the writers (task-filter): the bounce pages and
# bios are allocated in their context.
rmmod intbounce
modprobe intbounce mode=always pool_pages=256 || bail "pool_pages=256"
# First the pool alone: two racers at once need two 1 MiB bounces from a
# 256-page pool.  mempool only dips into its reserve when the page
# allocator says no, so fail_page_alloc refuses every non-blocking page
# allocation of the racers (task-filter; blocking and user-page ones are
# left alone): each bounce lives on the reserve and one racer must wait.
F=/sys/kernel/debug
echo Y > $F/fail_page_alloc/task-filter
echo Y > $F/fail_page_alloc/ignore-gfp-wait
echo Y > $F/fail_page_alloc/ignore-gfp-highmem
echo 0 > $F/fail_page_alloc/min-order
echo 100 > $F/fail_page_alloc/probability
echo 1 > $F/fail_page_alloc/interval
echo -1 > $F/fail_page_alloc/times
echo 0 > $F/fail_page_alloc/verbose
cp "$ST_HELPERS/pirace" /tmp/pirace	# run from tmpfs, not 9p
w=$(stat pool_waits)
PIRACE_FAULTS=1 /tmp/pirace "$sd" 4 1024 512 16384 > /tmp/race2.out 2>&1 &
pid=$!
r=$(PIRACE_FAULTS=1 /tmp/pirace "$sd" 4 1024 512 2>&1)
wait $pid
echo 0 > $F/fail_page_alloc/probability
diag "two racers, 256-page pool: [$r] [$(cat /tmp/race2.out)]; pool_waits $w -> $(stat pool_waits)"
expect_gt "the bounce pool ran dry and a submitter waited" "$(stat pool_waits)" "$w"
expect_eq "two racers on the pool reserve: no failed or damaged write" "0 0" \
	"$(damaged "$r") $(damaged "$(cat /tmp/race2.out)")"
# Then failslab and fail_page_alloc at 20% for everything the racers
# allocate in the kernel: writes complete or fail cleanly.
for f in failslab fail_page_alloc; do
	echo Y > $F/$f/task-filter
	echo 20 > $F/$f/probability
	echo 1 > $F/$f/interval
	echo 1000000 > $F/$f/times	# counts down once per forced failure
	echo 0 > $F/$f/space
	echo 0 > $F/$f/verbose
done
echo 0 > $F/fail_page_alloc/min-order
echo N > $F/fail_page_alloc/ignore-gfp-wait
echo N > $F/failslab/ignore-gfp-wait
# Two racers at once, so the pool has to serve two 1 MiB bounces.  They
# run from tmpfs: a 9p page fault failing under injection is a SIGBUS.
cp "$ST_HELPERS/pirace" /tmp/pirace
PIRACE_FAULTS=1 /tmp/pirace "$sd" 8 1024 512 16384 > /tmp/race2.out 2>&1 &
pid=$!
r=$(PIRACE_FAULTS=1 /tmp/pirace "$sd" 8 1024 512 2>&1)
wait $pid
r2=$(cat /tmp/race2.out)
for f in failslab fail_page_alloc; do echo 0 > $F/$f/probability; done
forced=$(( 2000000 - $(cat $F/failslab/times) - $(cat $F/fail_page_alloc/times) ))
diag "under fault injection: [$r] [$r2]; $forced allocations failed; pool_waits=$(stat pool_waits) alloc_failures=$(stat alloc_failures)"
expect_gt "fault injection failed allocations of the racers" "$forced" 0
# A write either fails cleanly, for want of memory (ENOMEM, EAGAIN), never
# with the protection error intbounce exists to prevent, or reads back
# intact: 2048 blocks each.  At 20% injection 2 to 4 of 8 failed in each
# racer (four samples); at least one must complete.
for x in "$r" "$r2"; do
	expect_eq "under fault injection every raced write that completed reads back intact ($(field failed "$x") of 8 failed)" \
		"$(( ($(field writes "$x") - $(field failed "$x")) * 2048 )) 0 0" \
		"$(field intact "$x") $(field torn "$x") $(field unreadable "$x")"
	ok_if "under fault injection the failed writes failed for want of memory, none with EILSEQ ($(field nomem "$x") ENOMEM/EAGAIN of $(field failed "$x"), at most 7 of 8)" \
		test "$(field nomem "$x")" = "$(field failed "$x")" -a "$(field eilseq "$x")" = 0 \
		-a "$(field failed "$x")" -le 7
done
expect_eq "no bounce left in flight" 0 "$(stat inflight)"

# ---- h. rmmod and mode switches while the race runs -----------------------
(for i in $(seq 6); do "$ST_HELPERS/pirace" "$sd" 4 1024 512; done > /tmp/race-h.out) &
pid=$!
cycles=0 bad=0
while kill -0 $pid 2>/dev/null; do
	for m in off always auto; do echo $m > $P/mode 2>/dev/null; done
	rmmod intbounce || bad=$((bad + 1))
	modprobe intbounce || bad=$((bad + 1))
	cycles=$((cycles + 1))
done
wait $pid
expect_eq "rmmod/insmod and mode switches during the race: all succeeded ($cycles cycles)" 0 "$bad"
# Writes that went out unbounced (module away, mode off) may fail with a
# protection error; any that completed must read back intact.
bad=0
while read -r line; do
	diag "race during rmmod: $line"
	[ "$(field torn "$line") $(field unreadable "$line")" = "0 0" ] &&
		[ "$(field eilseq "$line")" = "$(field failed "$line")" ] || bad=$((bad + 1))
done < /tmp/race-h.out
expect_eq "races during rmmod/insmod: 6 runs, no block torn or unreadable, every failure EILSEQ" \
	"6 0" "$(wc -l < /tmp/race-h.out) $bad"

# ---- k. stacks over PI disks: dm-linear and md raid1 ----------------------
# The hook sees the bios a stack sends down to its PI disks.  Two racy
# scsi_debug disks; vanilla first, then auto.  md raid1 fails a member
# whose write fails while another leg succeeds, and returns EIO when all
# fail: a vanilla race fails writes or degrades the array; under
# intbounce it stays whole and every write succeeds.
# raid1 may send its mirror bios after io_submit() returns, so the bounce
# can copy a scribble: blocks may read back scribbled, never failed.
rmmod intbounce
rmmod scsi_debug
modprobe scsi_debug dif=1 dix=1 guard=0 dev_size_mb=48 add_host=2 \
	per_host_store=1 max_queue=1 delay=10 || bail "scsi_debug, two hosts"
sleep 0.5
scsi_debug_disks 2
pis=("${disks[@]}")
for d in "${pis[@]}"; do
	echo 64 > /sys/block/${d#/dev/}/queue/max_sectors_kb
done
stack_race() {	# stack_race DEV LABEL: sets r
	r=$("$ST_HELPERS/pirace" "$1" 4 1024 512)
	diag "$2: $r"
}
dmsetup create pilin --table "0 $(blockdev --getsz "${pis[0]}") linear ${pis[0]} 0" ||
	bail "dmsetup"
stack_race /dev/mapper/pilin "dm-linear, vanilla"
ok_if "dm-linear over a PI disk, vanilla: raced writes fail with EILSEQ ($(pi_damaged "$r")/4, >= 2)" \
	test "$(pi_damaged "$r")" -ge 2
modprobe intbounce || bail "intbounce"
stack_race /dev/mapper/pilin "dm-linear, auto"
expect_eq "dm-linear over a PI disk, auto: no raced write fails, none torn, scribbled or unreadable" \
	"0 0 0 0" "$(field failed "$r") $(field torn "$r") $(field scribbled "$r") $(field unreadable "$r")"
dmsetup remove pilin
mkdir -p /run/mdadm
md_race() {	# md_race LABEL: a fresh raid1 over both disks; sets r, degraded, badb
	mdadm --create /dev/md0 --run --level=1 --raid-devices=2 --metadata=1.2 \
		--assume-clean "${pis[@]}" >/dev/null 2>&1 || bail "mdadm --create"
	wait_for_dev /dev/md0 || bail "no /dev/md0"
	stack_race /dev/md0 "$1"
	degraded=$(cat /sys/block/md0/md/degraded)
	# A member whose write failed may keep its place with the range
	# recorded as bad blocks (metadata 1.2 has a bad block log).
	badb=$(cat /sys/block/md0/md/dev-*/bad_blocks | wc -l)
	diag "$1: degraded=$degraded, bad block ranges $badb, $(grep -A1 '^md0' /proc/mdstat | tail -1)"
	mdadm --stop /dev/md0 >/dev/null 2>&1
	mdadm --zero-superblock "${pis[@]}" >/dev/null 2>&1
}
rmmod intbounce
sleep 6	# a fresh window of the ratelimited "protection error" line
pe=$(dmesg | grep -c 'protection error')
md_race "md raid1, vanilla"
pe=$(( $(dmesg | grep -c 'protection error') - pe ))
# With both legs failing, md fails no member and returns EIO (seen: 4/4
# failed, degraded=0); with one, it fails the member or records the range
# as bad blocks on it (the debug kernel: 1/4 failed, 40 protection errors,
# the rest in bad block logs).  The protection errors are in dmesg.
ok_if "md raid1 over PI disks, vanilla: raced writes fail ($(field failed "$r")/4, >= 2), fail a member (degraded=$degraded) or leave bad blocks ($badb ranges), after $pe protection errors" \
	test "$pe" -ge 1 -a \( "$degraded" -ge 1 -o "$(field failed "$r")" -ge 2 -o "$badb" -ge 1 \)
modprobe intbounce || bail "intbounce"
md_race "md raid1, auto"
expect_eq "md raid1 over PI disks, auto: no raced write fails, none torn, scribbled or unreadable, the array stays whole, no bad blocks" \
	"0 0 0 0 0 0" "$(field failed "$r") $(field torn "$r") $(field scribbled "$r") $(field unreadable "$r") $degraded $badb"

# ---- bad parameters --------------------------------------------------------
old=$(cat $P/mode)
ok_if "mode=bogus is refused" bash -c "! echo bogus > $P/mode 2>/dev/null"
expect_eq "mode keeps its value" "$old" "$(cat $P/mode)"
ok_if "dmesg names the accepted values" \
	bash -c "dmesg | grep -q 'intbounce: mode: invalid value, accepted: off, always, auto, retry'"
rmmod intbounce
n=$(dmesg | grep -c 'intbounce: pool_pages: invalid value, accepted: ')
out=$(modprobe intbounce pool_pages=8 2>&1)
ok_if "pool_pages below one bio is refused at load with EINVAL ($out)" \
	grep -q 'Invalid argument' <<< "$out"
expect_gt "and dmesg names the accepted pool_pages values" \
	"$(dmesg | grep -c 'intbounce: pool_pages: invalid value, accepted: ')" "$n"
ok_if "and intbounce is not loaded" bash -c '! grep -q "^intbounce " /proc/modules'
st_done
