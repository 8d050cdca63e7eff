#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 30
# numa: 2
#
# Platform: each hook of hooks.patch fires where it should, stops firing
# when its module detaches, and survives load/unload under I/O.
. "$(dirname "$0")/../lib.sh"

C=/sys/kernel/debug/blkhooks_test/counters
count() { awk -v k="$1" '$1 == k { print $2 }' $C; }

modprobe null_blk nr_devices=1 gb=1 || bail "null_blk"
wait_for_dev /dev/nullb0 || bail "no /dev/nullb0"

# Nothing loaded: the hooks are patched-out jumps; I/O works as in vanilla.
modprobe loop || bail "loop"
truncate -s 1M /tmp/rt.img
rt=$(losetup --find --show /tmp/rt.img) || bail "losetup"
head -c 65536 /dev/urandom > /tmp/rt
dd if=/tmp/rt of="$rt" bs=4k count=16 oflag=direct status=none
ok_if "without modules: 64 KiB written to $rt read back the same (O_DIRECT)" \
	cmp -s -n 65536 /tmp/rt <(dd if="$rt" bs=64k count=1 iflag=direct status=none)
losetup -d "$rt"

modprobe blkhooks_test || bail "cannot load blkhooks_test"
ok_if "blkhooks_test loads and exposes counters" test -r $C

# open: a read open and a write open of a block device.
o=$(count open); ow=$(count open_write)
dd if=/dev/nullb0 of=/dev/null bs=4k count=1 status=none
expect_gt "open hook fires on a read-only open" "$(count open)" "$o"
expect_eq "open hook sees no write mode on a read-only open" "$ow" "$(count open_write)"
dd if=/dev/zero of=/dev/nullb0 bs=4k count=1 oflag=direct status=none
expect_gt "open hook sees the write mode of a write open" "$(count open_write)" "$ow"

# submit: direct writes reach submit_bio_noacct().
s=$(count submit_write)
dd if=/dev/zero of=/dev/nullb0 bs=4k count=8 oflag=direct status=none
expect_gt "submit hook fires for 8 direct writes (>= 8)" "$(count submit_write)" "$((s + 7))"

# integrity_prep: only for a disk with an integrity profile.
p=$(count integrity_prep)
dd if=/dev/zero of=/dev/nullb0 bs=4k count=8 oflag=direct status=none
expect_eq "integrity_prep hook skips a disk without integrity" "$p" "$(count integrity_prep)"
modprobe scsi_debug dif=1 dix=1 guard=0 dev_size_mb=16 || bail "scsi_debug"
sleep 1
sd=$(scsi_debug_disk) && wait_for_dev "$sd" || bail "no scsi_debug disk"
ok_if "scsi_debug disk $sd has an integrity profile" \
	test "$(cat /sys/block/${sd#/dev/}/integrity/format)" != none
p=$(count integrity_prep)
dd if=/dev/urandom of="$sd" bs=4k count=4 oflag=direct status=none
expect_gt "integrity_prep hook fires on a write to the DIX disk" "$(count integrity_prep)" "$p"

# folio_dirtied: a buffered write dirties page-cache folios of the bdev;
# dirty_throttle: the writer reaches its dirty ratelimit, where the kernel
# would run balance_dirty_pages(): every 32 or more pages, not every page.
f=$(count folio_dirtied); t=$(count dirty_throttle)
dd if=/dev/zero of=/dev/nullb0 bs=4k count=1024 status=none conv=notrunc
expect_gt "folio_dirtied hook fires on buffered writes (>= 1024 folios)" \
	"$(count folio_dirtied)" "$((f + 1023))"
diag "dirty_throttle: $(( $(count dirty_throttle) - t )) calls for 1024 pages dirtied"
expect_gt "dirty_throttle hook fires for the buffered writer" \
	"$(count dirty_throttle)" "$t"
expect_gt "dirty_throttle hook fires at ratelimit points only (< 256 for 1024 pages)" \
	256 "$(( $(count dirty_throttle) - t ))"

# passthrough: an INQUIRY through SG_IO is executed with blk_execute_rq().
p=$(count passthrough)
sg_inq "$sd" >/dev/null 2>&1 || fail "sg_inq $sd"
expect_gt "passthrough hook fires for an SG_IO INQUIRY" "$(count passthrough)" "$p"

# set_ro: each change of a read-only flag, announced before it is made,
# and only a change; a disk its driver made read-only before adding it
# (scsi_debug's write protect, read at probe) again once it is added.
r=$(count set_ro); on=$(count set_ro_on)
blockdev --setro "$sd"
expect_eq "set_ro hook: BLKROSET announced once, as turning read-only" \
	"$((r + 1)) $((on + 1))" "$(count set_ro) $(count set_ro_on)"
blockdev --setro "$sd"
expect_eq "set_ro hook: BLKROSET to the state it has announces nothing" "$((r + 1))" "$(count set_ro)"
blockdev --setrw "$sd"
expect_eq "set_ro hook: BLKROSET back to writable announced" "$((r + 2))" "$(count set_ro)"
ad=$(count set_ro_added); on=$(count set_ro_on)
nsd=$(ls -d /sys/block/sd* | wc -l)
echo 1 > /sys/module/scsi_debug/parameters/wp
echo 1 > /sys/bus/pseudo/drivers/scsi_debug/add_host
# The host is scanned asynchronously: wait for its disk (a second under
# load was not enough).
for ((i = 0; i < 300; i++)); do
	[ "$(ls -d /sys/block/sd* | wc -l)" -gt "$nsd" ] && break
	sleep 0.1
