# The "lazyfree" live fix (seed 003): khugepaged leaves clean lazy-free
# memory alone (memory written, released with MADV_FREE, then only read),
# while it still collapses hot memory, and MADV_COLLAPSE still collapses
# lazy-free memory. Each run is done with fixes=none and with the fix; on
# 7.3 the fix is upstream and both runs must skip the cold memory.
. ./lib.sh
K=$KH
unload
restore() {
	kill $cpid $hpid 2>/dev/null
	kh_restore
}
trap restore EXIT
kh_tune 100 4096
ahp() { awk '/^AnonHugePages:/ { print $2 }' /proc/$1/smaps_rollup; }
ready() { grep -q ready "$1"; }
full_scans_since() { [ "$(cat $K/full_scans)" -ge $(($1 + 3)) ]; }
hot_done() { [ "$(ahp $hpid)" -ge 8192 ]; }

# scenario MODE: cold (lazy-free, read) and hot (small pages) 8 MiB each;
# once hot is collapsed and khugepaged did 3 more full scans, how much of
# cold is huge. Sets $cold $hot $state.
scenario() {
	load fixes=$1
	state=$(fix_state lazyfree)
	ma-workload lazyfree 8 120 >/tmp/cold.out &
	cpid=$!
	wait_for 10 ready /tmp/cold.out || fail "lazyfree workload not ready"
	ma-workload anon-collapse 8 120 &
	hpid=$!
	t0=$(date +%s)
	wait_for 60 hot_done || fail "fixes=$1: hot memory not collapsed in 60 s"
	f0=$(cat $K/full_scans)
	wait_for 60 full_scans_since "$f0" || fail "fixes=$1: khugepaged did not finish 3 more full scans"
	cold=$(ahp $cpid) hot=$(ahp $hpid)
	info "fixes=$1: lazyfree $state; hot $hot kB huge after $(($(date +%s) - t0)) s; cold $cold kB huge; $(grep '^fix=lazyfree' $DBG/fixes)"
	kill $cpid $hpid
	wait $cpid $hpid 2>/dev/null
	unload
}

scenario none
none_cold=$cold
scenario all
need_fix lazyfree "$state" active upstream
case $state in
active)
	[ "$none_cold" -ge 8192 ] || fail "without the fix khugepaged did not collapse lazy-free memory ($none_cold kB): the scenario shows nothing"
	[ "$cold" = 0 ] || fail "with the fix khugepaged collapsed $cold kB of lazy-free memory"
	;;
upstream)
	[ "$none_cold" = 0 ] && [ "$cold" = 0 ] || fail "upstream kernel collapsed lazy-free memory ($none_cold, $cold kB)"
	;;
esac

# MADV_COLLAPSE still collapses lazy-free memory, with the fix active.
load
ma-workload lazyfree-madv-collapse 8 5 >/tmp/mc.out &
cpid=$!
wait_for 20 ready /tmp/mc.out || fail "lazyfree-madv-collapse not ready"
mc=$(ahp $cpid)
info "MADV_COLLAPSE on lazy-free memory with lazyfree $(fix_state lazyfree): $(head -n1 /tmp/mc.out), $mc kB huge"
grep -q '^madv_collapse=0$' /tmp/mc.out || fail "MADV_COLLAPSE failed: $(head -n1 /tmp/mc.out)"
[ "$mc" -ge 8192 ] || fail "MADV_COLLAPSE left $mc kB huge, want 8192"
wait $cpid
unload
exit 0
