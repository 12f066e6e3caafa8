# A disable of the livepatch that is reversed (1 written to "enabled"
# during the unpatch transition) must leave the mlock fix working, as its
# "active" state says. Before, the pre-unpatch callback had
# stopped the repair and (6.1) the mlocking of large folios for good: the
# repair after the reversal ended "stopped", and on 6.1 a new MAP_LOCKED
# mapping of a cold 32 MiB XFS file left its large folios out of Mlocked.
# Judged by /proc/meminfo: Mlocked must grow by the mapping's size, within
# 1 MiB either way, and be back at its start once it is gone.
. ./lib.sh
unload
load
state=$(fix_state mlock)
[ "$state" = active ] || unload
need_fix mlock "$state" active
grep -q '^fix=scanresume state=active' $DBG/fixes ||
	fail "scanresume is not active: the disable transition may end before it can be reversed"
# compaction (kcompactd) must not move mlocked pages (a
# migrated large folio comes back unmlocked, as upstream)
knob /proc/sys/vm/compact_unevictable_allowed 0
xfs_mount
cleanup() { unhold; unload; umount /mnt/xfs 2>/dev/null; knobs_restore; }
trap cleanup EXIT
dd if=/dev/zero of=/mnt/xfs/f bs=1M count=32 2>/dev/null || fail "dd"
sync
echo 3 >/proc/sys/vm/drop_caches

# The unpatch transition usually lasts until the khugepaged thread is
# swapped back, a poll of the scanresume fix away. But on 6.12 the write
# of 0 first has the kernel repoint every cond_resched() call site
# (sched_dynamic_klp_enable(), seconds under TCG), and meanwhile the swap
# work may already have put khugepaged back on the kernel's code: the
# first try, still inside the write, then completes the transition and the
# patch is gone before the 1 (seen once in a full run). Such an attempt
# reverses nothing and tests nothing: it is reported, the module is loaded
# again and the disable retried, up to 5 attempts; a refusal while the
# transition still runs fails at once.
done_lines() { dmesg | grep -c "'mlock_audit': unpatching complete"; }
attempt=1
while :; do
	before=$(done_lines)
	echo 0 >$LP/enabled || fail "cannot disable"
	{ echo 1 >$LP/enabled; } 2>/dev/null && break
	[ "$(done_lines)" -gt "$before" ] ||
		fail "the disable could not be reversed (transition: $(cat $LP/transition 2>&1))"
	info "attempt $attempt: the unpatch transition ended within the write of 0: nothing to reverse"
	[ $attempt -lt 5 ] || fail "in 5 attempts the unpatch transition never outlasted the write of 0"
	attempt=$((attempt + 1))
	unload
	load
	[ "$(fix_state mlock)" = active ] || fail "mlock is $(fix_state mlock) after reloading"
done
info "disable reversed at attempt $attempt"
wait_for 60 file_not $LP/transition 1 || fail "reversed transition not complete after 60 s"
head -n 3 $DBG/fixes | tail -n 2 | sed 's/^/  /'
grep -q '^livepatch state=enabled' $DBG/fixes || fail "after the reversal: $(sed -n 2p $DBG/fixes)"
[ "$(fix_state mlock)" = active ] || fail "mlock is $(fix_state mlock) after the reversal"
n=0
while grep -q '^fix=mlock .*repair=running' $DBG/fixes; do
	[ $n -ge 300 ] && fail "the repair after the reversal still running after 30 s"
	sleep 0.1
	n=$((n + 1))
done
grep -q '^fix=mlock .*repair=done' $DBG/fixes ||
	fail "the repair after the reversal did not run: $(grep '^fix=mlock' $DBG/fixes)"

drain
m0=$(meminfo_kb Mlocked)
hold --file /mnt/xfs/f --mb 32 --lock maplocked
drain
m1=$(meminfo_kb Mlocked)
info "Mlocked $m0 -> $m1 kB with a 32768 kB MAP_LOCKED mapping held; ma-kpf: $(ma-kpf $HOLD_PID | grep '^vma ' | tr '\n' ' ')"
d=$((m1 - m0))
[ $d -ge $((32768 - 1024)) ] && [ $d -le $((32768 + 1024)) ] ||
	fail "Mlocked grew by $d kB for a 32768 kB locked mapping after the reversal"
unhold
drain
m2=$(meminfo_kb Mlocked)
[ "$m2" -le $((m0 + 64)) ] || fail "Mlocked $m0 -> $m2 kB once the mapping is gone"
exit 0
