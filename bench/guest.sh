#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/guest.sh SECTION [ARG]: one benchmark section, run in the guest.  Prints
# "result NAME VALUE" lines that bench/run collects.  Every comparison is
# measured side by side in this boot, alternating, and reported as the
# median of the per-round ratios with their min and max.
. "$(dirname "$0")/../selftests/lib.sh"

# median: of an odd count the middle value, of an even one the mean of the
# two middle values.
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else if (NR) printf "%d\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 + 0.5 }'; }
# pairs N OFF ON: a warm-up OFF run (not recorded), then N rounds of one
# OFF and one ON run, in alternating order (off first in odd rounds, on
# first in even ones), so neither side always runs on a warmer system.
# OFF and ON are functions printing "off VALUE" and "on VALUE".
pairs() {
	local i
	"$2" > /dev/null
	for i in $(seq "$1"); do
		if [ $((i % 2)) = 1 ]; then "$2"; "$3"; else "$3"; "$2"; fi
	done
}
iops() {	# iops FIO-ARGS...: write IOPS of one short fio run
	fio --output-format=terse --terse-version=3 --runtime=5 --time_based "$@" |
		awk -F';' '{ print $49 }'
}
bw_kib() {	# bw_kib FIO-ARGS...: write KiB/s
	fio --output-format=terse --terse-version=3 "$@" | awk -F';' '{ print $48 }'
}
# medians NAME=KEY...: "result NAME M", M the median of the KEY lines'
# values in /tmp/r, for each pair.
medians() {
	local a
	for a; do
		echo "result ${a%%=*} $(awk -v k="${a#*=}" '$1 == k { print $2 }' /tmp/r | median)"
	done
}
# ratio_stats NAME: of the per-round ratios on stdin, "result NAME_median",
# "result NAME_min" and "result NAME_max".
ratio_stats() {
	sort -n | awk -v k="$1" '{ v[NR] = $1 } END { if (NR) printf "result %s_median %s\nresult %s_min %s\nresult %s_max %s\n",
		k, v[int((NR + 1) / 2)], k, v[1], k, v[NR] }'
}
# pair_ratios NAME: the ON/OFF ratio of each round of pairs (the k-th
# "on" line over the k-th "off" line of /tmp/r: the same round), through
# ratio_stats.  A ratio of medians would mix rounds; a ratio per round
# cancels whatever drifts between them.
pair_ratios() {
	awk '$1 == "off" { off[++n] = $2 } $1 == "on" { on[++m] = $2 }
		END { for (i = 1; i <= n && i <= m; i++) if (off[i] > 0) printf "%.3f\n", on[i] / off[i] }' /tmp/r |
		ratio_stats "$1"
}
bo_stat() { awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/blkowner/stats; }
ib_stat() { awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/intbounce/stats; }
# Memory per tracked page: what the table holds (its chunks, from the
# module's own count) over the folios tagged in it.
bo_footprint() {
	local e b
	e=$(bo_stat entries)
	b=$(bo_stat store_bytes)
	[ "$e" -gt 0 ] || { echo "bench: no tracked pages" >&2; exit 1; }
	echo "result tracked_pages $e"
	echo "result bytes_per_page $(( b / e ))"
}
# bo_writer_setup: the blkowner sections' writer.  ext4 on null_blk; this
# shell in an unthrottled v1 group, so it owns its files, its writeback is
# re-charged and counted: the whole cost, no limit.  The flusher writes
# back from 16 MiB dirty on, so most of the 256 MiB goes out as
# re-charged writeback, not as the end fsync's (exempt) writeback: the
# runs report both.  BUF: fio's arguments for it.
bo_writer_setup() {
	nullb_ext4
	mkdir -p /sys/fs/cgroup/blkio && mount -t cgroup -o blkio blkio /sys/fs/cgroup/blkio
	mkdir -p /sys/fs/cgroup/blkio/foo
	echo $$ > /sys/fs/cgroup/blkio/foo/cgroup.procs
	echo $((16 << 20)) > /proc/sys/vm/dirty_background_bytes
	BUF=(--name=b --directory=/mnt --rw=write --bs=1m --size=256m --end_fsync=1
	     --ioengine=psync --invalidate=0)
}
# profile_load MODULE on|off: for bench/profile, load MODULE (on) before
# the counted runs and report where its code is.
profile_load() {
	[ "$2" = on ] || return 0
	modprobe "$1" || exit 1
	echo "result text $(cat "/sys/module/$1/sections/.text")"
}
nullb() {
	modprobe null_blk nr_devices=1 gb=4 irqmode=0 queue_mode=2 || exit 1
	wait_for_dev /dev/nullb0
}
# ext4 on a null_blk disk that keeps its data.  The disk is written whole
# first: null_blk allocates its memory at a sector's first write, and
# runs that wrote fresh sectors were 5% slower than runs that rewrote
# them (the rate rose run by run until the 2 GiB disk had been covered).
nullb_ext4() {
	modprobe null_blk nr_devices=1 gb=1 memory_backed=1 || exit 1
	wait_for_dev /dev/nullb0
	dd if=/dev/zero of=/dev/nullb0 bs=1M count=1024 oflag=direct status=none
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 /dev/nullb0 &&
		mount /dev/nullb0 /mnt || { echo "bench: cannot mount ext4 on null_blk" >&2; exit 1; }
}
# ro_loop: a read-only loop device, so rocheck's submit hook is armed.
ro_loop() {
	modprobe loop && dd if=/dev/zero of=/tmp/ro.img bs=1M count=1 status=none &&
		losetup -r -f /tmp/ro.img
}
RW4K=(--name=r --filename=/dev/nullb0 --rw=randwrite --bs=4k --direct=1
      --ioengine=libaio --iodepth=32)

