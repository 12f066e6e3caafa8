# The hit counts rise under workloads that exercise each hook.
. ./lib.sh
load
THP=/sys/kernel/mm/transparent_hugepage
r0=$(hits rmap_add) f0=$(hits finish_fault) k0=$(hits khugepaged_scan) ||
	fail "a hook has no resolved symbol"

# Shared writes to a tmpfs file: finish_fault -> set_pte_range -> rmap add.
mkdir -p /mnt/t && mount -t tmpfs -o size=64m tmpfs /mnt/t
ma-workload file-touch /mnt/t 8 2 || fail "file-touch failed"
umount /mnt/t
r1=$(hits rmap_add) f1=$(hits finish_fault)
info "rmap_add $r0 -> $r1, finish_fault $f0 -> $f1 (2 x 2048 pages written)"
[ $((r1 - r0)) -ge 4096 ] || fail "rmap_add rose by $((r1 - r0)), want >= 4096"
[ $((f1 - f0)) -ge 4096 ] || fail "finish_fault rose by $((f1 - f0)), want >= 4096"

# khugepaged scans an MADV_HUGEPAGE region within a few scan periods.
old_sleep=$(cat $THP/khugepaged/scan_sleep_millisecs)
echo 10 >$THP/khugepaged/scan_sleep_millisecs
ma-workload anon-thp 8 4 || fail "anon-thp failed"
echo "$old_sleep" >$THP/khugepaged/scan_sleep_millisecs
k1=$(hits khugepaged_scan)
info "khugepaged_scan $k0 -> $k1 (8 MiB MADV_HUGEPAGE, 4 s, 10 ms scan period)"
[ $((k1 - k0)) -ge 1 ] || fail "khugepaged_scan did not rise"
exit 0
