#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 12
# numa: 2
#
# blkowner.ko: a folio's owner follows the folio.  A file one group dirties
# alone has its owner per file; the folios of a file dirtied by two groups
# at once carry words of their own, which must follow them.  So each file
# here is mixed first: the root group dirties the page after foo's range
# (mix), which stays dirty while foo writes the range.
#  - Migration: dirty page cache moved to the other NUMA node (move_pages)
#    lives at new pfns; its writeback must still be charged to the group
#    that dirtied it.  Control first: the same write without the move.
#  - Split: XFS caches a large write in large folios, each with one owner
#    word; split into single pages (debugfs split_huge_pages, as truncation
#    or reclaim would), every page needs the owner for its writeback.
#  - Re-dirty: filesystems clear the dirty bit before building the bio, so
#    a folio written again before the bio is submitted is dirty, with its
#    owner, when blkowner takes the owner at submission.  A group rewrites
#    1 MiB in place while the flusher writes it back every 10 ms; no
#    writeback of that file may go to the root group.
# ext4 without a journal, mounted lazytime: the only writes on the disk are
# the file's data (and metadata of the mount itself, before the samples).
# exempt_sync=0, so sync's writeback is re-charged too.
. "$(dirname "$0")/../lib.sh"

MiB=1048576
P=/sys/module/blkowner/parameters
S=/sys/kernel/debug/blkowner/stats
CG=/sys/fs/cgroup/blkio
stat() { awk -v k="$1" '$1 == k { print $2 }' $S; }
charged() { v1_charged "$CG/$1"; }	# bytes written charged to group path $1 (empty: root)
in_foo() { bash -c "echo \$\$ > $CG/foo/cgroup.procs && exec $*"; }
mix() {	# mix FILE MIB: the root group dirties the page at MIB MiB into FILE
	dd if=/dev/zero of="$1" bs=4096 count=1 seek=$(($2 * 256)) status=none
}

[ "$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)" -eq 2 ] ||
	bail "the guest needs two NUMA nodes (# numa: 2)"
scsi_debug_load dev_size_mb=512
mkfs.ext4 -q -F -O ^has_journal -E lazy_itable_init=0 "$sd" >/dev/null 2>&1 &&
	mount -o lazytime "$sd" /mnt || bail "mkfs/mount $sd"
mkdir -p $CG && mount -t cgroup -o blkio blkio $CG || bail "cgroup v1 blkio"
mkdir -p $CG/foo
# A limit far above the disk's speed: charges are counted, nothing waits.
echo "$dev $((1024 * MiB))" > $CG/foo/blkio.throttle.write_bps_device
modprobe blkowner || bail "blkowner"
expect_eq "owners are kept in the ${BO_STORE:=pfn_table} store" "$BO_STORE" "$(stat store)"
echo 0 > $P/exempt_sync

# --- Migration --------------------------------------------------------------
echo 30000 > /proc/sys/vm/dirty_expire_centisecs
echo $((256 * MiB)) > /proc/sys/vm/dirty_background_bytes
# write_case FILE MOVE: 8 MiB into FILE from foo on node 0's CPU, moved to
# node 1 if MOVE, then sync.  Sets got (bytes charged to foo by the sync).
write_case() {
	local c0 out
	c0=$(charged foo)
	mix "$1" 8
	in_foo taskset -c 0 dd if=/dev/urandom of="$1" bs=1M count=8 conv=notrunc status=none
	if [ "$2" = 1 ]; then
		out=$("$ST_HELPERS/movepages" "$1" 1)
		ok_if "the 8 MiB of dirty page cache and root's page moved from node 0 to node 1 ($out)" \
			test "$out" = "pages=2049 moved=2049 before=0"
	fi
	sync
	got=$(( $(charged foo) - c0 ))
}
write_case /mnt/still 0
diag "not moved: foo charged $((got / 1024)) KiB of 8192"
ok_if "control: writeback of 8 MiB not moved is charged to foo (8192-8256 KiB)" \
	test "$got" -ge $((8 * MiB)) -a "$got" -le $((8 * MiB + 65536))
