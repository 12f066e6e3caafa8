# `mlock-audit trace` (BPF, CO-RE) with the module NOT loaded: the huge-tmpfs
# MAP_LOCKED scenario, the kprobe fallback, khugepaged activity, start-up
# time, its error exits (no capabilities, no bpf(2), bad arguments), a
# user with CAP_BPF and CAP_PERFMON only, and -p filtering in BPF.
. ./lib.sh
THP=/sys/kernel/mm/transparent_hugepage
unload
loaded && fail "module still loaded"

# A kernel without BTF (the debug kernel is built without debug info):
# CO-RE cannot run, and trace must say so and exit 9.
if [ ! -e /sys/kernel/btf/vmlinux ]; then
	mlock-audit trace >/tmp/tr0 2>&1
	rc=$?
	info "without BTF: exit $rc: $(head -n1 /tmp/tr0)"
	[ $rc = 9 ] && grep -q 'BPF unavailable: /sys/kernel/btf/vmlinux: .*CONFIG_DEBUG_INFO_BTF' /tmp/tr0 ||
		fail "without BTF, trace exited $rc: $(cat /tmp/tr0)"
	skip "the kernel has no BTF (CONFIG_DEBUG_INFO_BTF unset): trace refuses cleanly (exit 9), the tracing checks cannot run"
fi

# trace_start OUT [ARGS...]: start the tracer, wait until it is attached
trace_start() {
	out=$1
	shift
	mlock-audit trace "$@" >"$out" 2>"$out.err" &
	tpid=$!
	n=0
	until grep -q 'programs attached' "$out.err" 2>/dev/null; do
		kill -0 $tpid 2>/dev/null || { cat "$out.err"; fail "trace exited early"; }
		[ $n -ge 100 ] && { cat "$out.err"; fail "trace not attached after 10 s"; }
		sleep 0.1
		n=$((n + 1))
	done
}
# trace_stop: SIGINT, which makes it print its totals and exit 0
trace_stop() {
	kill -INT $tpid
	wait $tpid || fail "trace exited $? after SIGINT"
}
# Pages of large folios mapped into locked VMAs without PG_mlocked.
not_mlocked() { sed -n 's/^totals .*not_mlocked_pages=//p' "$1" | awk '{ n += $1 } END { print n + 0 }'; }

mkdir -p /mnt/huge
mount -t tmpfs -o huge=always,size=160m tmpfs /mnt/huge || fail "huge tmpfs"
trap 'umount /mnt/huge 2>/dev/null; echo "$old_sleep" >$THP/khugepaged/scan_sleep_millisecs 2>/dev/null' EXIT

# 1. 64 MiB MAP_LOCKED at +4 KiB: every 2 MiB folio crosses a page-table
# boundary, so no kernel (6.1, 6.12, 7.3) mlocks them.
trace_start /tmp/tr1
ms=$(sed -n 's/.*programs attached in \([0-9]*\) ms.*/\1/p' /tmp/tr1.err)
info "start-up: $(head -n2 /tmp/tr1.err | tr '\n' ' ')"
info "attached in $ms ms"
[ "$ms" -lt 2000 ] || fail "trace took $ms ms to start, want < 2000"
echo | ma-lock --file /mnt/huge/f --mb 64 --offset-kb 4 --lock maplocked >/dev/null ||
	fail "ma-lock 64 MiB"
trace_stop
grep 'rmap pid=' /tmp/tr1 | head -n2 | sed 's/^/  /'
grep totals /tmp/tr1 | sed 's/^/  /'
grep -q '^totals after .* lost=0$' /tmp/tr1 || fail "the totals do not say lost=0"
ev=$(grep -c ' rmap pid=[0-9]* comm=ma-lock .* order=9 .* file=f NOT-MLOCKED' /tmp/tr1)
pages=$(not_mlocked /tmp/tr1)
info "rmap events for ma-lock: $ev folios; pages left without PG_mlocked: $pages (want 16384 = 64 MiB)"
[ "$ev" -eq 32 ] || fail "want one NOT-MLOCKED event for each of the 32 folios, got $ev"
[ "$pages" -eq 16384 ] || fail "not_mlocked_pages $pages, want 16384"
grep -q '^mlock-audit trace: fault: finish_fault(fexit)$' /tmp/tr1.err || fail "finish_fault not hooked by fexit"
grep -q '^totals finish_fault: calls=[1-9][0-9]* locked=[0-9]* sigbus=0$' /tmp/tr1 ||
	fail "no finish_fault calls counted"
rm -f /mnt/huge/f

# 2. The same through the kprobe/kretprobe fallback, 16 MiB.
trace_start /tmp/tr2 --kprobes
grep -q '(kprobe)' /tmp/tr2.err || { cat /tmp/tr2.err; fail "--kprobes did not use kprobes"; }
echo | ma-lock --file /mnt/huge/g --mb 16 --offset-kb 4 --lock maplocked >/dev/null ||
	fail "ma-lock 16 MiB"
trace_stop
pages=$(not_mlocked /tmp/tr2)
info "kprobes: $(head -n1 /tmp/tr2.err); pages without PG_mlocked: $pages (want 4096)"
[ "$pages" -eq 4096 ] || fail "kprobe fallback counted $pages pages, want 4096"
rm -f /mnt/huge/g

