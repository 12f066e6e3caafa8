# The enable transition of the "mlock" fix must strand nothing.
# Run by tests/host/enable-window, with the module built with
# the break hold (tests/breaks/hold.patch) and the test module /add/ma_hold.ko:
#
#   WINDOW_MODE=fixed run-all enable-window.sh   the module installed
#   WINDOW_MODE=early run-all enable-window.sh   the modules of /add/early
#       (hold_early_mlock: large folios mlocked from the start of the
#       transition, without the gate)
#
# A thread of ma-window waits in ma_hold, so the livepatch transition
# stays open and that thread stays on the kernel's own code. The other
# thread, switched, maps 16 MiB of an XFS file MAP_LOCKED: large folios
# under one page table each. Then the waiting thread is let go and unmaps
# the range with the kernel's own code, which on 6.1 never munlocks a
# PTE-mapped large folio. After the transition has completed and the
# process has exited, Mlocked and Unevictable must be back where they
# started: with early mlocks, 6.1 keeps what the switched thread mlocked.
# The script prints "window: N of M large pages mlocked" for the host test.
. ./lib.sh
case ${WINDOW_MODE:-} in
fixed) ;;
early) use_modules /add/early ;;
*) fail "WINDOW_MODE must be fixed or early, not '${WINDOW_MODE:-}'" ;;
esac
[ -f /add/ma_hold.ko ] || fail "no /add/ma_hold.ko: tests/host/enable-window runs this script"
MB=16
HOLD=/sys/module/ma_hold/parameters
cleanup() {
	[ -w $HOLD/release ] && echo 1 >$HOLD/release
	exec 3>&-
	[ -n "${wpid:-}" ] && kill "$wpid" 2>/dev/null && wait "$wpid" 2>/dev/null
	unload
	rmmod ma_hold 2>/dev/null
	rm -f /mnt/xfs/f /tmp/window.in /tmp/window.out
	umount /mnt/xfs 2>/dev/null
	kh_holder_end
	knobs_restore
	modules_restore
}
trap cleanup EXIT
unload
insmod /add/ma_hold.ko || fail "insmod ma_hold.ko"
cold_xfs_file $MB
fifo_run window ma-window /mnt/xfs/f $MB
wpid=$FIFO_PID
tid=$(sed -n 's/^ready .*tid=\([0-9]*\).*/\1/p' /tmp/window.out)
wait_for 30 file_is $HOLD/waiting 1 || fail "ma-window's thread does not wait in ma_hold"

modprobe mlock_audit fixes=mlock || fail "modprobe mlock_audit fixes=mlock failed"
wait_for 60 fixes_requested || fail "the fixes module still loading 60 s after modprobe"
sleep 2
[ "$(cat $LP/transition)" = 1 ] || fail "the transition completed while a thread waits in ma_hold (not a hold build?)"
[ "$(cat /proc/$wpid/task/$tid/patch_state)" = 0 ] || fail "the waiting thread was switched"
echo map >&3
wait_for 60 grep -qs '^mapped' /tmp/window.out || fail "ma-window did not map: $(cat /tmp/window.out)"
drain
# large pages not mlocked are missed or partial (ma-kpf)
set -- $(kpf_sum "resident large missed partial" "$wpid")
info "window: $(($2 - $3 - $4)) of $2 large pages mlocked ($1 resident; Mlocked $ml0 -> $(meminfo_kb Mlocked) kB)"
[ "$1" = $((MB * 256)) ] || fail "set-up: $1 pages resident, want $((MB * 256))"
[ "$2" -ge $((MB * 128)) ] || fail "set-up: only $2 of $1 pages in large folios"
[ "$(cat $LP/transition)" = 1 ] || fail "the transition completed before the unmap"

echo 1 >$HOLD/release
wait_for 30 grep -qs '^unmapped' /tmp/window.out || fail "ma_hold did not unmap: $(cat /tmp/window.out)"
wait_for 60 file_is $LP/transition 0 || {
	not_switched
	info "patch states: $(cat /proc/[0-9]*/task/[0-9]*/patch_state | sort | uniq -c | tr '\n' ' ')"
	info "livepatch: $(ls $LP 2>&1 | tr '\n' ' ') transition=$(cat $LP/transition 2>&1) enabled=$(cat $LP/enabled 2>&1)"
	fail "the transition did not complete once the thread went on"
}
info "fixes: $(grep '^fix=mlock' $DBG/fixes)"
exec 3>&-
wait "$wpid"
wpid=
drain
ml1=$(meminfo_kb Mlocked) ue1=$(meminfo_kb Unevictable)
info "after the unmap and exit: Mlocked $ml0 -> $ml1 kB, Unevictable $ue0 -> $ue1 kB"
[ "$ml1" -le $((ml0 + 64)) ] ||
	fail "$((ml1 - ml0)) kB stranded in Mlocked by the enable transition (Mlocked $ml0 -> $ml1 kB, Unevictable $ue0 -> $ue1 kB)"
[ "$ue1" -le $((ue0 + 64)) ] ||
	fail "$((ue1 - ue0)) kB stranded in Unevictable by the enable transition"
[ "$ml1" -ge $((ml0 - 64)) ] || fail "Mlocked fell below its start: $ml0 -> $ml1 kB"
exit 0
