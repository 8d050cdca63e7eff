#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 30
#
# blkowner.ko and direct I/O from a mapped file.  Direct I/O buffers need
# only the queue's dma_alignment (4 bytes on scsi_debug here), so a bio
# from a mapped file can change page, and page owner, mid-block.  Such a
# write belongs to its submitter: blkowner must neither split it (a split
# that is not block-aligned fails, or hits bio_split()'s BUG_ON at 0
# sectors) nor consume the owners of its pages, which the file's own
# writeback needs later.  exempt_sync=0, so O_DIRECT writes (REQ_SYNC)
# reach the owner walk.  Vanilla first: the writes succeed, and the
# file's writeback by sync is charged to nobody but root.
. "$(dirname "$0")/../lib.sh"

P=/sys/module/blkowner/parameters
S=/sys/kernel/debug/blkowner/stats
stat() { awk -v k="$1" '$1 == k { print $2 }' $S; }
charged() { v1_charged "$CG/$1" "$2"; }	# bytes written charged to group $1 on device $2
CG=/sys/fs/cgroup/blkio
mkdir -p $CG && mount -t cgroup -o blkio blkio $CG || bail "cgroup v1 blkio"
mkdir -p $CG/a $CG/b
# Dirty pages stay dirty (and tagged) until the case writes its file back
# with fsync.  The flusher wakes every dirty_writeback_centisecs and
# writes a disk back as "over its background threshold" whenever the
# disk's share of recent writeout has decayed (wb_over_bg_thresh()), so
# its periodic wakeups are put off past the test; sync(2) would also
# start an asynchronous flush of everything dirty that can run after
# sync returns, into the next case.
echo 30000 > /proc/sys/vm/dirty_expire_centisecs
echo 360000 > /proc/sys/vm/dirty_writeback_centisecs
echo $((256 << 20)) > /proc/sys/vm/dirty_background_bytes

# owned_pages: /mnt/src, 4 pages: 0 and 1 dirtied by group a, 2 and 3 by b
# while a's are dirty, so the file is mixed: a owns it, b's pages carry
# words of their own.
owned_pages() {
	rm -f /mnt/src
	head -c 16384 /dev/urandom > /tmp/src
	bash -c "echo \$\$ > $CG/a/cgroup.procs; exec dd if=/tmp/src of=/mnt/src bs=4096 count=2 conv=notrunc status=none"
	bash -c "echo \$\$ > $CG/b/cgroup.procs; exec dd if=/tmp/src of=/mnt/src bs=4096 skip=2 seek=2 count=2 conv=notrunc status=none"
}

# split_case LBS: two scsi_debug disks of LBS-byte blocks, ext4 with the
# mapped file on the first, the direct writes to the second: a charge on
# the first disk is the file's writeback alone.  dma_alignment is 3 there
# (scsi_lib: the host's 3, x86 DMA needs no cache-line alignment).
split_case() {
	local lbs=$1 g disks sd tgt name r rc off len ca cb e
	rmmod blkowner 2>/dev/null
	umount /mnt 2>/dev/null
	rmmod scsi_debug 2>/dev/null
	modprobe scsi_debug dev_size_mb=64 add_host=2 per_host_store=1 sector_size="$lbs" ||
		bail "scsi_debug sector_size=$lbs"
	sleep 0.5
	scsi_debug_disks 2
	sd=${disks[0]} tgt=${disks[1]}
	name=${sd#/dev/}
	mkfs.ext4 -q -F "$sd" >/dev/null 2>&1 && mount "$sd" /mnt || bail "mkfs/mount"
	diag "$sd, $tgt: logical block $(cat /sys/block/$name/queue/logical_block_size), dma_alignment $(cat /sys/block/$name/queue/dma_alignment 2>/dev/null || echo ?)"
	dev=$(cat /sys/block/$name/dev)
	# blk-throttle counts a group's bytes once a limit is set on the disk.
	for g in a b; do
		echo "$dev $((1 << 30))" > $CG/$g/blkio.throttle.write_bps_device
	done
	# OFF LEN: 64 bytes of a's page then b's; a block less 512 bytes of
	# a's page then b's; all four pages.
	for mod in vanilla blkowner; do
		if [ $mod = blkowner ]; then
			# swap=0: entries also counts the words of the groups'
			# anonymous memory (bash, dd), and a folio of an exited
			# dd may still sit in a per-CPU batch when the count is
			# read (the debug kernel read one word too many).
			modprobe blkowner exempt_sync=0 swap=0 || bail "blkowner exempt_sync=0 swap=0"
		fi
		for c in "$((8192 - 64)) $lbs" "$((8192 - lbs + 512)) $lbs" "0 16384"; do
			read -r off len <<< "$c"
			ca=$(charged a "$dev") cb=$(charged b "$dev")
			[ $mod = blkowner ] && e=$(stat entries)
			owned_pages
			if [ $mod = blkowner ]; then
				expect_eq "lbs $lbs, blkowner: b's 2 pages of a's file carry words before the direct write" \
					2 $(( $(stat entries) - e ))
			fi
			r=$("$ST_HELPERS/diowrite" /mnt/src "$off" "$len" "$tgt" $((1 << 20)))
			rc=$?
			ok_if "lbs $lbs, $mod: O_DIRECT write of $len bytes from a mapped file at offset $off lands intact ($r)" \
				test $rc -eq 0
			sync /mnt/src
			ca=$(( $(charged a "$dev") - ca )) cb=$(( $(charged b "$dev") - cb ))
			if [ $mod = vanilla ]; then
				expect_eq "lbs $lbs, vanilla: the file's writeback is charged to neither group" "0 0" "$ca $cb"
			else
				expect_eq "lbs $lbs, blkowner: the file's writeback is charged to its owners, a's 2 pages to a and b's to b (bytes)" \
					"8192 8192" "$ca $cb"
			fi
		done
	done
	diag "blkowner: $(grep -E 'bios_split|bios_recharged|owner_' $S | tr '\n' ' ')"
}
split_case 512
split_case 4096
st_done
