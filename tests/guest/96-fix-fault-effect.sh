# The "fault" fix has an effect, judged by the kernel's own fault count
# (getrusage minor faults), not by the module: one write-touch of every
# page of a 64 MiB XFS file in the page cache (large folios), through a
# MAP_SHARED mapping. Without the fix (fixes=none) the stock kernel takes
# about one fault per page (at least half the pages: the case is real);
# with it, the whole folio is mapped at the first fault, so at most a tenth
# of that; and the module's whole-folio counters grew. On a kernel where
# the fix is upstream (7.3) the stock kernel alone must show the cut.
. ./lib.sh
[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
unload
load
state=$(fix_state fault)
unload
need_fix fault "$state" active upstream
xfs_mount
trap 'unload; umount /mnt/xfs 2>/dev/null' EXIT
dd if=/dev/zero of=/mnt/xfs/touch bs=1M count=64 2>/dev/null || fail "dd"
PAGES=16384
whole() { sed -n 2p $DBG/fixes | sed 's/.* fault_whole_folios=\([0-9]*\) faultaround_whole_folios=\([0-9]*\).*/\1 \2/'; }

if [ "$state" = upstream ]; then
	out=$(ma-pf3 --touch /mnt/xfs/touch) || fail "ma-pf3 --touch: $out"
	f=$(field minflt "$out")
	info "stock kernel (fix upstream): $out"
	[ "$(field pages "$out")" = $PAGES ] || fail "touched $(field pages "$out") pages, want $PAGES"
	[ "$f" -ge 1 ] && [ "$f" -le $((PAGES / 10)) ] ||
		fail "the stock kernel with the fix upstream took $f faults for $PAGES pages, want 1 to $((PAGES / 10))"
	exit 0
fi
load fixes=none
ref=$(ma-pf3 --touch /mnt/xfs/touch) || fail "ma-pf3 --touch: $ref"
unload
load fixes=fault
w0=$(whole)
fixed=$(ma-pf3 --touch /mnt/xfs/touch) || fail "ma-pf3 --touch: $fixed"
w1=$(whole)
unload
r=$(field minflt "$ref") f=$(field minflt "$fixed")
info "fixes=none: $ref; fixes=fault: $fixed; whole-folio counters (fault, fault-around) $w0 -> $w1"
for o in "$ref" "$fixed"; do
	[ "$(field pages "$o")" = $PAGES ] || fail "touched $(field pages "$o") pages, want $PAGES"
done
[ "$r" -ge $((PAGES / 2)) ] && [ "$r" -le $((PAGES + 64)) ] ||
	fail "fixes=none: $r faults for $PAGES pages, want about one per page: no reference"
[ "$f" -ge 1 ] && [ "$f" -le $((r / 10)) ] ||
	fail "with the fault fix $f faults for $PAGES pages, want 1 to $((r / 10)) (a tenth of fixes=none)"
[ "${w1% *}" -gt "${w0% *}" ] || fail "fault_whole_folios did not grow ($w0 -> $w1)"
exit 0
