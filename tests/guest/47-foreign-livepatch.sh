# Another vendor's cumulative livepatch over mlock_audit (issue 15). A
# livepatch with .replace = true (tests/modules/ma_lp_replace, built by
# tests/run for this kernel and added at /add) takes over every function
# mlock_audit patches. Reference: its transition time (kernel log, start
# to complete) on this kernel without mlock_audit, plus the time disabling
# mlock_audit's own patch takes (the same ftrace hooks come down at the
# end of the transition). With mlock_audit loaded (all fixes)
# and a locked 32 MiB mapping of an XFS file held: its transition must
# complete within 3 s of that (the scanresume fix swaps the khugepaged
# thread for it); afterwards /proc/cmdline shows it in force, "fixes" says the
# patch was replaced and every fix that was active is off, khugepaged runs
# the kernel's own code, the module can be unloaded, and once the mapping
# is gone Mlocked and Unevictable are back where they started (6.1: the
# mlock fix's undo ran). Before this was handled, the transition was still
# running after 60 s on 6.1, 6.12 and 7.3.
. ./lib.sh
KO=/add/ma_lp_replace.ko
RP=/sys/kernel/livepatch/ma_lp_replace
[ -f $KO ] || fail "no $KO: tests/run builds it (scripts/build-testmod)"
ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }

# klp_ms WHAT: the kernel log time, in ms, of the last "livepatch:
# 'ma_lp_replace': WHAT" line
klp_ms() {
	dmesg | sed -n "s/^\[ *\([0-9]*\)\.\([0-9]\{3\}\)[0-9]*\] livepatch: 'ma_lp_replace': $1.*/\1\2/p" |
		tail -n 1 | sed 's/^0*//'
}
# replace: insmod the cumulative livepatch; in $T the time in ms from
# insmod to the end of its transition, in $TT that of the transition itself
# (from "starting patching transition" to "patching complete" in the
# kernel log); fail after 60 s
replace() {
	t0=$(ms)
	insmod $KO || fail "insmod ma_lp_replace failed"
	while [ "$(cat $RP/transition 2>/dev/null)" != 0 ]; do
		if [ $(($(ms) - t0)) -gt 60000 ]; then
			not_switched
			fail "ma_lp_replace still in transition 60 s after insmod"
		fi
		sleep 0.1
	done
	T=$(($(ms) - t0))
	a=$(klp_ms 'starting patching transition') b=$(klp_ms 'patching complete')
	[ -n "$a" ] && [ -n "$b" ] || fail "no transition lines for ma_lp_replace in the kernel log"
	TT=$((b - a))
	grep -q 'ma_lp_replace is in force' /proc/cmdline || fail "/proc/cmdline: $(cat /proc/cmdline)"
}
unreplace() {
	[ -d $RP ] && echo 0 >$RP/enabled
	n=0
	while [ -d $RP ]; do
		[ $n -ge 300 ] && fail "ma_lp_replace still present 30 s after disabling it"
		sleep 0.1
		n=$((n + 1))
	done
	rmmod ma_lp_replace || fail "rmmod ma_lp_replace"
}
cleanup() {
	unhold
	[ -d /sys/module/ma_lp_replace ] && unreplace
	umount /mnt/xfs 2>/dev/null
}
trap cleanup EXIT

unload
replace
t_ref=$TT
unreplace
info "reference (no mlock_audit): transition ${t_ref} ms (insmod to its end: $T ms)"
# Replacing mlock_audit's patch also takes down the ftrace hooks of every
# function it patched, as disabling it does: that time, measured here,
# is allowed on top of the reference.
load
t0=$(ms)
lp_disable
t_dis=$(($(ms) - t0))
unload
info "disabling mlock_audit's livepatch: ${t_dis} ms"

xfs_mount
dd if=/dev/zero of=/mnt/xfs/f bs=1M count=32 2>/dev/null || fail "dd"
sync
echo 3 >/proc/sys/vm/drop_caches
drain
ml0=$(meminfo_kb Mlocked) ue0=$(meminfo_kb Unevictable)
load
grep '^fix=' $DBG/fixes | sed 's/^/  before: /'
active=$(sed -n 's/^fix=\([a-z]*\) state=active.*/\1/p' $DBG/fixes | tr '\n' ' ')
[ -n "$active" ] || fail "no fix active here"
hold --file /mnt/xfs/f --mb 32 --lock maplocked
ml1=$(meminfo_kb Mlocked)
info "Mlocked $ml0 kB at start, $ml1 kB with the locked mapping held"

replace
info "with mlock_audit (fixes: $active): transition $TT ms (insmod to its end: $T ms)"
[ "$TT" -le $((t_ref + t_dis + 3000)) ] ||
	fail "ma_lp_replace's transition took $TT ms over mlock_audit, against $t_ref ms without it (+ $t_dis ms to take mlock_audit's hooks down)"
n=0
while ! grep -q '^livepatch state=replaced' $DBG/fixes; do
	[ $n -ge 50 ] && fail "5 s after the replacement, fixes says: $(head -n 2 $DBG/fixes | tail -n 1)"
	sleep 0.1
	n=$((n + 1))
done
grep '^fix=\|swaps' $DBG/fixes | sed 's/^/  after: /'
for f in $active; do
	line=$(grep "^fix=$f " $DBG/fixes)
	case $line in
	*"state=off "*"replaced by a cumulative livepatch"*) ;;
	*) fail "after the replacement: $line" ;;
	esac
done
[ -d $LP ] && fail "$LP is still there after the replacement"
p=$(kh_pid)
if [ -n "$p" ] && grep -q ma_khugepaged /proc/$p/stack; then
	fail "khugepaged ($p) still runs mlock_audit's code"
fi
rmmod mlock_audit || fail "rmmod mlock_audit after the replacement failed"
unhold
drain
ml2=$(meminfo_kb Mlocked) ue2=$(meminfo_kb Unevictable)
info "after the mapping is gone: Mlocked $ml0 -> $ml2 kB, Unevictable $ue0 -> $ue2 kB"
[ "$ml2" -le $((ml0 + 64)) ] || fail "Mlocked stranded: $ml0 -> $ml2 kB"
[ "$ue2" -le $((ue0 + 64)) ] || fail "Unevictable stranded: $ue0 -> $ue2 kB"
unreplace
exit 0
