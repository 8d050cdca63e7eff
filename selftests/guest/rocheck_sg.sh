#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 25
#
# rocheck.ko and SCSI passthrough: SG_IO on the disk node, the sg driver
# (/dev/sgN) and bsg (/dev/bsg/H:C:T:L) execute requests that never pass
# submit_bio_noacct(), so the submit check does not see them.  Vanilla
# first: a passthrough WRITE(10) changes a disk set read-only.  With
# rocheck, a command that writes blocks of a read-only disk or partition
# ends with CHECK CONDITION, DATA PROTECT (what a write-protected disk
# answers), under the submit policy; reads and non-writing commands pass.
. "$(dirname "$0")/../lib.sh"

P=/sys/module/rocheck/parameters
T=/sys/kernel/tracing
blk() {	# blk LBA: md5 of one 512-byte block, read with O_DIRECT
	dd if="$sd" bs=512 skip="$1" count=1 iflag=direct status=none | md5sum | cut -c1-32
}
hex32() { printf '%02x %02x %02x %02x' $(($1 >> 24 & 255)) $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255)); }
# sg_write NODE LBA BYTE: WRITE(10) of one block of BYTE at LBA through
# passthrough on NODE.  Output in $out; status of sg_raw.
sg_write() {
	head -c 512 /dev/zero | tr '\0' "$3" > /tmp/blk
	# shellcheck disable=SC2046
	out=$(sg_raw -s 512 -i /tmp/blk "$1" 2a 00 $(hex32 "$2") 00 00 01 00 2>&1)
}
want() {	# want BYTE: md5 of a block of BYTE
	head -c 512 /dev/zero | tr '\0' "$1" | md5sum | cut -c1-32
}
protect() {	# a clean DATA PROTECT / WRITE PROTECTED sense, nothing stale in it
	grep -qi 'data protect' <<< "$out" && grep -qi 'write protected' <<< "$out" &&
		! grep -qi 'info fld\|field replaceable' <<< "$out"
}

scsi_debug_load dev_size_mb=64
sg=$(ls -d /sys/block/$name/device/scsi_generic/sg* 2>/dev/null | head -1)
sg=/dev/${sg##*/}
hctl=$(basename "$(readlink -f /sys/block/$name/device)")
bsg=/dev/bsg/$hctl
[ -c "$sg" ] && [ -c "$bsg" ] || bail "no sg ($sg) or bsg ($bsg) node"
diag "disk $sd, sg $sg, bsg $bsg"
dd if=/dev/zero of="$sd" bs=1M count=2 oflag=direct status=none
blockdev --setro "$sd" || bail "setro"

# --- vanilla ------------------------------------------------------------------
sg_write "$sd" 16 v
ok_if "vanilla: SG_IO WRITE(10) to a read-only disk succeeds" test -z "$(grep -i 'sense' <<< "$out")"
expect_eq "vanilla: and changes the block" "$(want v)" "$(blk 16)"

# --- rocheck, submit=deny -----------------------------------------------------
modprobe rocheck || bail "rocheck"
echo 1 > $T/events/rocheck/rocheck_cmd/enable || bail "no rocheck_cmd event"
echo > $T/trace
r0=$(rc_stat "$name" cmds_refused)
for node in "$sd" "$sg" "$bsg"; do
	before=$(blk 16)
	sg_write "$node" 16 d
	protect; st=$?
	[ $st -eq 0 ] || diag "$out"
	ok_if "deny: WRITE(10) through $node ends with DATA PROTECT, write protected" test $st -eq 0
	expect_eq "deny: the block is unchanged after the write through $node" "$before" "$(blk 16)"
done
r1=$(rc_stat "$name" cmds_refused)
expect_eq "deny: the three refusals are counted (cmds_refused)" 3 $((r1 - r0))
grep rocheck_cmd $T/trace | head -n 1 | sed 's/^/# /'
devno=$(tr : , < /sys/block/$name/dev)
expect_eq "trace: one rocheck_cmd event per refused command" $((r1 - r0)) \
	"$(grep -cE "rocheck_cmd: $devno opcode=0x2a sectors 16-16 refused by sg_raw\[[0-9]+\]" $T/trace)"
out=$(sg_raw -r 512 "$sd" 28 00 00 00 00 10 00 00 01 00 2>&1)
ok_if "deny: READ(10) through SG_IO still works" grep -q 'Received 512 bytes' <<< "$out"
out=$(sg_raw "$sd" 35 00 00 00 00 00 00 00 00 00 2>&1)
ok_if "deny: SYNCHRONIZE CACHE (writes no block) still works" test -z "$(grep -i 'sense' <<< "$out")"
before=$(blk 16)
head -c 512 /dev/zero | tr '\0' s > /tmp/blk
out=$(sg_raw -s 512 -i /tmp/blk "$sd" 93 00 00 00 00 00 00 00 00 10 00 00 00 01 00 00 2>&1)
ok_if "deny: WRITE SAME(16) ends with DATA PROTECT" protect
expect_eq "deny: the block is unchanged after WRITE SAME(16)" "$before" "$(blk 16)"
printf '\0\x16\0\x10\0\0\0\0\0\0\0\0\0\0\0\x10\0\0\0\x08\0\0\0\0' > /tmp/unmap
out=$(sg_raw -s 24 -i /tmp/unmap "$sd" 42 00 00 00 00 00 00 00 18 00 2>&1)
ok_if "deny: UNMAP (range in its parameter list) ends with DATA PROTECT" protect

# --- submit=warn, off, dev_policy --------------------------------------------
echo warn > $P/submit
w0=$(rc_stat "$name" cmds_warned)
sg_write "$sd" 16 w
ok_if "warn: the write passes" test -z "$(grep -i 'sense' <<< "$out")"
expect_eq "warn: and changes the block" "$(want w)" "$(blk 16)"
expect_eq "warn: counted (cmds_warned)" 1 $(( $(rc_stat "$name" cmds_warned) - w0 ))
echo off > $P/submit
sg_write "$sd" 16 o
expect_eq "off: the write passes and changes the block" "$(want o)" "$(blk 16)"
echo deny > $P/submit
echo "$name=off" > $P/dev_policy
sg_write "$sd" 16 p
expect_eq "dev_policy $name=off: the write passes and changes the block" "$(want p)" "$(blk 16)"
echo "" > $P/dev_policy

# --- a read-only partition of a writable disk --------------------------------
blockdev --setrw "$sd"
sg_write "$sd" 16 r
expect_eq "writable disk: the write passes" "$(want r)" "$(blk 16)"
mbr_partition "$sd" 2048 || bail "MBR partition on $sd"
blockdev --setro "${sd}1"
before=$(blk 2056) p0=$(rc_stat "${name}1" cmds_refused)
sg_write "$sd" 2056 x
ok_if "RO ${name}1: WRITE(10) into it through the disk ends with DATA PROTECT" protect
expect_eq "RO ${name}1: its block is unchanged" "$before" "$(blk 2056)"
expect_eq "RO ${name}1: the refusal is counted on ${name}1" 1 $(( $(rc_stat "${name}1" cmds_refused) - p0 ))
sg_write "$sd" 32 y
expect_eq "RO ${name}1: a write outside it passes" "$(want y)" "$(blk 32)"
st_done
