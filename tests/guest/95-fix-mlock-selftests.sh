# The kernel's own mlock selftests, built from this kernel's Debian
# linux-source by scripts/selftests (tools/testing/selftests/mm, vm on
# 6.1): mlock2-tests, mlock-random-test and on-fault-limit (run as nobody,
# as run_vmtests.sh does) give the same results with every fix loaded as
# with fixes=none: the same exit status and the same ok / not ok lines.
. ./lib.sh
ST=/add/selftests
[ -x $ST/mlock2-tests ] || skip "no selftests in $ST (tests/run builds them with scripts/selftests)"
unload
# run MODE: every selftest with fixes=MODE; "NAME STATUS RESULTS" lines
run() {
	load fixes=$1
	: >/tmp/st.$1
	for t in mlock2-tests mlock-random-test on-fault-limit; do
		case $t in
		on-fault-limit) (cd /tmp && ma-runas 65534 $ST/$t) >/tmp/st.out 2>&1 ;;
		*) (cd /tmp && $ST/$t) >/tmp/st.out 2>&1 ;;
		esac
		rc=$?
		res=$(grep -E '^(ok|not ok) ' /tmp/st.out | sed 's/ *#.*//' | tr ' \n' '_ ')
		echo "$t $rc $res" >>/tmp/st.$1
		[ $rc = 0 ] || sed "s/^/    $t ($1): /" /tmp/st.out | tail -n 20
	done
	unload
}
run none
run all
info "source: $(cat $ST/source 2>/dev/null)"
while read -r t rc res; do
	set -- $(grep "^$t " /tmp/st.all)
	info "$t: exit $rc without the fixes, $2 with them; $(echo "$res" | wc -w) ok/not-ok lines"
done </tmp/st.none
cmp -s /tmp/st.none /tmp/st.all || fail "results differ with the fixes:
$(diff /tmp/st.none /tmp/st.all)"
awk '$2 != 0 { bad = bad " " $1 } END { if (bad) { print "FAIL: fails even without the fixes:" bad; exit 1 } }' /tmp/st.none
exit 0
