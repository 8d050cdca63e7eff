#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
# plan: 13
#
# intbounce.ko on a zoned disk with T10 PI: the raced direct writes go to a
# sequential zone, at its write pointer.  retry mode cannot resend a write
# there: when one of its requests fails, the others have moved the write
# pointer on, and the resend from the write's start is an unaligned write.
# So on a zoned disk retry mode bounces up front, as auto does.  Zone
# appends (btrfs's data writes on a zoned disk) are bounced as writes.
. "$(dirname "$0")/../lib.sh"

P=/sys/module/intbounce/parameters
S=/sys/kernel/debug/intbounce/stats
stat() { awk -v k="$1" '$1 == k { print $2 }' $S; }
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# Host-managed, 4 MiB zones, the first conventional; racy as in
# intbounce.sh (delay=10: every write races).
scsi_debug_load dif=1 dix=1 guard=0 dev_size_mb=48 zbc=managed \
	zone_size_mb=4 zone_nr_conv=1 max_queue=1 delay=10
echo 64 > /sys/block/$name/queue/max_sectors_kb
ok_if "$sd is host-managed with an integrity profile" \
	test "$(cat /sys/block/$name/queue/zoned)" = host-managed -a \
	"$(cat /sys/block/$name/integrity/format)" != none
# race: 4 raced 1 MiB writes at the start of zone 2 (sequential), after a
# reset of the zone; sets r.
race() {
	blkzone reset -o $((8 * 2048)) -c 1 "$sd" || bail "blkzone reset"
	r=$("$ST_HELPERS/pirace" "$sd" 4 1024 512 8192)
	diag "$1: $r"
}

# Vanilla: the PI error of one request fails the zone's other plugged
# writes too (EIO: the write pointer needs an update), so the writes fail
# with either error.
race vanilla
ok_if "vanilla: raced writes to a sequential zone fail ($(field failed "$r")/4, >= 2)" \
	test "$(field failed "$r")" -ge 2

modprobe intbounce mode=retry || bail "intbounce mode=retry"
b=$(stat bios_bounced) rc=$(stat retry_clones)
race retry
expect_eq "retry: no raced write to the sequential zone fails" 0 "$(field failed "$r")"
expect_eq "retry: every block reads back as submitted" "0 0 0 8192" \
	"$(field torn "$r") $(field scribbled "$r") $(field unreadable "$r") $(field intact "$r")"
expect_gt "retry: on a zoned disk the writes were bounced up front" "$(stat bios_bounced)" "$b"
expect_eq "retry: and none went out through a retry clone" 0 $(( $(stat retry_clones) - rc ))

echo auto > $P/mode
race auto
expect_eq "auto: no raced write to the sequential zone fails, every block as submitted" \
	"0 0 0 0 8192" "$(field failed "$r") $(field torn "$r") $(field scribbled "$r") $(field unreadable "$r") $(field intact "$r")"

# The four writes filled the zone in order.
z=$(blkzone report -o $((8 * 2048)) -c 1 "$sd")
diag "$z"
ok_if "auto: the writes filled zone 2 (full)" grep -q 'zcond:14' <<< "$z"

# A conventional zone keeps retry mode's resend.
echo retry > $P/mode
rt=$(stat retries) b=$(stat bios_bounced)
r=$("$ST_HELPERS/pirace" "$sd" 4 1024 512 0)
diag "retry, conventional zone: $r"
expect_eq "retry, conventional zone: no raced write fails" 0 "$(field failed "$r")"
expect_gt "retry, conventional zone: bounced up front too (the disk is zoned)" "$(stat bios_bounced)" "$b"
expect_eq "retry, conventional zone: nothing was resent" "$rt" "$(stat retries)"
rmmod intbounce

# ---- zone appends: btrfs writes a zoned disk's data with them ----------
# btrfs on a host-managed disk sends every data write as REQ_OP_ZONE_APPEND
# (the block layer emulates it on scsi_debug with a write at the zone's
# write pointer).  pirace's raced O_DIRECT writes into a btrfs file
# (nodatasum: btrfs's own checksum would catch the race first) are zone
# appends, vanilla first.
rmmod scsi_debug
scsi_debug_load dif=1 dix=1 guard=0 dev_size_mb=256 zbc=managed \
	zone_size_mb=8 zone_nr_conv=0 max_queue=1 delay=10
echo 64 > /sys/block/$name/queue/max_sectors_kb
modprobe btrfs || bail "btrfs"
mkfs.btrfs -q -f -m single -d single "$sd" >/dev/null 2>&1 &&
	mount -o nodatasum "$sd" /mnt || bail "mkfs.btrfs/mount on the zoned disk"
bt() {	# bt LABEL: 4 raced 1 MiB O_DIRECT writes into a new btrfs file
	rm -f /mnt/f
	: > /mnt/f
	sync
	r=$("$ST_HELPERS/pirace" /mnt/f 4 1024 512 0)
	diag "btrfs, $1: $r"
}
# Vanilla writes them without an error here, but the blocks read back as
# the racer's later scribbles (7677 of 8192 measured), not the data at
# submission.  The module before zone appends were bounced skipped them
# (skipped_not_write): no bounce, the same scribbles.
bt vanilla
modprobe intbounce || bail "intbounce"
b=$(stat bios_bounced)
bt auto
expect_eq "btrfs on the zoned disk, auto: no raced zone append fails, every block as submitted" \
	"0 0 0 0 8192" "$(field failed "$r") $(field torn "$r") $(field scribbled "$r") $(field unreadable "$r") $(field intact "$r")"
expect_gt "btrfs, auto: the zone appends were bounced" "$(stat bios_bounced)" $((b + 60))
umount /mnt
rmmod intbounce
exit $ST_FAILED
