#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 15
#
# rocheck.ko and zone management.  Resetting a zone discards its data, and
# finishing one moves its write pointer: both change a zoned disk.  The
# disk's own ioctls refuse them when it is read-only (blkdev_zone_mgmt()),
# but a dm-linear table on the disk sends them down as bios, which 6.12
# lets through with a one-time warning.  Vanilla first.  The disk is
# null_blk, zoned and memory backed.
. "$(dirname "$0")/../lib.sh"

T=/sys/kernel/tracing
zone0() { dd if=$nb bs=1M count=1 iflag=direct status=none | md5sum | cut -c1-32; }
wp0() {	# zone 0's write pointer, in sectors from its start
	echo $((16#$(blkzone report -o 0 -c 1 $nb | sed -n 's/.*wptr 0x\([0-9a-f]*\).*/\1/p')))
}
# fill: zone 0 made writable, reset and written with 1 MiB of $pattern,
# the disk set read-only again.  Reset through dm-linear once it holds
# the disk: blkzone opens O_EXCL.
fill() {
	blockdev --setrw $nb
	blkzone reset -o 0 -c 1 "${zdev:-$nb}" || bail "reset zone 0"
	dd if=/tmp/pattern of=$nb bs=1M count=1 oflag=direct status=none
	blockdev --setro $nb
}

modprobe null_blk nr_devices=1 zoned=1 zone_size=4 gb=1 memory_backed=1 ||
	bail "null_blk zoned"
nb=/dev/nullb0 name=nullb0
wait_for_dev $nb || bail "no $nb"
diag "$nb: $(cat /sys/block/$name/queue/zoned), $(cat /sys/block/$name/queue/nr_zones) zones of $(( $(cat /sys/block/$name/queue/chunk_sectors) / 2048 )) MiB"
head -c $((1 << 20)) /dev/urandom > /tmp/pattern
want=$(md5sum < /tmp/pattern | cut -c1-32)
fill
dmsetup create zlin --table "0 $(blockdev --getsz $nb) linear $nb 0" || bail "dm-linear on $nb"
zdev=/dev/mapper/zlin

# --- vanilla ------------------------------------------------------------------
ok_if "vanilla: blkzone reset on $nb itself is refused (read-only)" \
	bash -c "! blkzone reset -o 0 -c 1 $nb 2>/dev/null"
ok_if "vanilla: a zone reset through dm-linear succeeds" blkzone reset -o 0 -c 1 /dev/mapper/zlin
ok_if "vanilla: and discards zone 0 of the read-only disk" test "$(zone0)" != "$want"
fill
ok_if "vanilla: a zone finish through dm-linear succeeds" blkzone finish -o 0 -c 1 /dev/mapper/zlin
ok_if "vanilla: and moves the write pointer of zone 0 (to sector $(wp0))" test "$(wp0)" != 2048

# --- rocheck ------------------------------------------------------------------
fill
expect_eq "zone 0 holds the pattern, write pointer at 1 MiB" "$want 2048" "$(zone0) $(wp0)"
modprobe rocheck || bail "rocheck"
echo 1 > $T/events/rocheck/rocheck_bio/enable || bail "no rocheck_bio event"
echo > $T/trace
r0=$(rc_stat $name bios_refused)
ok_if "deny: a zone reset through dm-linear fails" bash -c "! blkzone reset -o 0 -c 1 /dev/mapper/zlin 2>/dev/null"
ok_if "deny: a zone finish through dm-linear fails" bash -c "! blkzone finish -o 0 -c 1 /dev/mapper/zlin 2>/dev/null"
ok_if "deny: a zone close through dm-linear fails" bash -c "! blkzone close -o 0 -c 1 /dev/mapper/zlin 2>/dev/null"
expect_eq "deny: zone 0 keeps its data and write pointer" "$want 2048" "$(zone0) $(wp0)"
expect_eq "deny: the three refusals are counted on $name (bios_refused)" 3 $(( $(rc_stat $name bios_refused) - r0 ))
grep rocheck_bio $T/trace | head -n 1 | sed 's/^ */# /'
devno=$(tr : , < /sys/block/$name/dev)
for op in ZONE_RESET ZONE_FINISH ZONE_CLOSE; do
	expect_eq "trace: the refused $op is traced on $name ($devno)" 1 \
		"$(grep -c "rocheck_bio: $devno $op .* refused" $T/trace)"
done
ok_if "deny: reads through dm-linear still work" \
	bash -c "dd if=/dev/mapper/zlin of=/dev/null bs=1M count=1 iflag=direct status=none"
dmsetup remove zlin
rmmod rocheck
st_done
