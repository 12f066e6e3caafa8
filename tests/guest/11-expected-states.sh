# Every live fix is in the state the table /tests/expected-states gives
# for this kernel, after modprobe with the default fixes=all and the end of
# the livepatch transition; a fix that is not active says why in its
# detail, with the table's phrase. A fix lost on a kernel (a symbol gone, a
# check that misfires) fails here, not as SKIPs of the tests that need it.
. ./lib.sh
unload
load
fixes=$(sed -n 's/^fix=\([a-z]*\) .*/\1/p' $DBG/fixes)
[ -n "$fixes" ] || fail "no fix= line in $DBG/fixes"
bad=""
for f in $fixes; do
	line=$(grep "^fix=$f " $DBG/fixes)
	got=$(fix_state "$f") want=$(expected_state "$f") phrase=$(expected_state "$f" 4)
	info "$f: $got (expected $want${phrase:+: $phrase})"
	if [ -z "$want" ]; then
		bad="$bad; $f has no line for $MA_KERNEL in expected-states"
	elif [ "$got" != "$want" ]; then
		bad="$bad; $f is $got, expected $want: $line"
	elif [ -n "$phrase" ]; then
		case $line in *" detail="*"$phrase"*) ;; *) bad="$bad; $f detail lacks '$phrase': $line" ;; esac
	fi
done
# and no line of the table for this kernel names a fix the module lacks
for f in $(awk -v k="$MA_KERNEL" '!/^#/ && $1 == k { print $2 }' /tests/expected-states); do
	echo "$fixes" | grep -qx "$f" || bad="$bad; expected-states names $f, the module has no such fix"
done
unload
[ -z "$bad" ] || fail "${bad#; }"
exit 0