# 3. khugepaged: small pages advised MADV_HUGEPAGE afterwards get collapsed.
old_sleep=$(cat $THP/khugepaged/scan_sleep_millisecs)
echo 100 >$THP/khugepaged/scan_sleep_millisecs
trace_start /tmp/tr3
ma-workload anon-collapse 8 30 &
wpid=$!
n=0
until grep -q 'khugepaged collapse pid=[0-9]* comm=ma-workload .*result=SCAN_SUCCEED' /tmp/tr3; do
	[ $n -ge 250 ] && break
	sleep 0.1
	n=$((n + 1))
done
kill $wpid
wait $wpid
trace_stop
echo "$old_sleep" >$THP/khugepaged/scan_sleep_millisecs
grep -m3 'khugepaged.*comm=ma-workload' /tmp/tr3 | sed 's/^/  /'
scans=$(grep -c 'khugepaged scan_pmd pid=[0-9]* comm=ma-workload ' /tmp/tr3)
coll=$(grep -c 'khugepaged collapse pid=[0-9]* comm=ma-workload .*result=SCAN_SUCCEED' /tmp/tr3)
info "khugepaged (8 MiB, 100 ms scan period, $((n / 10)) s): $scans scan_pmd events, $coll successful collapses"
[ "$scans" -ge 1 ] || fail "no scan_pmd event for ma-workload"
[ "$coll" -ge 1 ] || fail "no successful collapse event for ma-workload"

# 4. Errors, each with its own exit status.
# expect_exit RC PATTERN CMD...: CMD exits RC and says PATTERN on stderr
expect_exit() {
	want=$1 pat=$2
	shift 2
	"$@" >/tmp/err.out 2>&1
	rc=$?
	info "$* -> $rc: $(head -n1 /tmp/err.out)"
	[ $rc = "$want" ] || fail "$*: exit $rc, want $want"
	grep -q -e "$pat" /tmp/err.out || fail "$*: no '$pat' in: $(cat /tmp/err.out)"
}
expect_exit 6 'needs CAP_BPF and CAP_PERFMON' ma-runas 65534 mlock-audit trace -d 1
expect_exit 9 'BPF unavailable.*CONFIG_BPF_SYSCALL' ma-nobpf mlock-audit trace -d 1
expect_exit 2 '-d wants seconds' mlock-audit trace -d 0
expect_exit 2 '-p wants a process id' mlock-audit trace -p x1
expect_exit 2 'unknown or ambiguous option' mlock-audit trace --bogus
expect_exit 2 "unknown option '-x'" mlock-audit trace -ax
expect_exit 2 'needs a value' mlock-audit trace -d
expect_exit 2 'unexpected argument' mlock-audit trace stray

# 5. Not root, with CAP_BPF and CAP_PERFMON only: the function hooks
# attach; tracefs is root's, so the khugepaged tracepoints are off and
# the tracer says why.
ma-runas --caps bpf-perfmon 65534 mlock-audit trace -d 1 >/tmp/tr5 2>/tmp/tr5.err
rc=$?
info "uid 65534 with CAP_BPF+CAP_PERFMON: exit $rc: $(grep -m3 '^mlock-audit trace: [a-z]*:' /tmp/tr5.err | tr '\n' ' ')"
[ $rc = 0 ] || fail "trace with CAP_BPF and CAP_PERFMON exited $rc: $(cat /tmp/tr5.err)"
grep -q '^mlock-audit trace: rmap: .*(fexit)' /tmp/tr5.err ||
	fail "trace with CAP_BPF and CAP_PERFMON did not hook the rmap: $(cat /tmp/tr5.err)"
grep -q 'programs attached' /tmp/tr5.err || fail "no programs attached with CAP_BPF and CAP_PERFMON"
grep -q '^mlock-audit trace: khugepaged: the huge_memory tracepoints are not reachable in tracefs (Permission denied' /tmp/tr5.err ||
	fail "without root, trace does not say why the khugepaged tracepoints are off: $(cat /tmp/tr5.err)"

# 6. -p filters in BPF: two processes map 16 MiB at +4 KiB each at the
# same time; only the one asked for is seen, in the events and the totals.
rm -f /tmp/go
mkfifo /tmp/go
sh -c 'read x </tmp/go; exec ma-lock --file /mnt/huge/p1 --mb 16 --offset-kb 4 --lock maplocked </dev/null >/dev/null' &
p1=$!
trace_start /tmp/tr6 -p $p1
echo | ma-lock --file /mnt/huge/p2 --mb 16 --offset-kb 4 --lock maplocked >/dev/null ||
	fail "ma-lock p2"
echo go >/tmp/go
wait $p1
trace_stop
grep totals /tmp/tr6 | sed 's/^/  /'
others=$(grep ' rmap pid=' /tmp/tr6 | grep -vc " rmap pid=$p1 ")
mine=$(grep -c " rmap pid=$p1 comm=ma-lock .* order=9 .* file=p1 NOT-MLOCKED" /tmp/tr6)
pages=$(not_mlocked /tmp/tr6)
info "-p $p1: $mine events of it, $others of other processes; pages without PG_mlocked: $pages (want 4096)"
[ "$others" = 0 ] || fail "-p $p1 let $others events of other processes through"
[ "$mine" = 8 ] || fail "-p $p1: want 8 NOT-MLOCKED events (16 MiB of 2 MiB folios), got $mine"
[ "$pages" = 4096 ] || fail "-p $p1: the totals count $pages pages, want 4096 (this process only)"
grep -q "^totals (pid $p1) after .* lost=0\$" /tmp/tr6 || fail "no per-process totals line with lost=0"
rm -f /mnt/huge/p1 /mnt/huge/p2 /tmp/go
exit 0
