# Under memory pressure (a memory cgroup whose limit a page-cache reader
# keeps hitting), locked large folios stay mlocked and nothing locked is
# reclaimed: the locked mappings stay fully resident, Mlocked does not
# drop, and with only the "mlock" fix loaded (so that fault-around maps
# XFS folios piecemeal and the rmap leaves them out), reclaim's
# folio_referenced()/try_to_unmap() replacements mlock every fully mapped
# one they meet that does not cross a page table.
. ./lib.sh
[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
unload
load fixes=mlock
state=$(fix_state mlock)
case $state in active | upstream) ;; *) unload ;; esac
need_fix mlock "$state" active upstream
MB=32
knob /proc/sys/vm/compact_unevictable_allowed 0
# khugepaged asleep: on 7.3 the stock khugepaged collapses a locked XFS
# mapping's pages, leaving them unmapped until touched (half of it was once
# unmapped during this test)
khugepaged_asleep
xfs_mount
dd if=/dev/zero of=/mnt/xfs/f bs=1M count=$MB 2>/dev/null
dd if=/dev/zero of=/mnt/xfs/big bs=1M count=256 2>/dev/null
sync
echo 3 >/proc/sys/vm/drop_caches
# The classic active/inactive LRU: its reclaim checks the references of
# mapped folios as it deactivates them, whereas the multi-gen LRU (on by
# default in 6.12) evicts the reader's cold page cache long before it ages
# the locked folios, so reclaim would never look at them here.
LRU_GEN=/sys/kernel/mm/lru_gen/enabled
lru_gen=$(cat $LRU_GEN 2>/dev/null)
[ -w $LRU_GEN ] && echo n >$LRU_GEN
# put the LRU, the cgroup and the mount back even when a check fails
cleanup() {
	unhold
	echo $$ >$CG/cgroup.procs 2>/dev/null
	rmdir $CG/ma 2>/dev/null
	[ -n "$lru_gen" ] && echo "$lru_gen" >$LRU_GEN
	umount /mnt/xfs 2>/dev/null
	knobs_restore
}
trap cleanup EXIT
CG=/sys/fs/cgroup
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG || fail "mount cgroup2"
echo +memory >$CG/cgroup.subtree_control || fail "no memory controller"
mkdir -p $CG/ma
echo $(((MB + 16) << 20)) >$CG/ma/memory.max
echo $$ >$CG/ma/cgroup.procs

sum() { awk -v k="$1" '$1 == k { print $2 }' $DBG/summary; }
hold --file /mnt/xfs/f --mb $MB --lock maplocked
p1=$HOLD_PID
hold --file /mnt/xfs/f --mb $MB --offset-kb 4 --lock maplocked
p2=$HOLD_PID
m1=$(meminfo_kb Mlocked)
missed1=$(sum undercount_missed_kb) crossed1=$(sum undercount_missed_crossed_kb)
ev1=$(sed -n 2p $DBG/fixes | tr ' ' '\n' | awk -F= '/^(referenced|unmap)_mlocks=/ { n += $2 } END { print n + 0 }')
scan1=$(awk '$1 == "pgscan" { print $2 }' $CG/ma/memory.stat)
info "before pressure: Mlocked $m1 kB, missed $missed1 kB (crossed $crossed1 kB)"
i=0
while [ $i -lt 3 ]; do cat /mnt/xfs/big >/dev/null; i=$((i + 1)); done
scan2=$(awk '$1 == "pgscan" { print $2 }' $CG/ma/memory.stat)
[ $((scan2 - scan1)) -gt 10000 ] || fail "no memory pressure: only $((scan2 - scan1)) pages scanned"
m2=$(meminfo_kb Mlocked)
missed2=$(sum undercount_missed_kb) crossed2=$(sum undercount_missed_crossed_kb)
ev2=$(sed -n 2p $DBG/fixes | tr ' ' '\n' | awk -F= '/^(referenced|unmap)_mlocks=/ { n += $2 } END { print n + 0 }')
info "after $((scan2 - scan1)) pages scanned: Mlocked $m2 kB, missed $missed2 kB (crossed $crossed2 kB), reclaim mlocked $((ev2 - ev1)) large folios"
for p in $p1 $p2; do
	echo $p >/sys/module/mlock_audit/parameters/pid
	r=$(sed -n 's/^pid=.* resident=\([0-9]*\) .*/\1/p' $DBG/vmas)
	[ "$r" = $((MB * 256)) ] || fail "pid $p: $r pages resident of its locked $((MB * 256))"
done
echo 0 >/sys/module/mlock_audit/parameters/pid
[ "$m2" -ge $((m1 - 64)) ] || fail "Mlocked dropped under pressure: $m1 -> $m2 kB"
[ $((missed2 - crossed2)) -le 0 ] ||
	fail "$((missed2 - crossed2)) kB still missed outside page-table crossings after reclaim scanned them"
# with the fix carried here, it was the replacements that mlocked them
if [ "$state" = active ] && [ $((missed1 - crossed1)) -gt 0 ]; then
	[ $((ev2 - ev1)) -gt 0 ] || fail "reclaim mlocked no folio, yet $((missed1 - crossed1)) kB were missed"
fi
unload
exit 0
