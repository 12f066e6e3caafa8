# SPDX-License-Identifier: GPL-2.0
# thp_files: the THP and khugepaged settings that tests and the kernel's
# selftests change, those this kernel has, one path a line. Sourced by
# run-all (which checks that each test leaves them as it found them) and
# by lib.sh (89-khugepaged-selftests puts back what a selftest left,
# 88-fix-scanresume checks that the thread swaps change none of them).
# lib.sh takes it as /tests/thp-files.sh: scripts in other directories
# (tests/guest/bench, the host tests' guest commands) source lib.sh too.
thp_files() {
	for tf in /sys/kernel/mm/transparent_hugepage/enabled \
		/sys/kernel/mm/transparent_hugepage/defrag \
		/sys/kernel/mm/transparent_hugepage/shmem_enabled \
		/sys/kernel/mm/transparent_hugepage/use_zero_page \
		/sys/kernel/mm/transparent_hugepage/hugepages-*/enabled \
		/sys/kernel/mm/transparent_hugepage/hugepages-*/shmem_enabled \
		/sys/kernel/mm/transparent_hugepage/khugepaged/defrag \
		/sys/kernel/mm/transparent_hugepage/khugepaged/alloc_sleep_millisecs \
		/sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs \
		/sys/kernel/mm/transparent_hugepage/khugepaged/max_ptes_none \
		/sys/kernel/mm/transparent_hugepage/khugepaged/max_ptes_swap \
		/sys/kernel/mm/transparent_hugepage/khugepaged/max_ptes_shared \
		/sys/kernel/mm/transparent_hugepage/khugepaged/pages_to_scan; do
		[ -f "$tf" ] && echo "$tf"
	done
	return 0
}
