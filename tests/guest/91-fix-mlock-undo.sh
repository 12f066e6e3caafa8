# Disabling the livepatch leaves no Mlocked behind. 6.1 never
# munlocks a PTE-mapped large folio itself, so the mlock fix undoes what it
# mlocked before it goes; that undo must be complete whatever the mappings
# went through: a MAP_LOCKED mapping of a cold 32 MiB XFS file (large
# folios) split by mprotect() inside its folios, part of it remapped
# elsewhere by mremap(), part of it turned MLOCK_ONFAULT, or held by a
# process whose thread-group leader has exited. For each: the mapping is
# held, the livepatch is disabled, the process exits; Mlocked and
# Unevictable in /proc/meminfo must then be back where they started (within
# 64 kB). While it is held, the fix must have mlocked it (Mlocked grew by
# at least half the mapping's size, and by at most its size and 1 MiB), so
# that the undo has work to do; where the fix is upstream (7.3), by more
# than nothing.
# Before, on 6.1, the mprotect case left 32672 kB in Mlocked.
. ./lib.sh
MB=32
need_fix_probe mlock "" active upstream
# compaction (kcompactd) must not move mlocked pages (a
# migrated large folio comes back unmlocked, as upstream)
knob /proc/sys/vm/compact_unevictable_allowed 0
xfs_mount
cleanup() { unhold; unload; umount /mnt/xfs 2>/dev/null; knobs_restore; }
trap cleanup EXIT
dd if=/dev/zero of=/mnt/xfs/f bs=1M count=$MB 2>/dev/null || fail "dd"
# the least Mlocked may grow while held: half the mapping; where the fix
# is upstream (7.3) there is no undo to give work to, and the stock
# kernel's own figure only has to be non-zero (it was 16128 kB for
# --onfault-kb there once, 256 kB under half, a failure that said nothing
# about the fix). need_fix_probe checked the module against the table.
lo=$((MB * 512))
[ "$(expected_state mlock)" = upstream ] && lo=1
sync

for how in "--mprotect-kb 1028:8192" "--mremap-kb 1028:8192" "--onfault-kb 1028:8192" \
	"--leader-exit"; do
	echo 3 >/proc/sys/vm/drop_caches
	drain
	ml0=$(meminfo_kb Mlocked) ue0=$(meminfo_kb Unevictable)
	load
	hold --file /mnt/xfs/f --mb $MB --lock maplocked $how
	drain
	ml1=$(meminfo_kb Mlocked)
	d=$((ml1 - ml0))
	[ $d -ge $lo ] && [ $d -le $((MB * 1024 + 1024)) ] ||
		fail "$how: Mlocked grew by $d kB for a $((MB * 1024)) kB locked mapping (at least $lo kB expected)"
	lp_disable
	undone=$(sed -n 's/^fix=mlock .*undone_pages=\([0-9]*\).*/\1/p' $DBG/fixes)
	unhold
	unload
	back_at_base "$how, after disable and exit" "Mlocked $ml1 kB while held, undone_pages=$undone"
done
exit 0
