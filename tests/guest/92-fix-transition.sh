# The livepatch transition (enable at modprobe, then disable) completes
# within 5 s on an idle guest, over several cycles (92-fix-transition-churn:
# under load). A stalled transition names the tasks still waiting.
# On a kernel that repoints every cond_resched() call site at each
# livepatch transition (6.12), the 5 s come on top of the stock figure
# measured in this boot: a one-function livepatch's transitions (ref_limit
# in transition.sh). Under TCG that step alone took 0.2 to 2.5 s per
# transition, and with the one retry of the livepatch core that our
# khugepaged thread swap costs, 6.12 once went over a flat 5 s (5059 ms).
. ./lib.sh
. ./transition.sh
need_livepatch
limit=5000
if repoints; then ref_limit " (idle)"; fi
CYCLES=${TRANSITION_CYCLES:-3}
i=1
while [ $i -le $CYCLES ]; do cycle "idle $i" $limit; i=$((i + 1)); done
exit 0
