#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 18
# nvme: 64
# sata: 64
#
# rocheck.ko and the tools examiners document a drive with, on read-only
# disks of the three protocols: SCSI (scsi_debug), ATA (QEMU's AHCI disk,
# libata: smartctl and hdparm send ATA PASS-THROUGH) and NVMe (QEMU's
# controller).  Nothing that only reads or reports may be refused: each
# tool's output with rocheck loaded must be the plain kernel's, exit
# status included, on the same read-only disk.  Rows marked "counters"
# print values that move between two runs (power-on time, commands
# completed, the clock): their digits are masked before comparing.
. "$(dirname "$0")/../lib.sh"

scsi_debug_load dev_size_mb=64
sdbg=$sd
sata=
for d in /sys/block/sd*; do
	grep -q 'QEMU HARDDISK' "$d/device/model" 2>/dev/null && sata=/dev/${d##*/}
done
[ -n "$sata" ] && wait_for_dev "$sata" || bail "no SATA disk (is the guest booted with '# sata: 64'?)"
modprobe nvme || bail "modprobe nvme"
nvns=/dev/nvme0n1 nvctl=/dev/nvme0
wait_for_dev $nvns || bail "no $nvns (is the guest booted with '# nvme: 64'?)"
for i in $(seq 50); do [ -c $nvctl ] && break; sleep 0.1; done
for d in $sdbg $sata $nvns; do blockdev --setro $d || bail "setro $d"; done
diag "SCSI $sdbg, ATA $sata ($(readlink -f /sys/block/${sata#/dev/}/device | grep -o 'ata[0-9]*' | head -1)), NVMe $nvns"

# NAME|counters or -|command: every tool an examiner's report quotes.
rows=(
	"sg_inq, SCSI|-|sg_inq $sdbg"
	"sg_vpd -a, SCSI|-|sg_vpd -a $sdbg"
	"sg_readcap -l, SCSI|-|sg_readcap -l $sdbg"
	"sg_logs -a, SCSI|counters|sg_logs -a $sdbg"
	"smartctl -x, SCSI|counters|smartctl -x $sdbg"
	"hdparm -I, ATA|-|hdparm -I $sata"
	"hdparm -N (HPA), ATA|-|hdparm -N $sata"
	"smartctl -x, ATA|counters|smartctl -x $sata"
	"smartctl -i -d sat, ATA|counters|smartctl -i -d sat $sata"
	"sg_inq, ATA|-|sg_inq $sata"
	"sg_vpd -a, ATA|-|sg_vpd -a $sata"
	"sg_readcap -l, ATA|-|sg_readcap -l $sata"
	"nvme id-ctrl|-|nvme id-ctrl $nvctl"
	"nvme id-ns|-|nvme id-ns $nvns"
	"nvme smart-log|counters|nvme smart-log $nvctl"
	"nvme error-log|-|nvme error-log $nvctl"
	"smartctl -x, NVMe|counters|smartctl -x $nvctl"
)
# answer ROW: the row's exit status and output, digits masked for counters.
answer() {
	local kind=${1#*|} cmd out st
	cmd=${kind#*|}
	kind=${kind%%|*}
	# shellcheck disable=SC2086
	out=$($cmd 2>&1)
	st=$?
	[ "$kind" = counters ] && out=$(tr 0-9 N <<< "$out")
	printf 'status %s\n%s\n' "$st" "$out"
}
declare -A plain
for row in "${rows[@]}"; do
	plain["${row%%|*}"]=$(answer "$row")
done
modprobe rocheck || bail "rocheck"
for row in "${rows[@]}"; do
	n=${row%%|*}
	a=$(answer "$row")
	if [ "$a" = "${plain["$n"]}" ]; then
		pass "$n answers with rocheck as on the plain kernel ($(head -1 <<< "$a"), $(wc -l <<< "$a") lines)"
	else
		fail "$n answers with rocheck as on the plain kernel"
		diff <(echo "${plain["$n"]}") <(echo "$a") | head -20 | sed 's/^/# /'
	fi
done
r=0
for d in $sdbg $sata $nvns; do
	for c in cmds_refused bios_refused open_refused; do
		r=$((r + $(rc_stat "${d#/dev/}" $c)))
	done
done
expect_eq "rocheck refused no command, bio or open on the three disks" 0 "$r"
rmmod rocheck
exit $ST_FAILED
