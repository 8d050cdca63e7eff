#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 28
# nvme: 64+64
# nvme-ctrls: 2
#
# rocheck.ko's new_devices=ro: every disk that appears after the setting
# is read-only from the moment it exists, until unlock names it.  A writer
# opens each new scsi_debug disk as soon as its node exists (devtmpfs
# creates it before the kernel's partition scan, with no udev to wait
# for) and writes its first block.  Plain kernel first: the racing write
# lands.  With new_devices=ro: the disk present before keeps taking
# writes; the new disk refuses the racing writes and SG_IO, reads as it
# was, and stays locked through BLKROSET and a SCSI rescan (which re-reads
# the write-protect bit); a loop device attached afterwards is locked
# with its partition; unlock makes one disk writable and leaves another
# locked; an NVMe namespace of two controllers, whose I/O goes through a
# hidden path disk, is locked at its multipath head and writable once
# unlocked; bad values are refused; new_devices=rw keeps the locks made
# and locks no more; rmmod clears the read-only flags rocheck set.
. "$(dirname "$0")/../lib.sh"

P=/sys/module/rocheck/parameters
H=/sys/bus/pseudo/drivers/scsi_debug/add_host
sds() { ls /sys/block | grep '^sd'; }
# newer BEFORE: the first disk of sds not in the list BEFORE.
newer() {
	local d
	for d in $(sds); do
		[[ " $1 " == *" $d "* ]] || { echo "$d"; return 0; }
	done
	return 1
}
blk0() { dd if="/dev/$1" bs=4k count=1 iflag=direct status=none | sha256sum | cut -c1-16; }
put0() { dd if=/tmp/pat of="/dev/$1" bs=4k count=1 oflag=direct status=none 2>/dev/null; }
head -c 4096 /dev/urandom > /tmp/pat
pat=$(sha256sum < /tmp/pat | cut -c1-16)
zero=$(head -c 4096 /dev/zero | sha256sum | cut -c1-16)

# race_add: add a scsi_debug host (its own store, zeros) while a writer
# waits for the new disk's node and writes /tmp/pat to its first block,
# again and again for 2 s.  Sets new (the disk's name) and landed (how
# many writes succeeded).
race_add() {
	local before d i
	before=$(sds | tr '\n' ' ')
	rm -f /tmp/landed
	(
		n=0 d=
		for i in $(seq 5000); do
			d=$(newer "$before")
			[ -n "$d" ] && [ -b "/dev/$d" ] && break
		done
		end=$((SECONDS + 2))
		while [ -n "$d" ] && [ $SECONDS -lt $end ]; do
			put0 "$d" && n=$((n + 1))
		done
		echo "$n" > /tmp/landed
	) &
	echo 1 > $H
	wait $!
	new=$(newer "$before")
	landed=$(cat /tmp/landed)
	[ -n "$new" ] && wait_for_dev "/dev/$new" || bail "no new scsi_debug disk"
}

modprobe scsi_debug dev_size_mb=8 per_host_store=1 || bail "scsi_debug"
sleep 0.5
old=$(sds | head -1)
[ -n "$old" ] && wait_for_dev "/dev/$old" || bail "no scsi_debug disk"

# --- plain kernel -------------------------------------------------------------
race_add
diag "plain kernel: $new appeared, $landed racing writes succeeded"
expect_gt "plain kernel: writes racing $new's appearance succeed" "$landed" 0
expect_eq "plain kernel: and land" "$pat" "$(blk0 "$new")"

# A partitioned image for the loop case, made while nothing is locked.
modprobe loop 2>/dev/null
truncate -s 8M /tmp/img
lo=$(losetup -f --show -P /tmp/img) || bail "losetup"
mbr_partition "$lo" 2048 || bail "mbr on $lo"
losetup -d "$lo"

# --- rocheck new_devices=ro ---------------------------------------------------
modprobe rocheck new_devices=ro || bail "modprobe rocheck new_devices=ro"
expect_eq "new_devices reads back ro" ro "$(cat $P/new_devices)"
put0 "$old"
expect_eq "rocheck: $old, present before, still takes writes" "$pat" "$(blk0 "$old")"
race_add
a=$new
diag "rocheck: $a appeared, $landed racing writes succeeded"
expect_eq "rocheck: no write racing $a's appearance succeeds" 0 "$landed"
expect_eq "rocheck: $a reads as it was (zeros)" "$zero" "$(blk0 "$a")"
expect_eq "rocheck: $a's read-only flag is set (blockdev --getro)" 1 "$(blockdev --getro "/dev/$a")"
ok_if "rocheck: debugfs lists $a as locked" grep -q "^$a .* locked$" /sys/kernel/debug/rocheck/locks
ok_if "rocheck: dmesg names $a as a new read-only device" sh -c "dmesg | grep -q 'rocheck: $a: new device .*read-only'"
ok_if "rocheck: sd set $a up before it was locked (no command of its probe refused)" \
	sh -c "! dmesg | grep -q 'rocheck: $a: refused passthrough command .* by kworker'"
