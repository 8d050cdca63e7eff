#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 400
# plan: 32
#
# rocheck.ko arms its submit hook only while something is read-only, so a
# machine with nothing read-only pays a load and a branch per bio.  Every
# way a disk or partition turns read-only must arm it before the flag can
# be seen: BLKROSET on a disk and on a partition, the driver's own flag
# (a SCSI rescan that reads the write-protect bit), a read-only loop
# device, a disk read-only before rocheck loads, new_devices=ro.  Each is
# checked by a write made right after the change, through a dm-linear
# device on the disk (a write to the read-only node itself is refused by
# the page cache's own check before any bio): it must be refused by
# rocheck with the disk unchanged; and the hook disarms once nothing is
# read-only.  Vanilla first: the write after "blockdev --setro" lands.
# Last, 150 rounds of set-read-only-then-write on one disk while another
# disk flips read-only and back, so looks for disarming run all along: no
# write lands.
. "$(dirname "$0")/../lib.sh"

P=/sys/module/rocheck/parameters
A=/sys/kernel/debug/rocheck/submit
armed() { awk '$1 == "armed" { print $2 }' $A; }
arm_stat() { awk -v k="$1" '$1 == k { print $2 }' $A; }
# disarmed_in SECONDS: the look that disarms runs from a work: wait for it.
disarmed_in() {
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		[ "$(armed)" = 0 ] && return 0
		sleep 0.1
	done
	return 1
}
blk() { dd if="$1" bs=4k count=1 skip="${2:-0}" iflag=direct status=none | sha256sum | cut -c1-16; }
put() { dd if=/tmp/pat of="$1" bs=4k count=1 seek="${2:-0}" oflag=direct status=none 2>/dev/null; }
head -c 4096 /dev/urandom > /tmp/pat
pat=$(sha256sum < /tmp/pat | cut -c1-16)
unload() { rmmod rocheck 2>/dev/null; true; }
# refused NAME DEV [SEEK]: a write of /tmp/pat to DEV (a dm device above
# NAME) fails and rocheck counted it against NAME.
refused() {
	local n
	n=$(rc_stat "$1" bios_refused)
	! put "$2" "${3:-0}" && [ "$(rc_stat "$1" bios_refused)" -gt "$n" ]
}

ro_now=$(grep -l 1 /sys/block/*/ro /sys/block/*/*/ro 2>/dev/null | tr '\n' ' ')
[ -z "$ro_now" ] || bail "read-only devices at start: $ro_now"
modprobe scsi_debug dev_size_mb=16 add_host=2 per_host_store=1 || bail "scsi_debug"
sleep 0.5
scsi_debug_disks 2
a=${disks[0]} b=${disks[1]}
diag "disks under test: $a $b"
# linear NAME DEV: a dm-linear device over all of DEV; prints its node.
linear() {
	dmsetup create "$1" --table "0 $(blockdev --getsz "$2") linear $2 0" &&
		echo "/dev/mapper/$1"
}
# b's partition first: a disk dm holds cannot re-read its table.
mbr_partition "$b" 2048 || bail "partition $b"
b1=$(part_node "$b" 1)
ma=$(linear arm_a "$a") && mb=$(linear arm_b "$b") || bail "dm-linear"

# ---- vanilla -----------------------------------------------------------
blockdev --setro "$a"
put "$ma"
expect_eq "vanilla: a write right after blockdev --setro lands" "$pat" "$(blk "$a")"
blockdev --setrw "$a"
dd if=/dev/zero of="$a" bs=4k count=1 oflag=direct status=none

# ---- at load, nothing read-only: disarmed ------------------------------
modprobe rocheck || bail "cannot load rocheck"
expect_eq "nothing read-only at load: the hook is disarmed" 0 "$(armed)"
put "$b"
expect_eq "disarmed: a write to a writable disk lands where aimed" "$pat" "$(blk "$b")"
dd if=/dev/zero of="$b" bs=4k count=1 oflag=direct status=none

# ---- BLKROSET on the disk ----------------------------------------------
z=$(blk "$a")
blockdev --setro "$a"
expect_eq "blockdev --setro: armed at once" 1 "$(armed)"
ok_if "blockdev --setro: the next write is refused by rocheck" refused "${a#/dev/}" "$ma"
expect_eq "blockdev --setro: the disk is unchanged" "$z" "$(blk "$a")"
put "$b"
expect_eq "armed: a write to the other, writable disk lands" "$pat" "$(blk "$b")"
blockdev --setrw "$a"
ok_if "blockdev --setrw: disarmed within 5 s" disarmed_in 5
put "$a"
expect_eq "disarmed again: the write lands" "$pat" "$(blk "$a")"