done
# Announced just after the disk joins sysfs: give it up to 5 s.
for ((i = 0; i < 50; i++)); do
	[ "$(count set_ro_added)" -gt "$ad" ] && break
	sleep 0.1
done
echo 0 > /sys/module/scsi_debug/parameters/wp
# sd reads the write protect bit at each revalidation, clearing the flag
# first: turning read-only is announced once or more.
expect_gt "set_ro hook: a disk read-only at probe: set_disk_ro() announced" "$(count set_ro_on)" "$on"
expect_eq "set_ro hook: a disk read-only at probe: announced again once added, once" \
	"$((ad + 1))" "$(count set_ro_added)"
echo -1 > /sys/bus/pseudo/drivers/scsi_debug/add_host

# folio_migrate: 16 dirty page-cache pages moved to the other node;
# folio_split: an XFS file cached in large folios split to pages.
modprobe -r scsi_debug
modprobe scsi_debug dif=1 dix=1 guard=0 dev_size_mb=320 || bail "scsi_debug"
sleep 1
sd=$(scsi_debug_disk) && wait_for_dev "$sd" || bail "no scsi_debug disk"
mkfs.xfs -q -f "$sd" && mount "$sd" /mnt || bail "mkfs.xfs/mount $sd"
taskset -c 0 dd if=/dev/urandom of=/mnt/m bs=4k count=16 status=none
m=$(count folio_migrate)
out=$("$ST_HELPERS/movepages" /mnt/m 1)
diag "movepages: $out"
expect_gt "folio_migrate hook fires for each of 16 moved folios (>= 16)" \
	"$(count folio_migrate)" $((m + 15))
dd if=/dev/urandom of=/mnt/s bs=1M count=2 status=none
sp=$(count folio_split)
echo "/mnt/s,0x0,0x200" > /sys/kernel/debug/split_huge_pages
expect_gt "folio_split hook fires when an XFS file's large folios split" \
	"$(count folio_split)" "$sp"
umount /mnt

# anon_folio_new, anon_folio_free: a process's anonymous memory (4 MiB
# touched, its stack, its libc data) comes and goes with it.
an=$(count anon_folio_new); af=$(count anon_folio_free)
"$ST_HELPERS/anontouch" 4 0 > /dev/null
expect_gt "anon_folio_new hook fires for a process's fresh anonymous memory" \
	"$(count anon_folio_new)" "$an"
expect_gt "anon_folio_free hook fires when the process exits" \
	"$(count anon_folio_free)" "$af"

# Detach: counters must stop although the module stays loaded.
echo 0 > /sys/module/blkhooks_test/parameters/attached
snap=$(cat $C)
dd if=/dev/nullb0 of=/dev/null bs=4k count=1 status=none
dd if=/dev/zero of=/dev/nullb0 bs=4k count=16 status=none
dd if=/dev/urandom of="$sd" bs=4k count=4 oflag=direct status=none
sync
expect_eq "after detach no hook fires" "$snap" "$(cat $C)"
echo 1 > /sys/module/blkhooks_test/parameters/attached
o=$(count open)
dd if=/dev/nullb0 of=/dev/null bs=4k count=1 status=none
expect_gt "after re-attach the hooks fire again" "$(count open)" "$o"
ok_if "a bad 'attached' value is refused" \
	bash -c '! echo maybe > /sys/module/blkhooks_test/parameters/attached' 2>/dev/null
rmmod blkhooks_test
ok_if "rmmod removes the counters" test ! -e $C

# Load/unload while fio writes (direct and buffered) to null_blk and DIX.
fio --name=d --filename=/dev/nullb0 --rw=randwrite --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=16 --time_based --runtime=12 \
	--name=b --filename=/dev/nullb0 --rw=write --bs=64k --offset=512m \
	--size=256m --time_based --runtime=12 \
	--name=i --filename="$sd" --rw=randwrite --bs=16k --direct=1 \
	--ioengine=libaio --iodepth=4 --time_based --runtime=12 \
	--output=/tmp/fio.out >/dev/null 2>&1 &
fio_pid=$!
cycles=0 bad=0
while kill -0 $fio_pid 2>/dev/null; do
	modprobe blkhooks_test || bad=$((bad + 1))
	sleep 0.2
	rmmod blkhooks_test || bad=$((bad + 1))
	cycles=$((cycles + 1))
done
wait $fio_pid
expect_eq "fio survives $cycles load/unload cycles with no error" 0 "$?"
expect_eq "every load and unload succeeded" 0 "$bad"
ok_if "blkhooks_test is not loaded after the last unload" \
	bash -c '! grep -q "^blkhooks_test " /proc/modules'

# With 5-level paging, KASAN misreads an interrupt during identify_cpu() as
# a wild-memory-access (see qemu/vm): the debug guest must boot without it.
if dmesg | grep -q "KernelAddressSanitizer initialized"; then
	ok_if "KASAN kernel runs with 4-level paging (no la57)" \
		bash -c '! grep -qw la57 /proc/cpuinfo'
else
	skip "KASAN kernel runs with 4-level paging (no la57)" "not a KASAN kernel"
fi
st_done
