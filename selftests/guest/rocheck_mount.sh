#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 900
# plan: 20
#
# rocheck.ko and what the kernel writes by itself when a filesystem is
# mounted, through LVM, the stack users put between a filesystem and a
# disk.  An ext4 and an XFS filesystem, each on a logical volume, are
# left needing recovery (shut down with committed transactions in their
# journals), the volume group is deactivated and its only physical volume
# set read-only, as an examiner would before looking.  Then the volume
# group is activated and each volume mounted read-only.  On vanilla 6.12
# (the checks marked so), activation writes nothing, and each read-only
# mount replays its journal through dm onto the read-only disk, which
# changes: the filesystems see a writable volume.  With rocheck the
# replay's writes are refused (counted on the disk), the mounts fail and
# the disk is unchanged (sha256 of every sector).  On a read-only volume
# itself, ext4 and XFS refuse to replay: there the stack is the hole.
# The same with fstrim on a clean read-only mount: ext4 and XFS trim
# (they refuse only without recovery: noload, norecovery), and on vanilla
# their free space on the read-only disk is discarded.  A clean XFS also
# writes its log at a read-only mount: with rocheck it mounts only with
# norecovery.
. "$(dirname "$0")/../lib.sh"

load() { modprobe rocheck || bail "cannot load rocheck"; }
unload() { rmmod rocheck 2>/dev/null; true; }
# O_DIRECT: writes through dm bypass the disk's own page cache.
disk_sum() { dd if="$sd" bs=1M iflag=direct status=none | sha256sum | cut -c1-16; }

# No udev in the guest: LVM makes its own nodes and waits for no event.
mkdir -p /etc/lvm /run/lock/lvm
cat > /etc/lvm/lvm.conf <<'EOF'
devices {
	obtain_device_list_from_udev = 0
	use_devicesfile = 0
	filter = [ "a|^/dev/sd|", "r|.*|" ]
}
activation {
	udev_sync = 0
	udev_rules = 0
	monitoring = 0
}
EOF
export LVM_SUPPRESS_FD_WARNINGS=1
lvm_q() { lvm "$@" >/dev/null 2>&1; }

# Thin provisioning, unmapped blocks read as zeros: fstrim can change it.
scsi_debug_load dev_size_mb=400 lbpu=1 lbpws=1 lbprz=1
diag "disk under test: $sd"

# make_fs [dirty]: a fresh volume group on $sd with an ext4 and an XFS
# volume, each mounted and written (8 MiB of random data written and
# deleted, so its free space is not zeros); with "dirty", synced and shut
# down, so each journal holds transactions to replay.  Then the group
# deactivated.
make_fs() {
	blockdev --setrw "$sd"
	dd if=/dev/zero of="$sd" bs=1M count=1 oflag=direct status=none
	lvm_q pvcreate -ff -y "$sd" && lvm_q vgcreate rovg "$sd" &&
		lvm_q lvcreate -y -L 48m -n ext rovg &&
		lvm_q lvcreate -y -L 320m -n xfs rovg || bail "lvm create"
	mkfs.ext4 -q -F /dev/mapper/rovg-ext && mkfs.xfs -q -f /dev/mapper/rovg-xfs ||
		bail "mkfs"
	local fs
	for fs in ext xfs; do
		mount "/dev/mapper/rovg-$fs" /mnt || bail "mount $fs"
		dd if=/dev/urandom of=/mnt/junk bs=1M count=8 status=none
		sync
		rm /mnt/junk
		dd if=/dev/urandom of=/mnt/f bs=1M count=4 status=none
		mkdir -p /mnt/d && touch /mnt/d/{a,b,c}
		sync
		if [ "${1:-}" = dirty ]; then
			touch /mnt/d/{e,f}
			xfs_io -x -c "shutdown -f" /mnt || bail "shutdown $fs"
		fi
		umount /mnt
	done
	lvm_q vgchange -an rovg || bail "vgchange -an"
}

# trim LABEL FS OPTS: FS's volume mounted with OPTS (the group active on
# the read-only disk) and trimmed; sets mnt (ok/failed), mchg (the mount
# changed the disk: yes/no), trim (fstrim: ok, EROFS or failed) and tchg
# (fstrim changed the disk: yes/no).
trim() {
	local h0 h1 out
	trim=- tchg=no
	h0=$(disk_sum)
	if mount -o "$3" "/dev/mapper/rovg-$2" /mnt 2>/dev/null; then
		mnt=ok
	else
		mnt=failed
	fi
	h1=$(disk_sum)
	mchg=$([ "$h0" = "$h1" ] && echo no || echo yes)
	if [ $mnt = ok ]; then
		h0=$h1
		if out=$(fstrim /mnt 2>&1); then
			trim=ok
		else
			case $out in
			*"Read-only file system"*) trim=EROFS ;;
			*) trim=failed ;;
			esac
		fi
		tchg=$([ "$h0" = "$(disk_sum)" ] && echo no || echo yes)
		umount /mnt
	fi
	diag "$1: $2 mount -o $3: $mnt (changed the disk: $mchg); fstrim: $trim (changed the disk: $tchg)"
}

