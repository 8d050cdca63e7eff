#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
# plan: 110
#
# rocheck.ko: read-only enforcement at open and at submission.  Every
# section first asserts what vanilla 6.12 does (rocheck not loaded).
. "$(dirname "$0")/../lib.sh"

P=/sys/module/rocheck/parameters
mkdir -p /run/mdadm
modprobe loop max_loop=8 || bail "loop"

can_rw() { (exec 3<>"$1") 2>/dev/null; }
can_wo() { (exec 3>"$1") 2>/dev/null; }
can_ro() { (exec 3<"$1") 2>/dev/null; }
sum() {	# sum DEV [OFFSET_MB LEN_MB]: md5 of a range, read with O_DIRECT
	dd if="$1" bs=1M skip="${2:-0}" count="${3:-1}" iflag=direct status=none | md5sum | cut -c1-32
}
fill() {	# fill DEV CHAR [OFFSET_MB LEN_MB]
	head -c $(( ${4:-1} * 1048576 )) /dev/zero | tr '\0' "$2" |
		dd of="$1" bs=1M seek="${3:-0}" iflag=fullblock oflag=direct status=none
}
load() { modprobe rocheck "$@" || bail "cannot load rocheck"; }
unload() { rmmod rocheck 2>/dev/null; true; }
dropcache() { sync; echo 3 > /proc/sys/vm/drop_caches; }

