#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# First boot of the Debian image, on the packaged kernel (no initramfs
# yet; with run --kconfig, on the test kernel): install the packages as a
# user would, in the order that also shows a kernel installed after the
# module package gets its modules (the path of every kernel upgrade),
# then (kernels.sh) a second release of that kernel and Debian's own
# kernel, which has no hooks.patch, then choose a policy for the next boot.  Runs as root from
# blkpolicy-step.service; TAP on stdout.
cd /mnt/step || exit 1
ver=$(cat VERSION)
krel=$(uname -r)
. /mnt/step/check.sh
export DEBIAN_FRONTEND=noninteractive

check "booted Debian on a blkpolicy kernel, $krel" \
	sh -c "grep -q 'blkpolicy' /proc/version && grep -qi debian /etc/os-release"
# The module package first: no headers for this kernel yet, so DKMS only
# registers the sources.
check "dpkg -i blkpolicy-dkms_${ver}_all.deb" dpkg -i ./blkpolicy-dkms_"$ver"_all.deb
check "DKMS has the sources, nothing built yet (no linux-headers-$krel)" \
	sh -c "dkms status blkpolicy/$ver | grep -q added"
# Then the kernel and its headers, with the distribution's packages they
# depend on (apt's part; the guest has no network): the kernel's postinst
# runs DKMS's hook, as on any kernel upgrade.
check "dpkg -i linux-image-$krel and linux-headers-$krel (with $(ls deps | cut -d_ -f1 | paste -sd' '))" \
	dpkg -i ./deps/*.deb ./linux-headers-"$krel"_*.deb ./linux-image-"$krel"_*.deb
check "DKMS built and installed blkpolicy $ver for $krel" \
	sh -c "dkms status blkpolicy/$ver -k $krel | grep -q installed"
mklog=/var/lib/dkms/blkpolicy/$ver/$krel/$(uname -m)/log/make.log
[ -f "$mklog" ] || tail -n 30 /var/lib/dkms/blkpolicy/"$ver"/build/make.log 2>/dev/null | sed 's/^/# make.log: /'
check "built here, against the installed headers (/usr/src/linux-headers-$krel)" \
	sh -c "grep -q 'linux-headers-$krel' $mklog"
for m in rocheck intbounce blkowner; do
	check "modinfo $m: version $ver, from DKMS" \
		sh -c "[ \"\$(modinfo -F version $m)\" = '$ver' ] && modinfo -n $m | grep -q updates/dkms"
done
check "no test module installed (blkhooks_test, pidisk_test)" \
	sh -c "! modinfo blkhooks_test && ! modinfo pidisk_test"
check "update-initramfs made /boot/initrd.img-$krel" test -s /boot/initrd.img-"$krel"

# Every parameter of every module is in the modprobe.d file.
missing= n=0
for m in rocheck intbounce blkowner; do
	for p in $(modinfo -F parm "$m" | cut -d: -f1); do
		n=$((n + 1))
		grep -q -e "^#options $m $p=" -e "^# $p: runtime only:" \
			/etc/modprobe.d/blkpolicy.conf ||
			missing="$missing $m.$p"
	done
done
check "/etc/modprobe.d/blkpolicy.conf lists every parameter ($n${missing:+; missing:$missing})" \
	test -z "$missing" -a "$n" -gt 0

[ -f kconfig ] || . /mnt/step/kernels.sh

# Evidence for the next boot: an LVM volume group on the NVMe disk with
# an ext4 volume left needing recovery (shut down with transactions in
# its journal), in fstab read-only, as an examiner's machine would mount
# it.  LVM activates it at boot (udev), and systemd's mount replays the
# journal through dm: the volume is not read-only though the disk will be
# locked.  The disk's sha256 is kept for boot.sh.
evidence() {
	cat > /tmp/goingdown.c <<'EOC'
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
/* ext4's EXT4_IOC_SHUTDOWN (XFS_IOC_GOINGDOWN), flushing the journal. */
int main(int argc, char **argv)
{
	uint32_t flags = 1;
	int fd = open(argv[1], O_RDONLY);

	return fd < 0 || ioctl(fd, _IOR('X', 125, uint32_t), &flags) < 0;
}
EOC
	# This boot's kernel had no modules installed when udev probed.
	modprobe nvme && udevadm settle && [ -b /dev/nvme0n1 ] &&
	gcc -o /tmp/goingdown /tmp/goingdown.c &&
	pvcreate -q /dev/nvme0n1 && vgcreate -q evidence /dev/nvme0n1 &&
	lvcreate -q -y -L 16m -n data evidence &&
	mkfs.ext4 -q /dev/evidence/data && mkdir -p /evidence &&
	mount /dev/evidence/data /evidence &&
	head -c 1048576 /dev/urandom > /evidence/f && sync &&
	touch /evidence/g && /tmp/goingdown /evidence && umount /evidence &&
	dumpe2fs -h /dev/evidence/data 2>/dev/null | grep -q needs_recovery &&
	vgchange -q -an evidence &&
	echo '/dev/evidence/data /evidence ext4 ro,nofail 0 0' >> /etc/fstab &&
	mkdir -p /var/lib/blkpolicy-test &&
	dd if=/dev/nvme0n1 bs=1M iflag=direct status=none | sha256sum \
		> /var/lib/blkpolicy-test/nvme.sha256
}
check "an LVM volume on the NVMe disk needing recovery, in fstab ro" evidence

# The policy for the next boot, as the packaged files document it.
check "chose rocheck open=deny at boot (modules-load.d, modprobe.d)" \
	sh -c "sed -i 's/^#rocheck\$/rocheck/' /etc/modules-load.d/blkpolicy.conf &&
	       sed -i 's/^#options rocheck open=warn\$/options rocheck open=deny/' /etc/modprobe.d/blkpolicy.conf &&
	       grep -qx rocheck /etc/modules-load.d/blkpolicy.conf &&
	       grep -qx 'options rocheck open=deny' /etc/modprobe.d/blkpolicy.conf"
# Disks that appear from the initramfs on are read-only: rocheck goes in
# the initramfs, loaded before udev probes them (the NVMe disk here).
check "chose rocheck new_devices=ro and rebuilt the initramfs (update-initramfs -u)" \
	sh -c "sed -i 's/^#options rocheck new_devices=rw\$/options rocheck new_devices=ro/' /etc/modprobe.d/blkpolicy.conf &&
	       grep -qx 'options rocheck new_devices=ro' /etc/modprobe.d/blkpolicy.conf &&
	       update-initramfs -u -k $krel"
# init_top_order: the initramfs holds rocheck and its options, and its
# init-top ORDER runs blkpolicy before udev.
init_top_order() {
	rm -rf /tmp/ird && unmkinitramfs "/boot/initrd.img-$krel" /tmp/ird || return 1
	find /tmp/ird -name 'rocheck.ko*' | grep -q . || return 1
	find /tmp/ird -path '*/etc/modprobe.d/blkpolicy.conf' | grep -q . || return 1
	order=$(find /tmp/ird -path '*/scripts/init-top/ORDER' | head -1)
	cat "$order"
	awk '/init-top\/blkpolicy/ { b = NR } /init-top\/udev/ { u = NR }
	     END { exit !(b && u && b < u) }' "$order"
}
check "the initramfs holds rocheck and its options, and loads it before udev" init_top_order
sync
