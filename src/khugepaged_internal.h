/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What more than one khugepaged live fix needs from the kernel's private
 * mm/khugepaged.c; khugepaged_layout.h checks it against BTF at load. The
 * 7.3 form (COMPAT_KHUGEPAGED_TVA_TYPE) is that of v6.18 and later.
 */
#ifndef _MLOCK_AUDIT_KHUGEPAGED_INTERNAL_H
#define _MLOCK_AUDIT_KHUGEPAGED_INTERNAL_H

#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/nodemask.h>
#include <linux/types.h>

#include "symbols.h"

/*
 * mm/khugepaged.c: struct collapse_control, the same in 6.1
 * (khugepaged.c:96-104) and 6.12 (:98-106). 7.3 (:106-120) adds the
 * progress of the scan ("mm: khugepaged: refine scan progress number") and,
 * after alloc_nmask, a bitmap that no fix touches.
 */
struct collapse_control {
	bool is_khugepaged;

	/* Num pages scanned per node */
	u32 node_load[MAX_NUMNODES];
#ifdef COMPAT_KHUGEPAGED_TVA_TYPE
	/* Num pages scanned (see khugepaged_pages_to_scan) */
	unsigned int progress;
#endif

	/* nodemask for allocation fallback */
	nodemask_t alloc_nmask;
};

/*
 * mm/khugepaged.c: enum scan_result, the same in 6.1 (khugepaged.c:29-60)
 * and 6.12 (:31-64). 7.3 (:33-66) renumbers it: only the three values
 * khugepaged() itself tests are given there.
 */
#ifdef COMPAT_KHUGEPAGED_TVA_TYPE
enum scan_result {
	SCAN_FAIL,
	SCAN_SUCCEED,
	SCAN_ALLOC_HUGE_PAGE_FAIL = 24,
};
#else
enum scan_result {
	SCAN_FAIL,
	SCAN_SUCCEED,
	SCAN_PMD_NULL,
	SCAN_PMD_NONE,
	SCAN_PMD_MAPPED,
	SCAN_EXCEED_NONE_PTE,
	SCAN_EXCEED_SWAP_PTE,
	SCAN_EXCEED_SHARED_PTE,
	SCAN_PTE_NON_PRESENT,
	SCAN_PTE_UFFD_WP,
	SCAN_PTE_MAPPED_HUGEPAGE,
	SCAN_PAGE_RO,
	SCAN_LACK_REFERENCED_PAGE,
	SCAN_PAGE_NULL,
	SCAN_SCAN_ABORT,
	SCAN_PAGE_COUNT,
	SCAN_PAGE_LRU,
	SCAN_PAGE_LOCK,
	SCAN_PAGE_ANON,
	SCAN_PAGE_COMPOUND,
	SCAN_ANY_PROCESS,
	SCAN_VMA_NULL,
	SCAN_VMA_CHECK,
	SCAN_ADDRESS_RANGE,
	SCAN_DEL_PAGE_LRU,
	SCAN_ALLOC_HUGE_PAGE_FAIL,
};
#endif

#ifdef MA_NEEDS_FIND_PMD_OR_THP_OR_NONE
/* static in mm/khugepaged.c (6.1 :963, 6.12 :945); one wrapper (symbols.h) */
int find_pmd_or_thp_or_none(struct mm_struct *mm, unsigned long address,
			    pmd_t **pmd) MA_KSYM;
extern typeof(find_pmd_or_thp_or_none) ma_call_find_pmd_or_thp_or_none;
#define find_pmd_or_thp_or_none(...)	ma_call_find_pmd_or_thp_or_none(__VA_ARGS__)
#endif

#endif /* _MLOCK_AUDIT_KHUGEPAGED_INTERNAL_H */