modprobe scsi_debug dev_size_mb=96 lbpu=1 lbpws=1 lbprz=1 || bail "scsi_debug"
sleep 1
sd=$(scsi_debug_disk) && wait_for_dev "$sd" || bail "no scsi_debug disk"
name=${sd#/dev/}
diag "disk under test: $sd"

# ---- a. write opens --------------------------------------------------
blockdev --setro "$sd"
ok_if "vanilla: O_RDWR open of a read-only disk succeeds" can_rw "$sd"
load
expect_eq "default policies are open=warn submit=deny" "warn deny" "$(cat $P/open) $(cat $P/submit)"
w=$(rc_stat "$name" open_warned)
ok_if "open=warn: O_RDWR open allowed" can_rw "$sd"
expect_eq "open=warn: the open is counted" "$((w + 1))" "$(rc_stat "$name" open_warned)"
ok_if "open=warn: dmesg names device, task and verdict" \
	bash -c "dmesg | grep -Eq 'rocheck: $name: write open of read-only device by .+\[[0-9]+\] allowed \(open=warn\)'"
echo off > $P/open
w=$(rc_stat "$name" open_warned)
ok_if "open=off: O_RDWR open allowed" can_rw "$sd"
expect_eq "open=off: nothing counted" "$w" "$(rc_stat "$name" open_warned)"
echo deny > $P/open
ok_if "open=deny: O_RDWR open refused" bash -c "! (exec 3<>$sd) 2>/dev/null"
ok_if "open=deny: O_WRONLY open refused" bash -c "! (exec 3>$sd) 2>/dev/null"
ok_if "open=deny: the error is EROFS" \
	bash -c "(exec 3<>$sd) 2>&1 | grep -q 'Read-only file system'"
ok_if "open=deny: O_RDONLY open allowed" can_ro "$sd"
expect_eq "open=deny: refusals counted" 3 "$(rc_stat "$name" open_refused)"
blockdev --setrw "$sd"
ok_if "open=deny: O_RDWR open of a writable disk allowed" can_rw "$sd"

# Partition-only read-only: an MBR with two 16 MiB partitions.
{ head -c 446 /dev/zero; mbr_entry 2048 32768; mbr_entry 34816 32768
  head -c 32 /dev/zero; printf '\x55\xaa'; } | dd of="$sd" bs=512 count=1 iflag=fullblock oflag=direct status=none
blockdev --rereadpt "$sd"
wait_for_dev "${sd}1" && wait_for_dev "${sd}2" || bail "no partitions"
blockdev --setro "${sd}1"
ok_if "partition RO, open=deny: O_RDWR of ${name}1 refused" bash -c "! (exec 3<>${sd}1) 2>/dev/null"
ok_if "partition RO, open=deny: O_RDWR of ${name}2 allowed" can_rw "${sd}2"
ok_if "partition RO, open=deny: O_RDWR of the whole disk allowed" can_rw "$sd"
# The disk had no partitions when rocheck was loaded (the MBR above was a
# write to it): rocheck reads the disk's partitions at each write.
fails() { ! "$@" 2>/dev/null; }
b=$(sum "$sd" 2 1)
ok_if "partitions added after load: a write through the whole disk into read-only ${name}1 fails" \
	fails fill "$sd" q 2 1
expect_eq "partitions added after load: ${name}1's sectors are unchanged" "$b" "$(sum "$sd" 2 1)"

# The read-only partition's sectors through the whole disk (${name}1 is
# MiB 1-17, ${name}2 MiB 17-33): a plain write, and a dm-linear table on
# the disk.  Vanilla checks only the device a bio is addressed to.
unload
b=$(sum "$sd" 2 1)
fill "$sd" p 2 1
ok_if "vanilla: a write through the whole disk changes read-only ${name}1's sectors" \
	test "$(sum "$sd" 2 1)" != "$b"
load open=deny
b=$(sum "$sd" 2 1) r=$(rc_stat "${name}1" bios_refused)
ok_if "submit=deny: a write through the whole disk into read-only ${name}1 fails" \
	fails fill "$sd" q 2 1
expect_eq "submit=deny: ${name}1's sectors are unchanged" "$b" "$(sum "$sd" 2 1)"
expect_gt "submit=deny: the refusal is counted on ${name}1" "$(rc_stat "${name}1" bios_refused)" "$r"
b=$(sum "$sd" 20 1)
ok_if "submit=deny: a write through the whole disk into writable ${name}2 succeeds" \
	fill "$sd" q 20 1
ok_if "submit=deny: and changes ${name}2's sectors" test "$(sum "$sd" 20 1)" != "$b"
dmsetup create rowhole --table "0 $(blockdev --getsz "$sd") linear $sd 0" || bail "dmsetup"
b=$(sum "$sd" 2 1)
ok_if "submit=deny: a write through dm-linear on the whole disk into ${name}1 fails" \
	fails fill /dev/mapper/rowhole q 2 1
expect_eq "submit=deny: ${name}1's sectors are unchanged after the dm write" "$b" "$(sum "$sd" 2 1)"
dmsetup remove rowhole
ok_if "dmesg names the partition and the device written" \
	bash -c "dmesg | grep -Eq 'rocheck: ${name}1: refused WRITE of [0-9]+ bytes at sector [0-9]+ of (${name}|dm-[0-9]+) to read-only device'"
blockdev --setrw "${sd}1"
echo warn > $P/open
unload

# ---- b. writeback after BLKROSET ---------------------------------------
# rowrite keeps its fd open, dirties 64 KiB of page cache, runs
# "blockdev --setro", then fsyncs.
writeback_case() {	# writeback_case LABEL EXPECT(changed|unchanged)
	blockdev --setrw "$sd"
	fill "$sd" a 0 1
	dropcache
	local before after out
	before=$(sum "$sd")
	out=$("$ST_HELPERS/rowrite" "$sd" 0 65536 0x42 "blockdev --setro $sd")
	after=$(sum "$sd")
	blockdev --setrw "$sd"
	if [ "$2" = changed ]; then
		ok_if "$1: data dirtied before BLKROSET reaches the disk" test "$before" != "$after"
		expect_eq "$1: fsync reports success" "fsync: ok" "$out"
	else
		expect_eq "$1: disk bytes unchanged" "$before" "$after"
		ok_if "$1: fsync reports an error ($out)" test "$out" != "fsync: ok"
	fi
}
writeback_case "vanilla" changed
load
T=/sys/kernel/tracing
echo 1 > $T/events/rocheck/enable || bail "no rocheck trace events"
echo > $T/trace
r=$(rc_stat "$name" bios_refused)
writeback_case "submit=deny" unchanged
expect_gt "submit=deny: refused writeback bios counted" "$(rc_stat "$name" bios_refused)" "$r"
ok_if "submit=deny: dmesg names device, op, sector, length, task" \
	bash -c "dmesg | grep -Eq 'rocheck: $name: refused WRITE of [0-9]+ bytes at sector [0-9]+ of $name to read-only device by .+\[[0-9]+\]'"
devno=$(sed 's/:/,/' /sys/block/$name/dev)
grep rocheck_bio $T/trace | head -n 2 | sed 's/^/# /'
expect_eq "trace: one rocheck_bio event per refused bio" \
	"$(( $(rc_stat "$name" bios_refused) - r ))" \
	"$(grep -cE "rocheck_bio: $devno WRITE [0-9]+ \+ [0-9]+ bytes refused by .+\[[0-9]+\]" $T/trace)"
blockdev --setro "$sd"
echo deny > $P/open
echo > $T/trace
can_rw "$sd"
echo warn > $P/open
blockdev --setrw "$sd"
grep rocheck_open $T/trace | sed 's/^/# /'
expect_eq "trace: a refused write open is a rocheck_open event" 1 \
	"$(grep -cE "rocheck_open: $devno mode=rw refused by .+\[[0-9]+\]" $T/trace)"
echo 0 > $T/events/rocheck/enable
echo warn > $P/submit
writeback_case "submit=warn" changed
echo off > $P/submit
writeback_case "submit=off" changed
echo deny > $P/submit
unload

# ---- c. stacks ---------------------------------------------------------
sectors=$(blockdev --getsz "$sd")
dm_case() {	# dm_case LABEL EXPECT
	blockdev --setrw "$sd"
	fill "$sd" a 8 1
	dmsetup create rolin --table "0 $sectors linear $sd 0" || bail "dmsetup"
	blockdev --setro "$sd"
	local before after st=0
	before=$(sum "$sd" 8 1)
	fill /dev/mapper/rolin C 8 1 2>/dev/null || st=$?
	after=$(sum "$sd" 8 1)
	dmsetup remove rolin
	blockdev --setrw "$sd"
	if [ "$2" = changed ]; then
		ok_if "$1: dm-linear made writable writes to the read-only disk" test "$before" != "$after"
	else
		expect_eq "$1: dm-linear write leaves the read-only disk unchanged" "$before" "$after"
		ok_if "$1: the write through dm-linear fails" test "$st" -ne 0
	fi
}
dm_case "vanilla" changed
load
dm_case "rocheck" unchanged
unload

md_case() {	# md_case LABEL EXPECT
	local la lb before after
	truncate -s 64M /tmp/m0 /tmp/m1
	la=$(losetup -f --show /tmp/m0) && lb=$(losetup -f --show /tmp/m1) || bail "losetup"
	mdadm --create /dev/md/rot --level=1 --raid-devices=2 --metadata=1.2 \
		--assume-clean --run --quiet "$la" "$lb" >/dev/null 2>&1 || bail "mdadm --create"
	sync
	blockdev --setro "$la"
	before=$(md5sum < /tmp/m0)
	head -c 1048576 /dev/zero | tr '\0' M | dd of=/dev/md/rot bs=1M iflag=fullblock oflag=direct status=none 2>/dev/null
	sync
	after=$(md5sum < /tmp/m0)
	mdadm --stop /dev/md/rot >/dev/null 2>&1
	blockdev --setrw "$la"
	losetup -d "$la" "$lb"
	rm -f /tmp/m0 /tmp/m1
	if [ "$2" = changed ]; then
		ok_if "$1: md raid1 writes to its read-only member" test "$before" != "$after"
	else
		expect_eq "$1: md raid1 leaves its read-only member unchanged" "$before" "$after"
	fi
}
md_case "vanilla" changed
load
md_case "rocheck" unchanged
unload

loop_case() {	# loop_case LABEL
	local l before after
	blockdev --setrw "$sd"
	fill "$sd" a 16 1
	l=$(losetup -f --show "$sd") || bail "losetup"
	blockdev --setro "$sd"
	before=$(sum "$sd" 16 1)
	fill "$l" L 16 1 2>/dev/null
	sync
	after=$(sum "$sd" 16 1)
	losetup -d "$l"
	blockdev --setrw "$sd"
	expect_eq "$1: loop opened read-write before the flip leaves the disk unchanged" "$before" "$after"
}
# A compatibility check, not rocheck's doing: vanilla refuses here too, as
# loop writes through the bdev file, whose write_iter returns EPERM for a
# read-only device before any bio exists.  With rocheck loaded the same
# must hold (and nothing reaches its submit check).
loop_case "vanilla"
load
r=$(rc_stat "$name" bios_refused)
loop_case "rocheck"
expect_eq "rocheck: loop's refused write never reached the submit check" "$r" "$(rc_stat "$name" bios_refused)"
unload

# ---- d. compatibility matrix --------------------------------------------
blockdev --setrw "$sd"
mkfs.ext4 -q -F "${sd}2" >/dev/null 2>&1 || bail "mkfs"
truncate -s 64M /tmp/m0 /tmp/m1
la=$(losetup -f --show /tmp/m0); lb=$(losetup -f --show /tmp/m1)
mdadm --create /dev/md/compat --level=1 --raid-devices=2 --metadata=1.2 \
	--assume-clean --run --quiet "$la" "$lb" >/dev/null 2>&1 || bail "mdadm"
mdadm --stop /dev/md/compat >/dev/null 2>&1
blockdev --setro "$sd"; blockdev --setro "$la"; blockdev --setro "$lb"
matrix_row() {	# matrix_row SETTING LABEL EXPECT(works|refused) CMD...
	local setting=$1 label=$2 want=$3 got=refused
	shift 3
	"$@" >/dev/null 2>&1 && got=works
	echo "# matrix $setting | $label | $got"
	expect_eq "matrix [$setting]: $label $want" "$want" "$got"
}
try_losetup_r() { local l; l=$(losetup -r -f --show "$sd") && losetup -d "$l"; }
try_losetup() { local l; l=$(losetup -f --show "$sd") && losetup -d "$l"; }
try_dm_ro() { dmsetup create --readonly rocompat --table "0 $sectors linear $sd 0" && dmsetup remove rocompat; }
try_dm_rw() { dmsetup create rocompat --table "0 $sectors linear $sd 0" && dmsetup remove rocompat; }
try_md_ro() { mdadm --assemble --readonly /dev/md/compat "$la" "$lb" && mdadm --stop /dev/md/compat; }
try_mount_ro() { mount -o ro,noload "${sd}2" /mnt && umount /mnt; }
matrix() {	# matrix SETTING MDADM DM_RW
	matrix_row "$1" "losetup -r" works try_losetup_r
	matrix_row "$1" "losetup (retries read-only on EROFS)" works try_losetup
	matrix_row "$1" "dmsetup create --readonly" works try_dm_ro
	matrix_row "$1" "dmsetup create (read-write table)" "$3" try_dm_rw
	matrix_row "$1" "mdadm --assemble --readonly" "$2" try_md_ro
	matrix_row "$1" "mount -o ro,noload (ext4)" works try_mount_ro
	matrix_row "$1" "blkid" works blkid "${sd}2"
	matrix_row "$1" "e2fsck -n" works e2fsck -n "${sd}2"
}
matrix vanilla works works
load
matrix defaults works works
echo deny > $P/open
# mdadm itself (user space) re-opens members O_RDWR|O_EXCL to re-read
# their metadata and gives up on EROFS: the 2011 breakage, still there.
matrix open=deny refused works
echo "kernel,comm:mdadm" > $P/open_exempt
matrix_row "open=deny,open_exempt=kernel,comm:mdadm" "mdadm --assemble --readonly" works try_md_ro
# Without the kernel-holder exemption dm cannot claim the disk read-write.
echo none > $P/open_exempt
matrix_row "open=deny,open_exempt=none" "dmsetup create (read-write table)" refused try_dm_rw
matrix_row "open=deny,open_exempt=none" "mdadm --assemble --readonly" refused try_md_ro
echo kernel > $P/open_exempt
echo warn > $P/open
unload
blockdev --setrw "$la"; blockdev --setrw "$lb"
losetup -d "$la" "$lb"; rm -f /tmp/m0 /tmp/m1

# ---- e. discard and write-zeroes ---------------------------------------
blockdev --setrw "$sd"
zap_case() {	# zap_case LABEL EXPECT FLAGS
	fill "$sd" a 24 1
	dmsetup create rozap --table "0 $sectors linear $sd 0" || bail "dmsetup"
	blockdev --setro "$sd"
	local before after
	before=$(sum "$sd" 24 1)
	blkdiscard $3 -o $((24 << 20)) -l $((1 << 20)) /dev/mapper/rozap 2>/dev/null
	after=$(sum "$sd" 24 1)
	dmsetup remove rozap
	blockdev --setrw "$sd"
	if [ "$2" = changed ]; then
		ok_if "$1: blkdiscard $3 through dm-linear changes the read-only disk" test "$before" != "$after"
	else
		expect_eq "$1: blkdiscard $3 through dm-linear leaves the read-only disk unchanged" "$before" "$after"
	fi
}
blockdev --setro "$sd"
out=$(blkdiscard -o 0 -l 1048576 "$sd" 2>&1); st=$?
ok_if "vanilla: blkdiscard on the read-only node itself fails with EPERM (ioctl check; exit $st: $out)" \
	test "$st" -eq 1 -a -n "$(grep 'Operation not permitted' <<< "$out")"
blockdev --setrw "$sd"
zap_case vanilla changed ""
zap_case vanilla changed "-z"
load
d=$(rc_stat "$name" discard); z=$(rc_stat "$name" write_zeroes); wr=$(rc_stat "$name" write)
zap_case rocheck unchanged ""
zap_case rocheck unchanged "-z"
expect_gt "discard refusals counted" "$(rc_stat "$name" discard)" "$d"
expect_gt "write-zeroes refusals counted (as write_zeroes or zero-page writes)" \
	"$(( $(rc_stat "$name" write_zeroes) + $(rc_stat "$name" write) ))" "$((z + wr))"
# Empty flushes pass.
blockdev --setro "$sd"
ok_if "an empty flush to a read-only disk passes" blockdev --flushbufs "$sd"
blockdev --setrw "$sd"
unload

# ---- f. switching and rmmod/insmod under I/O to other disks -------------
modprobe null_blk nr_devices=1 gb=1 || bail "null_blk"
wait_for_dev /dev/nullb0 || bail "no nullb0"
fio --name=w --filename=/dev/nullb0 --rw=randwrite --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=16 --time_based --runtime=10 \
	--name=b --filename=/dev/nullb0 --rw=write --bs=64k --offset=512m \
	--size=128m --time_based --runtime=10 >/tmp/fio.out 2>&1 &
fio_pid=$!
cycles=0 bad=0
while kill -0 $fio_pid 2>/dev/null; do
	modprobe rocheck || bad=$((bad + 1))
	for v in off warn deny; do
		echo $v > $P/open && echo $v > $P/submit || bad=$((bad + 1))
	done
	echo "nullb0=off,$name=deny" > $P/dev_policy || bad=$((bad + 1))
	rmmod rocheck || bad=$((bad + 1))
	cycles=$((cycles + 1))
done
wait $fio_pid
expect_eq "fio to null_blk has no error over $cycles load/switch/unload cycles" 0 "$?"
expect_eq "every load, switch and unload succeeded" 0 "$bad"
blockdev --setro "$sd"
ok_if "after rmmod: vanilla behaviour (O_RDWR open of RO disk succeeds)" can_rw "$sd"
blockdev --setrw "$sd"

# ---- g. bad parameter values ------------------------------------------
load
try_bad() {	# try_bad PARAM VALUE
	local old
	old=$(cat "$P/$1")
	if printf '%s' "$2" > "$P/$1" 2>/dev/null; then
		fail "$1='$(printf %q "$2")' is refused"
	else
		pass "$1='$(printf %q "$2" | head -c 40)' is refused"
	fi
	expect_eq "$1 keeps its old value" "$old" "$(cat "$P/$1")"
}
try_bad open maybe
try_bad open $'\n'
try_bad submit "deny deny"
try_bad submit "$(head -c 5000 /dev/zero | tr '\0' x)"
try_bad open_exempt "kernel,bogus"
try_bad open_exempt "comm:$(head -c 40 /dev/zero | tr '\0' y)"
try_bad dev_policy "sdb=sometimes"
try_bad dev_policy "4096:0=deny"
try_bad dev_policy "=deny"
ok_if "dmesg names the accepted values" \
	bash -c "dmesg | grep -q 'rocheck: open: invalid value, accepted: off, warn, deny'"
# Per-device override: this disk off while the global policy is deny.
echo "$name=off" > $P/dev_policy
expect_eq "dev_policy reads back" "$name=off" "$(cat $P/dev_policy)"
dm_case "dev_policy $name=off" changed
echo "1:1=deny,$(cat /sys/block/$name/dev)=off" > $P/dev_policy
dm_case "dev_policy MAJ:MIN=off" changed
echo "" > $P/dev_policy
dm_case "dev_policy cleared" unchanged
unload
modinfo rocheck | grep '^parm:' | sed 's/^/# /'
expect_eq "modinfo describes every parameter" 6 "$(modinfo -F parm rocheck | grep -c .)"
st_done
