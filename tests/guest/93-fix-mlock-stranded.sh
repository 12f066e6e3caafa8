# The kernel's stranded-munlock race must not leave page cache mlocked
#. A munlock that finds a folio off the LRU for a moment clears
# PG_mlocked but leaves its mlock_count; the next mlock adds to that stale
# count, and the last munlock leaves the folio mlocked with no locked
# mapping, until the file goes. The stock kernel has the race; the fix,
# which mlocks every large folio a locked VMA maps whole, makes it
# frequent (83-stress-fixes-on on 6.12 kept a 1 MiB folio and a 4 KiB page
# mlocked without the guard of lp_mlock_folio.c). Played step by step with
# the test module ma_lruhold, which takes the folio off the LRU as another
# CPU's LRU batch does (ma-stranded: lock a file, hold one folio off the
# LRU, munlock, put it back, lock and unlock again), on a large folio of a
# 16 MiB cold XFS file and on a page of a 1 MiB tmpfs file (huge=never).
# Judged by /proc/meminfo and kpageflags, on the same workload:
# - fixes=none, the reference: the stock kernel keeps the folio mlocked in
#   the end (else the race was not played), except for a large folio on
#   6.1, which mlocks no PTE-mapped large folio: nothing to strand there;
# - with the fix: Mlocked and Unevictable back at their start values, the
#   folio neither mlocked nor unevictable, and count_resets up by one.
. ./lib.sh
[ -f /add/ma_lruhold.ko ] || fail "no /add/ma_lruhold.ko (tests/run builds it)"
cleanup() {
	rmmod ma_lruhold 2>/dev/null
	unload
	umount /mnt/xfs /mnt/small 2>/dev/null
	knobs_restore
}
trap cleanup EXIT
need_fix_probe mlock "" active
insmod /add/ma_lruhold.ko || fail "insmod ma_lruhold"

file() { # KIND: a fresh file for the KIND arm; sets F, MB, ml0, ue0
	case $1 in
	large) MB=16 F=/mnt/xfs/f; cold_xfs_file $MB ;;
	small)
		MB=1 F=/mnt/small/f
		mkdir -p /mnt/small
		mount -t tmpfs -o huge=never,size=8m tmpfs /mnt/small || fail "tmpfs"
		dd if=/dev/zero of=$F bs=1M count=$MB 2>/dev/null || fail "dd of $F"
		drain
		ml0=$(meminfo_kb Mlocked) ue0=$(meminfo_kb Unevictable)
		;;
	esac
}
play() { # KIND FIXES: sets out, dm, du (kB left), resets
	unload
	load fixes="$2"
	file "$1"
	out=$(ma-stranded $F $MB $1 2>&1) || fail "$1: ma-stranded failed with fixes=$2: $out"
	drain
	dm=$(($(meminfo_kb Mlocked) - ml0)) du=$(($(meminfo_kb Unevictable) - ue0))
	resets=$(field count_resets "$(grep '^fix=mlock' $DBG/fixes 2>/dev/null)")
	info "$1, fixes=$2: $(echo "$out" | tr '\n' ' ')-> Mlocked +$dm kB, Unevictable +$du kB; $(ma-kpcache $F)${resets:+; count_resets=$resets}"
	umount "${F%/f}"
}
stranded() { # KIND FIXES
	echo "$out" | grep -q '^stranded held=1 .* mlocked=0 unevictable=1 ' ||
		fail "$1, fixes=$2: the munlock did not strand the folio: $out"
}

for kind in large small; do
	play $kind none
	if [ $kind = large ] && [ "$MA_KERNEL" = 6.1 ]; then
		[ "$out" = "target none" ] || fail "stock 6.1 mlocked a PTE-mapped large folio: $out"
	else
		pages=$(echo "$out" | sed -n 's/^target .* pages=\([0-9]*\)$/\1/p')
		[ -n "$pages" ] || fail "$kind, fixes=none: no mlocked folio to play the race on: $out"
		stranded $kind none
		# the reference shows the harm: the folio stays mlocked, unmapped
		echo "$out" | grep -q '^after mlocked=1 unevictable=1$' && [ $dm -ge $((pages * 4)) ] ||
			fail "$kind, fixes=none: the race left nothing mlocked (Mlocked +$dm kB): the test does not play it"
	fi

	play $kind all
	echo "$out" | grep -q '^target addr=' || fail "$kind, with the fix: no mlocked folio: $out"
	stranded $kind all
	echo "$out" | grep -q '^after mlocked=0 unevictable=0$' ||
		fail "$kind, with the fix the folio stayed mlocked or unevictable: $out"
	[ $dm -le 64 ] && [ $du -le 64 ] ||
		fail "$kind, with the fix Mlocked +$dm kB, Unevictable +$du kB after the workload"
	[ "${resets:-0}" -ge 1 ] || fail "$kind, with the fix count_resets is '$resets': the guard did not act"
done
exit 0
