# The livepatch transition (enable at modprobe, then disable) completes
# within 5 s on an idle guest, over several cycles (92-fix-transition-churn:
# under load). A stalled transition names the tasks still waiting.
. ./lib.sh
. ./transition.sh
need_livepatch
CYCLES=${TRANSITION_CYCLES:-3}
i=1
while [ $i -le $CYCLES ]; do cycle "idle $i" 5000; i=$((i + 1)); done
exit 0
