# Processes that exit while the mlock fix goes leave nothing mlocked
#. Six processes each hold a cold 16 MiB XFS file (large
# folios) MAP_LOCKED, which the fix mlocks; they are killed right after
# the fix starts to go: after "0" is written to the livepatch's "enabled",
# and after a foreign cumulative livepatch (.replace = true,
# tests/modules/ma_lp_replace) is loaded over ours. Once the livepatch is
# gone, its undo done and the modules removed, Mlocked must be back within
# 256 kB of where it started (both bounds), as on the stock kernel, which
# the same workload with fixes=none shows first. 6.1 never munlocks a
# PTE-mapped large folio itself: a process that unmapped one with the
# stock code, before the undo reached it, left it mlocked (16384 kB after
# rmmod, where stock leaves 0). 6.12's stock code munlocks them; the
# scenario runs there once per way, to compare.
# Rounds per way: MA_ROUNDS (default 3 on 6.1, 1 elsewhere).
. ./lib.sh
N=6 MB=16
need_fix_probe mlock "" active
[ -f $RP_KO ] || fail "no $RP_KO (tests/run builds it)"
rounds=${MA_ROUNDS:-1}
[ "$MA_KERNEL" = 6.1 ] && rounds=${MA_ROUNDS:-3}
cleanup() {
	unhold
	[ -d /sys/module/ma_lp_replace ] && unreplace
	unload
	umount /mnt/xfs 2>/dev/null
	knobs_restore
}
trap cleanup EXIT
knob /proc/sys/vm/compact_unevictable_allowed 0
xfs_mount
i=0
while [ $i -lt $N ]; do
	dd if=/dev/zero of=/mnt/xfs/f$i bs=1M count=$MB 2>/dev/null || fail "dd of /mnt/xfs/f$i"
	i=$((i + 1))
done
sync

# play HOW FIXES: hold the six files, start the fix's going (HOW: disable
# or replace), kill the holders at once, wait for the end; sets ml0, ml1
# (held), ml2 (after rmmod) in kB, and undo (the fixes file's undo fields)
play() {
	echo 3 >/proc/sys/vm/drop_caches
	drain
	ml0=$(meminfo_kb Mlocked)
	load ${2:+fixes=$2}
	pids=""
	i=0
	while [ $i -lt $N ]; do
		hold --file /mnt/xfs/f$i --mb $MB --lock maplocked
		pids="$pids $HOLD_PID"
		i=$((i + 1))
	done
	drain
	ml1=$(meminfo_kb Mlocked)
	undo=""
	case $1 in
	disable)
		# with fixes=none there is no livepatch to disable
		if [ "$2" != none ]; then
			[ -d $LP ] || fail "no livepatch with fixes=$2"
			echo 0 >$LP/enabled || fail "echo 0 >$LP/enabled"
		fi
		# shellcheck disable=SC2086 # one pid per word
		kill -KILL $pids || fail "kill of the holders"
		unhold
		lp_disable
		;;
	replace)
		insmod $RP_KO || fail "insmod $RP_KO"
		# shellcheck disable=SC2086 # one pid per word
		kill -KILL $pids || fail "kill of the holders"
		unhold
		wait_for 60 file_is $RP/transition 0 ||
			fail "ma_lp_replace still in transition 60 s after insmod"
		if [ "$2" != none ]; then
			wait_for 10 grep -q '^livepatch state=replaced' $DBG/fixes ||
				fail "10 s after the replacement, fixes says: $(grep '^livepatch' $DBG/fixes)"
		fi
		wait_for 60 undo_over ||
			fail "the undo still running 60 s after the replacement"
		;;
	esac
	undo=$(sed -n 's/^fix=mlock .*\( undo=[a-z]* undone_pages=[0-9]*\).*/\1/p' $DBG/fixes)
	unload
	[ -d /sys/module/ma_lp_replace ] && unreplace
	drain
	ml2=$(meminfo_kb Mlocked)
}

for how in disable replace; do
	# the reference: the stock kernel's code
	play $how none
	info "$how, fixes=none: Mlocked $ml0 -> $ml1 (held) -> $ml2 kB"
	[ $ml2 -ge $((ml0 - 256)) ] && [ $ml2 -le $((ml0 + 256)) ] ||
		fail "$how, fixes=none: Mlocked $ml0 -> $ml2 kB after the holders died"
	r=1
	while [ $r -le $rounds ]; do
		play $how ""
		info "$how, round $r: Mlocked $ml0 -> $ml1 (held) -> $ml2 kB;$undo"
		# the fix mlocked them, so that there was something to undo
		[ $((ml1 - ml0)) -ge $((N * MB * 512)) ] && [ $((ml1 - ml0)) -le $((N * MB * 1024 + 1024)) ] ||
			fail "$how, round $r: Mlocked grew by $((ml1 - ml0)) kB for $((N * MB * 1024)) kB held"
		[ $ml2 -ge $((ml0 - 256)) ] && [ $ml2 -le $((ml0 + 256)) ] ||
			fail "$how, round $r: Mlocked $ml0 -> $ml2 kB once the fix was gone;$undo"
		r=$((r + 1))
	done
done
exit 0
