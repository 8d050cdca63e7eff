#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
# plan: 76
#
# rocheck.ko as forensic labs test a write blocker, SCSI side: every
# command category sent through SG_IO to a read-only disk, the disk's
# data (sha256) and settings (every mode page) compared before and after.
# Two scsi_debug disks with their own stores: one read-only, one writable.
#
# Change rows: on the plain kernel first, printing whether the command
# changes the read-only disk there (a row the emulated device does not
# execute is a SKIP, never a pass); then with rocheck it must end with
# DATA PROTECT and leave data and settings as they were; on the writable
# disk it must answer as without rocheck.  Report rows: with rocheck they
# answer the same status and bytes as without, on both disks.  Last, a
# zoned disk: ZBC OUT (reset write pointer, all zones) wipes a read-only
# zone on the plain kernel, not with rocheck; REPORT ZONES still answers.
. "$(dirname "$0")/../lib.sh"

T=/sys/kernel/tracing
# run NODE ROW: runs ROW ("NAME|sg_raw options|CDB") on NODE; $res is its
# outcome, "good" or the sense key, and the sha256 of the data it returned.
run() {
	local opts=${2#*|} cdb
	cdb=${opts#*|}
	opts=${opts%%|*}
	local st
	rm -f /tmp/out
	# shellcheck disable=SC2086
	out=$(sg_raw $opts -o /tmp/out "$1" $cdb 2>&1)
	st=$?
	res=$(sed -n 's/.*Sense key: \([A-Za-z ]*\).*/\1/p' <<< "$out" | head -1)
	[ $st -eq 0 ] || [ -n "$res" ] || res="failed($st)"
	res="${res:-good} $( [ -f /tmp/out ] && sha256sum < /tmp/out | cut -c1-16)"
}
# state NODE: the disk's data and every mode page, current values
state() {
	echo "$(dd if="$1" bs=1M iflag=direct status=none | sha256sum | cut -c1-16) $(sg_raw -r 4096 -o /tmp/mp "$1" 5a 08 3f 00 00 00 00 10 00 00 >/dev/null 2>&1; sha256sum < /tmp/mp | cut -c1-16)"
}
protect() { grep -qi 'data protect' <<< "$out" && grep -qi 'write protected' <<< "$out"; }

# MODE SELECT(10) parameter list: the caching page (DBD MODE SENSE) with
# its write cache enable bit flipped, under an all-zero header.
caching_select() {
	local b i
	sg_raw -r 28 -o /tmp/cache "$1" 5a 08 08 00 00 00 00 00 1c 00 >/dev/null 2>&1
	read -ra b <<< "$(od -An -v -tx1 -j 8 -N 20 /tmp/cache | tr '\n' ' ')"
	[ ${#b[@]} -eq 20 ] || return 1
	b[0]=08
	b[2]=$(printf '%02x' $((16#${b[2]} ^ 4)))
	{
		head -c 8 /dev/zero
		for i in "${b[@]}"; do printf "\\x$i"; done
	} > /tmp/mselect
}
head -c 512 /dev/urandom > /tmp/blk
printf '\0\x16\0\x10\0\0\0\0\0\0\0\0\0\0\0\x10\0\0\0\x08\0\0\0\0' > /tmp/unmap
printf '\0\0\0\0\0\0\0\0\x12\x34\x56\x78\x9a\xbc\xde\xf0\0\0\0\0\0\0\0\0' > /tmp/prout
head -c 4096 /dev/urandom > /tmp/wbuf

# Commands that change data or settings.  An unknown opcode (0xc1, vendor
# specific, data out) is among them: refused because it is not known.
changes=(
	"WRITE(10)|-s 512 -i /tmp/blk|2a 00 00 00 00 10 00 00 01 00"
	"WRITE(16)|-s 512 -i /tmp/blk|8a 00 00 00 00 00 00 00 00 20 00 00 00 01 00 00"
	"WRITE SAME(16) UNMAP|-s 512 -i /tmp/blk|93 08 00 00 00 00 00 00 00 30 00 00 00 08 00 00"
	"UNMAP|-s 24 -i /tmp/unmap|42 00 00 00 00 00 00 00 18 00"
	"WRITE ATOMIC(16)|-s 4096 -i /tmp/wbuf|9c 00 00 00 00 00 00 00 00 40 00 00 00 08 00 00"
	"MODE SELECT(10) caching page|-s 28 -i /tmp/mselect|55 10 00 00 00 00 00 00 1c 00"
	"FORMAT UNIT|-t 60|04 00 00 00 00 00"
	"SANITIZE overwrite|-s 0|48 01 00 00 00 00 00 00 00 00"
	"WRITE BUFFER download microcode|-s 4096 -i /tmp/wbuf|3b 05 00 00 00 00 00 10 00 00"
	"LOG SELECT reset counters|-s 0|4c 02 00 00 00 00 00 00 00 00"
	"PERSISTENT RESERVE OUT register|-s 24 -i /tmp/prout|5f 00 00 00 00 00 00 00 18 00"
	"vendor specific 0xc1, data out|-s 512 -i /tmp/blk|c1 00 00 00 00 00 00 00 01 00"
	"ATA PASS-THROUGH(16) WRITE SECTORS EXT|-s 512 -i /tmp/blk|85 0b 06 00 00 00 01 00 50 00 00 00 00 40 34 00"
)
# Commands that read or report.
reports=(
	"TEST UNIT READY||00 00 00 00 00 00"
	"INQUIRY|-r 96|12 00 00 00 60 00"
	"INQUIRY VPD 0x83|-r 252|12 01 83 00 fc 00"
	"READ CAPACITY(10)|-r 8|25 00 00 00 00 00 00 00 00 00"
	"READ CAPACITY(16)|-r 32|9e 10 00 00 00 00 00 00 00 00 00 00 00 20 00 00"
	"MODE SENSE(6)|-r 252|1a 00 3f 00 fc 00"
	"MODE SENSE(10)|-r 1024|5a 00 3f 00 00 00 00 04 00 00"
	"LOG SENSE supported pages|-r 64|4d 00 00 00 00 00 00 00 40 00"
	"REPORT LUNS|-r 64|a0 00 00 00 00 00 00 00 00 40 00 00"
	"REQUEST SENSE|-r 18|03 00 00 00 12 00"
	"READ(10)|-r 4096|28 00 00 00 00 00 00 00 08 00"
	"READ(16)|-r 4096|88 00 00 00 00 00 00 00 00 00 00 00 00 08 00 00"
	"VERIFY(10)||2f 00 00 00 00 00 00 00 08 00"
	"REPORT SUPPORTED OPCODES|-r 2048|a3 0c 00 00 00 00 00 00 08 00 00 00"
	"SYNCHRONIZE CACHE(10)||35 00 00 00 00 00 00 00 00 00"
	"GET LBA STATUS|-r 64|9e 12 00 00 00 00 00 00 00 00 00 00 00 40 00 00"
	"PERSISTENT RESERVE IN read keys|-r 64|5e 00 00 00 00 00 00 00 40 00"
)

modprobe scsi_debug add_host=2 per_host_store=1 dev_size_mb=16 lbprz=1 \
	lbpu=1 lbpws=1 atomic_wr=1 || bail "scsi_debug, two hosts"
scsi_debug_disks 2
ro=${disks[0]} rw=${disks[1]}
diag "read-only $ro, writable $rw"
for d in "$ro" "$rw"; do
	head -c $((16 << 20)) /dev/urandom | dd of="$d" bs=1M oflag=direct status=none
done
blockdev --setro "$ro" || bail "setro"

# --- report rows: plain kernel, then rocheck -----------------------------------
declare -A plain
for row in "${reports[@]}"; do
	for d in "$ro" "$rw"; do
		run "$d" "$row"
		plain["$d ${row%%|*}"]=$res
	done
done
modprobe rocheck || bail "rocheck"
for row in "${reports[@]}"; do
	n=${row%%|*} same=1
	for d in "$ro" "$rw"; do
		run "$d" "$row"
		[ "$res" = "${plain["$d $n"]}" ] || { same=0; diag "$n on $d: $res, plain kernel ${plain["$d $n"]}"; }
	done
	ok_if "report: $n answers as on the plain kernel (${plain["$ro $n"]%% *}), read-only and writable disk" test $same = 1
done
rmmod rocheck

# --- change rows: plain kernel ------------------------------------------------
declare -A changed rwres
for row in "${changes[@]}"; do
	n=${row%%|*}
	caching_select "$ro" || bail "MODE SENSE of the caching page"
	before=$(state "$ro")
	run "$ro" "$row"
	after=$(state "$ro")
	changed["$n"]=0
	[ "$before" = "$after" ] || changed["$n"]=1
	diag "plain kernel: $n: $res, $([ "${changed["$n"]}" = 1 ] && echo changes || echo leaves) the read-only disk"
	caching_select "$rw"
	run "$rw" "$row"
	rwres["$n"]=${res%% *}
done

# --- change rows: rocheck -----------------------------------------------------
modprobe rocheck || bail "rocheck"
echo 1 > $T/events/rocheck/rocheck_cmd/enable || bail "no rocheck_cmd event"
echo > $T/trace
r0=$(rc_stat "${ro#/dev/}" cmds_refused)
for row in "${changes[@]}"; do
	n=${row%%|*}
	if [ "${changed["$n"]}" = 1 ]; then
		pass "plain kernel: $n changes the read-only disk"
	else
		skip "plain kernel: $n changes the read-only disk" "the emulated disk does not execute it"
	fi
	caching_select "$ro" || bail "MODE SENSE of the caching page"
	before=$(state "$ro")
	run "$ro" "$row"
	protect; st=$?
	[ $st -eq 0 ] || diag "$out"
	ok_if "rocheck: $n ends with DATA PROTECT, write protected" test $st -eq 0
	expect_eq "rocheck: $n leaves the read-only disk's data and mode pages" "$before" "$(state "$ro")"
done
expect_eq "rocheck: every refusal is counted (cmds_refused)" ${#changes[@]} \
	$(( $(rc_stat "${ro#/dev/}" cmds_refused) - r0 ))
expect_eq "trace: one rocheck_cmd event per refusal" ${#changes[@]} "$(grep -c 'rocheck_cmd:.* refused' $T/trace)"
for row in "${changes[@]}"; do
	n=${row%%|*}
	caching_select "$rw"
	run "$rw" "$row"
	expect_eq "rocheck: $n on the writable disk answers as on the plain kernel" "${rwres["$n"]}" "${res%% *}"
done
rmmod rocheck
rmmod scsi_debug || bail "rmmod scsi_debug"

# --- a zoned disk: ZBC OUT ----------------------------------------------------
scsi_debug_load zbc=managed zone_size_mb=4 zone_nr_conv=1 dev_size_mb=16
zone1() { dd if="$sd" bs=64k count=1 skip=64 iflag=direct status=none | md5sum | cut -c1-32; }
fill() {	# zone 1 reset and written with 64 KiB of the pattern, disk read-only
	blockdev --setrw "$sd"
	blkzone reset -o 8192 -c 1 "$sd"
	dd if=/tmp/pattern of="$sd" bs=64k seek=64 count=1 oflag=direct status=none
	blockdev --setro "$sd"
}
head -c 65536 /dev/urandom > /tmp/pattern
want=$(md5sum < /tmp/pattern | cut -c1-32)
reset_all="ZBC OUT reset write pointer, all zones|-s 0|94 04 00 00 00 00 00 00 00 00 00 00 00 00 01 00"
zreport="REPORT ZONES|-r 4096|95 00 00 00 00 00 00 00 00 00 00 00 10 00 00 00"
fill
run "$sd" "$zreport"; zr=$res
run "$sd" "$reset_all"
ok_if "plain kernel: ZBC OUT reset all succeeds ($res) on the read-only disk" test "${res%% *}" = good
ok_if "plain kernel: and wipes zone 1" test "$(zone1)" != "$want"
fill
modprobe rocheck || bail "rocheck"
run "$sd" "$zreport"
expect_eq "rocheck: REPORT ZONES answers as on the plain kernel" "$zr" "$res"
run "$sd" "$reset_all"
ok_if "rocheck: ZBC OUT reset all ends with DATA PROTECT" protect
expect_eq "rocheck: zone 1 keeps its data" "$want" "$(zone1)"
rmmod rocheck
st_done
