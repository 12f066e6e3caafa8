# The "mlock" fix's repair at load runs while locked mappings of shared
# large folios come and go, beside processes that map, mlock, munlock,
# mremap, fork, exit, truncate, punch holes, mprotect-split and
# MADV_FREE/MADV_PAGEOUT large folios (ma-stress, 8 processes, 30 s, over
# huge tmpfs and XFS, with memory pressure). Two processes MAP_LOCK the
# same 16 MiB of a cold XFS file (large folios, which stock 6.1 and 6.12
# leave unmlocked) before the load and hold them to the end; three more
# keep MAP_LOCKing 16 MiB of another such file, each for 1 s, then exit,
# again and again. The module (fixes=mlock) is loaded 3 s in, so the
# repair's rmap walks (one per missed folio, under the folio lock:
# fixes/mlock/repair.c) run beside the fix's own mlocks and munlocks and
# reclaim. Passes when the repair finished and mlocked something (the two
# long mappings), no worker failed, the reference file is unchanged, and,
# once every workload has exited,
# Mlocked is exactly at its base line and Unevictable within 64 kB, with
# the fix still on and again once the module is unloaded (as
# 83-stress-fixes-on, whose module is loaded before its stress). A count
# taken twice would leave a folio mlocked with no mapping. One exception,
# the stock kernel's own: in the 3 s before the load, and for tasks not yet
# switched during the livepatch transition, its stranded-munlock race
# (83-stress-fixes-on, 93-fix-mlock-stranded) can leave a page of the
# reference file, or of ma-stress's text (its workers mlockall()), mlocked,
# which the fix's count guard, in force later, does not undo (4 kB once on
# 6.1 while this test was written, in the reference file; 4 kB once on
# 6.12 outside it). A residue passes only if all of it is in those two
# files, it is no larger than what that race stranded until the
# transition completed (vmstat unevictable_pgs_stranded), and it goes
# with their page cache (stress_residue).
. ./lib.sh
need_fix_probe mlock "fixes=mlock" active
SECONDS_=30
knob /proc/sys/vm/compact_unevictable_allowed 0
stress_fs
pids=""
cleanup() {
	kill $pids 2>/dev/null
	unhold
	kh_holder_end
	knobs_restore
	unload
	umount /mnt/huge /mnt/xfs 2>/dev/null
}
trap cleanup EXIT
# khugepaged asleep: under this load its stock collapse_huge_page() can
# wait long for a worker's mmap_lock (83-stress-fixes-on)
khugepaged_asleep
for f in long shared; do
	dd if=/dev/zero of=/mnt/xfs/$f bs=1M count=16 2>/dev/null || fail "dd of /mnt/xfs/$f"
done
sync
echo 3 >/proc/sys/vm/drop_caches
# the race's count (S0) from before the first worker starts: its first
# mlocks and munlocks come at once
stress_base_line
hold --file /mnt/xfs/long --mb 16 --lock maplocked
hold --file /mnt/xfs/long --mb 16 --lock maplocked
stress_start
# holders: each ma-lock exits when its stdin (sleep's pipe) closes
rm -f /tmp/holders.err /tmp/holders.out
cpids=""
end=$(($(date +%s) + SECONDS_))
for i in 1 2 3; do
	(
		n=0
		while [ "$(date +%s)" -lt $end ]; do
			sleep 1 | ma-lock --file /mnt/xfs/shared --mb 16 --lock maplocked >/dev/null ||
				{ echo "holder $i: ma-lock failed" >>/tmp/holders.err; exit 1; }
			n=$((n + 1))
		done
		echo "holder $i: $n mappings" >>/tmp/holders.out
	) &
	cpids="$cpids $!"
done
pids="$pids $cpids"
sleep 3
load fixes=mlock
# until here some tasks ran the stock mlock_folio(), without the guard
stranded_pgs S1
repair_over() { grep -q '^fix=mlock .*repair=\(done\|stopped\)' $DBG/fixes; }
wait_for 60 repair_over || fail "the repair still runs 60 s after the transition: $(grep '^fix=mlock' $DBG/fixes)"
line=$(grep '^fix=mlock' $DBG/fixes)
info "under stress: $(echo "$line" | grep -o 'repair=[a-z]* repaired_pages=[0-9]* repair_ms=[0-9]*')"
case $line in
*" repair=done "*) ;;
*) fail "the repair did not finish: $line" ;;
esac
repaired=$(echo "$line" | sed -n 's/.* repaired_pages=\([0-9]*\).*/\1/p')
wait $STRESS_PID || fail "ma-stress failed: $(tr '\n' ' ' </tmp/stress.out)"
wait $PRESSURE_PID $cpids
pids=""
info "$(cat /tmp/stress.out); $(tr '\n' ' ' </tmp/holders.out)"
[ ! -s /tmp/holders.err ] || fail "$(cat /tmp/holders.err)"
[ "$(sha256sum </mnt/xfs/reference)" = "$STRESS_SUM" ] || fail "the reference file changed"
[ "$(fix_state mlock)" = active ] || fail "fix mlock is $(fix_state mlock) after the stress"
[ "$repaired" -gt 0 ] || fail "the repair mlocked nothing under the stress: the case is not tested"
# for a residue's verdict: the guard's figures, and the race after the
# transition, which the guard answers
guard="$(grep '^fix=mlock' $DBG/fixes | grep -o 'count_reset[a-z_]*=[0-9]*' | tr '\n' ' ')stranded after the transition: $(($(vmstat_n unevictable_pgs_stranded) - S1)) pages"
unhold
gone_figures "stranded by munlock: $((S1 - S0)) pages until the transition completed"
[ $((U1 - U0)) -le 64 ] && [ $((U2 - U0)) -le 64 ] ||
	fail "Unevictable not back at the base line: $U0 -> $U1 -> $U2 kB: $(ma-kpcache /mnt/xfs/reference)"
[ "$M1" = "$M0" ] && [ "$M2" = "$M0" ] && exit 0
# a residue: the stock kernel's, from before the load?
[ "$M1" = "$M2" ] ||
	fail "not back at the base line: Mlocked $M0 -> $M1 -> $M2 kB, and not the same with the module and without"
stress_residue $((S1 - S0)) 0 0 "$guard"
exit 0
