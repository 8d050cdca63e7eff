# SPDX-License-Identifier: GPL-2.0
# Shell helpers for the guest selftests.  Each test prints TAP result lines
# without numbers ("ok - what", "not ok - what"); selftests/run numbers them.
# shellcheck shell=bash

ST_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ST_TOP=$(dirname "$ST_DIR")
ST_HELPERS=$ST_DIR/helpers
ST_FAILED=0

diag() { echo "# $*"; }

pass() { echo "ok - $*"; }

# rc_stat DEV COUNTER: a per-device rocheck counter from its debugfs
# devices file (0 if never counted).
rc_stat() {
	local v
	v=$(awk -v d="$1" -v k="$2" '$1 == d {
		for (i = 3; i <= NF; i++) { split($i, a, "="); if (a[1] == k) print a[2] } }' \
		/sys/kernel/debug/rocheck/devices 2>/dev/null)
	echo "${v:-0}"
}

# skip DESC REASON: a check that cannot run here, reported (TAP SKIP) and
# counted in the file's plan.
skip() { echo "ok - $1 # SKIP $2"; }

fail() {
	echo "not ok - $*"
	ST_FAILED=$((ST_FAILED + 1))
}

# ok_if DESC CMD...: one result from a command's exit status.
ok_if() {
	local desc=$1
	shift
	if "$@"; then pass "$desc"; else fail "$desc"; fi
}

# expect_eq DESC EXPECTED ACTUAL
expect_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1"
		diag "expected '$2', got '$3'"
	fi
}

# expect_gt DESC A B: A > B (integers)
expect_gt() {
	if [ "$2" -gt "$3" ]; then
		pass "$1"
	else
		fail "$1"
		diag "expected $2 > $3"
	fi
}

# within VALUE TARGET PERCENT: VALUE is TARGET +- PERCENT (integers)
within() {
	[ "$1" -ge $(( $2 * (100 - $3) / 100 )) ] && [ "$1" -le $(( $2 * (100 + $3) / 100 )) ]
}

# Abort the whole test file: the remaining results would be meaningless.
bail() {
	echo "Bail out! $*"
	exit 1
}

# scsi_debug_disk: the /dev node of the (single) scsi_debug disk.
scsi_debug_disk() {
	local d
	for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
		[ -e "$d" ] && { echo "/dev/${d##*/}"; return 0; }
	done
	return 1
}

