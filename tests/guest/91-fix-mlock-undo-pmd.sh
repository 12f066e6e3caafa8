# Disabling the mlock fix also munlocks a folio that a PMD maps elsewhere
#. A process locks a 2 MiB anonymous THP (MAP_LOCKED), forks a
# child that keeps the PMD mapping (a child's VMA is not VM_LOCKED), and
# splits its own PMD mapping into PTEs (mprotect of one page and back):
# the folio is then fully mapped by PTEs in a locked VMA and by a PMD in an
# unlocked one. The stock kernel leaves it unmlocked (fixes=none, the
# reference); the fix's repair mlocks it, through the locked PTE mapping.
# Where the disable has an undo (6.1, "undo=done"), Mlocked must be back at
# the reference, within 64 kB, while both processes still hold it; the 6.1
# undo skipped any folio that a PMD also maps, and left the 2048 kB
# mlocked. 6.12 has no undo: its stock code munlocks the folio when the
# locked mapping goes. On both, once the processes have exited and the
# modules are gone, Mlocked must be back at its start.
. ./lib.sh
need_fix_probe mlock "" active
cleanup() { unhold; unload; knobs_restore; }
trap cleanup EXIT
# MAP_LOCKED populates in mmap(), before ma-lock can madvise() it
knob /sys/kernel/mm/transparent_hugepage/enabled always
knob /proc/sys/vm/compact_unevictable_allowed 0

# smaps_kb PID FIELD: FIELD of the mapping at $addr in /proc/PID/smaps
smaps_kb() {
	awk -v a="${addr#0x}" -v f="$2:" '
		$1 ~ /^[0-9a-f]+-[0-9a-f]+$/ { split($1, r, "-"); in_it = (r[1] == a) }
		in_it && $1 == f { print $2; exit }' /proc/"$1"/smaps
}
# play FIXES: hold the folio as above, load the module; sets ml0 (before),
# ml1 (loaded), ml2 (after the disable, still held), ml3 (after the exit
# and the unload), undo (the fix's undo state after the disable)
play() {
	drain
	ml0=$(meminfo_kb Mlocked)
	hold --anon --mb 2 --lock maplocked --fork-first --split-pmd
	addr=$(sed -n 's/^ready .*addr=0x\([0-9a-f]*\).*/\1/p' /tmp/hold.$HOLDS.out)
	[ -n "$addr" ] && [ -n "$HOLD_CHILD" ] || fail "ma-lock said: $(cat /tmp/hold.$HOLDS.out)"
	# the scenario: PTEs in the parent, a PMD in the child
	p_thp=$(smaps_kb "$HOLD_PID" AnonHugePages) p_rss=$(smaps_kb "$HOLD_PID" Rss)
	c_thp=$(smaps_kb "$HOLD_CHILD" AnonHugePages)
	[ "$p_thp" = 0 ] && [ "$p_rss" = 2048 ] && [ "$c_thp" = 2048 ] ||
		fail "fixes=$1: not the scenario: parent AnonHugePages=$p_thp Rss=$p_rss, child AnonHugePages=$c_thp kB"
	load fixes="$1"
	wait_for 30 sh -c "! grep -q '^fix=mlock .*repair=running' $DBG/fixes" ||
		fail "the repair still running 30 s after the load"
	drain
	ml1=$(meminfo_kb Mlocked)
	lp_disable
	undo=$(sed -n 's/^fix=mlock .* undo=\([a-z]*\) .*/\1/p' $DBG/fixes)
	drain
	ml2=$(meminfo_kb Mlocked)
	unhold
	unload
	drain
	ml3=$(meminfo_kb Mlocked)
}
play none
ref=$((ml2 - ml0))
info "fixes=none: Mlocked $ml0 -> $ml1 (loaded) -> $ml2 kB (after the disable)"
[ $ref -ge -64 ] && [ $ref -le 64 ] || fail "fixes=none: Mlocked moved by $ref kB"
play mlock
info "fixes=mlock: Mlocked $ml0 -> $ml1 (repaired) -> $ml2 (after the disable, undo=$undo) -> $ml3 kB (after the exit)"
[ $((ml1 - ml0)) -ge 2048 ] && [ $((ml1 - ml0)) -le $((2048 + 64)) ] ||
	fail "the repair mlocked $((ml1 - ml0)) kB of the 2048 kB folio: no undo to judge"
case $undo in
done)
	d=$((ml2 - ml0))
	[ $d -ge $((ref - 64)) ] && [ $d -le $((ref + 64)) ] ||
		fail "after the disable and its undo, Mlocked is $d kB above its start; the stock kernel's is $ref kB"
	;;
none) [ "$MA_KERNEL" != 6.1 ] || fail "6.1 disabled the fix without an undo" ;;
*) fail "the undo is '$undo' after the disable" ;;
esac
d=$((ml3 - ml0))
[ $d -ge -64 ] && [ $d -le 64 ] || fail "after the exit and the unload, Mlocked is $d kB above its start"
exit 0
