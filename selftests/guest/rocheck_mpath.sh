#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 12
#
# rocheck.ko and request-based dm (dm-multipath).  Multipath maps a
# request of its own device to a clone on the path's queue and inserts it
# with blk_insert_cloned_request(): no bio reaches the path's
# submit_bio_noacct(), so the submit check never sees it.  The passthrough
# hook is called there too.  Plain kernel first: a write through a map
# whose only path is a read-only disk changes the disk.  With rocheck it
# fails, the disk is unchanged, and the path stays usable: the refusal is
# not an error dm-multipath takes for a failed path.
. "$(dirname "$0")/../lib.sh"

T=/sys/kernel/tracing
mp=/dev/mapper/mp
sect() { dd if="$sd" bs=64k count=1 skip="$1" iflag=direct status=none | md5sum | cut -c1-32; }
paths() { dmsetup status mp | grep -oE '[0-9]+:[0-9]+ [AF]' | cut -d' ' -f2 | tr -d '\n'; }

scsi_debug_load dev_size_mb=16
modprobe dm-multipath || bail "modprobe dm-multipath"
head -c $((16 << 20)) /dev/urandom | dd of="$sd" bs=1M oflag=direct status=none
dmsetup create mp --table "0 $(blockdev --getsz "$sd") multipath 0 0 1 1 round-robin 0 1 1 $sd 1000" ||
	bail "dm-multipath map on $sd"
wait_for_dev $mp || bail "no $mp"
diag "map: $(dmsetup table mp); queue: $(cat /sys/block/$(basename "$(readlink -f $mp)")/queue/scheduler 2>/dev/null)"
blockdev --setro "$sd" || bail "setro"

# --- plain kernel -------------------------------------------------------------
before=$(sect 16)
ok_if "plain kernel: a 64 KiB O_DIRECT write through the map succeeds" \
	dd if=/dev/urandom of=$mp bs=64k seek=16 count=1 oflag=direct status=none
ok_if "plain kernel: and changes the read-only disk" test "$(sect 16)" != "$before"

# --- rocheck ------------------------------------------------------------------
modprobe rocheck || bail "rocheck"
echo 1 > $T/events/rocheck/rocheck_rq/enable || bail "no rocheck_rq event"
echo > $T/trace
r0=$(rc_stat "$name" bios_refused)
before=$(sect 32)
ok_if "rocheck: a 64 KiB O_DIRECT write through the map fails" \
	bash -c "! dd if=/dev/urandom of=$mp bs=64k seek=32 count=1 oflag=direct status=none 2>/dev/null"
expect_eq "rocheck: the read-only disk is unchanged" "$before" "$(sect 32)"
ok_if "rocheck: a buffered write and fsync through the map fail" \
	bash -c "! dd if=/dev/urandom of=$mp bs=64k seek=32 count=1 conv=fsync status=none 2>/dev/null"
expect_eq "rocheck: and leave the disk unchanged" "$before" "$(sect 32)"
ok_if "rocheck: refusals are counted on $name (bios_refused)" test "$(rc_stat "$name" bios_refused)" -gt "$r0"
devno=$(tr : , < /sys/block/$name/dev)
grep rocheck_rq $T/trace | head -n 1 | sed 's/^ */# /'
ok_if "trace: a rocheck_rq event names $name ($devno) and the write" \
	grep -qE "rocheck_rq: $devno WRITE [0-9]+ \+ [0-9]+ bytes refused" $T/trace
expect_eq "rocheck: the path is still active (not failed)" A "$(paths)"
expect_eq "rocheck: reads through the map still work" "$before" \
	"$(dd if=$mp bs=64k count=1 skip=32 iflag=direct status=none | md5sum | cut -c1-32)"
blockdev --setrw "$sd"
ok_if "rocheck: with the disk writable again, the write passes" \
	dd if=/dev/zero of=$mp bs=64k seek=32 count=1 oflag=direct status=none
expect_eq "rocheck: and reaches the disk" "$(head -c 65536 /dev/zero | md5sum | cut -c1-32)" "$(sect 32)"
dmsetup remove mp
rmmod rocheck
st_done
