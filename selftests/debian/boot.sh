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
check "intbounce and blkowner not loaded (not chosen)" \
	sh -c "[ ! -d /sys/module/intbounce ] && [ ! -d /sys/module/blkowner ]"
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
