# Another vendor's cumulative livepatch over mlock_audit. A
# livepatch with .replace = true (tests/modules/ma_lp_replace, built by
# tests/run for this kernel and added at /add) takes over every function
# mlock_audit patches. Reference: its transition time (kernel log, start
# to complete) on this kernel without mlock_audit, plus the time disabling
# mlock_audit's own patch takes (the same ftrace hooks come down at the
# end of the transition). With mlock_audit loaded (all fixes)
# and a locked 32 MiB mapping of an XFS file held: its transition must
# complete within a margin of that, derived below from the livepatch
# core's retry period and the scanresume fix's watch; afterwards
# /proc/cmdline shows it in force, "fixes" says the
# patch was replaced and every fix that was active is off, khugepaged runs
# the kernel's own code, the module can be unloaded, and once the mapping
# is gone Mlocked and Unevictable are back where they started (6.1: the
# mlock fix's undo ran). Before this was handled, the transition was still
# running after 60 s on 6.1, 6.12 and 7.3.
. ./lib.sh
[ -f $RP_KO ] || fail "no $RP_KO: tests/run builds it (scripts/build-testmod)"
cleanup() {
	unhold
	[ -d /sys/module/ma_lp_replace ] && unreplace
	umount /mnt/xfs 2>/dev/null
	knobs_restore
}
trap cleanup EXIT

unload
replace
t_ref=$TT
unreplace
info "reference (no mlock_audit): transition ${t_ref} ms (insmod to its end: $T ms)"
# Replacing mlock_audit's patch also takes down the ftrace hooks of every
# function it patched, as disabling it does: that time, measured here,
# is allowed on top of the reference.
load
t0=$(ms)
lp_disable
t_dis=$(($(ms) - t0))
unload
info "disabling mlock_audit's livepatch: ${t_dis} ms"

# compaction (kcompactd) must not move mlocked pages (a
# migrated large folio comes back unmlocked, as upstream)
knob /proc/sys/vm/compact_unevictable_allowed 0
xfs_mount
dd if=/dev/zero of=/mnt/xfs/f bs=1M count=32 2>/dev/null || fail "dd"
sync
echo 3 >/proc/sys/vm/drop_caches
drain
ml0=$(meminfo_kb Mlocked) ue0=$(meminfo_kb Unevictable)
load
grep '^fix=' $DBG/fixes | sed 's/^/  before: /'
active=$(sed -n 's/^fix=\([a-z]*\) state=active.*/\1/p' $DBG/fixes | tr '\n' ' ')
[ -n "$active" ] || fail "no fix active here"
hold --file /mnt/xfs/f --mb 32 --lock maplocked
ml1=$(meminfo_kb Mlocked)
info "Mlocked $ml0 kB at start, $ml1 kB with the locked mapping held"

fsw0=$(fixes_field foreign_swaps)
replace
fsw1=$(fixes_field foreign_swaps)
info "with mlock_audit (fixes: $active): transition $TT ms (insmod to its end: $T ms)"
# The margin. The livepatch core tries to finish a transition, then
# retries after round_jiffies_relative(HZ): at most 1750 ms. A task still
# in mlock_audit's code at one try costs one retry: 1750 ms. When the
# scanresume fix swaps the khugepaged thread for the other patch
# (foreign_swaps moved), its watch notices the transition after at most
# one idle poll and five 100 ms polls (src/fixes/scanresume/fix.c: 500 + 500 ms),
# and the new thread is seen switched at the retry after the swap: a
# second retry. A hang (60 s before this was handled) stays far above.
margin=1750 why="one retry of the livepatch core"
if [ -n "$fsw0" ] && [ -n "$fsw1" ] && [ "$fsw1" -gt "$fsw0" ]; then
	margin=$((1750 + 1000 + 1750))
	why="the scanresume fix swapped khugepaged ($fsw0 -> $fsw1 foreign swaps): its watch 1000 ms and two retries"
fi
limit=$((t_ref + t_dis + margin))
info "limit $limit ms: reference $t_ref + disabling $t_dis + $margin ms ($why)"
[ "$TT" -le $limit ] ||
	fail "ma_lp_replace's transition took $TT ms over mlock_audit, limit $limit ms: $t_ref ms without it + $t_dis ms to take mlock_audit's hooks down + $margin ms for $why"
n=0
while ! grep -q '^livepatch state=replaced' $DBG/fixes; do
	[ $n -ge 50 ] && fail "5 s after the replacement, fixes says: $(head -n 2 $DBG/fixes | tail -n 1)"
	sleep 0.1
	n=$((n + 1))
done
grep '^fix=\|swaps' $DBG/fixes | sed 's/^/  after: /'
for f in $active; do
	line=$(grep "^fix=$f " $DBG/fixes)
	case $line in
	*"state=off "*"replaced by a cumulative livepatch"*) ;;
	*) fail "after the replacement: $line" ;;
	esac
done
[ -d $LP ] && fail "$LP is still there after the replacement"
p=$(kh_pid)
if [ -n "$p" ] && grep -q ma_khugepaged /proc/$p/stack; then
	fail "khugepaged ($p) still runs mlock_audit's code"
fi
rm_modules || fail "rmmod of the modules after the replacement failed"
unhold
back_at_base "after the mapping is gone"
unreplace
exit 0
