# Seed 004 scenario (ma-scanresume): one mm with NVMAS small VMAs that
# cannot be collapsed, SHARED PMD ranges that are eligible but not
# collapsible (a child shares their pages), NRANGES PMD ranges of small
# pages above them, and
# THREADS threads flipping the protection of their own 8 MiB, which take
# its mmap_lock for writing. Per mode, ROUNDS times: the time until every
# range is a huge page. The modes: "none" (fixes=none: stock khugepaged),
# "scanresume" (the fix, where it is carried) and "copy": the module built
# with the break noop_scanresume, given as the modules in $COPY, loaded with
# fixes=scanresume: the module's own copy of khugepaged's loop, without
# the resume, so that the gain is measured against the same copy. BENCH
# lines for tests/bench.
. /tests/lib.sh
THP=/sys/kernel/mm/transparent_hugepage
K=$THP/khugepaged
NVMAS=${BENCH_NVMAS:-10000} NRANGES=${BENCH_NRANGES:-32} THREADS=${BENCH_THREADS:-1}
SHARED=${BENCH_SHARED:-128}
ROUNDS=${BENCH_ROUNDS:-3}
# a round that has not collapsed the ranges by then is a timeout (a
# failure of the benchmark). With 256 shared ranges stock 6.1 took
# 149 s, 228 s and once more than 600 s under TCG; with 128, 22-47 s.
LIMIT_S=${BENCH_LIMIT_S:-600}
unload
echo 100 >$K/scan_sleep_millisecs
echo 4096 >$K/pages_to_scan
echo "BENCH settings enabled=$(sed 's/.*\[\(.*\)\].*/\1/' $THP/enabled) scan_sleep_millisecs=$(cat $K/scan_sleep_millisecs) pages_to_scan=$(cat $K/pages_to_scan) nvmas=$NVMAS nranges=$NRANGES shared=$SHARED threads=$THREADS limit_s=$LIMIT_S max_ptes_shared=$(cat $K/max_ptes_shared)"
load
state=$(fix_state scanresume)
detail=$(sed -n 's/^fix=scanresume .*detail=//p' $DBG/fixes)
unload
echo "BENCH scanresume_fix state=$state detail=$detail"
COPY=/add/noop_scanresume
case $state in
active)
	modes="none scanresume"
	[ ! -f $COPY/mlock_audit_fixes.ko ] || modes="$modes copy"
	;;
*) modes="none" ;;
esac
round=1
while [ $round -le "$ROUNDS" ]; do
	for mode in $modes; do
		case $mode in
		copy)
			use_modules $COPY
			load fixes=scanresume
			;;
		*) load fixes=$mode ;;
		esac
		f0=$(cat $K/full_scans)
		out=$(ma-scanresume "$NVMAS" "$NRANGES" "$THREADS" "$LIMIT_S" "$SHARED") || fail "ma-scanresume failed: $out"
		res=$(echo "$out" | grep -E '^(collapsed|timeout)_ms=')
		echo "BENCH scanresume round=$round fixes=$mode $res full_scans=$(($(cat $K/full_scans) - f0)) $(grep '^fix=scanresume' $DBG/fixes | grep -o 'resumed_visits=[0-9]*')"
		unload
		modules_restore
	done
	round=$((round + 1))
done
