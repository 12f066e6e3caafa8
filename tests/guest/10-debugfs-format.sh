# The debugfs files exist, are read-only, and are well-formed (format 1).
. ./lib.sh
load
for f in version probes; do
	[ -f $DBG/$f ] || fail "$DBG/$f missing"
	mode=$(stat -c %a $DBG/$f)
	[ "$mode" = 444 ] || fail "$f has mode $mode, want 444 (lockdown refuses writable files)"
	if (echo x >$DBG/$f) 2>/dev/null; then fail "$f accepted a write"; fi
	[ "$(head -n1 $DBG/$f)" = "format 1" ] || fail "$f: first line is not 'format 1'"
done
ls $DBG | grep -v -x -E 'version|probes' && fail "unexpected files in $DBG"

# version: exactly these keys, values matching the kernel and the module.
keys=$(awk 'NR > 1 { print $1 }' $DBG/version | tr '\n' ' ')
[ "$keys" = "module kernel built_for " ] || fail "version keys are '$keys'"
[ "$(awk '$1 == "kernel" { print $2 }' $DBG/version)" = "$(uname -r)" ] ||
	fail "version: kernel is not $(uname -r)"
[ "$(awk '$1 == "built_for" { print $2 }' $DBG/version)" = "$(uname -r)" ] ||
	fail "version: module built for another kernel"
[ "$(awk '$1 == "module" { print $2 }' $DBG/version)" = "$(cat /sys/module/mlock_audit/version)" ] ||
	fail "version: module version differs from MODULE_VERSION"

# probes: every line is "HOOK SYMBOL hits=N missed=N" or "HOOK not found: ...",
# and every hook appears.
awk 'NR > 1 && !/^[a-z_]+ [A-Za-z0-9_.]+ hits=[0-9]+ missed=[0-9]+$/ &&
	!/^[a-z_]+ not found: tried .+$/ { print "bad line: " $0; bad = 1 }
	END { exit bad }' $DBG/probes || fail "malformed probes line"
for h in rmap_add finish_fault khugepaged_scan; do
	grep -q "^$h " $DBG/probes || fail "hook $h missing from probes"
done
cat $DBG/version $DBG/probes | sed 's/^/  /'
mlock-audit >/dev/null || fail "mlock-audit cannot parse the files"