# ---- the driver's own flag: write protect read by a SCSI rescan ---------
z=$(blk "$b")
echo 1 > /sys/module/scsi_debug/parameters/wp
echo 1 > "/sys/block/${b#/dev/}/device/rescan"
expect_eq "write protect: the rescan made the disk read-only" 1 "$(cat "/sys/block/${b#/dev/}/ro")"
expect_eq "write protect: armed" 1 "$(armed)"
ok_if "write protect: a write is refused by rocheck" refused "${b#/dev/}" "$mb"
expect_eq "write protect: the disk is unchanged" "$z" "$(blk "$b")"
echo 0 > /sys/module/scsi_debug/parameters/wp
echo 1 > "/sys/block/${b#/dev/}/device/rescan"
echo 1 > "/sys/block/${a#/dev/}/device/rescan"
ok_if "write protect off: disarmed within 5 s" disarmed_in 5

# ---- a partition -------------------------------------------------------
z=$(blk "$b" 256)
blockdev --setro "$b1"
expect_eq "partition --setro: armed" 1 "$(armed)"
ok_if "partition --setro: a whole-disk write into it is refused by rocheck" refused "${b1#/dev/}" "$mb" 256
expect_eq "partition --setro: its data is unchanged" "$z" "$(blk "$b" 256)"
put "$b" 1
expect_eq "partition --setro: a write before the partition lands" "$pat" "$(blk "$b" 1)"
blockdev --setrw "$b1"
ok_if "partition --setrw: disarmed within 5 s" disarmed_in 5

# ---- a read-only loop device -------------------------------------------
modprobe loop
dd if=/dev/zero of=/tmp/img bs=1M count=4 status=none
la=$(losetup -f --show -r /tmp/img) || bail "losetup"
expect_eq "read-only loop device: armed" 1 "$(armed)"
ml=$(linear arm_l "$la") || bail "dm-linear on $la"
ok_if "read-only loop device: a write is refused by rocheck" refused "${la#/dev/}" "$ml"
dmsetup remove arm_l
losetup -d "$la"
# loop leaves its disk's flag as the last attach set it.
expect_eq "read-only loop detached: still read-only, still armed" "1 1" \
	"$(cat "/sys/block/${la#/dev/}/ro") $(armed)"
losetup "$la" /tmp/img && losetup -d "$la"
ok_if "loop attached read-write and detached: disarmed within 5 s" disarmed_in 5

# ---- read-only before rocheck loads ------------------------------------
unload
blockdev --setro "$a"
z=$(blk "$a")
modprobe rocheck || bail "cannot load rocheck"
expect_eq "a disk read-only before load: armed at load" 1 "$(armed)"
ok_if "a disk read-only before load: a write is refused by rocheck" refused "${a#/dev/}" "$ma" 1
expect_eq "a disk read-only before load: unchanged" "$z" "$(blk "$a")"
blockdev --setrw "$a"
ok_if "setrw after load: disarmed within 5 s" disarmed_in 5

# ---- new_devices=ro ----------------------------------------------------
echo ro > $P/new_devices
expect_eq "new_devices=ro: armed while it lasts" "1 1" "$(armed) $(arm_stat locks)"
echo rw > $P/new_devices
ok_if "new_devices=rw, nothing locked: disarmed within 5 s" disarmed_in 5

# ---- race: set read-only, write at once, while looks run ---------------
d0=$(arm_stat disarmed_count)
dd if=/dev/zero of="$a" bs=4k count=1 oflag=direct status=none
(
	for ((i = 0; i < 400; i++)); do
		blockdev --setro "$b"; blockdev --setrw "$b"
	done
) &
flip=$!
landed=0
for ((i = 0; i < 150; i++)); do
	blockdev --setro "$a"
	put "$ma" && landed=$((landed + 1))
	blockdev --setrw "$a"
done
kill $flip 2>/dev/null; wait $flip 2>/dev/null
blockdev --setrw "$b"
d1=$(arm_stat disarmed_count)
diag "race: $((d1 - d0)) disarms during 150 rounds"
expect_eq "race: no write made after --setro landed (150 rounds)" 0 "$landed"
expect_eq "race: the disk was never written" "$(head -c 4096 /dev/zero | sha256sum | cut -c1-16)" "$(blk "$a")"
expect_gt "race: the hook disarmed and re-armed during the rounds (> 50 times)" "$((d1 - d0))" 50

unload
dmsetup remove arm_a; dmsetup remove arm_b
rmmod scsi_debug 2>/dev/null
st_done
