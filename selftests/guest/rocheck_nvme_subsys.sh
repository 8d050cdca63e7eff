#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 14
# nvme: 64+64
# nvme-ctrls: 2
#
# rocheck.ko and NVMe admin commands that reach a namespace through another
# controller of its subsystem.  Two controllers of one subsystem, two
# namespaces; namespace A is detached from the second controller, so it
# is reached through the first only, and set read-only.  An admin command
# sent to the second controller can still change it: Namespace Attachment
# names controllers by ID, and Format NVM and Sanitize may act on the whole
# subsystem.  Plain kernel first: through the second controller, a
# Namespace Attachment detaches A from the first, and the read-only disk
# is gone.  With rocheck, every namespace of every controller of the
# subsystem is asked about a user's admin command: refused, A stays
# attached and unchanged; the second controller's own namespace is still
# written; with nothing read-only the attachment passes.
. "$(dirname "$0")/../lib.sh"

A=$ST_HELPERS/nvmeadmin
adm() { out=$("$A" "$@"); }
# head NSID: the disk (multipath head) of namespace NSID, if it has one.
head_of() {
	local d
	for d in /sys/block/nvme*n*; do
		[[ ${d##*/} =~ ^nvme[0-9]+n[0-9]+$ ]] || continue	# not a path
		[ "$(cat "$d/nsid" 2>/dev/null)" = "$1" ] && { echo "${d##*/}"; return 0; }
	done
	return 1
}
# attached CTRL NSID: whether controller CTRL has a path to namespace NSID.
attached() {
	local p
	for p in /sys/class/nvme/"$1"/nvme*c*n*; do
		[ "$(cat "$p/nsid" 2>/dev/null)" = "$2" ] && return 0
	done
	return 1
}
# until_ok CMD...: wait up to 20 s for CMD to succeed.
until_ok() {
	local i
	for i in $(seq 100); do "$@" && return 0; sleep 0.2; done
	return 1
}
data() { dd if="/dev/$1" bs=1M count=4 iflag=direct status=none | sha256sum | cut -c1-16; }

# heads: the namespaces' disks (nvmeSnN, S the subsystem's instance).
heads() { ls /sys/block | grep -E '^nvme[0-9]+n[0-9]+$' | sort; }

modprobe nvme || bail "modprobe nvme"
until_ok test -c /dev/nvme1 || bail "no second controller (is the guest booted with '# nvme-ctrls: 2'?)"
until_ok eval '[ $(heads | wc -l) -eq 2 ]' || bail "no two namespaces ($(heads))"
X=nvme0 Y=nvme1
[ "$(cat /sys/class/nvme/$X/subsysnqn)" = "$(cat /sys/class/nvme/$Y/subsysnqn)" ] ||
	bail "$X and $Y are not in one subsystem"
cx=$(cat /sys/class/nvme/$X/cntlid) cy=$(cat /sys/class/nvme/$Y/cntlid)
set -- $(heads)
ida=$(cat "/sys/block/$1/nsid") idb=$(cat "/sys/block/$2/nsid")
diag "controllers $X (ID $cx) and $Y (ID $cy); namespace A is NSID $ida, B NSID $idb"
until_ok attached $X "$ida" && until_ok attached $Y "$ida" || bail "NSID $ida is not shared by $X and $Y"

adm /dev/$Y detach "$ida" "$cy"
[ "$out" = ok ] && until_ok eval '! attached $Y $ida' || bail "could not detach NSID $ida from $Y ($out)"
ok_if "setup: NSID $ida is attached to $X only" attached $X "$ida"
hA=$(head_of "$ida")
head -c $((4 << 20)) /dev/urandom | dd of="/dev/$hA" bs=1M oflag=direct status=none
blockdev --setro "/dev/$hA"
before=$(data "$hA")

# --- plain kernel -------------------------------------------------------------
adm /dev/$Y detach "$ida" "$cx"
expect_eq "plain kernel: through $Y, Namespace Attachment detaches read-only $hA from $X" ok "$out"
ok_if "plain kernel: and the read-only disk is gone with its last path" until_ok eval '! head_of $ida >/dev/null'
adm /dev/$Y attach "$ida" "$cx"
until_ok head_of "$ida" >/dev/null || bail "NSID $ida did not come back on $X ($out)"
hA=$(head_of "$ida")
until_ok test -b "/dev/$hA" || bail "no /dev/$hA"
blockdev --setro "/dev/$hA"
expect_eq "plain kernel: attached again, $hA reads as before" "$before" "$(data "$hA")"

# --- rocheck ------------------------------------------------------------------
modprobe rocheck || bail "rocheck"
r0=$(rc_stat "$hA" cmds_refused)
adm /dev/$Y detach "$ida" "$cx"
expect_eq "rocheck: through $Y, detaching read-only $hA from $X is refused" errno=EACCES "$out"
adm /dev/$Y format 0xffffffff
expect_eq "rocheck: through $Y, Format NVM of all namespaces is refused" errno=EACCES "$out"
adm /dev/$Y format "$ida"
expect_eq "rocheck: through $Y, Format NVM naming $hA is refused" errno=EACCES "$out"
sleep 1
ok_if "rocheck: $hA is still attached to $X" attached $X "$ida"
expect_eq "rocheck: $hA reads as before" "$before" "$(data "$hA")"
expect_eq "rocheck: each refusal is counted on $hA (cmds_refused)" 3 $(( $(rc_stat "$hA" cmds_refused) - r0 ))
adm /dev/$Y identify 1
expect_eq "rocheck: Identify Controller through $Y answers" ok "${out%% *}"
hB=$(head_of "$idb")
ok_if "rocheck: a write to writable $hB passes" \
	dd if=/dev/zero of="/dev/$hB" bs=4k count=1 oflag=direct status=none

# --- nothing read-only: nothing refused ---------------------------------------
blockdev --setrw "/dev/$hA"
adm /dev/$Y attach "$ida" "$cy"
expect_eq "rocheck, nothing read-only: Namespace Attachment through $Y passes" ok "$out"
ok_if "rocheck, nothing read-only: NSID $ida is attached to $Y again" until_ok attached $Y "$ida"
rmmod rocheck
st_done
