# The "mlock" fix repairs at load and leaves nothing mlocked behind:
#  - a process that MAP_LOCKed 64 MiB of XFS large folios before modprobe
#    has them in Mlocked within 5 s of the livepatch transition (repair at load);
#  - after the process exits, Mlocked and Unevictable are back to their
#    base line, with the fix active, after it was disabled, and after
#    rmmod while the locked process was still running.
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
umount /mnt/xfs
exit 0
