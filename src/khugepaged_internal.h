/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the khugepaged live fixes ("lazyfree", "scanresume") need from the
 * kernel's private mm/khugepaged.c and mm/mm_slot.h. Each definition
 * matches the kernel it is built for and names its origin; the fixes'
 * fix.mk (src/fixes/lazyfree/, src/fixes/scanresume/) say which form a
 * kernel has, and their mirrors.c what is checked against BTF at load.
 */
#ifndef _MLOCK_AUDIT_KHUGEPAGED_INTERNAL_H
#define _MLOCK_AUDIT_KHUGEPAGED_INTERNAL_H

#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/nodemask.h>
#include <linux/types.h>

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
#ifdef COMPAT_SCANRESUME_FIX_MTHP
	/* Num pages scanned (see khugepaged_pages_to_scan) */
	unsigned int progress;
#endif

	/* nodemask for allocation fallback */
	nodemask_t alloc_nmask;
};

/*
 * mm/khugepaged.c: enum scan_result, up to the last value the live fixes
 * use; they are the same in 6.1 (khugepaged.c:29-60) and 6.12 (:31-64).
 * 7.3 (:33-66) renumbered them: there only the three values khugepaged()
 * itself tests are given. Decode trace output by name, not number.
 */
#ifdef COMPAT_SCANRESUME_FIX_MTHP
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

/*
 * What the "lazyfree" fix returns for a skipped range: 6.1 and 6.12 have
 * no SCAN_PAGE_LAZYFREE (7.2), and no caller acts on SCAN_FAIL.
 */
#define MA_SCAN_PAGE_LAZYFREE	SCAN_FAIL

/* mm/mm_slot.h: struct mm_slot, the same from 6.1 to 7.3. */
struct ma_mm_slot {
	struct hlist_node hash;
	struct list_head mm_node;
	struct mm_struct *mm;
};

/*
 * mm/khugepaged.c: struct khugepaged_mm_slot. 6.12 (khugepaged.c:112-114)
 * has only the mm_slot; 6.1 (:112-118) also queues PTE-mapped THPs to
 * collapse (MAX_PTE_MAPPED_THP, :94), until v6.5 ("mm/khugepaged:
 * collapse_pte_mapped_thp() with mmap_read_lock()"). 7.3 (since v6.18) has
 * no such struct and uses the bare mm_slot, which has the same layout as
 * the 6.12 form.
 */
struct ma_khugepaged_mm_slot {
	struct ma_mm_slot slot;
#ifdef COMPAT_SCANRESUME_FIX_VMA_CHECK
	int nr_pte_mapped_thp;
	unsigned long pte_mapped_thp[8];
#endif
};

/* mm/khugepaged.c: struct khugepaged_scan (6.1 :128-136, 6.12 :124-132). */
struct ma_khugepaged_scan {
	struct list_head mm_head;
	struct ma_khugepaged_mm_slot *mm_slot;
	unsigned long address;
};

#endif /* _MLOCK_AUDIT_KHUGEPAGED_INTERNAL_H */
