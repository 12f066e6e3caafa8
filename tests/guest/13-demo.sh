# What `make demo` runs (demo.sh), run here too so that it cannot break
# unnoticed: it must exit 0, and its figures must tell the story it
# claims, judged by /proc/meminfo and getrusage: with fixes=none Mlocked
# misses what the stock kernel misses (the expected state of the mlock fix
# says whether anything is missed: active, at least a 64 MiB mapping's
# worth), with the fixes Mlocked covers what is mapped of the locked
# mappings (smaps_rollup Locked) within 2 MiB, and where the fault fix is
# active the write-touch takes at most a tenth of the faults.
. ./lib.sh
[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
out=$(sh ./demo.sh 2>&1)
rc=$?
echo "$out" | tail -n 12 | sed 's/^/  | /'
[ $rc = 0 ] || fail "demo.sh exited $rc: $(echo "$out" | grep -m1 '^FAIL')"
line=$(echo "$out" | grep '^demo: ')
[ -n "$line" ] || fail "demo.sh printed no 'demo:' line"
val() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
vl=$(val vmlck_kb) lk=$(val locked_kb) none=$(val mlocked_fixes_none_kb)
lk2=$(val locked_fixes_kb) fixed=$(val mlocked_fixes_kb)
need_fix mlock "$(val mlock_fix)" active upstream
# mapped: all of it, within 2 MiB (on 6.12, with fixes=none, 1 MiB of the
# populated mappings was once unmapped, and stayed so after the reload;
# Mlocked then matched what was mapped, which is what the fix is judged by)
[ "$vl" = 131072 ] && [ "$lk" -ge $((131072 - 2048)) ] && [ "$lk" -le 131072 ] ||
	fail "locked $vl kB, mapped $lk kB, want 131072 and 129024 to 131072 (two 64 MiB mappings, populated)"
[ "$fixed" -ge $((lk2 - 2048)) ] && [ "$fixed" -le $((lk2 + 2048)) ] ||
	fail "with the fixes Mlocked +$fixed kB for $lk2 kB locked and mapped"
if [ "$(val mlock_fix)" = active ]; then
	[ $((lk - none)) -ge $((65536 - 2048)) ] ||
		fail "Mlocked +$none kB for $lk kB locked with fixes=none: the demo shows no undercount"
fi
if [ "$(val fault_fix)" = active ]; then
	n=$(val touch_fixes_none_minflt) f=$(val touch_fault_fix_minflt)
	[ "$n" -ge 8192 ] && [ "$f" -ge 1 ] && [ "$f" -le $((n / 10)) ] ||
		fail "write-touch faults: $n with fixes=none, $f with the fault fix"
fi
exit 0
