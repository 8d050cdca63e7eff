#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Third boot of the Debian image, after apt-get remove blkpolicy-dkms: the
# system boots; the edited /etc/modules-load.d/blkpolicy.conf stays (a
# conffile, kept by remove as by any Debian package) and names a module
# that is gone, which systemd-modules-load logs and skips; purge removes
# the file.
cd /mnt/step || exit 1
krel=$(uname -r)
. /mnt/step/check.sh

check "booted $krel after the removal" \
	sh -c "systemctl is-active multi-user.target || systemctl is-active basic.target"
echo "# systemctl is-system-running: $(systemctl is-system-running)"
systemctl --failed --no-legend | sed 's/^/# failed: /'
check "rocheck not loaded" test ! -d /sys/module/rocheck
check "the kept /etc/modules-load.d/blkpolicy.conf still names rocheck" \
	grep -qx rocheck /etc/modules-load.d/blkpolicy.conf
journalctl -b --no-pager | grep -i "module 'rocheck'" | sed 's/^/# journal: /'
check "systemd-modules-load skipped the missing module without failing" \
	sh -c "! systemctl is-failed systemd-modules-load.service"
check "apt-get purge blkpolicy-dkms removes /etc/modprobe.d and /etc/modules-load.d files" \
	sh -c "DEBIAN_FRONTEND=noninteractive apt-get purge -y blkpolicy-dkms &&
	       [ ! -e /etc/modprobe.d/blkpolicy.conf ] && [ ! -e /etc/modules-load.d/blkpolicy.conf ]"