case $1 in
platform)	# this kernel, nothing loaded
	nullb
	for i in 1 2 3 4; do iops "${RW4K[@]}"; done | median | sed 's/^/result iops /'
	;;
rocheck|rocheck_armed)	# rocheck_armed: a read-only loop device beside, so armed
	nullb
	want=0
	if [ "$1" = rocheck_armed ]; then
		want=1
		ro_loop || exit 1
	fi
	ro_off() { echo "off $(iops "${RW4K[@]}")"; }
	ro_on() {
		modprobe rocheck || exit 1
		[ "$(awk '$1 == "armed" { print $2 }' /sys/kernel/debug/rocheck/submit)" = $want ] ||
			{ echo "bench: rocheck's submit hook is not armed=$want" >&2; exit 1; }
		echo "on $(iops "${RW4K[@]}")"
		rmmod rocheck
	}
	pairs 7 ro_off ro_on > /tmp/r
	pair_ratios ratio
	echo "result without $(awk '$1 == "off" { print $2 }' /tmp/r | median)"
	echo "result with $(awk '$1 == "on" { print $2 }' /tmp/r | median)"
	;;
intbounce|intbounce_nocopy)
	modprobe scsi_debug dif=1 dix=1 guard=0 delay=0 dev_size_mb=256 || exit 1
	sleep 0.5
	sd=$(scsi_debug_disk); wait_for_dev "$sd"
	name=${sd#/dev/}
	modprobe intbounce || exit 1
	P=/sys/module/intbounce/parameters/mode
	# The 1 MiB rows carry the goals and run 10 s (and the buffered one
	# 256 MiB): in host time, 5 s runs and 128 MiB read always/buffered
	# 0.92 to 2.36 from round to round of one boot.
	SEQ=(--name=s --filename="$sd" --rw=write --bs=1m --direct=1
	     --ioengine=libaio --iodepth=16 --runtime=10 --time_based)
	RND=(--name=r --filename="$sd" --rw=randwrite --bs=4k --direct=1
	     --ioengine=libaio --iodepth=16 --runtime=5 --time_based)
	# What upstream's fallback pays: the same data through the page
	# cache, then fsync.  Nothing is copied there (stable pages).
	BUF=(--name=b --filename="$sd" --rw=write --bs=1m --size=256m
	     --end_fsync=1 --ioengine=psync)
	RBUF=(--name=b --filename="$sd" --rw=randwrite --bs=4k --size=32m
	      --end_fsync=1 --ioengine=psync)
	;;&
intbounce_nocopy)	# on the instruction clock: auto mode where it copies nothing
	nc() { echo "$1" > $P; echo "$2 $(bw_kib "${BUF[@]}")"; }
	nc_off() { nc off off; }
	nc_on() { nc auto on; }
	pairs 5 nc_off nc_on > /tmp/r
	sed 's/^/run /' /tmp/r >&2
	medians buffered_off=off buffered_auto=on
	pair_ratios ratio
	echo "result copied_bytes $(ib_stat bytes_bounced)"
	;;
