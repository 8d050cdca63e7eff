# SPDX-License-Identifier: GPL-2.0
#
# Sourced by install.sh when the packages are the test kernel's: its
# second release and Debian's own kernel, installed beside it.
# A kernel built from a user's configuration (run --kconfig) has neither.

# A second release of the kernel, installed later (an upgrade): DKMS
# builds the modules for it without being asked.  This kernel and
# Debian's below are never booted: initramfs-tools' kernel hook (60-80 s
# of TCG per kernel) is taken out while they are installed (run-parts
# skips a file that is not executable) and put back after.
chmod -x /etc/kernel/postinst.d/initramfs-tools
nkrel=$krel-next
check "dpkg -i linux-image-$nkrel and linux-headers-$nkrel" \
	dpkg -i ./linux-headers-"$nkrel"_*.deb ./linux-image-"$nkrel"_*.deb
check "DKMS built and installed blkpolicy $ver for $nkrel, unasked" \
	sh -c "dkms status blkpolicy/$ver -k $nkrel | grep -q installed"
check "modinfo -k $nkrel rocheck: version $ver, vermagic $nkrel" \
	sh -c "[ \"\$(modinfo -k $nkrel -F version rocheck)\" = '$ver' ] &&
	       modinfo -k $nkrel -F vermagic rocheck | grep -q '^$nkrel '"

# Debian's own kernel (cloud-amd64), which has no hooks.patch, installed
# with its headers and what apt would add (scripts/debian-image fetched
# them).  Baseline first: with AUTOINSTALL for every kernel (the packaged
# dkms.conf with its rule taken out) bookworm's dkms fails the refused
# build, and with it the kernel package's configuration.  With the
# packaged dkms.conf the package configures, DKMS says why it builds
# nothing for it, and a build asked for by hand stops before compiling,
# naming hooks.patch.
nh=$(cat stock/RELEASE)
conf=/usr/src/blkpolicy-$ver/dkms.conf
cp "$conf" /tmp/dkms.conf.packaged
sed -i 's/^blkpolicy_kernel=\${_ka:-\$kernelver}$/blkpolicy_kernel=/' "$conf"
timed dpkg -i ./stock/*.deb > /tmp/nohooks.out 2>&1
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
