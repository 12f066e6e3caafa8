# The livepatch transition (enable at modprobe, then disable) completes
# within 5 s while the churn workload runs (92-fix-transition: idle).
#
# The churn workload (mmap, mlock, munlock, fork, exit) on huge
# tmpfs and anonymous memory, one cycle, same 5 s limit. Not on a kernel
# that repoints every cond_resched() call site when a livepatch is enabled
# (sched_dynamic_klp_enable(), 6.12: one text_poke with cross-CPU syncs per
# site): under single-threaded TCG with busy vCPUs that step alone took 25
# to 170 s in our runs (sampled stacks of modprobe sit in
# arch_static_call_transform()), on hardware milliseconds, and none of it
# is in our code; 92-fix-transition covers the idle transition there, and
# tests/host/transition-1cpu runs this test in a one-vCPU guest
# (TRANSITION_CHURN_ONE_CPU=1), where the check applies, against the
# transitions of a one-function livepatch under the same churn in the same
# boot plus 5 s (a busy host slows both).
. ./lib.sh
. ./transition.sh
unload
if [ -z "${TRANSITION_CHURN_ONE_CPU:-}" ] && repoints; then
	skip "under churn: this kernel repoints every cond_resched() call site on enable, 25-170 s under TCG with two busy vCPUs; checked by host/transition-1cpu with one vCPU"
fi
mkdir -p /mnt/huge
mount -t tmpfs -o huge=always,size=256m tmpfs /mnt/huge || fail "huge tmpfs"
ma-churn 4 120 /mnt/huge >/tmp/churn.out 2>&1 &
churn=$!
sleep 5
load
if [ ! -d $LP ]; then
	s=$(grep '^fix=' $DBG/fixes | cut -d' ' -f1-2 | tr '\n' ' ')
	unload
	killall ma-churn
	wait $churn
	skip "no livepatch on this kernel ($s)"
fi
unload
limit=5000
# The same workload's stock figure, measured here: the reference
# livepatch's transitions under the same churn pay the same cond_resched()
# repointing and the same host speed.
if [ -n "${TRANSITION_CHURN_ONE_CPU:-}" ]; then ref_limit " under churn"; fi
cycle "under churn" $limit
kill -0 $churn 2>/dev/null || fail "ma-churn stopped early: $(tail -n 3 /tmp/churn.out)"
killall ma-churn
wait $churn
sleep 1
umount /mnt/huge
exit 0
