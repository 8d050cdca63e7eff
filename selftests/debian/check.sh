# SPDX-License-Identifier: GPL-2.0
# Sourced by the Debian image's test steps (install.sh, boot.sh).
#
# check DESC CMD...: "ok - DESC" if CMD succeeds, else "not ok - DESC"
# and the end of CMD's output as TAP comments; a CMD that took 5 s or
# more has its time after its line.
check() {
	desc=$1
	shift
	t0=$(date +%s)
	if "$@" > /tmp/check.out 2>&1; then
		echo "ok - $desc"
		t1=$(date +%s)
		# What a slow boot spends its time on.
		[ $((t1 - t0)) -lt 5 ] || echo "# $((t1 - t0)) s"
	else
		echo "not ok - $desc"
		# update-initramfs names every firmware file it has not.
		grep -v 'Possible missing firmware' /tmp/check.out | tail -n 40 | sed 's/^/# /'
	fi
}
