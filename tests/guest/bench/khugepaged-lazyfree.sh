# Seed 003 scenario: three processes registered with khugepaged in the
# order hot1, cold, hot2, 128 MiB of small pages each (BENCH_MB to change
# it). The cold one wrote its memory, released it with MADV_FREE and read
# it once; the hot ones keep writing theirs. Per mode (fixes=none, then the
# "lazyfree" fix where it is carried): the time and khugepaged full scans
# until hot2 is all huge, and how much of cold is huge 3 full scans later.
# BENCH lines for tests/bench.
. /tests/lib.sh
THP=/sys/kernel/mm/transparent_hugepage
K=$THP/khugepaged
MB=${BENCH_MB:-128} SLEEP_MS=${BENCH_SLEEP_MS:-10} ROUNDS=${BENCH_ROUNDS:-3}
unload
# a short sleep, so that khugepaged's work, not its sleeping, sets the pace
echo "$SLEEP_MS" >$K/scan_sleep_millisecs
echo 4096 >$K/pages_to_scan
echo "BENCH settings enabled=$(sed 's/.*\[\(.*\)\].*/\1/' $THP/enabled) scan_sleep_millisecs=$(cat $K/scan_sleep_millisecs) pages_to_scan=$(cat $K/pages_to_scan) max_ptes_none=$(cat $K/max_ptes_none) mb=$MB"
load
state=$(fix_state lazyfree)
unload
echo "BENCH lazyfree_fix state=$state"
case $state in active) modes="none lazyfree" ;; *) modes="none" ;; esac
ahp() { awk '/^AnonHugePages:/ { print $2 }' /proc/$1/smaps_rollup; }
ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
start() { # OUT MODE: start a workload and wait for "ready"
	ma-workload "$2" $MB 600 >"$1" &
	pid=$!
	n=0
	until grep -q ready "$1"; do
		[ $n -ge 600 ] && fail "$2 workload not ready in 60 s"
		sleep 0.1
		n=$((n + 1))
	done
}
round=1
while [ $round -le "$ROUNDS" ]; do
	for mode in $modes; do
		load fixes=$mode
		# khugepaged sleeps while the three set up: it has work (a
		# 2 MiB mm registered before them), so it sleeps the full
		# scan_sleep_millisecs; writing that back wakes it
		# (scan_sleep_millisecs_store())
		ma-workload anon-thp 2 600 &
		d=$!
		sleep 0.5
		echo 600000 >$K/scan_sleep_millisecs
		sleep 1
		start /tmp/h1 hot; h1=$pid
		start /tmp/c lazyfree; c=$pid
		start /tmp/h2 hot; h2=$pid
		[ "$(ahp $h1)$(ahp $c)$(ahp $h2)" = 000 ] || fail "khugepaged collapsed during the set-up"
		t0=$(ms) f0=$(cat $K/full_scans) p0=$(cat $K/pages_collapsed)
		echo "$SLEEP_MS" >$K/scan_sleep_millisecs
		n=0
		until [ "$(ahp $h2)" -ge $((MB * 1024)) ]; do
			[ $n -ge 3000 ] && fail "fixes=$mode: hot2 not collapsed in 300 s"
			sleep 0.1
			n=$((n + 1))
		done
		t=$(($(ms) - t0)) f=$(($(cat $K/full_scans) - f0))
		cold_then=$(ahp $c)
		until [ "$(cat $K/full_scans)" -ge $((f0 + f + 3)) ]; do sleep 0.1; done
		echo "BENCH lazyfree round=$round fixes=$mode hot2_ms=$t hot2_full_scans=$f hot1_kb=$(ahp $h1) cold_kb_at_hot2=$cold_then cold_kb_after=$(ahp $c) collapsed=$(($(cat $K/pages_collapsed) - p0)) $(grep '^fix=lazyfree' $DBG/fixes | grep -o 'skipped_ranges=[0-9]*')"
		kill $h1 $c $h2 $d
		wait $h1 $c $h2 $d 2>/dev/null
		unload
	done
	round=$((round + 1))
done
