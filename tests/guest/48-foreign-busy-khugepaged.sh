# Another vendor's cumulative livepatch (tests/modules/ma_lp_replace,
# .replace = true) over mlock_audit while khugepaged is busy: THP
# "always", pages_to_scan 65536, and a process with a 256 MiB anonymous
# MADV_HUGEPAGE'd mapping registered with khugepaged, so that its passes
# follow each other with no gap when scan_sleep_millisecs is 0. For
# scan_sleep_millisecs 0, 100 and 400: the transition of the cumulative
# patch is timed on the stock kernel (module not loaded) and over
# mlock_audit with every fix; over mlock_audit it must complete within
# 60 s, and within 10 s of the stock figure of the same setting. (The
# scanresume fix swaps the khugepaged thread for another livepatch's
# transition; it used to wait for five polls in a row that found the
# thread between passes, which a thread scanning back to back never
# gives: the transition was still running after 60 s on 6.1 and 6.12.)
. ./lib.sh
[ -f $RP_KO ] || fail "no $RP_KO: tests/run builds it (scripts/build-testmod)"
# Where enabling a livepatch repoints every cond_resched() call site
# (6.12), each repointing syncs the other vCPU, which a khugepaged that
# never sleeps keeps busy: under single-threaded TCG the stock kernel's own
# transition then took 55 s, and the unpatching after it stalled RCU-tasks.
if grep -q ' sched_dynamic_klp_enable$' /proc/kallsyms; then
	skip "this kernel repoints every cond_resched() call site on enable, which a never-sleeping khugepaged stalls under TCG with two vCPUs (the stock kernel's own transition took 55 s, and its unpatching stalled RCU-tasks)"
fi
need_fix_probe scanresume "" active
cleanup() {
	kh_restore
	unhold
	[ -d /sys/module/ma_lp_replace ] && unreplace
	knobs_restore
}
trap cleanup EXIT

unload
knob /sys/kernel/mm/transparent_hugepage/enabled always
hold --anon --mb 256 --lock none
for sleep_ms in 0 100 400; do
	kh_tune "$sleep_ms" 65536
	replace
	ref=$TT
	# khugepaged sleeps again for the rest, as after the test
	kh_restore
	unreplace
	load
	[ "$(fix_state scanresume)" = active ] || fail "scanresume is $(fix_state scanresume) after load"
	fsw0=$(fixes_field foreign_swaps)
	kh_tune "$sleep_ms" 65536
	replace
	with=$TT
	fsw1=$(fixes_field foreign_swaps)
	kh_restore
	info "scan_sleep_millisecs=$sleep_ms: transition $ref ms on the stock kernel, $with ms over mlock_audit (foreign_swaps $fsw0 -> $fsw1; insmod to its end $T ms)"
	lp_disable
	rm_modules || fail "rmmod after the replacement failed"
	unreplace
	[ "$with" -le $((ref + 10000)) ] ||
		fail "scan_sleep_millisecs=$sleep_ms: $with ms over mlock_audit, more than 10 s over the stock $ref ms"
done
exit 0