intbounce)	# host time: the rows that copy, five rounds side by side
	# busy: jiffies of CPU not idle, both CPUs (user nice system irq
	# softirq steal).
	busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
	# one MODE KEY FIO-ARGS...: "KEY KiB/s busy-jiffies bytes-bounced
	# bytes-written".
	one() {
		local m=$1 k=$2 b0 c0 w0 v
		shift 2
		echo "$m" > $P
		b0=$(busy); c0=$(ib_stat bytes_bounced); w0=$(disk_bytes_written)
		v=$(bw_kib "$@")
		echo "$k $v $(( $(busy) - b0 )) $(( $(ib_stat bytes_bounced) - c0 )) $(( $(disk_bytes_written) - w0 ))"
	}
	# The two runs of each ratio are next to each other (auto and always
	# beside off, the fallback beside always): the host's speed drifts
	# by more than a goal's margin within a round.
	steps=("auto seq_auto SEQ" "off seq_off SEQ" "always seq_always SEQ"
	       "off seq_buffered BUF" "auto rnd_auto RND" "off rnd_off RND"
	       "always rnd_always RND" "off rnd_buffered RBUF")
	# round N: every step once, in order in odd rounds and reversed in
	# even ones, so that neither side of a ratio always runs second.
	round() {
		local i j m k a
		for ((i = 0; i < ${#steps[@]}; i++)); do
			j=$(( $1 % 2 ? i : ${#steps[@]} - 1 - i ))
			read -r m k a <<< "${steps[j]}"
			declare -n args=$a
			echo "$1 $(one "$m" "$k" "${args[@]}")"
			unset -n args
		done
	}
	round 0 > /dev/null	# warm-up, not recorded
	for i in 1 2 3 4 5; do round $i; done > /tmp/r
	sed 's/^/run /' /tmp/r >&2
	for k in $(awk '{ print $2 }' /tmp/r | sort -u); do
		echo "result $k $(awk -v k="$k" '$2 == k { print $3 }' /tmp/r | median)"
	done
	# ratio_spread NAME A B: per-round A/B, through ratio_stats.
	ratio_spread() {
		awk -v a="$2" -v b="$3" '$2 == a { x[$1] = $3 } $2 == b { y[$1] = $3 }
			END { for (r in x) if (y[r] > 0) printf "%.3f\n", x[r] / y[r] }' /tmp/r |
			ratio_stats "$1"
	}
	ratio_spread always_off seq_always seq_off
	ratio_spread always_buffered seq_always seq_buffered
	# always copies what off does not: off/buffered bounds always/buffered.
	ratio_spread off_buffered seq_off seq_buffered
	ratio_spread auto_off seq_auto seq_off
	ratio_spread rnd_always_off rnd_always rnd_off
	# The copy's cost against its bound: MiB bounced per CPU second that
	# always spends beyond off (CPU seconds per MiB written, medians of
	# the 1 MiB runs), beside what memcpy moves in one.
	cpu_s_per_mib() {
		awk -v k="$1" '$2 == k && $6 > 0 { print $4 / 100 / ($6 / 1048576) }' /tmp/r | median
	}
	awk -v a="$(cpu_s_per_mib seq_always)" -v o="$(cpu_s_per_mib seq_off)" \
	    -v f="$(awk '$2 == "seq_always" && $6 > 0 { print $5 / $6 }' /tmp/r | median)" \
	    'BEGIN { printf "result bounce_mib_per_cpu_s %d\n", (a > o ? f / (a - o) : 0) }'
	echo "result memcpy_mib_s $("$ST_HELPERS/memcpybw")"
	;;
blkowner|blkowner_ext)	# blkowner_ext: booted with blk_page_ext=on
	bo_writer_setup
	bo_off() { echo "off $(bw_kib "${BUF[@]}")"; rm -f /mnt/b*; sync; }
	bo_on() {
		modprobe blkowner || exit 1
		echo "on $(bw_kib "${BUF[@]}")"; rm -f /mnt/b*; sync
		echo "recharged $(bo_stat bios_recharged)"
		echo "exempt $(bo_stat bios_exempt)"
		rmmod blkowner
	}
	pairs 9 bo_off bo_on > /tmp/r
	sed 's/^/run /' /tmp/r >&2
	medians recharged_bios=recharged exempt_bios=exempt without=off with=on
	pair_ratios ratio
	echo 10 > /proc/sys/vm/dirty_background_ratio
	echo $$ > /sys/fs/cgroup/blkio/cgroup.procs
	# Memory per tracked dirty page, with 256 MiB dirty and held back
	# from writeback, in a file the root group dirtied first (its last
	# page, still dirty): foo's folios there get a word each.  A file foo
	# dirties alone stores nothing.
	echo 50 > /proc/sys/vm/dirty_background_ratio
	echo 3000 > /proc/sys/vm/dirty_expire_centisecs
	sync; echo 3 > /proc/sys/vm/drop_caches; sleep 1
	modprobe blkowner || exit 1
	dd if=/dev/zero of=/mnt/m bs=4096 count=1 seek=65536 status=none
	bash -c 'echo $$ > /sys/fs/cgroup/blkio/foo/cgroup.procs; exec dd if=/dev/zero of=/mnt/m bs=1M count=256 conv=notrunc status=none'
	bo_footprint
	echo "result store_fixed_bytes $(bo_stat store_fixed_bytes)"
	# With blk_page_ext=on the words are page_ext's, for every page of RAM.
	echo "result ram_pages $(awk '$1 == "present" { s += $2 } END { print s }' /proc/zoneinfo)"
	# Throttle accuracy: foo limited to 4 MiB/s, 30 s of flusher
	# writeback (split_kb=64), rate from the disk's own counter.
	rm -f /mnt/m; sync
	echo 64 > /sys/module/blkowner/parameters/split_kb
	echo $((1 << 20)) > /proc/sys/vm/dirty_background_bytes
	echo 100 > /proc/sys/vm/dirty_expire_centisecs
	dev=$(cat /sys/block/nullb0/dev)
	echo "$dev $((4 << 20))" > /sys/fs/cgroup/blkio/foo/blkio.throttle.write_bps_device
	bash -c 'echo $$ > /sys/fs/cgroup/blkio/foo/cgroup.procs; exec dd if=/dev/zero of=/mnt/t bs=1M count=200 status=none' &
	sleep 3
	w0=$(awk '{ print $7 }' /sys/block/nullb0/stat); t0=$(date +%s%N)
	sleep 30
	w1=$(awk '{ print $7 }' /sys/block/nullb0/stat); t1=$(date +%s%N)
	echo "$dev 0" > /sys/fs/cgroup/blkio/foo/blkio.throttle.write_bps_device
	wait
	echo "result throttle_kib_s $(( (w1 - w0) * 512 * 1000 / ((t1 - t0) / 1000000) / 1024 ))"
	;;
profile_blkowner)	# bench/profile: the blkowner section's writes, off or on ($2)
	bo_writer_setup
	bw_kib "${BUF[@]}" > /dev/null; rm -f /mnt/b*; sync
	profile_load blkowner "${2:-}"
	for i in 1 2; do
		bw_kib "${BUF[@]}" > /dev/null; rm -f /mnt/b*; sync
	done
	echo "result unit page_written"
	echo "result units $(( 2 * (256 << 20) / 4096 ))"
	;;
profile_rocheck)	# bench/profile: the rocheck section's 4 KiB writes, off or on ($2)
	nullb
	# A read-only loop device beside: the submit hook armed, as it profiles.
	ro_loop || exit 1
	bw_kib "${RW4K[@]}" --io_size=32m > /dev/null
	profile_load rocheck "${2:-}"
	bw_kib "${RW4K[@]}" --io_size=128m > /dev/null
	echo "result unit write"
	echo "result units $(( (128 << 20) / 4096 ))"
	;;
wb_v1|wb_v2)	# buffered writeback in a group: v1 + blkowner (hooks) or v2 (vanilla)
	nullb_ext4
	name=nullb0 dev=$(cat /sys/block/nullb0/dev)
	MiB=1048576
	if [ "$1" = wb_v1 ]; then
		# v1 as systemd mounts it: blkio and memory apart.
		C=/sys/fs/cgroup/blkio M=/sys/fs/cgroup/memory
		mkdir -p $C $M
		mount -t cgroup -o blkio blkio $C && mount -t cgroup -o memory memory $M || exit 1
		mkdir $C/foo $C/bar $M/foo $M/bar
		modprobe blkowner || exit 1
		limit() { echo "$dev $2" > $C/$1/blkio.throttle.write_bps_device; }
		in_cg() { local g=$1; shift; bash -c "echo \$\$ > $C/$g/cgroup.procs && echo \$\$ > $M/$g/cgroup.procs && exec \"\$@\"" _ "$@" & }
	else
		# v2 with memory and io: cgroup writeback charges the group.
		C=/sys/fs/cgroup/unified
		mkdir -p $C && mount -t cgroup2 none $C || exit 1
		echo "+io +memory" > $C/cgroup.subtree_control
		mkdir $C/foo $C/bar
		limit() { echo "$dev wbps=$([ "$2" = 0 ] && echo max || echo "$2")" > $C/$1/io.max; }
		in_cg() { local g=$1; shift; bash -c "echo \$\$ > $C/$g/cgroup.procs && exec \"\$@\"" _ "$@" & }
	fi
	in_root() { "$@" & }
	settle() { sync; echo 3 > /proc/sys/vm/drop_caches; }
	# The cost: 256 MiB buffered + fsync, in the root group and in foo
	# (no limit), the flusher writing back from 16 MiB dirty.
	echo $((16 * MiB)) > /proc/sys/vm/dirty_background_bytes
	BUF=(--name=b --directory=/mnt --rw=write --bs=1m --size=256m --end_fsync=1
	     --ioengine=psync --invalidate=0)
	# cost LAUNCHER...: KiB/s of the fio run LAUNCHER starts.
	cost() { "$@" fio --output-format=terse --terse-version=3 "${BUF[@]}" > /tmp/f; wait $!
		awk -F';' '{ print $48 }' /tmp/f; rm -f /mnt/b*; settle; }
	c_root() { echo "off $(cost in_root)"; }
	c_grp() { echo "on $(cost in_cg foo)"; }
	pairs 9 c_root c_grp > /tmp/r
	sed 's/^/run /' /tmp/r >&2
	medians root_kib_s=off group_kib_s=on
	pair_ratios cost
	# Accuracy: foo at 1 and 4 MiB/s, the disk's rate over 30 s of
	# flusher writeback, 3 s in.
	echo $MiB > /proc/sys/vm/dirty_background_bytes
	echo $((256 * MiB)) > /proc/sys/vm/dirty_bytes
	echo 100 > /proc/sys/vm/dirty_expire_centisecs
	echo 100 > /proc/sys/vm/dirty_writeback_centisecs
	for u in 1 4; do
		limit foo $((u * MiB))
		in_cg foo dd if=/dev/zero of=/mnt/t bs=1M count=200 status=none
		sleep 3
		w0=$(disk_bytes_written); t0=${EPOCHREALTIME/./}
		sleep 30
		w1=$(disk_bytes_written); t1=${EPOCHREALTIME/./}
		limit foo 0
		wait
		rm -f /mnt/t; settle
		echo "result throttle_${u}m_kib_s $(( (w1 - w0) * 1000000 / (t1 - t0) / 1024 ))"
	done
	# Isolation: bar writes 48 MiB + fsync three times, alone and beside
	# foo's 64 MiB at 1 MiB/s; solo and busy windows alternate, each busy
	# one compared with the mean of the solo ones around it (median of
	# five), and two hundred 4 KiB write+fsync beside foo in each round,
	# 10 ms apart: the median, 99th percentile and worst of the thousand.
	# Both are timed in bar: joining a group (fork, cgroup.procs) takes 7
	# to 20 ms under TCG, v1 and v2 alike, and a dd per sample 2 ms, where
	# the truncate, write and fsync take 0.3 (fsynclat times those calls
	# alone).  The slow samples are rare (two in a thousand, v1 + blkowner,
	# 2026-12-06): a hundred samples 0.3 s apart caught one or none, and
	# v1 + blkowner's worst of them read 395, 689 and 1172 us in three
	# boots.
	sib() {
		in_cg bar bash -c 't0=${EPOCHREALTIME/./}
			for i in 1 2 3; do
				dd if=/dev/zero of=/mnt/sib bs=1M count=48 conv=fsync status=none
				rm -f /mnt/sib
			done
			t1=${EPOCHREALTIME/./}
			echo $(( 3 * 48 * 1024 * 1000000 / (t1 - t0) ))'
		wait $!
	}
	small() {	# µs of each of two hundred 4 KiB write+fsync, 10 ms apart
		in_cg bar "$ST_HELPERS/fsynclat" /mnt/small 200 10
		wait $!
	}
	ratios= lat=
	before=$(sib)
	for i in 1 2 3 4 5; do
		limit foo $MiB
		in_cg foo dd if=/dev/zero of=/mnt/hog bs=1M count=64 status=none; hog=$!
		sleep 3
		busy=$(sib)
		lat+="$(small) "
		limit foo 0
		wait $hog; settle; rm -f /mnt/hog /mnt/small
		after=$(sib)
		echo "run solo $before busy $busy solo $after" >&2
		ratios+="$(( busy * 200 / (before + after) )) "
		before=$after
	done
	echo "result isolation_pct $(echo $ratios | tr ' ' '\n' | median)"
	echo "run fsync_us" $lat >&2
	echo "result median_fsync_us $(echo $lat | tr ' ' '\n' | median)"
	echo "result p99_fsync_us $(echo $lat | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR * 99 + 99) / 100)] }')"
	echo "result worst_fsync_us $(echo $lat | tr ' ' '\n' | sort -n | tail -1)"
	;;
blkowner_anon)	# the swap half's cost: anonymous page faults in a tagged group
	mkdir -p /sys/fs/cgroup/blkio /sys/fs/cgroup/memory
	mount -t cgroup -o blkio blkio /sys/fs/cgroup/blkio &&
		mount -t cgroup -o memory memory /sys/fs/cgroup/memory || exit 1
	mkdir -p /sys/fs/cgroup/blkio/foo /sys/fs/cgroup/memory/foo
	echo $$ > /sys/fs/cgroup/blkio/foo/cgroup.procs
	echo $$ > /sys/fs/cgroup/memory/foo/cgroup.procs
	# 4 KiB faults, one hook call each: the worst case.  A THP fault
	# calls it once for 512 pages and is one fault for all of them, so
	# whether a THP was free would swing the rate 5x.
	echo never > /sys/kernel/mm/transparent_hugepage/enabled
	# 256 MiB faulted in once, then freed (munmap): both hooks' cost.
	# Timed by anontouch itself, from its mmap on: loading the program
	# from the host's 9p share takes host time, which the instruction
	# clock cannot hide (35513 to 119365 pages/s beside a kernel build
	# when it was counted).
	faults() {
		local out
		out=$("$ST_HELPERS/anontouch" 256 0) || exit 1
		echo "$out" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(pages|wall_ms)=/) { split($i, f, "="); v[f[1]] = f[2] } }
			END { printf "%d\n", v["pages"] * 1000 / v["wall_ms"] }'
	}
	an_off() { echo "off $(faults)"; }
	an_on() {
		modprobe blkowner || exit 1
		echo "on $(faults)"
		echo "tagged $(bo_stat anon_tagged)"
		rmmod blkowner
	}
	pairs 9 an_off an_on > /tmp/r
	sed 's/^/run /' /tmp/r >&2
	medians without=off with=on tagged=tagged
	pair_ratios ratio
	# Memory per tracked anonymous page: 256 MiB held, tagged.
	modprobe blkowner || exit 1
	"$ST_HELPERS/anontouch" 256 6 hold > /dev/null &
	sleep 4
	bo_footprint
	wait
	;;
esac
