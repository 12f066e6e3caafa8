# Bad input to every module parameter (fixes= and fail_at= are covered by
# 98 and 45): pid at load and at run time, concurrent writers of pid, the
# load-time parameters written at run time, loading twice, rmmod while
# the livepatch is in transition or enabled, and bad writes to the
# livepatch's enabled knob. Each bad input is refused with a clear error
# and leaves the module's state unchanged.
. ./lib.sh
unload
PARAM=/sys/module/mlock_audit/parameters/pid
long=$(head -c 5000 /dev/zero | tr '\0' 9)

# pid at load: the load fails, with the kernel's message naming pid
for bad in -1 abc 0x10 99999999999 4194305 "1 2" "$long"; do
	dmesg -c >/dev/null
	if modprobe mlock_audit pid="$bad" 2>/tmp/err; then
		unload
		fail "pid='$(echo "$bad" | cut -c1-20)' accepted at load"
	fi
	loaded && fail "pid='$bad': module left loaded"
	msg=$(dmesg | grep "invalid for parameter .pid." | cut -c1-120)
	[ -n "$msg" ] || msg=$(cut -c1-120 /tmp/err)
	[ -n "$msg" ] || fail "pid='$(echo "$bad" | cut -c1-20)' at load: refused without a message"
	info "pid='$(echo "$bad" | cut -c1-20)' at load: ${msg#*] }"
done

# pid at run time: EINVAL or ERANGE, the value unchanged
load fixes=none
echo 1 >$PARAM || fail "pid=1 refused"
nl='
'
for bad in -1 abc 0x10 " 7x" 99999999999 4194305 "$nl" "$long"; do
	if printf '%s' "$bad" >$PARAM 2>/tmp/err; then
		fail "pid='$(echo "$bad" | cut -c1-20)' accepted"
	fi
	grep -q -E 'Invalid argument|Numerical result out of range' /tmp/err ||
		fail "pid='$(echo "$bad" | cut -c1-20)': unclear error: $(cat /tmp/err)"
	[ "$(cat $PARAM)" = 1 ] || fail "pid='$bad' changed pid to $(cat $PARAM)"
done
echo 4194304 >$PARAM || fail "pid=4194304 (PID_MAX_LIMIT) refused"
info "pid at run time: -1, abc, 0x10, ' 7x', 99999999999, 4194305, an empty line and 5000 digits refused (EINVAL/ERANGE), pid unchanged"

# concurrent writers: four writers (valid and invalid values) and a reader
# for 5 s; pid always reads back as one of the valid values
end=$(($(date +%s) + 5))
for v in 1 2 bad -3; do
	(while [ "$(date +%s)" -lt $end ]; do printf '%s' $v >$PARAM 2>/dev/null; done) &
done
n=0
while [ "$(date +%s)" -lt $end ]; do
	case $(cat $PARAM) in 1 | 2) ;; *) fail "pid read back as '$(cat $PARAM)' under concurrent writers" ;; esac
	cat $DBG/summary >/dev/null || fail "summary unreadable under concurrent writers"
	n=$((n + 1))
done
wait
info "concurrent writers: $n reads, pid always 1 or 2"
echo 0 >$PARAM

# load-time parameters cannot be written at run time
for p in fixes fail_at; do
	f=/sys/module/mlock_audit/parameters/$p
	[ -e $f ] || continue
	(echo all >$f) 2>/dev/null && fail "$p could be written at run time"
done
info "fixes and fail_at are read-only at run time (mode $(stat -c %a /sys/module/mlock_audit/parameters/fixes))"

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
