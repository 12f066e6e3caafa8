# The module's per-VMA rows ("vmas", restricted with pid=) and system
# figures ("summary") equal those of the userspace oracle ma-kpf, which
# reads /proc/PID/pagemap and /proc/kpageflags and knows nothing of the
# module, in the huge-tmpfs and anonymous scenarios of the audit issue.
. ./lib.sh
load fixes=none
MB=16

mkdir -p /mnt/huge
mount -t tmpfs -o huge=always,size=128m tmpfs /mnt/huge || fail "huge tmpfs"
dd if=/dev/zero of=/mnt/huge/f bs=1M count=$MB 2>/dev/null

. ./oracle.sh

F="--file /mnt/huge/f --mb $MB"
scenario "tmpfs aligned MAP_LOCKED" $F --lock maplocked
scenario "tmpfs +4 KiB MAP_LOCKED" $F --offset-kb 4 --lock maplocked
scenario "tmpfs +1 MiB MAP_LOCKED" $F --offset-kb 1024 --lock maplocked
scenario "tmpfs mlock after fault" $F --lock fault
scenario "tmpfs mlock populate" $F --lock populate
scenario "tmpfs MLOCK_ONFAULT, half touched" $F --lock onfault --touch-pct 50
hold $F --lock onfault --touch-pct 25
vmas_of $HOLD_PID | grep -q ' flags=onfault ' || fail "MLOCK_ONFAULT VMA not shown as flags=onfault"
unhold
scenario "anon THP aligned" --anon --mb $MB --lock fault
scenario "anon THP +4 KiB" --anon --mb $MB --offset-kb 4 --lock fault
scenario "anon mlockall" --anon --mb $MB --lock mlockall
scenario "tmpfs partial munlock splits the VMA" $F --lock fault --munlock-kb 4096:2048

# a locked file shared by two processes counts once system-wide
hold $F --lock maplocked
p1=$HOLD_PID
hold $F --lock maplocked
compare_pid "shared file, first process" $p1
compare_pid "shared file, second process" $HOLD_PID
compare_system "shared file"
locked=$(awk '$1 == "locked_kb" { print $2 }' $DBG/summary)
[ "$locked" = $((MB * 1024)) ] || fail "shared file: locked_kb $locked, want $((MB * 1024)) (counted once)"
unhold

# fork of a locked process: the child does not inherit VM_LOCKED
hold --anon --mb $MB --lock fault --fork
compare_pid "fork, parent" $HOLD_PID
vmas_of "$HOLD_CHILD" && fail "fork: the child has locked VMAs"
compare_system "fork"
unhold

# The baseline: on stock 6.12 a MAP_LOCKED huge-tmpfs mapping adds nothing
# to Mlocked and the summary puts all of it in the undercount as missed.
if [ "$MA_KERNEL" = 6.12 ]; then
	dd if=/dev/zero of=/mnt/huge/f64 bs=1M count=64 2>/dev/null
	m0=$(meminfo_kb Mlocked)
	hold --file /mnt/huge/f64 --mb 64 --lock maplocked
	d=$(($(meminfo_kb Mlocked) - m0))
	miss=$(awk '$1 == "undercount_missed_kb" { print $2 }' $DBG/summary)
	info "6.12 baseline, 64 MiB: Mlocked +$d kB, undercount_missed_kb $miss"
	[ $d = 0 ] && [ "$miss" = 65536 ] || fail "6.12 baseline not reproduced"
	unhold
fi
umount /mnt/huge
exit 0
