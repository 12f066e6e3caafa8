# Benchmark: the cost per hit of each entry-hook mechanism
# (kprobe on ftrace, ftrace_ops, fprobe, and a kprobe and an ftrace_ops on
# one function), measured in one boot by the test module ma_hookcost
# (tests/modules/ma_hookcost, given with --add) at its load. Prints its
# lines as "BENCH hookcost ..." for tests/bench to summarise.
. /tests/lib.sh
KO=/add/ma_hookcost.ko
ROUNDS=${ROUNDS:-5} CALLS=${HC_CALLS:-1000000}
[ -f $KO ] || fail "no $KO (tests/bench passes it with --add)"
grep -q ' /sys/kernel/security ' /proc/mounts ||
	mount -t securityfs none /sys/kernel/security 2>/dev/null
echo "BENCH hookcost lockdown=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' /sys/kernel/security/lockdown 2>/dev/null)"
dmesg -c >/dev/null
insmod $KO calls="$CALLS" rounds="$ROUNDS" || fail "insmod ma_hookcost failed"
rmmod ma_hookcost || fail "rmmod ma_hookcost failed"
dmesg | sed -n 's/^.*HOOKCOST /BENCH hookcost /p'
dmesg | grep -q 'HOOKCOST .* done$' || fail "ma_hookcost did not finish"
# a warning or an oops while hooks came and went fails the run
if dmesg | grep -E -q 'WARNING:|BUG:|Oops'; then
	dmesg | grep -E -A5 'WARNING:|BUG:|Oops'
	fail "the kernel warned while ma_hookcost ran"
fi
exit 0
