# page_fault3 (will-it-scale, process mode; ma-pf3) with the "fault" fix off
# and on, in the same boot: on XFS (large folios) and on huge tmpfs, with 1
# and 2 tasks, SECONDS each; then the minor faults to write-touch a 64 MiB
# XFS file mapping once. BENCH lines for tests/bench.
. /tests/lib.sh
SECONDS_=${PF3_SECONDS:-5}
[ -n "$SCRATCH" ] || fail "no scratch disk"
unload
mkfs.xfs -q -f "$SCRATCH" || fail "mkfs.xfs"
mkdir -p /mnt/xfs /mnt/huge
mount -t xfs "$SCRATCH" /mnt/xfs || fail "mount xfs"
mount -t tmpfs -o huge=always,size=400m tmpfs /mnt/huge || fail "huge tmpfs"
load
state=$(fix_state fault)
unload
echo "BENCH fault_fix state=$state"
case $state in active) modes="none fault" ;; *) modes="none" ;; esac
for fs in xfs huge; do
	for tasks in 1 2; do
		for mode in $modes; do
			load fixes=$mode
			out=$(ma-pf3 /mnt/$fs $tasks $SECONDS_) || fail "ma-pf3 failed: $out"
			echo "BENCH pf3 fs=$fs tasks=$tasks fixes=$mode $out"
			unload
		done
	done
done
# one write-touch of 64 MiB of XFS file (written, so in the page cache)
dd if=/dev/zero of=/mnt/xfs/touch bs=1M count=64 2>/dev/null
for mode in $modes; do
	load fixes=$mode
	echo "BENCH touch64 fixes=$mode $(ma-pf3 --touch /mnt/xfs/touch)"
	unload
done
umount /mnt/xfs /mnt/huge
