#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 34
# nvme: 64
#
# rocheck.ko and NVMe passthrough: NVME_IOCTL_IO_CMD on the namespace's
# block device or generic char device (/dev/ngXnY), and io_uring
# uring_cmd on the char device, execute requests that never pass
# submit_bio_noacct().  Vanilla first: a passthrough Write changes a
# namespace set read-only.  With rocheck, an I/O command that writes
# blocks of a read-only namespace or partition ends with an I/O error
# under the submit policy; reads and flush pass.  The namespace is QEMU's
# emulated controller, driver nvme.ko.
. "$(dirname "$0")/../lib.sh"

P=/sys/module/rocheck/parameters
T=/sys/kernel/tracing
blk() {	# blk LBA [COUNT]: md5 of COUNT (1) 512-byte blocks, read with O_DIRECT
	dd if="$nv" bs=512 skip="$1" count="${2:-1}" iflag=direct status=none | md5sum | cut -c1-32
}
A5=$(head -c 512 /dev/zero | tr '\0' '\245' | md5sum | cut -c1-32)
nvcmd() { out=$("$ST_HELPERS/nvmepass" "$@"); }
# uring_write OFFSET: 64 KiB written by fio's io_uring_cmd engine through
# the generic char device; fio's status.
uring_write() {
	fio --name=uring --ioengine=io_uring_cmd --cmd_type=nvme --filename="$ng" \
		--rw=write --bs=4k --size=64k --offset="$1" --eta=never \
		--output=/tmp/fio.out >/dev/null 2>&1
}

modprobe nvme || bail "modprobe nvme"
nv=/dev/nvme0n1 ng=/dev/ng0n1 name=nvme0n1
wait_for_dev "$nv" || bail "no $nv (is the guest booted with '# nvme:'?)"
for i in $(seq 50); do [ -c "$ng" ] && break; sleep 0.1; done
[ -c "$ng" ] || bail "no generic char device $ng"
diag "$nv: $(cat /sys/block/$name/queue/logical_block_size)-byte blocks, $(cat /sys/block/$name/size) sectors, controller $(cat /sys/block/$name/device/model 2>/dev/null | tr -s ' ')"
dd if=/dev/zero of="$nv" bs=1M count=4 oflag=direct status=none
blockdev --setro "$nv" || bail "setro"

# --- vanilla ------------------------------------------------------------------
nvcmd "$nv" write 16 1
expect_eq "vanilla: a passthrough Write to a read-only namespace succeeds" ok "$out"
expect_eq "vanilla: and changes the block" "$A5" "$(blk 16)"
ZERO=$(head -c 512 /dev/zero | md5sum | cut -c1-32)
nvcmd "$nv" write 24 1
nvcmd "$nv" zeroes 24 1
expect_eq "vanilla: Write Zeroes to it succeeds and zeroes the block" "ok $ZERO" "$out $(blk 24)"
nvcmd "$nv" trim 24 1
expect_eq "vanilla: Dataset Management, Deallocate, to it succeeds" ok "$out"
# QEMU's controller answers Write Uncorrectable with Invalid Opcode
# (status 0x4001); with rocheck it is refused before the device sees it.
nvcmd "$nv" uncor 24 1
diag "vanilla: Write Uncorrectable: $out"
before=$(blk 2048 128)
uring_write 1M
ok_if "vanilla: an io_uring uring_cmd write (fio) to it succeeds" test $? -eq 0
ok_if "vanilla: and changes the blocks" test "$before" != "$(blk 2048 128)"

# --- rocheck, submit=deny -----------------------------------------------------
blockdev --setrw "$nv"
dd if=/dev/zero of="$nv" bs=1M count=4 oflag=direct status=none
nvcmd "$nv" write 16 1
blockdev --setro "$nv"
modprobe rocheck || bail "rocheck"
echo 1 > $T/events/rocheck/rocheck_cmd/enable || bail "no rocheck_cmd event"
echo > $T/trace
r0=$(rc_stat "$name" cmds_refused)
for node in "$nv" "$ng"; do
	before=$(blk 32)
	NVMEPASS_LBS=512 nvcmd "$node" write 32 1
	expect_eq "deny: Write through $node ends with an I/O error" errno=EIO "$out"
	expect_eq "deny: the block is unchanged after the Write through $node" "$before" "$(blk 32)"
