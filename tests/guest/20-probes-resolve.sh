# Each hook resolves to the symbol expected on this kernel
# (shared/reference/kernels.md section 2).
. ./lib.sh
load
case $MA_KERNEL in
6.1) want="rmap_add:page_add_file_rmap finish_fault:finish_fault
	khugepaged_scan:hpage_collapse_scan_pmd khugepaged_scan:hpage_collapse_scan_file" ;;
6.12) want="rmap_add:folio_add_file_rmap_ptes rmap_add:folio_add_file_rmap_pmd
	finish_fault:finish_fault khugepaged_scan:hpage_collapse_scan_pmd
	khugepaged_scan:hpage_collapse_scan_file" ;;
7.3) want="rmap_add:folio_add_file_rmap_ptes rmap_add:folio_add_file_rmap_pmd
	finish_fault:finish_fault khugepaged_scan:collapse_single_pmd" ;;
*) fail "unknown kernel '$MA_KERNEL'" ;;
esac
for w in $want; do
	h=${w%%:*} s=${w#*:}
	awk -v h=$h -v s=$s '$1 == h && $2 == s { f = 1 } END { exit !f }' $DBG/probes ||
		fail "$h did not resolve to $s: $(grep "^$h " $DBG/probes)"
	info "$h -> $s"
done
grep -q 'not found' $DBG/probes && fail "unresolved: $(grep 'not found' $DBG/probes)"
exit 0