sg=$(ls /sys/block/$a/device/scsi_generic/ | head -1)
out=$(sg_raw -s 4096 -i /tmp/pat "/dev/$sg" 2a 00 00 00 00 00 00 00 08 00 2>&1)
ok_if "rocheck: a WRITE(10) through /dev/$sg is refused (DATA PROTECT)" grep -q "Data Protect" <<< "$out"
blockdev --setrw "/dev/$a"
put0 "$a"
expect_eq "rocheck: BLKROSET 0 (blockdev --setrw) does not unlock $a" "$zero" "$(blk0 "$a")"
echo 1 > "/sys/block/$a/device/rescan"
sleep 0.5
put0 "$a"
expect_eq "rocheck: nor does a SCSI rescan" "$zero" "$(blk0 "$a")"

lo=$(losetup -f --show -P /tmp/img) || bail "losetup -P"
wait_for_dev "${lo}p1" || bail "no ${lo}p1"
before=$(dd if="${lo}p1" bs=4k count=1 iflag=direct status=none | sha256sum | cut -c1-16)
dd if=/tmp/pat of="${lo}p1" bs=4k count=1 oflag=direct status=none 2>/dev/null
expect_eq "rocheck: ${lo#/dev/}, attached afterwards, refuses a write to its partition" \
	"$before" "$(dd if="${lo}p1" bs=4k count=1 iflag=direct status=none | sha256sum | cut -c1-16)"
losetup -d "$lo"

race_add
b=$new
sed 's/^/# locks: /' /sys/kernel/debug/rocheck/locks
echo "$a" > $P/unlock
expect_eq "rocheck: after unlock=$a, $a's read-only flag is clear" 0 "$(blockdev --getro "/dev/$a")"
put0 "$a"
expect_eq "rocheck: and $a takes writes" "$pat" "$(blk0 "$a")"
ok_if "rocheck: dmesg logs who unlocked $a" sh -c "dmesg | grep -q 'rocheck: $a: unlocked (diskseq [0-9]*) by'"
put0 "$b"
expect_eq "rocheck: $b, new too, is still locked" "$zero" "$(blk0 "$b")"

# NVMe multipath: the head is what user space sees; each path is a hidden
# disk of its own, new too, that the head's bios go through.
modprobe nvme || bail "modprobe nvme"
for i in $(seq 100); do
	h=$(ls /sys/block | grep -E '^nvme[0-9]+n[0-9]+$' | head -1)
	[ -n "$h" ] && [ -b "/dev/$h" ] && break
	sleep 0.2
done
[ -n "$h" ] || bail "no NVMe namespace"
put0 "$h"
expect_eq "rocheck: NVMe namespace $h, probed afterwards, is locked" "$zero" "$(blk0 "$h")"
ok_if "rocheck: its paths are hidden disks ($(ls /sys/block | grep -E '^nvme[0-9]+c' | tr '\n' ' '))" \
	sh -c "ls /sys/block | grep -qE '^nvme[0-9]+c[0-9]+n'"
echo "$h" > $P/unlock
put0 "$h"
expect_eq "rocheck: unlocked, $h takes writes through its hidden paths" "$pat" "$(blk0 "$h")"

# --- bad input ----------------------------------------------------------------
r=ok
echo maybe > $P/new_devices 2>/dev/null && r=accepted
expect_eq "rocheck: new_devices=maybe is refused" ok "$r"
ok_if "rocheck: dmesg names the accepted values" sh -c "dmesg | tail -3 | grep -q 'new_devices: invalid value, accepted: rw, ro'"
expect_eq "rocheck: new_devices is still ro" ro "$(cat $P/new_devices)"
r=ok
echo sdzz > $P/unlock 2>/dev/null && r=accepted
expect_eq "rocheck: unlock of a disk that does not exist is refused" ok "$r"

# --- new_devices=rw: the locks made stay --------------------------------------
echo rw > $P/new_devices
put0 "$b"
expect_eq "rocheck, new_devices=rw: $b stays locked" "$zero" "$(blk0 "$b")"
race_add
diag "rocheck, new_devices=rw: $new appeared, $landed racing writes succeeded"
expect_eq "rocheck, new_devices=rw: $new, added afterwards, takes the racing writes" "$pat" "$(blk0 "$new")"
rmmod rocheck
expect_eq "rmmod: the read-only flag rocheck set on $b is cleared" 0 "$(blockdev --getro "/dev/$b")"
dmesg | grep 'rocheck: ' | sed 's/^/# dmesg: /'
st_done
