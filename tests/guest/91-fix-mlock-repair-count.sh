# The repair at load mlocks a folio once per locked mapping, as the fix and
# the stock kernel do (its mlock_count; issue 15). Two processes hold
# MAP_LOCKED mappings of the same cold 32 MiB XFS file, mapped while no fix
# was loaded (so its large folios were left out of Mlocked); then the mlock
# fix is loaded and its repair mlocks them. When the first process exits,
# the second still has them locked: Mlocked must stay at the mapping's size
# (within 1 MiB), and go back to its start (within 64 kB) once the second
# exits too. Before, the repair counted each folio once, and the first
# exit munlocked it.
. ./lib.sh
MB=32
unload
load fixes=mlock
state=$(fix_state mlock)
unload
[ "$state" = active ] || skip "the mlock fix is $state here"
xfs_mount
cleanup() { unhold; unload; umount /mnt/xfs 2>/dev/null; }
trap cleanup EXIT
dd if=/dev/zero of=/mnt/xfs/f bs=1M count=$MB 2>/dev/null || fail "dd"
sync
echo 3 >/proc/sys/vm/drop_caches
drain
ml0=$(meminfo_kb Mlocked)
hold --file /mnt/xfs/f --mb $MB --lock maplocked
p1=$HOLD_PID
hold --file /mnt/xfs/f --mb $MB --lock maplocked
drain
mn=$(meminfo_kb Mlocked)
load fixes=mlock
n=0
until grep -q '^fix=mlock .*repair=done' $DBG/fixes; do
	[ $n -ge 300 ] && fail "no repair 30 s after load: $(grep '^fix=mlock' $DBG/fixes)"
	sleep 0.1
	n=$((n + 1))
done
drain
mr=$(meminfo_kb Mlocked)
info "Mlocked $ml0 kB at start, $mn kB with both mappings held and no fix, $mr kB after the repair ($(grep -o 'repaired_pages=[0-9]*' $DBG/fixes))"
[ $((mr - ml0)) -ge $((MB * 1024 - 1024)) ] || fail "the repair left Mlocked at $mr kB"
# end the first holder only (the second inherited the write end of the
# first one's fifo, so closing it would not do)
kill -TERM "$p1"
n=0
while kill -0 "$p1" 2>/dev/null; do
	[ $n -ge 100 ] && fail "the first holder did not exit"
	sleep 0.1
	n=$((n + 1))
done
drain
m1=$(meminfo_kb Mlocked)
info "after the first process exited: Mlocked $m1 kB"
d=$((m1 - ml0))
[ $d -ge $((MB * 1024 - 1024)) ] && [ $d -le $((MB * 1024 + 1024)) ] ||
	fail "Mlocked $m1 kB once the first of two locked mappings is gone (start $ml0 kB)"
unhold
unload
drain
m2=$(meminfo_kb Mlocked)
[ "$m2" -le $((ml0 + 64)) ] || fail "Mlocked $ml0 -> $m2 kB once both are gone"
exit 0
