#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 25
# sata: 64
#
# rocheck.ko and ATA PASS-THROUGH(16), as hdparm and smartctl send ATA
# commands to a SATA disk through SG_IO: QEMU's AHCI controller and disk,
# driver libata.  The disk's state is its data (sha256) and its IDENTIFY
# DEVICE answer (write cache, maximum address and the other settings are
# in it).  Change rows run on the plain kernel first, printing whether the
# command changes the read-only disk there (a row QEMU's disk does not
# execute is a SKIP); with rocheck each ends with DATA PROTECT and leaves
# data and IDENTIFY as they were.  Report rows answer the same status,
# sense (ATA registers) and bytes with rocheck as without.
. "$(dirname "$0")/../lib.sh"

# run ROW: ROW ("NAME|sg_raw options|CDB") on the disk; $res is its outcome,
# "good" or the sense key, the sha256 of the data and of the sense.
run() {
	local opts=${1#*|} cdb st
	cdb=${opts#*|}
	opts=${opts%%|*}
	rm -f /tmp/out
	# shellcheck disable=SC2086
	out=$(sg_raw $opts -o /tmp/out "$sd" $cdb 2>&1)
	st=$?
	res=$(sed -n 's/.*Sense key: \([A-Za-z ]*\).*/\1/p' <<< "$out" | head -1)
	[ $st -eq 0 ] || [ -n "$res" ] || res="failed($st)"
	res="${res:-good} $( [ -f /tmp/out ] && sha256sum < /tmp/out | cut -c1-16) $(grep -iA3 'sense' <<< "$out" | sha256sum | cut -c1-16)"
}
IDENTIFY="IDENTIFY DEVICE|-r 512|85 08 0e 00 00 00 01 00 00 00 00 00 00 40 ec 00"
# state: the data and the IDENTIFY DEVICE answer
state() {
	run "$IDENTIFY"
	echo "$(dd if="$sd" bs=1M iflag=direct status=none | sha256sum | cut -c1-16) ${res}"
}
protect() { grep -qi 'data protect' <<< "$out" && grep -qi 'write protected' <<< "$out"; }
head -c 512 /dev/urandom > /tmp/blk
{ printf '\x60\0\0\0\0\0\x08\0'; head -c 504 /dev/zero; } > /tmp/trim

changes=(
	"WRITE SECTORS EXT|-s 512 -i /tmp/blk|85 0b 06 00 00 00 01 00 50 00 00 00 00 40 34 00"
	"WRITE DMA EXT|-s 512 -i /tmp/blk|85 0d 06 00 00 00 01 00 58 00 00 00 00 40 35 00"
	"DATA SET MANAGEMENT, TRIM|-s 512 -i /tmp/trim|85 0d 06 00 01 00 01 00 00 00 00 00 00 40 06 00"
	"SET FEATURES, write cache off|-s 0|85 06 20 00 82 00 00 00 00 00 00 00 00 40 ef 00"
	"SET MAX ADDRESS EXT|-s 0|85 07 20 00 00 00 00 00 00 00 00 00 00 40 37 00"
	"SECURITY ERASE PREPARE|-s 0|85 06 20 00 00 00 00 00 00 00 00 00 00 40 f3 00"
	"DOWNLOAD MICROCODE|-s 512 -i /tmp/blk|85 0a 06 00 07 00 01 00 00 00 00 00 00 40 92 00"
	"SMART WRITE LOG|-s 512 -i /tmp/blk|85 0a 06 00 d6 00 01 00 80 00 4f 00 c2 40 b0 00"
)
reports=(
	"$IDENTIFY"
	"READ NATIVE MAX ADDRESS EXT||85 07 20 00 00 00 00 00 00 00 00 00 00 40 27 00"
	"SMART READ DATA|-r 512|85 08 0e 00 d0 00 01 00 00 00 4f 00 c2 00 b0 00"
	"SMART RETURN STATUS||85 06 20 00 da 00 00 00 00 00 4f 00 c2 00 b0 00"
	"READ LOG EXT, directory|-r 512|85 09 0e 00 00 00 01 00 00 00 00 00 00 40 2f 00"
	"CHECK POWER MODE||85 06 20 00 00 00 00 00 00 00 00 00 00 40 e5 00"
	"READ SECTORS EXT|-r 512|85 09 0e 00 00 00 01 00 00 00 00 00 00 40 24 00"
	"READ VERIFY SECTORS EXT||85 07 20 00 00 00 08 00 00 00 00 00 00 40 42 00"
)

sd=
for d in /sys/block/sd*; do
	grep -q 'QEMU HARDDISK' "$d/device/model" 2>/dev/null && sd=/dev/${d##*/}
done
[ -n "$sd" ] && wait_for_dev "$sd" || bail "no SATA disk (is the guest booted with '# sata: 64'?)"
name=${sd#/dev/}
diag "$sd: $(cat /sys/block/$name/device/vendor | tr -s ' ') $(cat /sys/block/$name/device/model | tr -s ' '), $(readlink -f /sys/block/$name/device | grep -o 'ata[0-9]*' | head -1)"
head -c $((64 << 20)) /dev/urandom | dd of="$sd" bs=1M oflag=direct status=none
blockdev --setro "$sd" || bail "setro"

# --- report rows ------------------------------------------------------------
declare -A plain
for row in "${reports[@]}"; do
	run "$row"
	plain["${row%%|*}"]=$res
done
modprobe rocheck || bail "rocheck"
for row in "${reports[@]}"; do
	n=${row%%|*}
	run "$row"
	[ "$res" = "${plain["$n"]}" ] || diag "$n: $res, plain kernel ${plain["$n"]}"
	expect_eq "report: $n answers as on the plain kernel (${plain["$n"]%% *})" "${plain["$n"]}" "$res"
done
rmmod rocheck

# --- change rows: plain kernel, then rocheck ----------------------------------
declare -A changed
for row in "${changes[@]}"; do
	n=${row%%|*}
	before=$(state)
	run "$row"
	r=${res%% *}
	changed["$n"]=0
	[ "$before" = "$(state)" ] || changed["$n"]=1
	diag "plain kernel: $n: $r, $([ "${changed["$n"]}" = 1 ] && echo changes || echo leaves) the read-only disk"
done
modprobe rocheck || bail "rocheck"
for row in "${changes[@]}"; do
	n=${row%%|*}
	before=$(state)
	run "$row"
	protect; st=$?
	if [ "${changed["$n"]}" = 1 ]; then
		ok_if "$n changes the disk on the plain kernel; with rocheck it ends with DATA PROTECT" test $st -eq 0
	else
		ok_if "$n (QEMU's disk does not change with it) ends with DATA PROTECT with rocheck" test $st -eq 0
	fi
	expect_eq "rocheck: $n leaves the disk's data and IDENTIFY" "$before" "$(state)"
done
ok_if "the plain kernel's rows changed the disk at least once (a baseline that can fail)" \
	test "$(printf '%s\n' "${changed[@]}" | grep -c 1)" -ge 1
rmmod rocheck
st_done
