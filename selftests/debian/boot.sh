#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Second boot of the Debian image: the packaged kernel with the initramfs
# its package made.  The policy chosen in install.sh must be in force
# without anyone loading anything.  /dev/vdb is a scratch disk.
cd /mnt/step || exit 1
ver=$(cat VERSION)
krel=$(uname -r)
. /mnt/step/check.sh

check "booted $krel through its initramfs" \
	sh -c "dmesg | grep -q 'Freeing initrd memory'"
check "rocheck loaded at boot, version $ver" \
	sh -c "[ \"\$(cat /sys/module/rocheck/version)\" = '$ver' ]"
check "rocheck open=deny, from /etc/modprobe.d" \
	sh -c "[ \"\$(cat /sys/module/rocheck/parameters/open)\" = deny ]"
# new_devices=ro from the initramfs: the NVMe disk (a module-based driver,
# probed by udev after rocheck loaded) is read-only from its appearance.
check "rocheck loaded from the initramfs, before the NVMe disk appeared" \
	sh -c "dmesg | awk '/rocheck: loaded/ && !r { r = NR } /nvme0n1/ && !n { n = NR }
	                    END { exit !(r && n && r < n) }'"
check "nvme0n1 locked from its appearance: no one set it read-only" \
	sh -c "grep -q '^nvme0n1 .* locked\$' /sys/kernel/debug/rocheck/locks &&
	       [ \"\$(blockdev --getro /dev/nvme0n1)\" = 1 ]"
check "a write to nvme0n1 is refused" \
	sh -c "! dd if=/dev/zero of=/dev/nvme0n1 bs=4k count=1 oflag=direct"
# The evidence volume (install.sh): LVM activates it during boot and
# systemd mounts it read-only from fstab, which would replay its journal
# through dm onto locked nvme0n1.  The volume is a new disk too, locked
# from its appearance, so ext4 sees it read-only and does not replay.
check "at boot, LVM's volume on nvme0n1 (dm) was locked as a new disk" \
	sh -c "dm=\$(basename \$(readlink -f /dev/evidence/data)) &&
	       grep -q \"^\$dm .* locked\$\" /sys/kernel/debug/rocheck/locks &&
	       [ \"\$(blockdev --getro /dev/evidence/data)\" = 1 ]"
# The mount may still be under way: wait for its verdict.
no_replay() {
	for i in $(seq 90); do
		dmesg | grep -q 'EXT4-fs (dm-[0-9]*): write access unavailable' && return 0
		sleep 1
	done
	return 1
}
check "the fstab mount found it read-only and did not replay the journal" no_replay
dmesg | grep -E 'rocheck: (nvme0n1|dm-[0-9]+): new|EXT4-fs \(dm-' | head -4 | sed 's/^/# /'
check "the evidence volume is not mounted" \
	sh -c "! grep -q ' /evidence ' /proc/mounts"
check "nvme0n1 unchanged since the first boot (sha256 of every sector)" \
	sh -c "dd if=/dev/nvme0n1 bs=1M iflag=direct status=none | sha256sum |
	       cmp -s - /var/lib/blkpolicy-test/nvme.sha256"
check "rocheckctl status shows nvme0n1 locked" \
	sh -c "rocheckctl status | grep -Eq '^nvme0n1 +[0-9:]+ +1 +locked'"
check "rocheckctl unlock nvme0n1, then it takes a write" \
	sh -c "rocheckctl unlock nvme0n1 && dd if=/dev/zero of=/dev/nvme0n1 bs=4k count=1 oflag=direct"
check "intbounce and blkowner not loaded (not chosen)" \
	sh -c "[ ! -d /sys/module/intbounce ] && [ ! -d /sys/module/blkowner ]"
check "modprobe loads and unloads intbounce and blkowner" \
	sh -c "modprobe -a intbounce blkowner && modprobe -r -a blkowner intbounce"
blockdev --setro /dev/vdb
check "write open of read-only /dev/vdb refused (EROFS)" \
	sh -c "! dd if=/dev/zero of=/dev/vdb bs=4k count=1 oflag=direct 2> /tmp/dd.err && grep -q 'Read-only file system' /tmp/dd.err"
check "read of read-only /dev/vdb allowed" \
	dd if=/dev/vdb of=/dev/null bs=4k count=1 iflag=direct
blockdev --setrw /dev/vdb
check "write to /dev/vdb once writable" \
	dd if=/dev/zero of=/dev/vdb bs=4k count=1 oflag=direct
check "rocheck logged the refusal" \
	sh -c "dmesg | grep -q 'rocheck: .*vdb'"

# A write bio, not an open: the page cache of a scsi_debug disk dirtied
# while it was writable, then the disk set read-only and its cache
# synced.  rocheck (submit=deny by default) refuses the write-back.
# The write goes through descriptor 3, open until the end: closing a disk
# opened for writing starts udev's change event (and the last close writes
# the dirty cache back), which would write the data before --setro.
modprobe scsi_debug dev_size_mb=16
udevadm settle
sd=
for d in /sys/block/sd*; do
	grep -q scsi_debug "$d/device/model" 2>/dev/null && sd=${d##*/}
done
check "scsi_debug disk: /dev/${sd:-none}" test -b "/dev/$sd"
# Added now, it is new to new_devices=ro: locked until unlocked.
check "$sd, added after boot, is locked; rocheckctl unlock $sd" \
	sh -c "rocheckctl status | grep -Eq '^$sd +[0-9:]+ +1 +locked' && rocheckctl unlock $sd"
exec 3<> "/dev/$sd"
dd if=/dev/urandom bs=64k count=1 status=none >&3
blockdev --setro "/dev/$sd"
check "sync /dev/$sd (fsync of the read-only disk's dirty cache) fails" \
	sh -c "! sync /dev/$sd"
check "rocheck refused the write-back bio to read-only $sd" \
	sh -c "dmesg | grep -Eq 'rocheck: $sd: refused WRITE of [0-9]+ bytes at sector [0-9]+ of $sd to read-only device'"
check "$sd still holds zeros" \
	sh -c "dd if=/dev/$sd bs=64k count=1 iflag=direct status=none | cmp -n 65536 - /dev/zero"
exec 3<&-
blockdev --setrw "/dev/$sd"
modprobe -r scsi_debug

# Removal as a user does it; after.sh boots the system once more.
check "apt-get remove blkpolicy-dkms" \
	sh -c "DEBIAN_FRONTEND=noninteractive apt-get remove -y blkpolicy-dkms"
check "modules gone for $krel, DKMS empty" \
	sh -c "! modinfo rocheck && ! modinfo intbounce && ! modinfo blkowner && [ -z \"\$(dkms status blkpolicy)\" ]"
sync
