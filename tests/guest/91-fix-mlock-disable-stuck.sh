# Disabling the livepatch must not wait behind a process whose mmap_lock
# is held for writing by a task stuck in D state, nor behind
# a folio locked for I/O on a device that does not answer (phase 3). ma-stuck
# holds a locked 8 MiB mapping of an XFS file, then freezes the file
# system: one thread waits in page_mkwrite() for the thaw, another in
# munmap() with the mmap_lock taken or queued for writing.
#  1. Stuck before the load: the repair walk reaches that mm and must wait
#     (repair=running: the scenario is real).
#  2. Stuck after the load: the fix has mlocked the mapping (Mlocked grew
#     by its size), so on 6.1 the undo at disable has work in that mm.
#  3. A folio locked: the test module ma_lruhold holds the folio lock of
#     the file's first folio (large, not mlocked by the stock kernel) as a
#     read or a writeback in flight holds it until its device answers, so
#     the repair waits for it (repair=running); once the disable has
#     completed, the repair must say "stopped" although the folio is still
#     locked.
# Each time, writing 0 to the livepatch's "enabled" must complete, the
# livepatch gone, within 15 s while the file system is still frozen
# (stock: the disable takes klp_mutex and runs our pre-unpatch callback,
# nothing else). After the thaw, 6.1's undo (a work item: undo= in
# "fixes") must finish, and once the process is gone Mlocked and
# Unevictable are back where they started. Before this was handled, the
# disable waited in cancel_work_sync() for the repair, and on 6.1 in the
# undo, with klp_mutex held, until the thaw.
. ./lib.sh
[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
need_fix_probe mlock "" active
# compaction (kcompactd) must not move mlocked pages (a
# migrated large folio comes back unmlocked, as upstream)
knob /proc/sys/vm/compact_unevictable_allowed 0
xfs_mount
F=/mnt/xfs/f
cleanup() {
	echo release >/proc/ma_lruhold 2>/dev/null
	ma-stuck --thaw $F 2>/dev/null
	exec 8>&- 2>/dev/null
	# unhold closes the holders' input, then waits for every child
	unhold
	unload
	rmmod ma_lruhold 2>/dev/null
	umount /mnt/xfs 2>/dev/null
	knobs_restore
}
trap cleanup EXIT
dd if=/dev/zero of=$F bs=1M count=8 2>/dev/null || fail "dd"
sync
mline() { grep '^fix=mlock' $DBG/fixes; }

# ma-stuck, in steps: mapped, then frozen (stuck), then thawed
stuck_map() {
	echo 3 >/proc/sys/vm/drop_caches
	rm -f /tmp/stuck /tmp/stuck.out
	mkfifo /tmp/stuck
	ma-stuck $F 8 </tmp/stuck >/tmp/stuck.out 2>&1 &
	exec 8>/tmp/stuck
	wait_for 20 grep -q '^mapped' /tmp/stuck.out || fail "ma-stuck: $(cat /tmp/stuck.out)"
}
stuck_freeze() {
	echo freeze >&8
	wait_for 20 grep -q '^stuck' /tmp/stuck.out || fail "ma-stuck: $(cat /tmp/stuck.out)"
	grep -q 'writer=D unmapper=D' /tmp/stuck.out ||
		fail "the threads are not both in D state: $(cat /tmp/stuck.out)"
}
stuck_thaw() {
	echo thaw >&8
	wait_for 30 grep -q '^thawed' /tmp/stuck.out || fail "ma-stuck did not thaw: $(cat /tmp/stuck.out)"
}
stuck_end() {
	exec 8>&-
	wait
}
# disable_frozen PHASE: write 0 to "enabled" while frozen; thaw; the
# livepatch must have gone within 15 s, and 6.1's undo must finish
# disable_bounded: write 0 to "enabled" in the background and wait up to
# 15 s for the livepatch to go; sets t_dis (ms) and gone (yes or no)
disable_bounded() {
	t0=$(ms)
	echo 0 >$LP/enabled &
	while [ -d $LP ] && [ $(($(ms) - t0)) -lt 15000 ]; do sleep 0.1; done
	t_dis=$(($(ms) - t0))
	gone=yes
	[ -d $LP ] && gone=no
}
# repair_waits PHASE WHAT: the repair is running and still running 2 s
# later, held up by WHAT
repair_waits() {
	wait_for 5 grep -q '^fix=mlock .*repair=running' $DBG/fixes ||
		fail "$1: the repair does not wait for $2: $(mline)"
	sleep 2
	grep -q '^fix=mlock .*repair=running' $DBG/fixes ||
		fail "$1: the repair ended although it waits for $2: $(mline)"
}
disable_frozen() {
	disable_bounded
	info "$1: disable with the file system frozen: ${t_dis} ms, livepatch gone: $gone; $(mline)"
	stuck_thaw
	[ $gone = yes ] ||
		fail "$1: the disable did not complete within 15 s while a process's mmap_lock was held (it waits until the thaw)"
	wait_for 60 sh -c "[ ! -d $LP ] && ! grep -q '^fix=mlock .*undo=running' $DBG/fixes" ||
		fail "$1: 60 s after the thaw: $(mline)"
	info "$1: after the thaw: $(mline)"
}

# back_at_start PHASE: once the process is gone and the module unloaded,
# Mlocked and Unevictable within 64 kB of where they started
back_at_start() {
	unload
	drain
	ml=$(meminfo_kb Mlocked) ue=$(meminfo_kb Unevictable)
	info "$1: Mlocked $ml0 -> $ml kB, Unevictable $ue0 -> $ue kB once the process is gone"
	[ "$ml" -le $((ml0 + 64)) ] && [ "$ue" -le $((ue0 + 64)) ] ||
		fail "$1: Mlocked $ml0 -> $ml kB, Unevictable $ue0 -> $ue kB"
}

drain
ml0=$(meminfo_kb Mlocked) ue0=$(meminfo_kb Unevictable)

# 1. the repair meets the stuck process
stuck_map
stuck_freeze
load
repair_waits 1 "the stuck process's mmap_lock"
disable_frozen 1
stuck_end
back_at_start 1

# 2. what the fix mlocked in the stuck process
load
wait_for 30 sh -c "! grep -q '^fix=mlock .*repair=running' $DBG/fixes" || fail "2: repair: $(mline)"
stuck_map
drain
d=$(($(meminfo_kb Mlocked) - ml0))
info "2: Mlocked +$d kB with the 8192 kB locked mapping held"
[ $d -ge $((8192 - 1024)) ] && [ $d -le $((8192 + 1024)) ] ||
	fail "2: Mlocked grew by $d kB for an 8192 kB locked mapping with the fix"
stuck_freeze
disable_frozen 2
case $(mline) in
*"undo=none"*) ;;
*"undo=done undone_pages=0 "*) fail "2: the undo munlocked nothing: $(mline)" ;;
*"undo=done"*) ;;
*) fail "2: the undo did not finish: $(mline)" ;;
esac
stuck_end
back_at_start 2

