#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 14
#
# rocheckctl, the command the package installs: a scsi_debug disk with a
# partition and a dm-linear map on the partition.  lock sets the disk,
# its partition and the map stacked on it read-only (a write through the
# map is refused); hash and verify show the disk unchanged through the
# examination; status lists the flags and the refusal; unlock makes all
# three writable again and verify then sees the change; a disk locked by
# new_devices=ro is shown locked and unlocked through rocheck; a device
# that does not exist is an error.
. "$(dirname "$0")/../lib.sh"

C=$(cd "$(dirname "$0")/../.." && pwd)/packaging/rocheckctl
scsi_debug_load dev_size_mb=16 per_host_store=1
mbr_partition "$sd" 2048 || bail "partition $sd"
part=$(part_node "$sd" 1)
dmsetup create rcctl --table "0 $(blockdev --getsz "$part") linear $part 0" || bail "dmsetup"
dm=dm-$(dmsetup info -c --noheadings -o minor rcctl | tr -d ' ')
p1=${part#/dev/}
modprobe rocheck || bail "rocheck"
ro() { cat "/sys/class/block/$1/ro"; }
wr() { dd if=/dev/urandom of=/dev/mapper/rcctl bs=4k count=1 oflag=direct status=none 2>/dev/null; }

sum=$("$C" hash "$sd")
out=$("$C" lock "$sd")
echo "$out" | sed 's/^/# /'
expect_eq "lock $name: $name, $p1 and the map on it ($dm) are read-only" "1 1 1" \
	"$(ro "$name") $(ro "$p1") $(ro "$dm")"
r=refused
wr && r=passed
expect_eq "lock $name: a write through the map is refused" refused "$r"
out=$("$C" verify "$sd" "$sum")
expect_eq "verify: $name unchanged (exit status)" 0 $?
ok_if "verify: says so ($out)" grep -q unchanged <<< "$out"
# The map made writable behind the tool's back: its writes reach $p1.
blockdev --setrw "/dev/$dm"
wr
st=$("$C" status)
echo "$st" | sed 's/^/# /'
ok_if "status: rocheck's policy" grep -q "^rocheck: open=warn submit=deny new_devices=rw$" <<< "$st"
ok_if "status: $p1 read-only, the write through $dm refused on it" \
	grep -Eq "^$p1 +[0-9]+:[0-9]+ +1 +- +bios_refused=1$" <<< "$st"

out=$("$C" unlock "$sd")
expect_eq "unlock $name: all three writable" "0 0 0" "$(ro "$name") $(ro "$p1") $(ro "$dm")"
r=refused
wr && r=passed
expect_eq "unlock $name: a write through the map passes" passed "$r"
"$C" verify "$sd" "$sum" > /dev/null
expect_eq "verify: $name changed now (exit status)" 1 $?

echo ro > /sys/module/rocheck/parameters/new_devices
before=$(ls /sys/block)
echo 1 > /sys/bus/pseudo/drivers/scsi_debug/add_host
for i in $(seq 50); do
	new=$(ls /sys/block | grep '^sd' | grep -vxF "$before" | head -1)
	[ -n "$new" ] && [ -b "/dev/$new" ] && break
	sleep 0.1
done
[ -n "$new" ] || bail "no new disk"
ok_if "status: $new, new under new_devices=ro, is locked" \
	grep -Eq "^$new +[0-9:]+ +1 +locked " <<< "$("$C" status)"
"$C" unlock "$new" > /dev/null
ok_if "unlock $new: rocheck lists it unlocked" \
	grep -Eq "^$new +[0-9:]+ +0 +unlocked " <<< "$("$C" status)"
r=refused
dd if=/dev/zero of="/dev/$new" bs=4k count=1 oflag=direct status=none 2>/dev/null && r=passed
expect_eq "unlock $new: it takes writes" passed "$r"

"$C" lock nosuchdisk 2> /tmp/err
expect_eq "lock of a device that does not exist: exit status 2" 2 $?
ok_if "and says so ($(cat /tmp/err))" grep -q "no block device 'nosuchdisk'" /tmp/err
dmsetup remove rcctl
rmmod rocheck
st_done
