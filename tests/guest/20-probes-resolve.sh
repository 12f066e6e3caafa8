# Each hook resolves to the functions this kernel has: src/hook-sites
# (/tests/hook-sites) lists each hook's sets in the order the hook tries
# them, and the expected set is the first one every function of which the
# running kernel's ftrace can trace (available_filter_functions, under its
# name or a clone's, NAME.constprop.N or NAME.isra.N). On the supported
# kernels (shared/reference/kernels.md section 2): rmap_add resolves to
# page_add_file_rmap on 6.1 and to folio_add_file_rmap_ptes and _pmd on
# 6.12 and 7.3; khugepaged_scan to hpage_collapse_scan_pmd and _file on
# 6.1 and 6.12 and to collapse_single_pmd on 7.3.
. ./lib.sh
load
AFF=/sys/kernel/tracing/available_filter_functions
[ -r $AFF ] || fail "no $AFF"
[ -r /tests/hook-sites ] || fail "no /tests/hook-sites"
traceable() { grep -qE "^$1(\.(constprop|isra)\.[0-9]+)*( |\$)" $AFF; }
hooks=$(awk '!/^#/ && NF == 3 && !seen[$2]++ { print $2 }' /tests/hook-sites)
[ -n "$hooks" ] || fail "/tests/hook-sites lists no hook"
for h in $hooks; do
	want=""
	for set in $(awk -v h=$h '!/^#/ && $2 == h && !seen[$3]++ { print $3 }' /tests/hook-sites); do
		fns=$(awk -v h=$h -v s=$set '!/^#/ && $2 == h && $3 == s { print $1 }' /tests/hook-sites)
		all=1
		for f in $fns; do traceable $f || all=0; done
		if [ $all = 1 ]; then
			want=$fns
			break
		fi
	done
	[ -n "$want" ] || fail "$h: no set of /tests/hook-sites is traceable on this kernel"
	for s in $want; do
		awk -v h=$h -v s=$s '$1 == h && ($2 == s || index($2, s ".") == 1) { f = 1 } END { exit !f }' $DBG/probes ||
			fail "$h did not resolve to $s: $(grep "^$h " $DBG/probes)"
		info "$h -> $s"
	done
	n=$(grep -c "^$h " $DBG/probes)
	[ "$n" = "$(echo $want | wc -w)" ] || fail "$h: $n lines in probes, want $(echo $want | wc -w): $(grep "^$h " $DBG/probes)"
done
grep -q 'not found' $DBG/probes && fail "unresolved: $(grep 'not found' $DBG/probes)"
exit 0
