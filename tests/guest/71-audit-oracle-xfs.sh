# As 70-audit-oracle, on an XFS file with large page-cache folios, freshly
# written and re-read after drop_caches (needs the scratch disk that
# tests/run gives the guest suite).
. ./lib.sh
[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
load fixes=none
. ./oracle.sh
MB=16
xfs_mount
dd if=/dev/zero of=/mnt/xfs/f bs=1M count=$MB 2>/dev/null
sync
F="--file /mnt/xfs/f --mb $MB"
scenario "xfs written, MAP_LOCKED" $F --lock maplocked
scenario "xfs written, mlock after fault" $F --lock fault
sync
echo 3 >/proc/sys/vm/drop_caches
scenario "xfs after drop_caches, MAP_LOCKED" $F --lock maplocked
echo 3 >/proc/sys/vm/drop_caches
scenario "xfs after drop_caches, mlock populate" $F --lock populate
echo 3 >/proc/sys/vm/drop_caches
scenario "xfs after drop_caches, +4 KiB MAP_LOCKED" $F --offset-kb 4 --lock maplocked
umount /mnt/xfs
exit 0