# scsi_debug_disks N: sets the array disks to the /dev nodes of the
# scsi_debug disks once each exists; bails unless there are N.
scsi_debug_disks() {
	local d
	disks=()
	for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
		[ -e "$d" ] && disks+=("/dev/${d##*/}")
	done
	[ ${#disks[@]} -eq "$1" ] || bail "expected $1 scsi_debug disks, found ${#disks[@]}"
	for d in "${disks[@]}"; do
		wait_for_dev "$d" || bail "no $d"
	done
}

# scsi_debug_load ARGS...: load scsi_debug with ARGS (one disk); sets sd
# (its /dev node), name and dev (MAJ:MIN).
scsi_debug_load() {
	modprobe scsi_debug "$@" || bail "modprobe scsi_debug $*"
	sleep 0.5
	sd=$(scsi_debug_disk) && wait_for_dev "$sd" || bail "no scsi_debug disk"
	name=${sd#/dev/}
	dev=$(cat /sys/block/$name/dev)
}

# udev is not running: wait for a device node to appear.
wait_for_dev() {
	local i
	for i in $(seq 50); do
		[ -b "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# wait_for_line FILE TEXT SECONDS: until a helper writing to FILE has
# printed TEXT (its "ready"), at most SECONDS; false if it never did.
wait_for_line() {
	local i
	for ((i = 0; i < $3 * 10; i++)); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

st_done() {
	[ "$ST_FAILED" -eq 0 ]
}

# le32 N: N as four little-endian bytes on stdout.
le32() {
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) \
		$(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"
}

# mbr_entry START COUNT: a 16-byte MBR entry of a Linux partition (logical
# blocks; no CHS).
mbr_entry() {
	printf '\0\0\0\0\x83\0\0\0'
	le32 "$1"
	le32 "$2"
}

# mbr_partition DEV START: an MBR with one Linux partition from logical
# block START to the end of DEV; waits for the partition's node.
mbr_partition() {
	local dev=$1 start=$2 blocks
	blocks=$(( $(blockdev --getsize64 "$dev") / $(blockdev --getss "$dev") ))
	{
		head -c 446 /dev/zero
		mbr_entry "$start" $((blocks - start))
		head -c 48 /dev/zero
		printf '\x55\xaa'
	} > /tmp/mbr
	dd if=/tmp/mbr of="$dev" bs=512 count=1 conv=notrunc,fsync status=none &&
		blockdev --rereadpt "$dev" && wait_for_dev "$(part_node "$dev" 1)"
}

# part_node DISK N: partition N's node (sda1, but nvme0n1p1).
part_node() {
	case $1 in
	*[0-9]) echo "${1}p$2" ;;
	*) echo "$1$2" ;;
	esac
}

# throttled_dd_setup: cgroup v1 blkio at $CG with group foo, limited to
# $TD_LIMIT bytes/s (default 1 MiB/s) of writes on disk $dev; the flusher
# starts at 1 MiB dirty and writes back pages older than 1 s, every second.
TD_LIMIT=${TD_LIMIT:-1048576}
throttled_dd_setup() {
	mkdir -p "$CG" && mount -t cgroup -o blkio blkio "$CG" || bail "cgroup v1 blkio"
	mkdir -p "$CG/foo"
	echo 1048576 > /proc/sys/vm/dirty_background_bytes
	echo $((256 << 20)) > /proc/sys/vm/dirty_bytes
	echo 100 > /proc/sys/vm/dirty_expire_centisecs
	echo 100 > /proc/sys/vm/dirty_writeback_centisecs
	echo "$dev $TD_LIMIT" > "$CG/foo/blkio.throttle.write_bps_device"
}

# throttled_dd LABEL FILE MIB: MIB MiB buffered dd into FILE from the cgroup
# v1 blkio group $CG/foo, whose write limit on disk $dev ($name) is $TD_LIMIT,
# measured on that disk; the limit is lifted for the final sync and set
# again.  Sets total (disk bytes/s over the 15 s from the dd's start),
# rate (disk bytes/s over the last 12 s: the throttled steady state),
# held (the same less what root was charged: the writes blk-throttle
# let through for foo), root_window (bytes charged to root in the
# window), share (percent of the window's disk bytes charged to foo),
# share_total (the same from the start) and charged (bytes charged to
# foo from the start).  blk-throttle counts a bio as it enters,
# before it waits: with a backlog the share is above 100%.  Root's bios
# never wait, so what root was charged in the window is what it wrote:
# its journal, and the exempt sync writeback (exempt_sync), which may
# write foo's dirty pages unthrottled in a burst.
throttled_dd() {
	local pid c c0 c1 d d0 d1 r0 r1 t t0 t1
	c=$(v1_foo_charged) d=$(disk_bytes_written) t=${EPOCHREALTIME/./}
	bash -c "echo \$\$ > $CG/foo/cgroup.procs && exec dd if=/dev/zero of=$2 bs=1M count=$3 status=none" &
	pid=$!
	sleep 3
	c0=$(v1_foo_charged) r0=$(v1_charged "$CG") d0=$(disk_bytes_written) t0=${EPOCHREALTIME/./}
	sleep 12
	c1=$(v1_foo_charged) r1=$(v1_charged "$CG") d1=$(disk_bytes_written) t1=${EPOCHREALTIME/./}
	echo "$dev 0" > $CG/foo/blkio.throttle.write_bps_device
	wait $pid
	sync; rm -f "$2"; sync; sync
	echo "$dev $TD_LIMIT" > $CG/foo/blkio.throttle.write_bps_device
	total=$(( (d1 - d) * 1000000 / (t1 - t) ))
	rate=$(( (d1 - d0) * 1000000 / (t1 - t0) ))
	held=$(( (d1 - d0 - (r1 - r0)) * 1000000 / (t1 - t0) ))
	root_window=$((r1 - r0))
	share=$(( (c1 - c0) * 100 / (d1 - d0 + 1) ))
	share_total=$(( (c1 - c) * 100 / (d1 - d + 1) ))
	charged=$((c1 - c))
	diag "$1: disk $((total / 1024)) KiB/s from the start, $((rate / 1024)) KiB/s over the last 12 s, $((held / 1024)) KiB/s of them not root's (limit $((TD_LIMIT / 1024))), root charged $(( (r1 - r0) / 1024 )) KiB, foo charged $(( (c1 - c0) / 1024 )) KiB of $(( (d1 - d0) / 1024 )) KiB ($share%; from the start $share_total%, $((charged / 1024)) KiB)"
}
disk_bytes_written() { local s; read -r _ _ _ _ _ _ s _ < "/sys/block/$name/stat"; echo $((s * 512)); }
# v1_charged GROUP [DEV]: write bytes blk-throttle counted for GROUP (a
# path) on DEV (default $dev); 0 where GROUP is gone.
v1_charged() {
	awk -v d="${2:-$dev}" '$1 == d && $2 == "Write" { print $3 }' \
		"$1/blkio.throttle.io_service_bytes" 2>/dev/null | head -1 | grep . || echo 0
}
v1_foo_charged() { v1_charged "$CG/foo"; }

# v1_swap_setup: a 256 MiB scsi_debug disk as the only swap device ($sd,
# $name, $dev) and cgroup v1 blkio and memory mounted apart ($CG, $MG), as
# systemd mounts them; defines charged, limit and in_cg on them.
v1_swap_setup() {
	CG=/sys/fs/cgroup/blkio
	MG=/sys/fs/cgroup/memory
	modprobe scsi_debug dev_size_mb=256 || bail "scsi_debug"
	sleep 0.5
	sd=$(scsi_debug_disk) && wait_for_dev "$sd" || bail "no scsi_debug disk"
	name=${sd#/dev/}
	dev=$(cat /sys/block/$name/dev)
	mkswap "$sd" >/dev/null && swapon "$sd" || bail "mkswap/swapon $sd"
	mkdir -p $CG $MG
	mount -t cgroup -o blkio blkio $CG || bail "cgroup v1 blkio"
	mount -t cgroup -o memory memory $MG || bail "cgroup v1 memory"
	charged() { v1_charged "$CG/$1"; }	# charged GROUP
	limit() { echo "$dev $2" > $CG/$1/blkio.throttle.write_bps_device; }	# limit GROUP BPS
	in_cg() {	# in_cg GROUP CMD...: CMD in GROUP (both hierarchies), in the background
		local g=$1
		shift
		bash -c 'echo $$ > '"$CG/$g"'/cgroup.procs && echo $$ > '"$MG/$g"'/cgroup.procs && exec "$@"' _ "$@" &
	}
}

# fail_page_alloc_in MODULE: fail every page allocation made with
# MODULE's text on the stack (fail_page_alloc's require-start/end, from
# /proc/kallsyms), order 0 and waiting ones included, until
# fail_page_alloc_off.
fail_page_alloc_in() {
	local f=/sys/kernel/debug/fail_page_alloc lo hi
	read -r lo hi < <(awk -v m="[$1]" '$4 == m && $2 ~ /^[tT]$/ { print $1 }' /proc/kallsyms |
		sort | sed -n '1p;$p' | tr '\n' ' ')
	[ -n "$hi" ] || bail "no text of $1 in /proc/kallsyms"
	echo "0x$lo" > $f/require-start
	printf '0x%x\n' $((0x$hi + 4096)) > $f/require-end
	echo N > $f/task-filter
	echo N > $f/ignore-gfp-wait
	echo N > $f/ignore-gfp-highmem
	echo 0 > $f/min-order
	echo 0 > $f/space
	echo 0 > $f/verbose
	echo 1 > $f/interval
	echo 1000000 > $f/times
	echo 100 > $f/probability
}
# fail_page_alloc_off: injection off and the stack filter back to its
# default (any address); prints how many allocations were failed.
fail_page_alloc_off() {
	local f=/sys/kernel/debug/fail_page_alloc
	echo 0 > $f/probability
	echo 0 > $f/require-start
	echo 0xffffffffffffffff > $f/require-end
	echo $((1000000 - $(cat $f/times)))
}
