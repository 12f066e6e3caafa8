# The debugfs files exist, are read-only, and are well-formed (format 1).
. ./lib.sh
load
for f in version probes summary vmas fixes; do
	[ -f $DBG/$f ] || fail "$DBG/$f missing"
	mode=$(stat -c %a $DBG/$f)
	[ "$mode" = 444 ] || fail "$f has mode $mode, want 444 (lockdown refuses writable files)"
	if (echo x >$DBG/$f) 2>/dev/null; then fail "$f accepted a write"; fi
	[ "$(head -n1 $DBG/$f)" = "format 1" ] || fail "$f: first line is not 'format 1'"
done
ls $DBG | grep -v -x -E 'version|probes|summary|vmas|fixes' && fail "unexpected files in $DBG"

# version: exactly these keys, values matching the kernel and the module.
keys=$(awk 'NR > 1 { print $1 }' $DBG/version | tr '\n' ' ')
[ "$keys" = "module kernel built_for " ] || fail "version keys are '$keys'"
[ "$(awk '$1 == "kernel" { print $2 }' $DBG/version)" = "$(uname -r)" ] ||
	fail "version: kernel is not $(uname -r)"
[ "$(awk '$1 == "built_for" { print $2 }' $DBG/version)" = "$(uname -r)" ] ||
	fail "version: module built for another kernel"
[ "$(awk '$1 == "module" { print $2 }' $DBG/version)" = "$(cat /sys/module/mlock_audit/version)" ] ||
	fail "version: module version differs from MODULE_VERSION"

# probes: every line is "HOOK SYMBOL hits=N missed=0", which may end in
# " counted by the live fix", or "HOOK not found: ..." (or "HOOK off:
# probes=off", which 31-probes-exact checks), and every hook appears.
awk 'NR > 1 && !/^[a-z_]+ [A-Za-z0-9_.]+ hits=[0-9]+ missed=0( counted by the live fix)?$/ &&
	!/^[a-z_]+ not found: tried .+$/ { print "bad line: " $0; bad = 1 }
	END { exit bad }' $DBG/probes || fail "malformed probes line"
for h in rmap_add finish_fault khugepaged_scan; do
	grep -q "^$h " $DBG/probes || fail "hook $h missing from probes"
done
# summary: "key value" lines with numeric values, these keys in this order.
keys=$(awk 'NR > 1 { print $1 }' $DBG/summary | tr '\n' ' ')
want="mlocked_kb locked_kb locked_mlocked_kb undercount_kb undercount_missed_kb \
undercount_missed_crossed_kb undercount_partial_kb undercount_small_unmlocked_kb \
unevictable_kb unevictable_pgs_culled unevictable_pgs_scanned unevictable_pgs_rescued \
unevictable_pgs_mlocked unevictable_pgs_munlocked unevictable_pgs_cleared \
unevictable_pgs_stranded processes locked_vmas locked_vma_kb pfnmap_vmas hugetlb_vmas hugetlb_vma_kb changed_vmas bitmap_kb "
[ "$keys" = "$want" ] || fail "summary keys are '$keys'"
awk 'NR > 1 && !/^[a-z_]+ [0-9]+$/ { print "bad line: " $0; bad = 1 } END { exit bad }' \
	$DBG/summary || fail "malformed summary line"

# vmas: one row per locked VMA; with a locked mapping present, check its row.
hold --anon --mb 4 --lock fault
awk 'NR > 1 && !/^pid=[0-9]+ comm=[^ =]+ start=[0-9a-f]+ end=[0-9a-f]+ flags=(locked|onfault) backing=(anon|shmem|file) resident=[0-9]+ mlocked=[0-9]+ missed=[0-9]+ missed_crossed=[0-9]+ partial=[0-9]+ small_unmlocked=[0-9]+ orders=(-|[0-9]+:[0-9]+(,[0-9]+:[0-9]+)*) path=[^ ]+$/ { print "bad line: " $0; bad = 1 }
	END { exit bad }' $DBG/vmas || fail "malformed vmas line"
grep -q "^pid=$HOLD_PID comm=ma-lock .* backing=anon resident=1024 " $DBG/vmas ||
	fail "no vmas row for the locked 4 MiB mapping"
unhold
# fixes: the livepatch line, then one line per fix, in this order, with a
# state and a detail running to the end of the line.
awk 'NR == 2 && !/^livepatch state=(none|loading|transition|enabled|disabling|disabled|replaced) transition_ms=-?[0-9]+ rmap_mlocks=[0-9]+ referenced_mlocks=[0-9]+ unmap_mlocks=[0-9]+ fault_whole_folios=[0-9]+ faultaround_whole_folios=[0-9]+$/ { print "bad line: " $0; bad = 1 }
	NR > 2 && !/^fix=[a-z_-]+ state=(off|pending|active|upstream|unsupported)( [a-z_]+=[^ ]+)* detail=.+$/ { print "bad line: " $0; bad = 1 }
	END { exit bad }' $DBG/fixes || fail "malformed fixes line"
[ "$(sed -n 's/^fix=\([^ ]*\).*/\1/p' $DBG/fixes | tr '\n' ' ')" = "mlock fault lazyfree scanresume " ] ||
	fail "fixes lists '$(sed -n 's/^fix=\([^ ]*\).*/\1/p' $DBG/fixes | tr '\n' ' ')'"
cat $DBG/version $DBG/probes $DBG/summary $DBG/fixes | sed 's/^/  /'
mlock-audit >/dev/null || fail "mlock-audit cannot parse the files"
