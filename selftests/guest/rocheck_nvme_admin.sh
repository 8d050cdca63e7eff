#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 33
# nvme: 64+64
#
# rocheck.ko and NVMe admin commands.  They go to the controller's admin
# queue, which has no disk: rocheck judges them when the driver receives
# them from user space (the nvme_cmd hook), against every namespace of the
# controller; the kernel's own admin commands (OPAL's Security Send,
# hwmon's Set Features) when the driver sets them up on the admin queue.
# One controller, two namespaces: nvme0n1 read-only, nvme0n2 writable.
# Plain kernel first: Format NVM, sent to the controller or to the
# namespace's node, erases the read-only namespace; Set Features changes
# the volatile write cache, and the temperature threshold when hwmon
# writes it.  With rocheck all are refused and change nothing, as are a
# device self-test and a vendor specific command; Identify, Get Log Page
# and Get Features answer as before; a controller reset, whose Set
# Features only set up the host's side, brings the controller back with
# the namespace still read-only; the writable namespace's I/O is not
# touched.
. "$(dirname "$0")/../lib.sh"

A=$ST_HELPERS/nvmeadmin
ctl=/dev/nvme0 ns1=/dev/nvme0n1 ns2=/dev/nvme0n2
data1() { dd if=$ns1 bs=1M count=4 iflag=direct status=none | sha256sum | cut -c1-16; }
adm() { out=$("$A" "$@"); }
vwc() { "$A" $ctl getfeat 6 | sed -n 's/^ok value=//p'; }
fill1() {
	blockdev --setrw $ns1
	head -c $((4 << 20)) /dev/urandom | dd of=$ns1 bs=1M oflag=direct status=none
	blockdev --setro $ns1
}

modprobe nvme || bail "modprobe nvme"
wait_for_dev $ns1 && wait_for_dev $ns2 || bail "no $ns1 and $ns2 (is the guest booted with '# nvme: 64+64'?)"
for i in $(seq 50); do [ -c $ctl ] && break; sleep 0.1; done
# Namespaces are scanned in parallel: nvme0n1 is not always NSID 1.
id1=$(cat /sys/block/nvme0n1/nsid) id2=$(cat /sys/block/nvme0n2/nsid)
diag "nvme0n1 is NSID $id1, nvme0n2 NSID $id2"
fill1
adm $ctl identify 1; idc=$out
adm $ctl identify 0 $id1; idn=$out
adm $ctl getlog 1; elog=$out

# --- plain kernel -------------------------------------------------------------
before=$(data1)
adm $ctl format $id1
expect_eq "plain kernel: Format NVM of the read-only namespace through $ctl succeeds" ok "$out"
ok_if "plain kernel: and erases it" test "$(data1)" != "$before"
fill1
before=$(data1)
adm $ns1 format $id1
ok_if "plain kernel: Format NVM through $ns1's own node erases it too ($out)" test "$(data1)" != "$before"
fill1
v=$(vwc)
adm $ctl setfeat 6 $(( ${v:-0} ^ 1 ))
ok_if "plain kernel: Set Features, volatile write cache $v -> $(( ${v:-0} ^ 1 )), takes ($out)" test "$(vwc)" != "$v"
adm $ctl setfeat 6 "$v"
hw=$(ls -d /sys/class/nvme/nvme0/hwmon* 2>/dev/null | head -1)
[ -w "$hw/temp1_max" ] || bail "no writable hwmon temp1_max under /sys/class/nvme/nvme0 (CONFIG_NVME_HWMON)"
t=$(cat "$hw/temp1_max")
echo $((t + 5000)) > "$hw/temp1_max"
expect_eq "plain kernel: hwmon's Set Features (temperature threshold $t -> $((t + 5000)) m°C) takes" \
	$((t + 5000)) "$(cat "$hw/temp1_max")"
echo "$t" > "$hw/temp1_max"

# --- rocheck ------------------------------------------------------------------
modprobe rocheck || bail "rocheck"
r0=$(rc_stat nvme0n1 cmds_refused)
before=$(data1) v=$(vwc)
for node in $ctl $ns1; do
	adm $node format $id1
	expect_eq "rocheck: Format NVM of the read-only namespace through $node is refused" errno=EACCES "$out"
