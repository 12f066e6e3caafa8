# Bad input to every module parameter (fixes= and fail_at= are covered by
# 98 and 45): bad values of the load-time booleans, every parameter
# read-only at run time, loading twice, rmmod while the livepatch is in
# transition or enabled, and bad writes to the livepatch's enabled knob.
# Each bad input is refused with a clear error and leaves the module's
# state unchanged. The module has no run-time parameter: a filter of its
# debugfs views (the former pid=) would be one setting for every reader;
# the reporter filters per reader (mlock-audit vmas -p).
. ./lib.sh
unload
long=$(head -c 5000 /dev/zero | tr '\0' 9)

# the booleans at load: the load fails, with the kernel's message naming
# the parameter
for p in probes allow_unverified; do
	for bad in 2 -1 maybe x "$long"; do
		dmesg -c >/dev/null
		if modprobe mlock_audit $p="$bad" 2>/tmp/err; then
			unload
			fail "$p='$(echo "$bad" | cut -c1-20)' accepted at load"
		fi
		loaded && fail "$p='$bad': module left loaded"
		msg=$(dmesg | grep "invalid for parameter .$p." | cut -c1-120)
		[ -n "$msg" ] || msg=$(cut -c1-120 /tmp/err)
		[ -n "$msg" ] || fail "$p='$(echo "$bad" | cut -c1-20)' at load: refused without a message"
		info "$p='$(echo "$bad" | cut -c1-20)' at load: ${msg#*] }"
	done
done

# every parameter is read-only at run time
load fixes=none
n=0
for f in /sys/module/mlock_audit/parameters/*; do
	(echo 1 >$f) 2>/dev/null && fail "$(basename $f) could be written at run time"
	[ "$(stat -c %a $f)" = 444 ] || fail "$(basename $f) has mode $(stat -c %a $f)"
	n=$((n + 1))
done
[ $n -ge 3 ] || fail "only $n parameters: $(ls /sys/module/mlock_audit/parameters)"
[ -e /sys/module/mlock_audit/parameters/pid ] && fail "a pid parameter"
info "$n parameters, each read-only at run time: $(ls /sys/module/mlock_audit/parameters | tr '\n' ' ')"

# loading twice: refused (EEXIST), the loaded module unaffected
ko=$(modinfo -n mlock_audit)
insmod "$ko" 2>/tmp/err && fail "a second insmod succeeded"
grep -q 'File exists' /tmp/err || fail "second insmod: unclear error: $(cat /tmp/err)"
cat $DBG/version >/dev/null || fail "version unreadable after the second insmod"
unload
info "second insmod refused: $(tr '\n' ' ' </tmp/err)"

# rmmod while the livepatch is in transition or enabled is refused, for
# the fixes module (the livepatch holds it) and for the audit (the fixes
# module uses it)
modprobe mlock_audit || fail "modprobe failed"
wait_for 60 fixes_requested || fail "the fixes module still loading 60 s after modprobe"
fixes_loaded || fail "the fixes module was not loaded: $(grep -m1 '^fix=' $DBG/fixes)"
tr=$(cat $LP/transition 2>/dev/null)
rmmod mlock_audit_fixes 2>/tmp/err && fail "rmmod mlock_audit_fixes succeeded with the livepatch (transition=$tr)"
info "rmmod mlock_audit_fixes with the livepatch registered (transition=$tr): $(tr '\n' ' ' </tmp/err)"
rmmod mlock_audit 2>/tmp/err && fail "rmmod mlock_audit succeeded under the fixes module"
grep -q 'in use' /tmp/err || fail "rmmod mlock_audit under the fixes module: unclear error: $(cat /tmp/err)"
info "rmmod mlock_audit under the fixes module: $(tr '\n' ' ' </tmp/err)"
loaded && fixes_loaded || fail "a module went away"

# the livepatch's own knob (the kernel's), as a user would mistype it:
# refused, the patch still enabled
wait_for 60 file_is $LP/transition 0 || fail "transition still running after 60 s"
for bad in 2 -1 abc "" "$long"; do
	(echo "$bad" >$LP/enabled) 2>/dev/null && fail "enabled='$(echo "$bad" | cut -c1-10)' was accepted"
	[ "$(cat $LP/enabled)" = 1 ] || fail "enabled='$(echo "$bad" | cut -c1-10)' changed the patch"
done
(echo 1 >$LP/enabled) 2>/dev/null && fail "enabling an enabled patch was accepted"
info "$LP/enabled: 2, -1, abc, an empty line and 5000 digits refused; 1 on an enabled patch refused; still enabled"
unload
exit 0
