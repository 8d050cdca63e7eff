#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# First boot of the Debian image, on the packaged kernel (no initramfs
# yet): install the packages as a user would, in the order that also
# shows a kernel installed after the module package gets its modules
# (the path of every kernel upgrade), then a second release of that
# kernel, then choose a policy for the next boot.  Runs as root from
# blkpolicy-step.service; TAP on stdout.
cd /mnt/step || exit 1
ver=$(cat VERSION)
krel=$(uname -r)
. /mnt/step/check.sh
export DEBIAN_FRONTEND=noninteractive

check "booted Debian on the packaged kernel $krel" \
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

# A second release of the kernel, installed later (an upgrade): DKMS
# builds the modules for it without being asked.  This kernel and the
# one without hooks.patch below are never booted: initramfs-tools' kernel
# hook (60-80 s of TCG per kernel) is taken out while they are installed
# (run-parts skips a file that is not executable) and put back after.
chmod -x /etc/kernel/postinst.d/initramfs-tools
nkrel=$krel-next
check "dpkg -i linux-image-$nkrel and linux-headers-$nkrel" \
	dpkg -i ./linux-headers-"$nkrel"_*.deb ./linux-image-"$nkrel"_*.deb
check "DKMS built and installed blkpolicy $ver for $nkrel, unasked" \
	sh -c "dkms status blkpolicy/$ver -k $nkrel | grep -q installed"
check "modinfo -k $nkrel rocheck: version $ver, vermagic $nkrel" \
	sh -c "[ \"\$(modinfo -k $nkrel -F version rocheck)\" = '$ver' ] &&
	       modinfo -k $nkrel -F vermagic rocheck | grep -q '^$nkrel '"

# Every parameter of every module is in the modprobe.d file.
missing= n=0
for m in rocheck intbounce blkowner; do
	for p in $(modinfo -F parm "$m" | cut -d: -f1); do
		n=$((n + 1))
		grep -q "^#options $m $p=" /etc/modprobe.d/blkpolicy.conf ||
			missing="$missing $m.$p"
	done
done
check "/etc/modprobe.d/blkpolicy.conf lists every parameter ($n${missing:+; missing:$missing})" \
	test -z "$missing" -a "$n" -gt 0
check "modprobe loads and unloads the three modules" \
	sh -c "modprobe -a rocheck intbounce blkowner && modprobe -r -a blkowner intbounce rocheck"

# A kernel without hooks.patch (make vanilla, packaged the same way),
# installed with its headers.  Baseline first: with AUTOINSTALL for every
# kernel (the packaged dkms.conf with its rule taken out) bookworm's dkms
# fails the refused build, and with it the kernel package's
# configuration.  With the packaged dkms.conf the package configures,
# DKMS says why it builds nothing for it, and a build asked for by hand
# stops before compiling, naming hooks.patch.
nh=$krel-nohooks
conf=/usr/src/blkpolicy-$ver/dkms.conf
cp "$conf" /tmp/dkms.conf.packaged
sed -i 's/^blkpolicy_kernel=\${_ka:-\$kernelver}$/blkpolicy_kernel=/' "$conf"
timed dpkg -i ./linux-headers-"$nh"_*.deb ./linux-image-"$nh"_*.deb > /tmp/nohooks.out 2>&1
st=$?
took
grep -i 'error\|failed' /tmp/nohooks.out | sed 's/^/# baseline dpkg: /'
check "baseline: AUTOINSTALL for every kernel, dpkg -i linux-image-$nh fails (status $st), the package half-configured" \
	sh -c "[ $st -ne 0 ] && dpkg-query -W -f='\${Status}' linux-image-$nh | grep -q half-configured"
cp /tmp/dkms.conf.packaged "$conf"
timed dpkg --configure -a > /tmp/nohooks.out 2>&1
st=$?
took
grep 'blkpolicy\|dkms' /tmp/nohooks.out | sed 's/^/# dpkg: /'
check "dpkg --configure -a with the packaged dkms.conf: linux-image-$nh configured (status $st)" \
	sh -c "[ $st -eq 0 ] && dpkg-query -W -f='\${Status}' linux-image-$nh | grep -q 'install ok installed'"
check "DKMS said kernel $nh does not carry hooks.patch" \
	grep -q "kernel $nh does not carry hooks.patch" /tmp/nohooks.out
check "DKMS built nothing for $nh" \
	sh -c "! dkms status blkpolicy/$ver -k $nh | grep -q 'built\|installed'"
dkms build blkpolicy/"$ver" -k "$nh" > /tmp/nohooks-build.out 2>&1
st=$?
mklog=/var/lib/dkms/blkpolicy/$ver/build/make.log
grep 'blkpolicy:' "$mklog" | sed 's/^/# make.log: /'
check "dkms build -k $nh fails (status $st); make.log names hooks.patch, nothing compiled" \
	sh -c "[ $st -ne 0 ] && grep -q 'does not carry hooks.patch (no include/linux/blk-hooks.h' $mklog &&
	       ! grep -q ' CC ' $mklog"
dkms remove blkpolicy/"$ver" -k "$nh" > /dev/null 2>&1
chmod +x /etc/kernel/postinst.d/initramfs-tools

# The policy for the next boot, as the packaged files document it.
check "chose rocheck open=deny at boot (modules-load.d, modprobe.d)" \
	sh -c "sed -i 's/^#rocheck\$/rocheck/' /etc/modules-load.d/blkpolicy.conf &&
	       sed -i 's/^#options rocheck open=warn\$/options rocheck open=deny/' /etc/modprobe.d/blkpolicy.conf &&
	       grep -qx rocheck /etc/modules-load.d/blkpolicy.conf &&
	       grep -qx 'options rocheck open=deny' /etc/modprobe.d/blkpolicy.conf"
sync