done
adm $ctl format 0xffffffff
expect_eq "rocheck: Format NVM of all namespaces is refused" errno=EACCES "$out"
adm $ctl setfeat 6 $(( ${v:-0} ^ 1 ))
expect_eq "rocheck: Set Features (volatile write cache) is refused" errno=EACCES "$out"
adm $ctl selftest $id1
expect_eq "rocheck: Device Self-test is refused" errno=EACCES "$out"
adm $ctl vendor
expect_eq "rocheck: a vendor specific admin command is refused" errno=EACCES "$out"
adm $ctl format $id2
expect_eq "rocheck: Format NVM naming the writable namespace is refused while one is read-only" errno=EACCES "$out"
r=took
echo $((t + 5000)) 2>/dev/null > "$hw/temp1_max" || r=failed
expect_eq "rocheck: hwmon's Set Features (temperature threshold), the kernel's own admin command, fails" failed "$r"
expect_eq "rocheck: the temperature threshold is unchanged" "$t" "$(cat "$hw/temp1_max")"
expect_eq "rocheck: the read-only namespace's data is unchanged" "$before" "$(data1)"
expect_eq "rocheck: the write cache setting is unchanged" "$v" "$(vwc)"
expect_eq "rocheck: every refusal is counted on nvme0n1 (cmds_refused)" 8 $(( $(rc_stat nvme0n1 cmds_refused) - r0 ))
w0=$(rc_stat nvme0n1 cmds_warned)
echo warn > /sys/module/rocheck/parameters/submit
adm $ctl setfeat 6 $(( ${v:-0} ^ 1 ))
o1=$out w1=$(rc_stat nvme0n1 cmds_warned)
adm $ctl setfeat 6 "$v"
echo deny > /sys/module/rocheck/parameters/submit
expect_eq "rocheck, submit=warn: a user's Set Features passes" ok "$o1"
expect_eq "rocheck, submit=warn: counted once (cmds_warned), asked about again as it is sent" 1 $((w1 - w0))
aen=$("$A" $ctl getfeat 0x0b | sed -n 's/^ok value=//p')
adm $ctl setfeat 0x0b "$aen"
expect_eq "rocheck: a user's Set Features of a host-interface feature (asynchronous events) is refused" errno=EACCES "$out"
# Create I/O Completion Queue 15, 64 entries, contiguous, at no address:
# the driver's own set-up command, from a user a queue no hook would see.
adm $ctl raw 0x05 $(((63 << 16) | 15)) 1
expect_eq "rocheck: a user's Create I/O Completion Queue is refused" errno=EACCES "$out"
echo 1 > /sys/class/nvme/nvme0/reset_controller
for i in $(seq 100); do
	[ "$(cat /sys/class/nvme/nvme0/state)" = live ] && [ -b $ns1 ] && break
	sleep 0.2
done
expect_eq "rocheck: a controller reset (the driver's own queue and Set Features commands) brings it back" \
	live "$(cat /sys/class/nvme/nvme0/state)"
expect_eq "rocheck: after the reset nvme0n1 is still read-only" 1 "$(blockdev --getro $ns1)"
expect_eq "rocheck: after the reset nvme0n1 reads as before" "$before" "$(data1)"
adm $ctl identify 1
expect_eq "rocheck: Identify Controller answers as before" "$idc" "$out"
adm $ctl identify 0 $id1
expect_eq "rocheck: Identify Namespace answers as before" "$idn" "$out"
adm $ctl getlog 1
expect_eq "rocheck: Get Log Page (error log) answers as before" "$elog" "$out"
adm $ctl getlog 2
expect_eq "rocheck: Get Log Page (SMART) answers" ok "${out%% *}"
ok_if "rocheck: Get Features answers" test -n "$(vwc)"
out=$("$ST_HELPERS/nvmepass" $ns2 write 8 1)
expect_eq "rocheck: a passthrough Write to the writable namespace passes" ok "$out"
out=$("$ST_HELPERS/nvmepass" $ns1 write 8 1)
expect_eq "rocheck: a passthrough Write to the read-only one ends with an I/O error" errno=EIO "$out"
ok_if "rocheck: a plain write to the writable namespace passes" \
	dd if=/dev/zero of=$ns2 bs=4k count=1 oflag=direct status=none

# --- no namespace read-only: nothing refused ----------------------------------
blockdev --setrw $ns1
adm $ctl format $id2
expect_eq "rocheck, no read-only namespace: Format NVM passes" ok "$out"
rmmod rocheck
st_done
