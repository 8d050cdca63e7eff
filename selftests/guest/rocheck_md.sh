#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 400
# plan: 6
#
# rocheck.ko and md's own writes to a read-only member.  A raid1 of two
# loop devices whose second copy differs from the first in 4 MiB (written
# behind md's back while it was stopped).  Assembled with that member
# already read-only, 6.12's md starts the array read-only itself and a
# repair asked for writes nothing: nothing to do there.  But set read-only while the
# array runs, the member is written by md's repair, which copies the
# first member's blocks over the mismatches: on vanilla the read-only
# member changes (its backing file's sha256).  With rocheck the repair's
# writes are refused and counted, md fails the member, and it is
# unchanged.
. "$(dirname "$0")/../lib.sh"

mkdir -p /run/mdadm
modprobe loop max_loop=8 || bail "loop"
md=/dev/md/rsync

# setup: the array made, filled, stopped, its second member made to
# differ; sets la, lb (the loop devices) and mdn (the md disk's name).
setup() {
	truncate -s 64M /tmp/m0 /tmp/m1
	la=$(losetup -f --show /tmp/m0) && lb=$(losetup -f --show /tmp/m1) ||
		bail "losetup"
	mdadm --create $md --level=1 --raid-devices=2 --metadata=1.2 \
		--assume-clean --run --quiet "$la" "$lb" >/dev/null 2>&1 ||
		bail "mdadm --create"
	dd if=/dev/urandom of=$md bs=1M count=32 oflag=direct status=none
	mdadm --stop $md >/dev/null 2>&1
	local off
	off=$(mdadm --examine "$lb" | awk '/Data Offset/ { print $4 }')
	dd if=/dev/urandom of="$lb" bs=512 seek=$((off + 16384)) count=8192 \
		oflag=direct status=none || bail "dd to $lb"
}
teardown() {
	mdadm --stop $md >/dev/null 2>&1
	blockdev --setrw "$lb"
	losetup -d "$la" "$lb"
	rm -f /tmp/m0 /tmp/m1
}
assemble() {
	mdadm --assemble $md "$la" "$lb" >/dev/null 2>&1 || return 1
	mdn=$(basename "$(readlink -f $md)")
}
# repair: a repair pass, waited for (at most 120 s).
repair() {
	local i
	echo repair > "/sys/block/$mdn/md/sync_action" || return 1
	for ((i = 0; i < 1200; i++)); do
		[ "$(cat "/sys/block/$mdn/md/sync_action")" = idle ] && return 0
		sleep 0.1
	done
	return 1
}
m1() { sync; sha256sum < /tmp/m1 | cut -c1-16; }

# ---- the member read-only before assembly: md itself ------------------
setup
blockdev --setro "$lb"
h0=$(m1)
assemble || bail "mdadm --assemble"
expect_eq "vanilla: md starts an array with a read-only member read-only" \
	1 "$(cat "/sys/block/$mdn/ro")"
repair
expect_eq "vanilla: a repair asked for there leaves the member unchanged" "$h0" "$(m1)"
teardown

# ---- the member set read-only while the array runs ---------------------
case_run() {	# case_run LABEL EXPECT(changed|unchanged)
	setup
	assemble || bail "mdadm --assemble"
	blockdev --setro "$lb"
	h0=$(m1)
	repair || fail "$1: the repair pass did not finish"
	h1=$(m1)
	diag "$1: mismatch_cnt $(cat "/sys/block/$mdn/md/mismatch_cnt"), $(mdadm --detail $md | grep -E 'faulty|State :' | tr -s ' ' | paste -sd';')"
	if [ "$2" = changed ]; then
		ok_if "$1: md's repair writes the member set read-only while the array ran" \
			test "$h0" != "$h1"
	else
		expect_eq "$1: md's repair leaves the read-only member unchanged" "$h0" "$h1"
	fi
	teardown
}
case_run vanilla changed
modprobe rocheck || bail "cannot load rocheck"
n=$(rc_stat "${lb#/dev/}" bios_refused)
lbn=${lb#/dev/}
case_run rocheck unchanged
expect_gt "rocheck: the repair's writes were refused and counted on $lbn" \
	"$(rc_stat "$lbn" bios_refused)" "$n"
ok_if "rocheck: dmesg names the member and md's resync thread" \
	bash -c "dmesg | grep -Eq 'rocheck: $lbn: refused WRITE of [0-9]+ bytes at sector [0-9]+ of $lbn to read-only device by md[0-9]+_(resync|raid1)'"
rmmod rocheck
st_done