done
for cmd in zeroes uncor trim; do
	nvcmd "$nv" $cmd 16 1
	expect_eq "deny: $cmd of a block ends with an I/O error" errno=EIO "$out"
	expect_eq "deny: the block still reads back after $cmd" "$A5" "$(blk 16)"
done
r1=$(rc_stat "$name" cmds_refused)
expect_eq "deny: the five refusals are counted (cmds_refused)" 5 $((r1 - r0))
grep rocheck_cmd $T/trace | head -n 1 | sed 's/^/# /'
devno=$(tr : , < /sys/block/$name/dev)
expect_eq "trace: one rocheck_cmd event per refused Write, with its range" 2 \
	"$(grep -cE "rocheck_cmd: $devno opcode=0x01 sectors 32-32 refused by nvmepass\[[0-9]+\]" $T/trace)"
expect_eq "trace: one rocheck_cmd event per refused command" $((r1 - r0)) "$(grep -c 'rocheck_cmd:.* refused' $T/trace)"
before=$(blk 2048 128)
uring_write 1M
st=$?
grep -m1 -i 'error' /tmp/fio.out | sed 's/^/# fio: /'
ok_if "deny: an io_uring uring_cmd write fails (fio status $st)" test $st -ne 0
expect_eq "deny: and leaves the blocks unchanged" "$before" "$(blk 2048 128)"
ok_if "deny: uring_cmd refusals are counted" test "$(rc_stat "$name" cmds_refused)" -gt "$r1"
nvcmd "$nv" read 16 1
expect_eq "deny: a passthrough Read still works" ok "$out"
nvcmd "$nv" flush 0 1
expect_eq "deny: Flush (writes no block) still works" ok "$out"

# --- submit=warn, off, dev_policy --------------------------------------------
echo warn > $P/submit
w0=$(rc_stat "$name" cmds_warned)
nvcmd "$nv" write 40 1
expect_eq "warn: the Write passes" ok "$out"
expect_eq "warn: and changes the block" "$A5" "$(blk 40)"
expect_eq "warn: counted (cmds_warned)" 1 $(( $(rc_stat "$name" cmds_warned) - w0 ))
echo off > $P/submit
nvcmd "$nv" write 48 1
expect_eq "off: the Write passes and changes the block" "ok $A5" "$out $(blk 48)"
echo deny > $P/submit
echo "$name=off" > $P/dev_policy
nvcmd "$nv" write 56 1
expect_eq "dev_policy $name=off: the Write passes and changes the block" "ok $A5" "$out $(blk 56)"
echo "" > $P/dev_policy

# --- a read-only partition of a writable namespace ----------------------------
blockdev --setrw "$nv"
nvcmd "$nv" write 64 1
expect_eq "writable namespace: the Write passes" "ok $A5" "$out $(blk 64)"
mbr_partition "$nv" 2048 || bail "MBR partition on $nv"
wait_for_dev "${nv}p1" || bail "no ${nv}p1"
blockdev --setro "${nv}p1"
before=$(blk 4096) p0=$(rc_stat "${name}p1" cmds_refused)
nvcmd "$nv" write 4096 1
expect_eq "RO ${name}p1: a Write into it through the namespace ends with an I/O error" errno=EIO "$out"
expect_eq "RO ${name}p1: its block is unchanged" "$before" "$(blk 4096)"
expect_eq "RO ${name}p1: the refusal is counted on ${name}p1" 1 $(( $(rc_stat "${name}p1" cmds_refused) - p0 ))
nvcmd "$nv" write 72 1
expect_eq "RO ${name}p1: a Write outside it passes" "ok $A5" "$out $(blk 72)"
st_done
