# The "scanresume" fix (seed 004) judged by what khugepaged does, read from
# outside the module: a kprobe event on the kernel's own per-range scan
# function (hpage_collapse_scan_pmd on 6.1 and 6.12, collapse_single_pmd on
# 7.3) records the address of each PMD range khugepaged looks at. The
# contended mm (ma-scanresume) holds 10000 small VMAs khugepaged cannot
# collapse, then 32 PMD ranges it may collapse but cannot (a forked child
# shares every page), and one thread keeps taking its mmap_lock for
# writing. Stock khugepaged starts the mm again at address 0 after each
# lost mmap_read_trylock(): the first range comes next after a range short
# of the last (a restart). With the fix a visit starts where the last one
# stopped: the ranges come in order, back to the first only after the
# last. A build whose visits are counted as resumed but start at 0
# (tests/breaks/scanresume_no_resume.patch, run by hand) fails here.
. ./lib.sh
need_fix_probe scanresume "fixes=scanresume" active
TR=/sys/kernel/tracing
THP=/sys/kernel/mm/transparent_hugepage
BASE=$((128 << 30))	# ma-scanresume's SHARED_BASE
NR=32
LAST=$((BASE + (NR - 1) * 2097152))
SECS=${MA_SCANRESUME_SECS:-20}

# Small pages at fault ("madvise"); only the mm that asks is scanned.
knob $THP/enabled madvise
[ -e $THP/hugepages-2048kB/enabled ] && knob $THP/hugepages-2048kB/enabled inherit
knob $KH/scan_sleep_millisecs 100
knob $KH/pages_to_scan 4096

if grep -q ' hpage_collapse_scan_pmd$' /proc/kallsyms; then
	probe='p:ma/scan hpage_collapse_scan_pmd addr=%dx:u64'
elif grep -q ' collapse_single_pmd$' /proc/kallsyms; then
	probe='p:ma/scan collapse_single_pmd addr=%di:u64'
else
	fail "neither hpage_collapse_scan_pmd nor collapse_single_pmd is in /proc/kallsyms"
fi
probe_off() {
	echo 0 >$TR/events/ma/scan/enable 2>/dev/null
	echo '-:ma/scan' >>$TR/kprobe_events 2>/dev/null
	kill $spid 2>/dev/null
}
trap 'probe_off; kh_holder_end; knobs_restore; modules_restore' EXIT
echo "$probe" >>$TR/kprobe_events || fail "cannot add the kprobe event '$probe'"
echo "addr >= $BASE && addr <= $LAST" >$TR/events/ma/scan/filter ||
	fail "cannot set the event's filter"

# run NAME: SECS seconds of the contended mm, traced; sets hits (ranges
# looked at), first, last (looks at the first and the last range), laps
# (times the last range was followed by the first) and restarts (times
# the first range followed one short of the last)
run() {
	rn=$1
	echo 0 >$TR/tracing_on
	: >$TR/trace
	echo 1 >$TR/events/ma/scan/enable
	ma-scanresume --hold 10000 0 1 $((SECS + 60)) $NR >/tmp/srr.out &
	spid=$!
	wait_for 30 grep -q '^ready' /tmp/srr.out || fail "$rn: ma-scanresume not ready in 30 s"
	echo 1 >$TR/tracing_on
	sleep "$SECS"
	echo 0 >$TR/tracing_on
	kill $spid
	wait $spid 2>/dev/null
	echo 0 >$TR/events/ma/scan/enable
	sed -n 's/.* addr=\([0-9]*\).*/\1/p' $TR/trace >/tmp/srr.addr
	set -- $(awk -v b=$BASE -v l=$LAST '
		{ n++; if ($1 == b) f++; if ($1 == l) e++
		  if (NR > 1 && $1 <= p) { if (p == l) laps++; else restarts++ }
		  p = $1 }
		END { printf "%d %d %d %d %d\n", n, f, e, laps, restarts }' /tmp/srr.addr)
	hits=$1 first=$2 last=$3 laps=$4 restarts=$5
	info "$rn: $SECS s: $hits ranges looked at, first range $first times, last $last, $laps laps, $restarts restarts"
}

# Stock: a restart needs khugepaged to lose the trylock at the start of a
# visit that follows one short of the last range; up to three runs.
unload
try=1
while :; do
	run "stock, run $try"
	[ "$restarts" -ge 3 ] && break
	[ $try -ge 3 ] && fail "stock khugepaged restarted the contended mm $restarts times in run $try: the scenario does not show the fault"
	try=$((try + 1))
done
[ "$last" -lt "$first" ] || fail "stock: the last range was looked at $last times, the first $first: restarts should favour the first"

load fixes=scanresume
[ "$(fix_state scanresume)" = active ] || fail "scanresume not active"
run "fix"
res=$(fixes_field resumed_visits)
info "fix: resumed_visits=$res"
unload
[ "$laps" -ge 2 ] || fail "with the fix: only $laps laps over the $NR ranges in $SECS s"
[ "$restarts" = 0 ] || fail "with the fix: $restarts visits started again at the first range, short of the last"
[ "$res" -gt 0 ] || fail "with the fix: no visit resumed (the mm never lost the trylock?)"
# in order, each range as often as the others, within one lap
[ $((first - last)) -le 1 ] && [ $((last - first)) -le 1 ] ||
	fail "with the fix: the first range looked at $first times, the last $last"
exit 0
