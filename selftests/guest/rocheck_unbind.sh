#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 6
#
# rocheck.ko and passthrough while the disk driver comes and goes: /dev/sgN
# stays when sd is unbound from the device, and its requests reach a queue
# whose disk is being released (disk_release() clears q->disk).  rocheck
# reads q->disk once per request, under RCU.  INQUIRY and a refused
# WRITE(10) loop on /dev/sgN while sd is unbound and bound 20 times; the
# runner fails the file on any BUG, KASAN or lockdep report (the debug
# kernel's run is the one that sees a use after free).  Afterwards the
# rebound disk, set read-only again, still refuses the write.
. "$(dirname "$0")/../lib.sh"

scsi_debug_load dev_size_mb=16
sg=$(ls -d /sys/block/$name/device/scsi_generic/sg* 2>/dev/null | head -1)
sg=/dev/${sg##*/}
hctl=$(basename "$(readlink -f /sys/block/$name/device)")
[ -c "$sg" ] || bail "no sg node ($sg) for $sd"
diag "$sd is $hctl, $sg"
modprobe rocheck || bail "rocheck"
blockdev --setro "$sd" || bail "setro"
head -c 512 /dev/urandom > /tmp/blk
block() { dd if="$1" bs=512 count=1 iflag=direct status=none | md5sum | cut -c1-32; }
before=$(block "$sd")

# The loop: INQUIRY, then WRITE(10) of block 0 (refused while the disk is
# there and read-only; with sd unbound there is no disk to judge).
end=$((SECONDS + 60))
(
	n=0
	while [ $SECONDS -lt $end ] && [ ! -e /tmp/stop ]; do
		sg_inq "$sg" >/dev/null 2>&1 && n=$((n + 1))
		sg_raw -s 512 -i /tmp/blk "$sg" 2a 00 00 00 00 00 00 00 01 00 >/dev/null 2>&1
	done
	echo "$n" > /tmp/inq
) &
lp=$!
rounds=0
for i in $(seq 20); do
	echo "$hctl" > /sys/bus/scsi/drivers/sd/unbind || break
	sleep 0.2
	echo "$hctl" > /sys/bus/scsi/drivers/sd/bind || break
	for j in $(seq 50); do
		ls /sys/bus/scsi/devices/$hctl/block/ >/dev/null 2>&1 && break
		sleep 0.1
	done
	rounds=$i
	sleep 0.2
done
touch /tmp/stop
wait $lp
diag "sd unbound and bound $rounds times; $(cat /tmp/inq) INQUIRYs answered meanwhile"
expect_eq "sd was unbound and bound 20 times under the loop" 20 "$rounds"
expect_gt "INQUIRY through $sg was answered during the rounds" "$(cat /tmp/inq)" 20
sd=/dev/$(ls /sys/bus/scsi/devices/$hctl/block/ | head -1)
wait_for_dev "$sd" || bail "no disk after the last bind"
blockdev --setro "$sd"
out=$(sg_raw -s 512 -i /tmp/blk "$sg" 2a 00 00 00 00 00 00 00 01 00 2>&1)
ok_if "the rebound disk ($sd), read-only again: WRITE(10) through $sg ends with DATA PROTECT" \
	grep -qi 'data protect' <<< "$out"
# The writes of the unbound moments had no disk to be judged against, as
# on the plain kernel (rocheck protects a disk, and there was none): the
# block may have changed then.  After the last bind it must not.
b=$(block "$sd")
sg_raw -s 512 -i /tmp/blk "$sg" 2a 00 00 00 00 00 00 00 01 00 >/dev/null 2>&1
expect_eq "and block 0 is unchanged by it" "$b" "$(block "$sd")"
diag "block 0 $([ "$b" = "$before" ] && echo kept || echo changed) its first contents over the unbound moments"
ok_if "rocheck unloads" rmmod rocheck
ok_if "scsi_debug unloads" rmmod scsi_debug
exit $ST_FAILED
