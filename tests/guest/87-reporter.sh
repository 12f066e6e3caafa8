# The reporter (userspace/mlock-audit) on the live module, fixes=none: a
# 64 MiB MAP_LOCKED huge-tmpfs mapping at +4 KiB must show as a 64 MiB
# undercount in the table, JSON and Prometheus outputs. The JSON and
# Prometheus texts are also printed between ARTIFACT lines, for
# tests/host/reporter-formats to check with a real JSON parser and promtool.
# Then the error exits: not root, unknown format, debugfs not mounted,
# module not loaded; and --fail-over, watch.
. ./lib.sh
MB64=67108864
unload
load fixes=none
mkdir -p /mnt/huge
mount -t tmpfs -o huge=always,size=160m tmpfs /mnt/huge || fail "huge tmpfs"
rm -f /tmp/hold
mkfifo /tmp/hold
ma-lock --file /mnt/huge/f --mb 64 --offset-kb 4 --lock maplocked </tmp/hold >/tmp/lock.out &
lpid=$!
exec 3>/tmp/hold
cleanup() {
	exec 3>&-
	wait $lpid 2>/dev/null
	umount /mnt/huge
	grep -q ' /sys/kernel/debug ' /proc/mounts || mount -t debugfs none /sys/kernel/debug
}
trap cleanup EXIT
n=0
until grep -q ready /tmp/lock.out; do
	[ $n -ge 100 ] && fail "ma-lock not ready"
	sleep 0.1
	n=$((n + 1))
done

artifact() { # NAME CMD...: run CMD, print its output as artifact NAME
	name=$1
	shift
	"$@" >/tmp/art.out || fail "$*: exit $?"
	echo "ARTIFACT-BEGIN $MA_KERNEL/$name"
	cat /tmp/art.out
	echo "ARTIFACT-END"
}

# Table.
mlock-audit >/tmp/sum.txt || fail "mlock-audit: exit $?"
grep -E '^(Mlocked|Truly locked|Undercount|  missed|    of which crossed) ' /tmp/sum.txt | sed 's/^/  /'
grep -q '^Undercount  *64\.0 MiB (65536 kB)' /tmp/sum.txt || fail "table: no 64 MiB undercount"
grep -q '^    of which crossed  *64\.0 MiB (65536 kB)' /tmp/sum.txt || fail "table: crossed is not 64 MiB"
mlock-audit vmas >/tmp/vmas.txt || fail "mlock-audit vmas: exit $?"
sed 's/^/  /' /tmp/vmas.txt
awk '$2 == "ma-lock" && $7 == 65536 && $9 == 65536 && $10 == 65536 && $NF == "/mnt/huge/f" { f = 1 } END { exit !f }' \
	/tmp/vmas.txt || fail "vmas table: no ma-lock row with 65536 kB missed and crossed"

# JSON and Prometheus (checked strictly on the host as well).
artifact summary.json mlock-audit --json
grep -q "\"undercount_bytes\": $MB64," /tmp/art.out || fail "JSON: undercount_bytes is not $MB64"
artifact vmas.json mlock-audit vmas --json
artifact summary.prom mlock-audit --prometheus
grep -q "^mlock_audit_undercount_bytes $MB64\$" /tmp/art.out || fail "Prometheus: undercount is not $MB64"
grep -q 'pid=' /tmp/art.out && fail "Prometheus summary has pid labels"
artifact vmas.prom mlock-audit vmas --prometheus
grep -q "^mlock_audit_process_undercount_bytes{pid=\"$lpid\",comm=\"ma-lock\"} $MB64\$" /tmp/art.out ||
	fail "Prometheus vmas: no per-process undercount of $MB64 for pid $lpid"
info "64 MiB undercount seen in the table, JSON and Prometheus outputs"

# expect_exit RC PATTERN CMD...: CMD exits RC and says PATTERN on stderr
expect_exit() {
	want=$1 pat=$2
	shift 2
	"$@" >/tmp/err.out 2>/tmp/err.err
	rc=$?
	info "$* -> $rc: $(head -n1 /tmp/err.err)"
	[ $rc = "$want" ] || fail "$*: exit $rc, want $want"
	[ -z "$pat" ] || grep -q -e "$pat" /tmp/err.err || fail "$*: no '$pat' in: $(cat /tmp/err.err)"
}
mlock-audit --fail-over 64M >/dev/null || fail "--fail-over 64M: exit $?, want 0 (not above)"
expect_exit 5 '' mlock-audit --fail-over 67108863
expect_exit 5 '' mlock-audit --prometheus --fail-over 63MiB
expect_exit 2 'fail-over' mlock-audit --fail-over -5
mlock-audit watch -i 0.2 -n 2 >/tmp/watch.out || fail "watch -n 2: exit $?"
[ "$(grep -c '^Undercount  *64\.0 MiB' /tmp/watch.out)" = 2 ] || fail "watch -n 2 did not show two refreshes"
expect_exit 2 '' mlock-audit watch -i 0
expect_exit 2 '' mlock-audit vmas --sort bogus
expect_exit 6 'root' ma-runas 65534 mlock-audit
rm -rf /tmp/fmt2 && cp -r $DBG /tmp/fmt2 2>/dev/null
sed -i '1s/.*/format 2/' /tmp/fmt2/summary
expect_exit 4 'format 2' mlock-audit --dir /tmp/fmt2
umount /sys/kernel/debug || fail "umount debugfs"
expect_exit 7 'debugfs' mlock-audit
mount -t debugfs none /sys/kernel/debug || fail "mount debugfs"
exec 3>&-
wait $lpid
unload
expect_exit 3 'trace' mlock-audit
grep -q 'Mlocked' /tmp/err.out || fail "not loaded: the cross-checks were not shown"

# The man page's node_exporter textfile-collector recipe, with the module
# unloaded and then loaded: each run replaces the file (a whole document
# exits 0) with one that says which; tests/host/reporter-formats runs
# promtool on both.
TF=/tmp/textfile/mlock_audit.prom
mkdir -p /tmp/textfile
collect() { mlock-audit --prometheus >$TF.$$ && mv $TF.$$ $TF; }
echo stale >$TF
collect || fail "textfile recipe, module unloaded: exit $?"
grep -qx 'mlock_audit_module_loaded 0' $TF && grep -qx 'mlock_audit_up 0' $TF ||
	fail "textfile recipe, module unloaded: the file says $(grep -E '^mlock_audit_(module_loaded|up) ' $TF | tr '\n' ' ')"
artifact textfile-unloaded.prom cat $TF
load fixes=none
collect || fail "textfile recipe, module loaded: exit $?"
grep -qx 'mlock_audit_module_loaded 1' $TF && grep -qx 'mlock_audit_up 1' $TF ||
	fail "textfile recipe, module loaded: the file says $(grep -E '^mlock_audit_(module_loaded|up) ' $TF | tr '\n' ' ')"
artifact textfile-loaded.prom cat $TF
unload
collect || fail "textfile recipe, module unloaded again: exit $?"
grep -qx 'mlock_audit_module_loaded 0' $TF || fail "textfile recipe: the file still says the module is loaded"
info "textfile recipe: the file replaced with the module unloaded, loaded and unloaded again"
exit 0
