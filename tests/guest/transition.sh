# SPDX-License-Identifier: GPL-2.0
# Helpers of the livepatch transition tests (sourced after lib.sh).

# wait_transition STATE: wait until $LP/transition is 0 (or $LP is gone);
# prints the tenths of a second it took. After 20 s it names the tasks not
# yet in STATE (0 unpatched, 1 patched); after 60 s it fails.
wait_transition() {
	n=0
	while [ -d $LP ] && [ "$(cat $LP/transition 2>/dev/null)" = 1 ]; do
		if [ $n = 200 ]; then
			for p in /proc/[0-9]*; do
				st=$(cat $p/patch_state 2>/dev/null)
				[ "$st" = "$1" ] || [ "$st" = -1 ] || [ -z "$st" ] && continue
				echo "  straggler ${p#/proc/} $(cat $p/comm): patch_state $st" >&2
				sed 's/^/    /' $p/stack >&2
			done
		fi
		[ $n -ge 600 ] && fail "transition still running after 60 s"
		sleep 0.1
		n=$((n + 1))
	done
	echo $n
}

# cycle LABEL LIMIT_MS: enable (modprobe; load waits for the transition)
# and disable once; both transitions must take at most LIMIT_MS (times
# TIME_SCALE on the debug kernel). Sets $ms.
cycle() {
	set -- "$1" $(($2 * TIME_SCALE))
	load
	[ "$(sed -n 's/^livepatch state=\([a-z]*\).*/\1/p' $DBG/fixes)" = enabled ] ||
		fail "$1: livepatch not enabled: $(sed -n 2p $DBG/fixes)"
	ms=$(sed -n 's/^livepatch .*transition_ms=\([0-9-]*\).*/\1/p' $DBG/fixes)
	echo 0 >$LP/enabled
	off=$(wait_transition 0)
	unload
	info "$1: enable ${ms} ms, disable $((off * 100)) ms"
	[ "$ms" -le $2 ] && [ "$((off * 100))" -le $2 ] ||
		fail "$1: transition took longer than $2 ms (enable $ms ms, disable $((off * 100)) ms)"
}

# ref_limit: set $limit to 5 s plus the slower of the reference
# livepatch's two transitions (enable, disable), measured here. For kernels
# that repoint every cond_resched() call site at the start and again at
# the end of every livepatch transition (sched_dynamic_klp_enable() and
# _disable(), kernel/livepatch/transition.c, 6.12): one text_poke with
# cross-CPU syncs per site, milliseconds on hardware and 0.2 to 2.5 s per
# transition under TCG, paid by any livepatch and not by our code. Ours
# may take 5 s on top of that stock figure.
ref_limit() {
	[ -f $RP_KO ] || fail "no $RP_KO (scripts/build-testmod builds it; tests/run and host/transition-1cpu add it)"
	replace
	ref_on=$TT
	t0=$(ms)
	unreplace
	ref_off=$(($(ms) - t0))
	limit=$((5000 + (ref_on > ref_off ? ref_on : ref_off)))
	info "reference livepatch$1: enable $ref_on ms, disable $ref_off ms: limit $limit ms"
}
# repoints: does this kernel repoint cond_resched() call sites for livepatch
# transitions?
repoints() { grep -q ' sched_dynamic_klp_enable$' /proc/kallsyms; }

# Skip unless the default fixes register a livepatch here.
need_livepatch() {
	unload
	load
	if [ ! -d $LP ]; then
		s=$(grep '^fix=' $DBG/fixes | cut -d' ' -f1-2 | tr '\n' ' ')
		unload
		skip "no livepatch on this kernel ($s)"
	fi
	unload
}