# examine LABEL: the examiner's steps; sets act (activation changed the
# disk: yes/no), ext, xfs (mount status: ok/failed), and chg_ext, chg_xfs
# (the mount changed the disk: yes/no).
examine() {
	local h0 h1 fs
	blockdev --setro "$sd"
	h0=$(disk_sum)
	lvm_q vgchange -ay rovg
	h1=$(disk_sum)
	act=$([ "$h0" = "$h1" ] && echo no || echo yes)
	diag "$1: volumes after activation: ro=$(cat /sys/block/dm-*/ro | tr '\n' ' ')"
	for fs in ext xfs; do
		h0=$h1
		if mount -o ro "/dev/mapper/rovg-$fs" /mnt 2>/dev/null; then
			eval "$fs=ok"
			umount /mnt
		else
			eval "$fs=failed"
		fi
		h1=$(disk_sum)
		eval "chg_$fs=$([ "$h0" = "$h1" ] && echo no || echo yes)"
	done
	lvm_q vgchange -an rovg
	diag "$1: activation changed the disk: $act; ext4 mount $ext, changed: $chg_ext; xfs mount $xfs, changed: $chg_xfs"
}

make_fs dirty
lvm_q vgchange -ay rovg
ok_if "the ext4 volume needs recovery" \
	bash -c "dumpe2fs -h /dev/mapper/rovg-ext 2>/dev/null | grep -q needs_recovery"
# The volumes themselves read-only: each filesystem sees the flag of the
# device it is on and refuses to replay.
for fs in ext xfs; do
	blockdev --setro "/dev/mapper/rovg-$fs"
	h0=$(disk_sum)
	ok_if "vanilla: $fs on a read-only volume: mount -o ro refuses to replay" \
		bash -c "! mount -o ro /dev/mapper/rovg-$fs /mnt 2>/dev/null"
	expect_eq "vanilla: $fs on a read-only volume: the disk unchanged" "$h0" "$(disk_sum)"
	umount /mnt 2>/dev/null
done
lvm_q vgchange -an rovg
examine vanilla
expect_eq "vanilla: activating the group writes nothing" no "$act"
expect_eq "vanilla: mount -o ro of ext4 replays its journal onto the read-only disk" "ok yes" "$ext $chg_ext"
expect_eq "vanilla: mount -o ro of XFS recovers its log onto the read-only disk" "ok yes" "$xfs $chg_xfs"
make_fs
blockdev --setro "$sd"
lvm_q vgchange -ay rovg
trim vanilla ext ro
expect_eq "vanilla: fstrim on a read-only ext4 mount discards free space on the read-only disk" "ok yes" "$trim $tchg"
trim vanilla xfs ro
expect_eq "vanilla: mount -o ro of a clean XFS writes (its log) to the read-only disk" "ok yes" "$mnt $mchg"
expect_eq "vanilla: fstrim on a read-only XFS mount discards free space on the read-only disk" "ok yes" "$trim $tchg"
lvm_q vgchange -an rovg

make_fs
load
blockdev --setro "$sd"
lvm_q vgchange -ay rovg
n=$(rc_stat "$name" discard)
trim rocheck ext ro
# ext4 counts a failed discard as nothing trimmed: fstrim succeeds.
expect_eq "rocheck: fstrim on a read-only ext4 mount leaves the disk unchanged (fstrim: $trim)" no "$tchg"
expect_gt "rocheck: its discards were refused and counted on $name" "$(rc_stat "$name" discard)" "$n"
# A clean XFS writes its log at mount, read-only or not: refused.
trim rocheck xfs ro
expect_eq "rocheck: mount -o ro of a clean XFS (it writes its log) fails, the disk unchanged" "failed no" "$mnt $mchg"
trim rocheck xfs ro,norecovery
expect_eq "rocheck: XFS mounts with -o ro,norecovery and refuses fstrim there itself" "ok EROFS no" "$mnt $trim $tchg"
lvm_q vgchange -an rovg
unload

make_fs dirty
load
n=$(rc_stat "$name" bios_refused)
examine rocheck
expect_eq "rocheck: activating the group writes nothing" no "$act"
expect_eq "rocheck: mount -o ro of ext4 fails, the disk unchanged" "failed no" "$ext $chg_ext"
expect_eq "rocheck: mount -o ro of XFS fails, the disk unchanged" "failed no" "$xfs $chg_xfs"
expect_gt "rocheck: the replays' writes were refused and counted on $name" "$(rc_stat "$name" bios_refused)" "$n"
ok_if "rocheck: dmesg names the disk and the mounting task" \
	bash -c "dmesg | grep -Eq 'rocheck: $name: refused WRITE of [0-9]+ bytes at sector [0-9]+ of $name to read-only device by mount\\['"
unload

blockdev --setrw "$sd"
lvm_q vgremove -ff -y rovg
rmmod scsi_debug 2>/dev/null
st_done
