# SPDX-License-Identifier: GPL-2.0
# Sourced by the Debian image's test steps (install.sh, boot.sh).
#
# timed CMD...: run CMD, its status returned and its time in seconds left
# in $secs; took prints "# N s" after a step of 5 s or more: what a slow
# boot spends its time on.
timed() {
	t0=$(date +%s)
	"$@"
	st=$?
	secs=$(($(date +%s) - t0))
	return $st
}
took() { [ "$secs" -lt 5 ] || echo "# $secs s"; }

# check DESC CMD...: "ok - DESC" if CMD succeeds, else "not ok - DESC"
# and the end of CMD's output as TAP comments.
check() {
	desc=$1
	shift
	if timed "$@" > /tmp/check.out 2>&1; then
		echo "ok - $desc"
		took
	else
		echo "not ok - $desc"
		# update-initramfs names every firmware file it has not.
		grep -v 'Possible missing firmware' /tmp/check.out | tail -n 40 | sed 's/^/# /'
	fi
}
