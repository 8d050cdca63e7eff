#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 15
#
# intbounce.ko and io_uring.  io_uring issues O_DIRECT writes with
# REQ_NOWAIT first and retries from a worker on EAGAIN; with RWF_NOWAIT
# (fio nowait=1) the EAGAIN reaches the application.  intbounce must
# bounce such bios without sleeping (GFP_NOWAIT, no pool wait), and refuse
# with EAGAIN exactly where vanilla does (a write that needs a split),
# never with another error.  On a T10 PI disk (scsi_debug dif=1 dix=1),
# max_sectors_kb=64; fio verifies what it wrote.  Vanilla first.
. "$(dirname "$0")/../lib.sh"

P=/sys/module/intbounce/parameters
S=/sys/kernel/debug/intbounce/stats
stat() { awk -v k="$1" '$1 == k { print $2 }' $S; }
# uring BS NOWAIT: fio io_uring O_DIRECT writes of 16 MiB, iodepth 16,
# verified; fio's status, its first error line in $err.
uring() {
	fio --name=uring --filename="$sd" --ioengine=io_uring --direct=1 \
		--rw=write --bs="$1" --size=16m --iodepth=16 --nowait="$2" \
		--verify=crc32c --do_verify=1 --eta=never --output=/tmp/fio.out >/dev/null 2>&1
	local st=$?
	err=$(grep -m1 -o 'error=[^)]*' /tmp/fio.out)
	return $st
}

scsi_debug_load dif=1 dix=1 guard=0 dev_size_mb=64
echo 64 > /sys/block/$name/queue/max_sectors_kb
for mod in vanilla intbounce; do
	if [ $mod = intbounce ]; then
		modprobe intbounce || bail "intbounce"
		b0=$(stat bios_bounced)
	fi
	uring 64k 0
	ok_if "$mod: io_uring 64 KiB writes (NOWAIT, retried by io_uring) succeed and verify ($err)" test $? -eq 0
	uring 64k 1
	ok_if "$mod: RWF_NOWAIT 64 KiB writes succeed and verify ($err)" test $? -eq 0
	uring 1m 0
	ok_if "$mod: io_uring 1 MiB writes (split to 64 KiB) succeed and verify ($err)" test $? -eq 0
	uring 1m 1
	st=$?
	ok_if "$mod: RWF_NOWAIT 1 MiB writes, which need a split, fail with EAGAIN, nothing else (fio $st, $err)" \
		test $st -ne 0 -a "$err" = "error=Resource temporarily unavailable"
	if [ $mod = intbounce ]; then
		expect_gt "intbounce: the writes were bounced" "$(stat bios_bounced)" "$b0"
		expect_eq "intbounce: no pool wait and no allocation failure" "0 0" \
			"$(stat pool_waits) $(stat alloc_failures)"
	fi
done
ok_if "intbounce unloads" rmmod intbounce

# The NOWAIT failure path: every page allocation made with intbounce's
# text on the stack fails (fail_page_alloc, require-start/end from
# /proc/kallsyms), so bounce pages come from the 256-page reserve alone,
# and 16 RWF_NOWAIT writes of 512 KiB in flight (128 pages each, no split
# with max_sectors_kb=1024) need more.  A write that finds the pool dry
# must end with EAGAIN at once: no wait, no hang, no other error.  (Those
# that fail here fail on the bio's allocation or on the pool: the bounce's
# bvecs come from slab pages the injection fails too.)  A module that
# waits for NOWAIT allocations fails the first two checks: its writes
# block until memory comes back, and none ends with EAGAIN.
# The disk holds each request 100 jiffies, so the 16 are in flight at
# once however slowly the guest runs: with 10, a make check run beside
# other guests completed them as fast as fio sent them, and the pool
# never ran dry.
echo 1024 > /sys/block/$name/queue/max_sectors_kb
echo 100 > /sys/bus/pseudo/drivers/scsi_debug/delay
modprobe intbounce mode=always pool_pages=256 || bail "pool_pages=256"
fail_page_alloc_in intbounce
a0=$(stat alloc_failures) w0=$(stat pool_waits)
fio --name=dry --filename="$sd" --ioengine=io_uring --direct=1 --rw=write \
	--bs=512k --size=32m --iodepth=16 --nowait=1 --eta=never \
	--output=/tmp/fio.out >/dev/null 2>&1
st=$?
err=$(grep -m1 -o 'error=[^)]*' /tmp/fio.out)
n=$(fail_page_alloc_off)
diag "pool dry: fio $st, $err; alloc_failures $a0 -> $(stat alloc_failures), pool_waits $w0 -> $(stat pool_waits), $n page allocations failed"
ok_if "pool dry: RWF_NOWAIT writes end with EAGAIN, nothing else (fio $st, $err)" \
	test $st -ne 0 -a "$err" = "error=Resource temporarily unavailable"
expect_gt "pool dry: the bounces that found the pool dry were counted (alloc_failures)" \
	"$(stat alloc_failures)" "$a0"
uring 512k 1
ok_if "pool dry, injection off: the same writes succeed and verify ($err)" test $? -eq 0
expect_eq "pool dry: no bounce left in flight" 0 "$(stat inflight)"
rmmod intbounce
st_done
