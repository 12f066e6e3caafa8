# The "scanresume" fix replaces the khugepaged thread when it is enabled
# and when it is disabled: the new thread must keep what the
# administrator set on the old one. Set on the stock thread: CPU affinity
# (CPU 1 only), nice 7, I/O priority best-effort 6, and a cgroup of its
# own; then the thread after enabling and after disabling must have the
# same, read from /proc (not from the module). Before this was handled,
# the new thread had every CPU, nice 0, the default I/O priority and the
# root cgroup.
. ./lib.sh
need_fix_probe scanresume "fixes=scanresume" active
CG=/sys/fs/cgroup
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG || fail "mount cgroup2"
p0=$(kh_pid)
[ -n "$p0" ] || fail "no khugepaged thread"
cpus0=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$p0/status)
cleanup() {
	p=$(kh_pid)
	if [ -n "$p" ]; then
		taskset -p -c "$cpus0" "$p" >/dev/null
		renice -n $((19 - $(awk '{ print $19 }' /proc/$p/stat))) -p "$p" >/dev/null
		ionice -c 0 -p "$p" 2>/dev/null
		echo "$p" >$CG/cgroup.procs
	fi
	rmdir $CG/ma-kh 2>/dev/null
}
trap cleanup EXIT
mkdir -p $CG/ma-kh
taskset -p -c 1 "$p0" >/dev/null || fail "taskset"
# busybox renice -n adds to the nice value (khugepaged runs at 19)
renice -n $((7 - $(awk '{ print $19 }' /proc/$p0/stat))) -p "$p0" >/dev/null || fail "renice"
ionice -c 2 -n 6 -p "$p0" || fail "ionice"
echo "$p0" >$CG/ma-kh/cgroup.procs || fail "cannot move khugepaged into a cgroup"

attrs() { # PID: what was set, as read back
	echo "cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$1/status)" \
		"nice=$(awk '{ print $19 }' /proc/$1/stat)" \
		"policy=$(awk '{ print $41 }' /proc/$1/stat)" \
		"io=$(ionice -p $1 | tr -d ' ')" \
		"cgroup=$(sed -n 's/^0:://p' /proc/$1/cgroup)"
}
a0=$(attrs "$p0")
info "stock khugepaged $p0: $a0"
[ "$a0" = "cpus=1 nice=7 policy=0 io=best-effort:prio6 cgroup=/ma-kh" ] ||
	fail "the settings did not take on the stock thread: $a0"
load fixes=scanresume
p1=$(kh_pid)
a1=$(attrs "$p1")
info "after enabling, khugepaged $p1: $a1"
[ "$p1" != "$p0" ] || fail "khugepaged was not replaced"
[ "$a1" = "$a0" ] || fail "the new thread lost settings: $a1 (was $a0)"
unload
p2=$(kh_pid)
a2=$(attrs "$p2")
info "after disabling, khugepaged $p2: $a2"
[ "$p2" != "$p1" ] || fail "khugepaged was not replaced back"
[ "$a2" = "$a0" ] || fail "the stock thread lost settings: $a2 (was $a0)"
