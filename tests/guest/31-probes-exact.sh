# The probes' hits are exact, and where a live fix replaces a probed
# function its replacement counts the calls while the hook is unregistered
#. The independent count is the kernel's function tracer on the
# same symbols, over the same window (ma-tracewin). The window spans the
# livepatch's disabling (the hooks count again), the fixes module's
# unload and reload by hand, and its new transition (the replacements
# count again), with a file-write and a khugepaged workload before, during
# and after: every call must be counted once, by the hook or by the
# replacement. Then probes=off registers no hook and leaves the fixes be.
. ./lib.sh
unload
T=/sys/kernel/tracing
[ -e $T/tracing_on ] || mount -t tracefs nodev $T || fail "cannot mount tracefs"

# The probed function that each fix replaces (src/fixes_count.c).
replaced_by() {
	case $1 in
	folio_add_file_rmap_ptes | folio_add_file_rmap_pmd) echo mlock ;;
	finish_fault) echo fault ;;
	hpage_collapse_scan_pmd) echo lazyfree ;;
	esac
}
# check_counted: "counted by the live fix" on exactly the symbols whose
# fix is active
check_counted() {
	for s in $syms; do
		f=$(replaced_by "$s")
		want=no
		[ -n "$f" ] && [ "$(fix_state "$f")" = active ] && want=yes
		got=no
		grep -q "^[a-z_]* $s hits=[0-9]* missed=[0-9]* counted by the live fix\$" $DBG/probes && got=yes
		[ $got = "$want" ] || fail "$1: $s counted by the live fix: $got, want $want ($(grep " $s " $DBG/probes))"
		[ $want = yes ] && info "$1: $s counted by the live fix"
	done
	return 0
}
# work: shared writes to tmpfs (finish_fault, rmap add) and an
# MADV_HUGEPAGE region that khugepaged scans every 10 ms
work() {
	ma-workload file-touch /mnt/t 8 2 || fail "file-touch failed"
	echo 10 >$KH/scan_sleep_millisecs || fail "cannot set scan_sleep_millisecs"
	ma-workload anon-thp 8 2 || fail "anon-thp failed"
}

load
syms=$(awk '$3 ~ /^hits=/ { print $2 }' $DBG/probes)
[ -n "$syms" ] || fail "no probed symbol: $(cat $DBG/probes)"
info "probed: $(echo $syms)"
check_counted "loaded"
grep -q 'counted by the live fix' $DBG/probes || info "no probed function is replaced on this kernel: the hooks count everything"

# At the window's edges nothing runs, khugepaged included.
khugepaged_asleep
mkdir -p /mnt/t && mount -t tmpfs -o size=64m tmpfs /mnt/t || fail "tmpfs"
echo 0 >$T/tracing_on
echo nop >$T/current_tracer
echo 8192 >$T/buffer_size_kb || fail "cannot size the trace buffer"
printf '%s\n' $syms >$T/set_ftrace_filter || fail "set_ftrace_filter refused: $(echo $syms)"
echo function >$T/current_tracer || fail "no function tracer"
echo >$T/trace
ma-tracewin on $DBG/probes $T/tracing_on >/tmp/h0 || fail "ma-tracewin on"
work
lp_disable
check_counted "livepatch disabled"
work
rmmod mlock_audit_fixes || fail "rmmod mlock_audit_fixes"
work &
wpid=$!
modprobe mlock_audit_fixes || fail "modprobe mlock_audit_fixes"
wait $wpid || fail "the workload during the transition failed"
patched() { [ "$(cat $LP/transition 2>/dev/null)" = 0 ]; }
wait_for 90 patched || fail "no transition complete 90 s after the reload"
check_counted "fixes reloaded"
work
khugepaged_asleep
ma-tracewin off $DBG/probes $T/tracing_on >/tmp/h1 || fail "ma-tracewin off"
umount /mnt/t
for c in $T/per_cpu/cpu*; do
	o=$(sed -n 's/^overrun: //p' $c/stats)
	[ "$o" = 0 ] || fail "the trace buffer of ${c##*/} overran ($o entries lost)"
done
# before the tracer changes: that empties the buffer
cp $T/trace /tmp/trace
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
for s in $syms; do
	h0=$(sed -n "s/^[a-z_]* $s hits=\([0-9]*\).*/\1/p" /tmp/h0)
	h1=$(sed -n "s/^[a-z_]* $s hits=\([0-9]*\).*/\1/p" /tmp/h1)
	t=$(grep -c " $s <-" /tmp/trace)
	info "$s: probes $h0 -> $h1 (+$((h1 - h0))), function tracer $t"
	[ $((h1 - h0)) = "$t" ] || fail "$s: the probes counted $((h1 - h0)) calls, the function tracer $t"
done
for s in finish_fault folio_add_file_rmap_ptes page_add_file_rmap; do
	case " $(echo $syms) " in *" $s "*)
		[ "$(grep -c " $s <-" /tmp/trace)" -ge 8192 ] ||
			fail "$s: fewer than 8192 calls in the window (4 x 2 x 2048 pages written)" ;;
	esac
done

# probes=off: no hook (no function gains an ftrace callback with
# fixes=none), one "off" line per hook, the fixes as ever.
unload
fns0=$(ftrace_fns)
load probes=off fixes=none
info "probes=off: $(tail -n +2 $DBG/probes | tr '\n' ';')"
[ "$(tail -n +2 $DBG/probes | grep -vc '^[a-z_]* off: probes=off$')" = 0 ] ||
	fail "probes=off: a line that is not 'off': $(cat $DBG/probes)"
[ "$(tail -n +2 $DBG/probes | wc -l)" = 3 ] || fail "probes=off: not three hooks: $(cat $DBG/probes)"
! hooks_left "$fns0" || fail "probes=off registered hooks: $(cat $FTRACE_FNS)"
[ "$(cat /sys/module/mlock_audit/parameters/probes)" = N ] || fail "the probes parameter does not read N"
unload
load probes=off
for f in mlock fault lazyfree scanresume; do
	want=$(awk -v k="$MA_KERNEL" -v f="$f" '$1 == k && $2 == f { print $3 }' /tests/expected-states)
	[ "$(fix_state $f)" = "$want" ] || fail "probes=off: fix $f is $(fix_state $f), want $want"
done
info "probes=off: the fixes as expected-states lists them"
unload
exit 0
