# Stress with the fixes in force for the whole run: the module
# is loaded with every fix and its livepatch stays enabled while, for
# STRESS_SECONDS (90), 8 ma-stress processes mmap, mlock, munlock,
# mlockall/munlockall, MADV_DONTNEED, MADV_FREE, mremap, fork, exit,
# truncate, punch holes, split regions with mprotect() and reclaim them
# with MADV_PAGEOUT over huge tmpfs, XFS and anonymous THP, beside a
# process that keeps about 40% of the available memory busy (reclaim), with
# the hung-task detector at 20 s. Passes when no worker failed, the
# reference file is unchanged, every fix that was active is still active,
# and, once every workload has exited, Mlocked and Unevictable in
# /proc/meminfo are back at their base line (Unevictable within 64 kB) with the fixes
# still on and again once the module is unloaded. Where the module carries
# the mlock fix (6.1, 6.12) that must hold exactly: its replacement of
# mlock_folio() guards the mlock count against the kernel's stranded-
# munlock race (93-fix-mlock-stranded), which without the guard left a
# 1 MiB folio and a 4 KiB page mlocked on 6.12 in this workload. Where the kernel has
# the fix itself (7.3, not replaced) the race is the kernel's: a residue
# of page cache left mlocked is printed (RESIDUE); it must be in the
# reference file or the text of ma-stress, whose workers mlockall() (the
# only files they lock that outlive them; ma-kpcache, by kpageflags), no
# larger than what the race stranded meanwhile (vmstat
# unevictable_pgs_stranded), and gone with that page cache (stress_residue).
. ./lib.sh
stress_setup
# khugepaged asleep (after the load below): under this load khugepaged
# waits over 20 s for a worker's mmap_lock in the stock
# collapse_huge_page() and trips the detector (stock 7.3 without the
# module; 6.1 with the scanresume fix's thread, woken by the first worker
# that registered, as a long scan period alone allows).
stress_fs
cleanup() {
	stress_stop
	unload
	umount /mnt/huge /mnt/xfs 2>/dev/null
}
trap cleanup EXIT
stress_base_line
load
khugepaged_asleep
active=$(sed -n 's/^fix=\([a-z]*\) state=active.*/\1/p' $DBG/fixes | tr '\n' ' ')
info "base line: Mlocked $M0 kB, Unevictable $U0 kB; active fixes: $active; $SECONDS_ s"

stress_start
wait $STRESS_PID || fail "ma-stress failed: $(tr '\n' ' ' </tmp/stress.out)"
wait $PRESSURE_PID
pids=""
info "$(cat /tmp/stress.out)"
[ "$(sha256sum </mnt/xfs/reference)" = "$STRESS_SUM" ] || fail "the reference file changed"
grep '^livepatch\|^fix=' $DBG/fixes | sed 's/^/  /'
grep -q '^livepatch state=enabled' $DBG/fixes || fail "the livepatch is no longer enabled"
for f in $active; do
	[ "$(fix_state "$f")" = active ] || fail "fix $f is $(fix_state "$f") after the stress"
done
gone_figures
# Mlocked exactly where the guard runs (one page left mlocked is the
# harm); Unevictable within 64 kB (files the test writes, such as
# /tmp/stress.out, may sit on the unevictable list of the guest's rootfs)
slack=64
case " $active " in *" mlock "*) slack=0 ;; esac
if [ $((M1 - M0)) -le $slack ] && [ $((U1 - U0)) -le 64 ] &&
	[ $((M2 - M0)) -le $slack ] && [ $((U2 - U0)) -le 64 ]; then
	exit 0
fi
case " $active " in
*" mlock "*)
	fail "Mlocked $M0 -> $M1 -> $M2 kB, Unevictable $U0 -> $U1 -> $U2 kB with the mlock fix and its count guard: $(ma-kpcache /mnt/xfs/reference)" ;;
esac
# The kernel's own race (the mlock fix upstream, mlock_folio() not
# replaced): what is still mlocked once every process is gone can only be
# page cache of the files, stranded by that race; it must go at umount.
stranded_pgs S1
stress_residue $((S1 - S0)) 16 64
exit 0
