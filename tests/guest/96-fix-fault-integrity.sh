# Data integrity with the "fault" fix: ma-fsx (fsx-style random pread,
# pwrite, truncate, mmap reads and writes, msync, checked against a shadow
# copy) on XFS files for FSX_SECONDS (60 s) with every fix loaded. Any
# mismatch, short read, SIGBUS or I/O error fails, with the operation log
# and the seed to replay it.
. ./lib.sh
[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
unload
load
state=$(fix_state fault)
[ "$state" = active ] || unload
need_fix fault "$state" active
xfs_mount
w0=$(sed -n 2p $DBG/fixes | sed -n 's/.* fault_whole_folios=\([0-9]*\) faultaround_whole_folios=\([0-9]*\).*/\1 \2/p')
out=$(ma-fsx -n 2 -l $((16 << 20)) /mnt/xfs "${FSX_SECONDS:-60}")
rc=$?
echo "$out" | tail -n 40 | sed 's/^/  /'
w1=$(sed -n 2p $DBG/fixes | sed -n 's/.* fault_whole_folios=\([0-9]*\) faultaround_whole_folios=\([0-9]*\).*/\1 \2/p')
info "large folios mapped whole by the fix meanwhile (fault, fault-around): $w0 -> $w1"
[ $rc = 0 ] || fail "ma-fsx found a data integrity error (exit $rc)"
umount /mnt/xfs
unload
exit 0
