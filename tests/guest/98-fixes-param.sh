# fixes= selects the live fixes: bad values fail the load with a message
# naming the problem and leave nothing loaded; none registers no
# livepatch; a name selects that fix alone; the default applies every
# fix this kernel needs. The "fixes" file gives each fix's state.
. ./lib.sh
unload
long=$(head -c 300 /dev/zero | tr '\0' m)
for bad in bogus none,mlock mlock,,fault "" "$long"; do
	dmesg -c >/dev/null
	if modprobe mlock_audit "fixes=$bad" 2>/dev/null; then
		unload
		fail "fixes='$bad' was accepted"
	fi
	loaded && fail "fixes='$bad': module left loaded"
	msg=$(dmesg | grep 'mlock_audit: fixes=:' | tail -n1)
	[ -n "$msg" ] || fail "fixes='$bad': no message in the kernel log"
	info "fixes='$(echo "$bad" | cut -c1-20)': refused: ${msg#*mlock_audit: }"
done
states() { grep '^fix=' $DBG/fixes | cut -d' ' -f1-2 | tr '\n' ' '; }
load fixes=none
[ -d $LP ] && fail "fixes=none registered a livepatch"
s=$(states)
info "fixes=none: $s"
echo "$s" | grep -q -E 'state=(active|pending)' && fail "fixes=none: $s"
unload
for f in mlock fault lazyfree scanresume; do
	load fixes=$f
	s=$(states)
	info "fixes=$f: $s"
	for o in mlock fault lazyfree scanresume; do
		st=$(fix_state $o)
		if [ $o = $f ]; then
			case $st in active|upstream|unsupported) ;; *) fail "fixes=$f: $o is $st" ;; esac
		else
			case $st in off|upstream|unsupported) ;; *) fail "fixes=$f: $o is $st" ;; esac
		fi
	done
	unload
done
load
s=$(states)
info "default: $s"
echo "$s" | grep -q -E 'state=(off|pending)' && fail "default: a fix is not applied: $s"
grep '^fix=' $DBG/fixes | grep -E 'state=(upstream|unsupported)' | grep -q -E 'detail=.{20,}' ||
	! grep -q -E '^fix=.* state=(upstream|unsupported)' $DBG/fixes ||
	fail "an upstream or unsupported fix gives no evidence or reason"
unload
exit 0
