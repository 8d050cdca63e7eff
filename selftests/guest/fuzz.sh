#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
# plan: 61
#
# Hostile input: every writable parameter of every module is written with
# empty strings, very long strings, out-of-range numbers, unknown words,
# embedded newlines and NULs.  Each value must be refused (-EINVAL) with
# the old value kept and a dmesg line naming the accepted values.  The
# parameter and debugfs files are root-only, and nothing the modules print
# shows a raw kernel pointer.
. "$(dirname "$0")/../lib.sh"

MODS="rocheck intbounce blkowner blkhooks_test pidisk_test"
modprobe scsi_debug dif=1 dix=1 dev_size_mb=16 || bail "scsi_debug"
for m in $MODS; do
	modprobe $m || bail "cannot load $m"
done

# The kernel hands a parameter the bytes up to the first NUL, so "deny\0x"
# is "deny" for every parameter of every module; the NUL cases below put
# an invalid word before the NUL.
long4k=$(head -c 4000 /dev/zero | tr '\0' a)
long8k=$(head -c 8192 /dev/zero | tr '\0' b)
common=('x' 'WARN' 'deny ' ' off' 'off deny' 'deny,deny' '-1' '2'
	'4294967296' '99999999999999999999999999' '0x1' '1abc' 'on' 'yes please'
	'off\ndeny' 'auto\nx' 'x\0deny' '\x01' '\xff\xfe' '%s%s%s%n' "$long4k"
	"$long8k")
# Blank and newline-only values clear a list parameter (they are valid
# there), and are hostile for every word or boolean parameter.  (A
# zero-byte write never reaches the parameter: "\0" is the empty value.)
blank=(' ' '\n' '\0' '\0off')

hostile_for() {	# hostile_for MODULE PARAM: print one value per line, %b-escaped
	local v
	for v in "${common[@]}"; do printf '%s\n' "$v"; done
	case $1.$2 in
	rocheck.open_exempt|rocheck.dev_policy)
		printf '%s\n' 'comm:' 'kernel,comm:' 'sda=' '=off' 'sda=off=deny' \
			'1:2:3=deny' '99999:0=deny' 'sda=off,sdb=maybe' \
			"comm:$(head -c 16 /dev/zero | tr '\0' c)" \
			"$(seq -s, 1 20 | sed 's/[0-9]*/x&=off/g')" \
			"$(seq -s, 1 9 | sed 's/[0-9]*/comm:c&/g')" ;;
	*)	for v in "${blank[@]}"; do printf '%s\n' "$v"; done ;;
	esac
}

for m in $MODS; do
	for f in /sys/module/$m/parameters/*; do
		p=${f##*/}
		case $(stat -c '%U %a' "$f") in
		"root 600"|"root 400"|"root 200") pass "$m.$p is root-only ($(stat -c %A "$f"))" ;;
		*) fail "$m.$p is root-only ($(stat -c '%U %A' "$f"))" ;;
		esac
		# Write-only (an action, such as rocheck.unlock): nothing to
		# read back, every hostile value must still be refused.
		case $(stat -c %a "$f") in
		600) old=$(cat "$f") ;;
		200) old= ;;
		*) continue ;;
		esac
		n=0 bad=0
		while IFS= read -r v; do
			n=$((n + 1))
			# One write(2) of the whole value, as an application's.
			printf '%b' "$v" > /tmp/value
			if dd if=/tmp/value of="$f" bs=64k status=none 2>/dev/null; then
				bad=$((bad + 1))
				diag "$m.$p accepted '$(printf %q "$v" | head -c 60)'"
				[ -z "$old" ] || echo "$old" > "$f"
			elif [ -n "$old" ] && [ "$(cat "$f")" != "$old" ]; then
				bad=$((bad + 1))
				diag "$m.$p changed to '$(cat "$f")' on a refused write"
			fi
		done < <(hostile_for "$m" "$p")
		expect_eq "$m.$p: $n hostile values refused, old value '$old' kept" 0 "$bad"
		ok_if "$m.$p: dmesg names the accepted values" \
			bash -c "dmesg | grep -q '$m: $p: invalid value, accepted: '"
	done
	for f in /sys/kernel/debug/$m/*; do
		expect_eq "debugfs $m/${f##*/} is root-only" "root 400" "$(stat -c '%U %a' "$f")"
	done
done

# The same values at load time: modprobe fails and nothing is left loaded.
for m in $MODS; do rmmod $m; done
refused=0 tried=0
for spec in "rocheck open=maybe" "rocheck submit=" "rocheck dev_policy=sda=x" \
	    "intbounce mode=fast" "intbounce pool_pages=0" "intbounce pool_pages=-1" \
	    "intbounce pool_pages=99999999999" "intbounce pool_pages=1k" \
	    "blkowner enabled=2" "blkowner hierarchies=v3" "blkowner v2_override=on" \
	    "blkhooks_test attached=maybe" "pidisk_test lbs=768" \
	    "pidisk_test lbs=8192" "pidisk_test max_segments=0" \
	    "pidisk_test delay_ms=1s" "pidisk_test size_mb=99999"; do
	tried=$((tried + 1))
	m=${spec%% *} p=${spec#* } p=${p%%=*}
	msg="$m: $p: invalid value, accepted: "
	n=$(dmesg | grep -c "$msg")
	# shellcheck disable=SC2086
	out=$(modprobe $spec 2>&1)
	# Refused for this value: EINVAL, the dmesg line naming the accepted
	# values, and nothing loaded; any other failure is not a refusal.
	if grep -q 'Invalid argument' <<< "$out" &&
	   [ "$(dmesg | grep -c "$msg")" -gt "$n" ] &&
	   ! grep -q "^$m " /proc/modules; then
		refused=$((refused + 1))
	else
		diag "not refused as a bad value: $spec ($out)"
		rmmod "$m" 2>/dev/null
	fi
done
expect_eq "hostile values at load time refused with EINVAL and a dmesg line naming the accepted values, module not loaded" "$tried" "$refused"

# Every line the modules printed, and every file they expose: no raw
# pointers (a kernel address is 0xffff followed by 12 hex digits).
for m in $MODS; do modprobe $m; done
dd if=/dev/zero of=$(scsi_debug_disk) bs=64k count=4 oflag=direct status=none
{
	dmesg | grep -E 'rocheck|intbounce|blkowner|blkhooks_test|pidisk'
	cat /sys/module/{rocheck,intbounce,blkowner,blkhooks_test,pidisk_test}/parameters/* \
		/sys/kernel/debug/{rocheck,intbounce,blkowner,blkhooks_test,pidisk_test}/*
} > /tmp/outputs 2>&1
diag "$(wc -l < /tmp/outputs) lines of module output checked"
ok_if "no raw kernel pointer in any module output" \
	bash -c "! grep -Eiq '(0x)?ffff[0-9a-f]{12}' /tmp/outputs"
for m in $MODS; do rmmod $m || fail "rmmod $m"; done
st_done
