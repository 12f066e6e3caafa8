# Kernel lockdown, raised at run time (it cannot be lowered again, so this
# is the last guest test): with the integrity level the unsigned module
# cannot be loaded and the reporter says so (exit 8) while `trace` still
# works; with confidentiality `trace` is refused (exit 8) too.
. ./lib.sh
LD=/sys/kernel/security/lockdown
grep -q ' /sys/kernel/security ' /proc/mounts || mount -t securityfs none /sys/kernel/security
[ -w $LD ] || skip "no lockdown LSM in this kernel"
unload
info "lockdown: $(cat $LD)"
echo integrity >$LD || fail "cannot raise lockdown to integrity"
modprobe mlock_audit 2>/dev/null && fail "an unsigned module loaded under lockdown"
mlock-audit >/tmp/ld.out 2>/tmp/ld.err
rc=$?
info "integrity: mlock-audit -> $rc: $(head -n1 /tmp/ld.err)"
[ $rc = 8 ] || fail "mlock-audit under lockdown: exit $rc, want 8"
grep -qi 'lockdown' /tmp/ld.err || fail "no lockdown in the message"
# without BTF (the debug kernel) trace cannot run at all; 86-trace checks
# that it says so
[ -e /sys/kernel/btf/vmlinux ] ||
	skip "the kernel has no BTF, so trace's checks under lockdown cannot run (the refused module and the reporter's exit 8 under integrity were checked)"
mlock-audit trace -d 1 >/tmp/ld.out 2>/tmp/ld.err || fail "trace under integrity lockdown: exit $?: $(cat /tmp/ld.err)"
info "integrity: trace works: $(grep -c . /tmp/ld.out) lines"
echo confidentiality >$LD || fail "cannot raise lockdown to confidentiality"
mlock-audit trace -d 1 >/tmp/ld.out 2>/tmp/ld.err
rc=$?
info "confidentiality: trace -> $rc: $(tail -n1 /tmp/ld.err)"
[ $rc = 8 ] || fail "trace under confidentiality lockdown: exit $rc, want 8"
grep -q 'lockdown' /tmp/ld.err || fail "no lockdown in the message"
exit 0
