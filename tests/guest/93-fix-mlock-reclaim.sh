# Under memory pressure (a memory cgroup whose limit a page-cache reader
# keeps hitting), locked large folios stay mlocked and nothing locked is
# reclaimed: the locked mappings stay fully resident, Mlocked does not
# drop, and with only the "mlock" fix loaded (so that fault-around maps
# XFS folios piecemeal and the rmap leaves them out), reclaim's
# folio_referenced()/try_to_unmap() replacements mlock every fully mapped
# one they meet that does not cross a page table. Judged by pagemap +
# kpageflags (ma-kpf) and /proc/meminfo; the module's event counters only
# tell that the replacements did it. Run with the classic LRU, then with
# the multi-gen LRU (on by default in Debian's 6.12), where reclaim need
# not meet the locked folios and only "nothing locked is reclaimed, Mlocked
# does not drop" is checked.
. ./lib.sh
[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
unload
load fixes=mlock
state=$(fix_state mlock)
case $state in active | upstream) ;; *) unload ;; esac
need_fix mlock "$state" active upstream
MB=32
knob /proc/sys/vm/compact_unevictable_allowed 0
knob /proc/sys/vm/compaction_proactiveness 0
# khugepaged asleep: on 7.3 the stock khugepaged collapses a locked XFS
# mapping's pages, leaving them unmapped until touched (half of it was once
# unmapped during this test)
khugepaged_asleep
xfs_mount
dd if=/dev/zero of=/mnt/xfs/f bs=1M count=$MB 2>/dev/null
dd if=/dev/zero of=/mnt/xfs/big bs=1M count=256 2>/dev/null
sync
echo 3 >/proc/sys/vm/drop_caches
# The classic active/inactive LRU, whose reclaim checks the references of
# mapped folios as it deactivates them, then the multi-gen LRU (on by
# default in Debian's 6.12) where the kernel has it.
LRU_GEN=/sys/kernel/mm/lru_gen/enabled
# put the LRU, the cgroup and the mount back even when a check fails
cleanup() {
	unhold
	echo $$ >$CG/cgroup.procs 2>/dev/null
	rmdir $CG/ma 2>/dev/null
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

# oracle: the locked VMAs of both holders (kpf_totals: resident mlocked
# missed missed_crossed ..., in pages)
oracle() { kpf_totals $p1 $p2; }
events() { sed -n 2p $DBG/fixes | tr ' ' '\n' | awk -F= '/^(referenced|unmap)_mlocks=/ { n += $2 } END { print n + 0 }'; }
# pressure LRU: the reader's pressure with lru_gen/enabled at LRU (n: the
# classic LRU, y: the multi-gen LRU, "classic" where there is no MGLRU)
pressure() {
	[ "$1" = classic ] || knob $LRU_GEN "$1"
	hold --file /mnt/xfs/f --mb $MB --lock maplocked
	p1=$HOLD_PID
	hold --file /mnt/xfs/f --mb $MB --offset-kb 4 --lock maplocked
	p2=$HOLD_PID
	m1=$(meminfo_kb Mlocked)
	set -- "$1" $(oracle)
	r1=$2 missed1=$4 crossed1=$5
	ev1=$(events)
	scan1=$(awk '$1 == "pgscan" { print $2 }' $CG/ma/memory.stat)
	info "lru_gen $1: before pressure: Mlocked $m1 kB; oracle: $r1 pages resident, missed $((missed1 * 4)) kB (crossed $((crossed1 * 4)) kB)"
	i=0
	while [ $i -lt 3 ]; do cat /mnt/xfs/big >/dev/null; i=$((i + 1)); done
	scan2=$(awk '$1 == "pgscan" { print $2 }' $CG/ma/memory.stat)
	[ $((scan2 - scan1)) -gt 10000 ] || fail "lru_gen $1: no memory pressure: only $((scan2 - scan1)) pages scanned"
	m2=$(meminfo_kb Mlocked)
	set -- "$1" $(oracle)
	r2=$2 missed2=$4 crossed2=$5
	ev2=$(events)
	info "lru_gen $1: after $((scan2 - scan1)) pages scanned: Mlocked $m2 kB; oracle: $r2 pages resident, missed $((missed2 * 4)) kB (crossed $((crossed2 * 4)) kB); reclaim mlocked $((ev2 - ev1)) large folios"
	[ "$r2" = $((2 * MB * 256)) ] || fail "lru_gen $1: $r2 pages resident of the $((2 * MB * 256)) locked"
	[ "$m2" -ge $((m1 - 64)) ] || fail "lru_gen $1: Mlocked dropped under pressure: $m1 -> $m2 kB"
	[ "$m2" -le $((2 * MB * 1024 + 4096)) ] || fail "lru_gen $1: Mlocked $m2 kB, more than the two mappings"
	# The multi-gen LRU evicts the reader's cold page cache long before
	# it ages the locked folios: reclaim need not meet them there.
	if [ "$1" != y ]; then
		[ $((missed2 - crossed2)) -le 0 ] ||
			fail "lru_gen $1: $((4 * (missed2 - crossed2))) kB still missed outside page-table crossings after reclaim scanned them"
		# with the fix carried here, it was the replacements that mlocked them
		if [ "$state" = active ] && [ $((missed1 - crossed1)) -gt 0 ]; then
			[ $((ev2 - ev1)) -gt 0 ] || fail "reclaim mlocked no folio, yet $((4 * (missed1 - crossed1))) kB were missed"
		elif [ "$state" = active ]; then
			info "lru_gen $1: reclaim had nothing to mlock: the fault path left no folio missed (6.1's do_set_pte() replacement mlocks at the fault)"
		fi
	fi
	unhold
}
if [ -w $LRU_GEN ]; then
	pressure n
	pressure y
else
	info "no multi-gen LRU here ($LRU_GEN): the classic LRU only"
	pressure classic
fi
unload
exit 0
