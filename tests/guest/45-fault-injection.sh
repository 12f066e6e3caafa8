# Fault injection at load (fail_at=, src/testing.c: in the test build).
# The Debian kernels are built without CONFIG_FAULT_INJECTION (no failslab,
# no fail_page_alloc),
# so the module injects its own failures: each init step made to fail is
# named in the kernel log and fails the load (the fixes step refuses the
# fixes module and not the audit; the livepatch step only marks the fixes
# unsupported), and leaves nothing behind: no module, no
# debugfs directory, no hook, no livepatch, the stock khugepaged thread.
# Every hook registration attempt is failed in turn. Bad fail_at= values are
# refused. The module loads and unloads normally afterwards.
. ./lib.sh
unload
fns0=$(ftrace_fns)
clean() { # WHAT: nothing of the module is left after WHAT
	loaded && fail "$1: module left loaded"
	[ -e $DBG ] && fail "$1: $DBG left behind"
	hooks_left "$fns0" && fail "$1: hooks left behind: $(cat $FTRACE_FNS)"
	[ -d $LP ] && fail "$1: a livepatch left behind"
	kh=$(kh_pid)
	[ -n "$kh" ] && grep -q ma_khugepaged /proc/$kh/stack && fail "$1: khugepaged runs ma_khugepaged"
	return 0
}
refused() { # VALUE [MESSAGE]: the load with fail_at=VALUE fails, saying so
	dmesg -c >/dev/null
	if modprobe mlock_audit fail_at="$1" 2>/dev/null; then
		unload
		fail "fail_at='$1': the load succeeded"
	fi
	msg=$(dmesg | grep "mlock_audit: ${2:-fail_at=}" | tail -n1)
	[ -n "$msg" ] || fail "fail_at='$1': no message in the kernel log: $(dmesg | tail -n2 | tr '\n' ' ')"
	clean "fail_at='$1'"
	info "fail_at='$1': load refused; ${msg#*mlock_audit: }"
}

for v in bogus hook:0 hook:x symbols: "" hooks kprobe; do
	refused "$v"
done
refused symbols

# the fixes module's init: it is refused, the audit stays, and its "fixes"
# file names the failure in the kernel's own words
dmesg -c >/dev/null
load fail_at=fixes
fixes_loaded && fail "fail_at=fixes: the fixes module is loaded"
[ -d $LP ] && fail "fail_at=fixes: a livepatch is registered"
n=$(grep -c 'state=unsupported detail=the fixes module mlock_audit_fixes was not loaded (modprobe exit [0-9]*): .*mlock_audit_fixes: init failed: -ENOMEM' $DBG/fixes)
off=$(fixes_not_refused 'the fixes module mlock_audit_fixes was not loaded \(modprobe exit [0-9]+\): .*mlock_audit_fixes: init failed: -ENOMEM')
[ "$n" -ge 1 ] && [ -z "$off" ] ||
	fail "fail_at=fixes: not every fix names the refusal or the kernel's own state of it: $(echo "$off" | tr '\n' '|')"
cat $DBG/summary >/dev/null || fail "fail_at=fixes: summary unreadable"
info "fail_at=fixes: the audit loaded; $(grep -m1 '^fix=' $DBG/fixes)"
unload
clean "fail_at=fixes"

# each hook registration in turn, until the N-th does not exist
n=1
while :; do
	dmesg -c >/dev/null
	if modprobe mlock_audit fail_at=hook:$n 2>/dev/null; then
		dmesg | grep -q 'fail_at=hook: injecting' && fail "hook:$n was failed but the load succeeded"
		unload
		info "fail_at=hook:$n: no such registration, the load succeeds"
		break
	fi
	dmesg | grep -q 'fail_at=hook: injecting' ||
		fail "hook:$n: the load failed without the injection: $(dmesg | tail -n2 | tr '\n' ' ')"
	clean "fail_at=hook:$n"
	n=$((n + 1))
	[ $n -le 40 ] || fail "more than 40 hook registration attempts"
done
[ $n -gt 3 ] || fail "only $((n - 1)) hook registration attempts; the three hooks make at least 3"
info "hook registration attempts 1 to $((n - 1)) (every symbol each hook tries) each failed in turn: load refused, nothing left"

# the livepatch step: the load succeeds, every fix it carried says why not
dmesg -c >/dev/null
load fail_at=livepatch
[ -d $LP ] && fail "fail_at=livepatch: a livepatch is registered"
why=$(grep -c 'state=unsupported .*klp_enable_patch() failed' $DBG/fixes)
info "fail_at=livepatch: loaded; $why fix(es) unsupported: $(grep '^fix=' $DBG/fixes | cut -d' ' -f1-2 | tr '\n' ' ')"
[ "$why" -ge 1 ] || fail "fail_at=livepatch: no fix reports the failed klp_enable_patch(): $(cat $DBG/fixes | tr '\n' '|')"
grep -q -E 'state=(active|pending)' $DBG/fixes && fail "fail_at=livepatch: a fix claims to be applied"
dmesg | grep -q 'livepatch refused the fixes' || fail "fail_at=livepatch: no message in the kernel log"
unload
clean "fail_at=livepatch"

# and everything works again
load
grep -q -E 'state=pending' $DBG/fixes && fail "after the injections: a fix still pending"
unload
clean "the last unload"
exit 0
