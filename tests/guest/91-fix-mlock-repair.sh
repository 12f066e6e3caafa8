# The "mlock" fix repairs at load and leaves nothing mlocked behind:
#  - a process that MAP_LOCKed 64 MiB of XFS large folios before modprobe
#    has them in Mlocked within 5 s of the livepatch transition (repair at load);
#  - after the process exits, Mlocked and Unevictable are back to their
#    base line, with the fix active, after it was disabled, and after
#    rmmod while the locked process was still running;
#  - folios that two processes MAP_LOCKed before modprobe are mlocked once
#    per mapping by the repair, as the fix and mlock() count them: when one
#    process exits they stay in Mlocked (pagemap + kpageflags of the other's
#    mapping: all pages mlocked), as they do when both processes mapped
#    them with the fix active (the reference, run here too); then both
#    gone, back to the base line.
# The per-CPU LRU and mlock batches are drained first (drain() in lib.sh);
# "back" means within 16 pages.
. ./lib.sh
[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
need_fix_probe mlock "" active
MB=64
knob /proc/sys/vm/compact_unevictable_allowed 0
xfs_mount
dd if=/dev/zero of=/mnt/xfs/f bs=1M count=$MB 2>/dev/null
sync
# re-read after a cache drop: readahead makes large folios (6.1 too)
echo 3 >/proc/sys/vm/drop_caches
drain
M0=$(meminfo_kb Mlocked) U0=$(meminfo_kb Unevictable)
dm() { echo $(($(meminfo_kb Mlocked) - M0)); }
back() { # WHEN: Mlocked and Unevictable at the base line again
	drain
	m=$(dm) u=$(($(meminfo_kb Unevictable) - U0))
	info "$1: Mlocked +$m kB, Unevictable +$u kB"
	[ ${m#-} -le 64 ] && [ ${u#-} -le 64 ] || fail "$1: Mlocked +$m kB, Unevictable +$u kB, want 0"
}
F="--file /mnt/xfs/f --mb $MB --lock maplocked"

# 1. repair at load, then disable, then exit
hold $F
before=$(dm)
load
n=0
while [ "$(dm)" -lt $((MB * 1024)) ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
after=$(dm)
info "repair: Mlocked +$before kB before modprobe, +$after kB $((n * 100)) ms after the transition; $(grep '^fix=mlock' $DBG/fixes | cut -d' ' -f3-6)"
info "livepatch transition: $(sed -n 's/^livepatch .*\(transition_ms=[-0-9]*\).*/\1/p' $DBG/fixes) (not bounded here: see 92)"
[ "$after" -ge $((MB * 1024)) ] || fail "repair: Mlocked +$after kB 5 s after the transition, want +$((MB * 1024))"
lp_disable
info "disabled: Mlocked +$(dm) kB while the process still holds its mapping"
unhold
back "disabled, process exited"
unload

# 2. rmmod while the locked process runs, then it exits
hold $F
load
[ "$(dm)" -ge $((MB * 1024)) ] || fail "loaded: Mlocked +$(dm) kB, want +$((MB * 1024))"
unload
info "after rmmod, process still running: Mlocked +$(dm) kB"
unhold
back "rmmod, then process exited"

# 3. the fix active while the process maps, locks and exits
load
hold $F
[ "$(dm)" -ge $((MB * 1024)) ] || fail "fix active: Mlocked +$(dm) kB, want +$((MB * 1024))"
hold --file /mnt/xfs/f --mb $MB --offset-kb 4 --lock maplocked
unhold
back "fix active, processes exited"
unload

# 4. two locked mappings of the same folios, mapped before modprobe (the
#    repair) or after it (the fix: the reference); one process exits
pages=$((MB * 256))
two_locked() { # WHEN
	m=$(dm)
	info "$1, both processes: Mlocked +$m kB"
	unhold_last
	drain
	m=$(dm)
	set -- "$1" $(kpf_totals $first)
	info "$1, one process exited: Mlocked +$m kB; the other's mapping: resident=$2 mlocked=$3 missed=$4 (pages)"
	[ $m -ge $((MB * 1024 - 64)) ] && [ $m -le $((MB * 1024 + 64)) ] ||
		fail "$1: Mlocked +$m kB once one of two locked processes exited, want +$((MB * 1024)) (the other still locks them)"
	[ "$2" = $pages ] && [ "$3" = $pages ] ||
		fail "$1: the remaining mapping has $3 of $2 pages mlocked, want $pages of $pages"
	unhold
	back "$1, both exited"
}
hold $F
first=$HOLD_PID
hold $F
load
all_mlocked() { [ "$(dm)" -ge $((MB * 1024)) ]; }
wait_for 5 all_mlocked ||
	fail "repair of two mappings: Mlocked +$(dm) kB 5 s after the transition, want +$((MB * 1024))"
info "repair: $(grep '^fix=mlock' $DBG/fixes | grep -o 'repaired_pages=[0-9]*')"
two_locked "mapped before modprobe (repair)"
hold $F
first=$HOLD_PID
hold $F
two_locked "mapped with the fix active (reference)"
unload
umount /mnt/xfs
exit 0
