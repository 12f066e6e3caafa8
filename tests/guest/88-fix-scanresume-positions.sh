# The "scanresume" fix saves khugepaged's position in an mm when it leaves
# the mm half-scanned; an mm that exits leaves its position behind (issue
# 15, "saved positions"). A new mm that gets the exited one's mm_struct and
# khugepaged slot (the same addresses: both are reused first on the CPU
# that freed them) must still start at address 0. ma-posreuse runs the
# cycle: child A is left with a position inside its area M2, past L and
# M1, short of H; A exits; child B, with the same areas, is scanned once:
# when H is collapsed, some of L and M1 must be (read from smaps). Stock
# khugepaged (the module not loaded) is the reference, then the fix. Before
# the positions were keyed by the mm's never-reused context ID, they were
# keyed by the slot's address and checked against the mm's address, and
# B's first visit started at A's position (the break
# tests/breaks/scanresume_by_slot.patch: 8 of 8 cycles on 6.1, 6.12 and 7.3).
. ./lib.sh
need_fix_probe scanresume "fixes=scanresume" active
THP=/sys/kernel/mm/transparent_hugepage
CYCLES=${MA_POSREUSE_CYCLES:-8}

# ma-posreuse writes these. Faults must give small pages ("madvise"), and
# "never" must stop the khugepaged thread (the 2 MiB size inherits it;
# ma-posreuse fails if the thread stays).
for f in $KH/pages_to_scan $KH/scan_sleep_millisecs; do
	knob_keep $f
done
knob $THP/enabled madvise
if [ -e $THP/hugepages-2048kB/enabled ]; then
	knob $THP/hugepages-2048kB/enabled inherit
fi

# run MODE: ma-posreuse's cycles; 0 when no first visit started past M1
run() {
	ma-posreuse "$CYCLES" >/tmp/pr.out 2>&1 || fail "$1: ma-posreuse: $(tr '\n' ' ' </tmp/pr.out)"
	sed "s/^/$1: /" /tmp/pr.out | while read -r l; do info "$l"; done
	pr_past=$(sed -n 's/^cycles=[0-9]* started_past=\([0-9]*\)$/\1/p' /tmp/pr.out)
	[ -n "$pr_past" ] || fail "$1: no summary from ma-posreuse: $(tr '\n' ' ' </tmp/pr.out)"
	[ "$pr_past" = 0 ]
}

unload
run stock || fail "stock khugepaged: $pr_past of $CYCLES new mms started past L and M1"
load fixes=scanresume
[ "$(fix_state scanresume)" = active ] || fail "scanresume not active"
run fix || fail "with the fix: $pr_past of $CYCLES new mms were scanned from an exited mm's position, not from 0"
unload
info "stock and fix: every new mm's first visit started at 0 ($CYCLES cycles each)"