m0=$(stat owners_migrated)
write_case /mnt/moved 1
m1=$(stat owners_migrated)
diag "moved: foo charged $((got / 1024)) KiB of 8192, owners_migrated +$((m1 - m0))"
ok_if "moved: writeback of 8 MiB moved to node 1 is charged to foo (8192-8256 KiB)" \
	test "$got" -ge $((8 * MiB)) -a "$got" -le $((8 * MiB + 65536))
ok_if "owners_migrated counts the 2048 moved folios ($((m1 - m0)))" \
	test $((m1 - m0)) -eq 2048
expect_eq "no owner left behind after sync (entries)" 0 "$(stat entries)"

# --- Split ------------------------------------------------------------------
umount /mnt
mkfs.xfs -q -f "$sd" && mount "$sd" /mnt || bail "mkfs.xfs/mount $sd"
s0=$(stat owners_split) c0=$(charged foo)
mix /mnt/big 8
in_foo dd if=/dev/urandom of=/mnt/big bs=1M count=8 conv=notrunc status=none
echo "/mnt/big,0x0,0x800" > /sys/kernel/debug/split_huge_pages ||
	bail "split_huge_pages"
sync
s1=$(stat owners_split) got=$(( $(charged foo) - c0 ))
diag "split: foo charged $((got / 1024)) KiB of 8192, owners_split +$((s1 - s0))"
expect_gt "the large folios of the 8 MiB split, passing their owner (owners_split)" \
	$((s1 - s0)) 0
ok_if "split: writeback of 8 MiB of split folios is charged to foo (8192-8256 KiB)" \
	test "$got" -ge $((8 * MiB)) -a "$got" -le $((8 * MiB + 65536))
expect_eq "no owner left behind after sync (entries)" 0 "$(stat entries)"
umount /mnt
mkfs.ext4 -q -F -O ^has_journal -E lazy_itable_init=0 "$sd" >/dev/null 2>&1 &&
	mount -o lazytime "$sd" /mnt || bail "mkfs/mount $sd"

# --- Re-dirty ---------------------------------------------------------------
# The data written is summed from block_bio_queue (plain writes: the inode
# table block the flusher writes each pass is REQ_META), and must equal
# what foo was charged: a folio that lost its owner goes out as root's.
T=/sys/kernel/tracing
mix /mnt/re 1
in_foo dd if=/dev/zero of=/mnt/re bs=1M count=1 conv=notrunc status=none
sync
echo 1 > /proc/sys/vm/dirty_expire_centisecs
echo 1 > /proc/sys/vm/dirty_writeback_centisecs
echo $MiB > /proc/sys/vm/dirty_background_bytes
echo 'rwbs == "W"' > $T/events/block/block_bio_queue/filter
echo > $T/trace
echo 1 > $T/events/block/block_bio_queue/enable
k0=$(stat owners_kept) f0=$(charged foo)
# invalidate=0: fio's default drops the page cache per loop, writing it
# back from fio itself, where nothing re-dirties it.
in_foo fio --name=re --filename=/mnt/re --rw=write --bs=4k --size=1M \
	--time_based --runtime=10 --ioengine=psync --invalidate=0 \
	--output=/dev/null --eta=never
# The flusher writes back what is left within a few of its 10 ms periods.
for _ in $(seq 50); do
	grep -q '^Dirty: *0 kB' /proc/meminfo && break
	sleep 0.1
done
sleep 0.5
echo 0 > $T/events/block/block_bio_queue/enable
k1=$(stat owners_kept) f1=$(charged foo)
data=$(awk -v d="$(printf '%d,%d' "${dev%:*}" "${dev#*:}")" \
	'$0 ~ "block_bio_queue: " d " W " { for (i = 1; i < NF; i++) if ($i == "+") s += $(i + 1) }
	 END { print s * 512 }' $T/trace)
diag "rewrite: $((data / 1024)) KiB of data written back, foo charged $(( (f1 - f0) / 1024 )) KiB, owners_kept +$((k1 - k0))"
expect_gt "the rewrite was written back while it ran (> 8 MiB of data)" \
	"$data" $((8 * MiB))
expect_gt "folios re-dirtied before submission kept their owner (owners_kept)" \
	$((k1 - k0)) 0
expect_eq "every byte of foo's file written back was charged to foo" \
	"$data" $((f1 - f0))
umount /mnt
st_done