# 3. the repair meets a folio locked for I/O
[ -f /add/ma_lruhold.ko ] || fail "no /add/ma_lruhold.ko (tests/run builds it)"
echo 3 >/proc/sys/vm/drop_caches
hold --file $F --mb 8 --lock maplocked
insmod /add/ma_lruhold.ko || fail "insmod ma_lruhold"
echo "lock $F 0" >/proc/ma_lruhold || fail "3: ma_lruhold could not lock the first folio of $F"
grep -q '^locked=1 order=[1-9]' /proc/ma_lruhold ||
	fail "3: the locked folio is not a large one: $(tr '\n' ' ' </proc/ma_lruhold)"
load
repair_waits 3 "the locked folio"
disable_bounded
line=$(mline)
info "3: disable with a folio locked: ${t_dis} ms, livepatch gone: $gone; $line"
echo release >/proc/ma_lruhold || fail "3: ma_lruhold release"
[ $gone = yes ] ||
	fail "3: the disable did not complete within 15 s while a folio was locked (it waits for the unlock)"
case $line in
*" repair=stopped "*) ;;
*) fail "3: the repair is not 'stopped' once the disable completed with the folio locked: $line" ;;
esac
wait_for 60 sh -c "[ ! -d $LP ] && ! grep -q '^fix=mlock .*undo=running' $DBG/fixes" ||
	fail "3: 60 s after the unlock: $(mline)"
unhold
rmmod ma_lruhold || fail "3: rmmod ma_lruhold"
back_at_start 3
exit 0
