# Audit edge cases: a system with no locked memory, hugetlb (never
# VM_LOCKED; reported apart in the summary), the zero page (not counted,
# by module and oracle) and kernel threads (no rows).
. ./lib.sh
load fixes=none
. ./oracle.sh
get() { awk -v k="$1" '$1 == k { print $2 }' $DBG/summary; }

# nothing is locked in the guest before the scenarios start
[ "$(get locked_kb)" = 0 ] && [ "$(get undercount_kb)" = 0 ] && [ "$(get locked_vmas)" = 0 ] ||
	fail "no locked memory, yet summary says: $(tr '\n' ' ' <$DBG/summary)"
[ "$(grep -c '^pid=' $DBG/vmas)" = 0 ] || fail "rows without locked memory"
info "no locked memory: locked_kb 0, undercount_kb 0, no rows"

# kernel threads have no mm: no row ever names one
vmas_of 2 && fail "a row for kthreadd"

# hugetlb: row with backing=hugetlb, counted in hugetlb_vmas, not walked
knob /proc/sys/vm/nr_hugepages 8
if [ "$(cat /proc/sys/vm/nr_hugepages)" -ge 2 ]; then
	hold --hugetlb --mb 4 --lock maplocked
	vmas_of $HOLD_PID && fail "a locked-VMA row for hugetlb: $(vmas_of $HOLD_PID)"
	[ "$(get hugetlb_vmas)" = 1 ] && [ "$(get hugetlb_vma_kb)" = 4096 ] ||
		fail "hugetlb_vmas $(get hugetlb_vmas), hugetlb_vma_kb $(get hugetlb_vma_kb); want 1, 4096"
	info "hugetlb: reported apart (hugetlb_vmas 1, hugetlb_vma_kb 4096), no row"
	unhold
else
	fail "could not reserve hugetlb pages"
fi
knobs_restore

# zero page: a read-only private anonymous mapping, locked, maps it
scenario "zero page (read-only anon, MAP_LOCKED)" --anon --mb 4 --readonly --lock fault
hold --anon --mb 4 --readonly --lock fault
vmas_of $HOLD_PID | grep -q " resident=0 " || fail "zero pages counted as resident"
unhold
exit 0
