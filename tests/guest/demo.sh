# The demo (make demo, and 13-demo in make check): why mlock_audit
# exists, told on this kernel in the guest of scripts/vm-run --disk.
#  1. Two 64 MiB MAP_LOCKED mappings, of a huge-page tmpfs file and of a
#     cold XFS file, with the module loaded with fixes=none: what
#     /proc/meminfo's Mlocked shows against what is locked, and the
#     reporter's undercount.
#  2. The module reloaded with its fixes, the mappings still held: the
#     repair at load, the fixes and Mlocked again, compared with what is
#     mapped of the locked mappings (smaps_rollup's Locked).
#  3. Writing to every page of a 64 MiB XFS file through a shared mapping:
#     minor faults with the fault fix off and on.
#  4. The livepatch disabled and the module unloaded, the documented way.
# khugepaged is put to sleep before the mappings are made
# (khugepaged_asleep, lib.sh): a pass of it may collapse part of the
# locked file mapping and so unmap it until it is touched again, which is
# stock behaviour but not the demo's subject (a pass, woken by the first
# holder registering, once unmapped 16 MiB of them on 7.3 before step 1
# was measured).
# The last line, "demo: ...", gives the figures 13-demo checks. Exits
# non-zero when a step fails.
. ./lib.sh
MB=64
KB=$((MB * 1024))
step() { printf '\n== %s\n' "$*"; }
show() { printf '   %s\n' "$@"; }
# kB of the two processes' locked mappings: their size (VmLck), and what
# of them is mapped (smaps_rollup Locked), which is what Mlocked should show
vmlck_kb() { awk '/^VmLck:/ { s += $2 } END { print s + 0 }' /proc/$p1/status /proc/$p2/status; }
locked_kb() { awk '/^Locked:/ { s += $2 } END { print s + 0 }' /proc/$p1/smaps_rollup /proc/$p2/smaps_rollup; }
report() {
	r=$(mlock-audit) || fail "mlock-audit exited $?: $r"
	echo "$r" | sed 's/^/   /'
}
fixline() { sed -n "s/^fix=$1 state=\\([a-z]*\\).*detail=\\(.*\\)/\\1: \\2/p" $DBG/fixes; }

unload
huge_file $MB
xfs_mount
trap 'unhold; unload; kh_holder_end; umount /mnt/huge /mnt/xfs 2>/dev/null; knobs_restore' EXIT
knob /proc/sys/vm/compact_unevictable_allowed 0
dd if=/dev/zero of=/mnt/xfs/f bs=1M count=$MB 2>/dev/null || fail "writing the XFS file"
dd if=/dev/zero of=/mnt/xfs/touch bs=1M count=$MB 2>/dev/null || fail "writing the XFS file"
sync
echo 3 >/proc/sys/vm/drop_caches
drain
m0=$(meminfo_kb Mlocked)

step "kernel $(uname -r): modprobe mlock_audit fixes=none (audit only)"
audit_hold /mnt/huge/f $MB
p1=$HOLD_PID
hold --file /mnt/xfs/f --mb $MB --lock maplocked
p2=$HOLD_PID
drain
vl=$(vmlck_kb) lk=$(locked_kb)
m1=$(($(meminfo_kb Mlocked) - m0))
show "two processes hold MAP_LOCKED mappings: $MB MiB of a huge-page tmpfs file, $MB MiB of a cold XFS file" \
	"locked (VmLck in /proc/PID/status):           $vl kB" \
	"of it mapped (Locked in /proc/PID/smaps_rollup): $lk kB" \
	"Mlocked in /proc/meminfo grew by:               $m1 kB"
step "mlock-audit (the reporter: what is locked but not counted)"
report

step "modprobe mlock_audit (default: every fix this kernel needs), the mappings still held"
unload
load
drain
m2=$(($(meminfo_kb Mlocked) - m0)) lk2=$(locked_kb)
for f in mlock fault lazyfree scanresume; do show "$f: $(fixline $f)"; done
show "$(grep -o 'repair=[a-z]* repaired_pages=[0-9]*' $DBG/fixes)"
mlock=$(fix_state mlock)
show "Mlocked in /proc/meminfo grew by:               $m2 kB (mapped of the locked mappings: $lk2 kB)"
step "mlock-audit"
report
unhold

step "write one byte to every page of a $MB MiB XFS file through a shared mapping"
fault=$(fix_state fault)
unload
load fixes=none
t1=$(ma-pf3 --touch /mnt/xfs/touch) || fail "ma-pf3: $t1"
show "fixes=none:  $t1"
t2=""
if [ "$fault" = active ]; then
	unload
	load fixes=fault
	t2=$(ma-pf3 --touch /mnt/xfs/touch) || fail "ma-pf3: $t2"
	show "fixes=fault: $t2"
else
	show "fault fix $(fixline fault)"
fi

step "echo 0 > /sys/kernel/livepatch/mlock_audit_fixes/enabled; rmmod mlock_audit_fixes mlock_audit"
lp_disable
rm_modules || fail "rmmod mlock_audit_fixes mlock_audit"
loaded && fail "the module is still loaded"
drain
m3=$(($(meminfo_kb Mlocked) - m0))
show "unloaded; Mlocked now +$m3 kB (the mappings are gone)"
printf '\ndemo: kernel=%s vmlck_kb=%s locked_kb=%s mlocked_fixes_none_kb=%s locked_fixes_kb=%s mlocked_fixes_kb=%s mlock_fix=%s fault_fix=%s touch_fixes_none_minflt=%s touch_fault_fix_minflt=%s\n' \
	"$MA_KERNEL" "$vl" "$lk" "$m1" "$lk2" "$m2" "$mlock" "$fault" \
	"$(echo "$t1" | sed -n 's/.*minflt=\([0-9]*\).*/\1/p')" "$(echo "$t2" | sed -n 's/.*minflt=\([0-9]*\).*/\1/p')"
exit 0
