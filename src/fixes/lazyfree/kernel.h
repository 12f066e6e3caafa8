/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the "lazyfree" fix needs of the kernel (COMPAT_LAZYFREE_FIX_FOLIO:
 * 6.12 form; COMPAT_LAZYFREE_FIX_PAGE: 6.1 form): unexported symbols of
 * mm/khugepaged.c (src/symbols.h) and shims only this fix needs.
 */
#ifndef _MLOCK_AUDIT_FIX_LAZYFREE_KERNEL_H
#define _MLOCK_AUDIT_FIX_LAZYFREE_KERNEL_H

#include <linux/mm.h>
#include <linux/page-flags.h>

#include "khugepaged_internal.h"
#include "symbols.h"

#ifdef MA_CARRY_LAZYFREE
#include <linux/mmu_notifier.h>
#include <linux/userfaultfd_k.h>

/* static in mm/khugepaged.c */
bool hpage_collapse_scan_abort(int nid, struct collapse_control *cc) MA_KSYM;
#ifdef COMPAT_LAZYFREE_FIX_PAGE
bool is_refcount_suitable(struct page *page) MA_KSYM;		/* 6.1 */
#else
bool is_refcount_suitable(struct folio *folio) MA_KSYM;		/* 6.12 */
#endif
int collapse_huge_page(struct mm_struct *mm, unsigned long address,
		       int referenced, int unmapped,
		       struct collapse_control *cc) MA_KSYM;
extern unsigned int khugepaged_max_ptes_none MA_KSYM;
extern unsigned int khugepaged_max_ptes_swap MA_KSYM;
extern unsigned int khugepaged_max_ptes_shared MA_KSYM;
extern struct tracepoint __tracepoint_mm_khugepaged_scan_pmd MA_KSYM;
/* mm/mmu_notifier.c */
extern typeof(__mmu_notifier_test_young) __mmu_notifier_test_young MA_KSYM;
#endif

/*
 * What the fix returns for a skipped range: 6.1 and 6.12 have no
 * SCAN_PAGE_LAZYFREE (7.2), and no caller acts on SCAN_FAIL.
 */
#define MA_SCAN_PAGE_LAZYFREE	SCAN_FAIL

#ifdef COMPAT_CANNOT_FOLIO_TEST_LAZYFREE
/* include/linux/page-flags.h of v7.2 ("mm: add folio_test_lazyfree helper") */
static __always_inline bool folio_test_lazyfree(struct folio *folio)
{
	return folio_test_anon(folio) && !folio_test_swapbacked(folio);
}
#endif

/* VM_DROPPABLE: since v6.11 ("mm: add MAP_DROPPABLE ..."); none before. */
#ifdef COMPAT_CANNOT_VM_DROPPABLE
#define VM_DROPPABLE VM_NONE
#endif

/*
 * hpage_collapse_scan_pmd() up to v6.8 (6.1) tests the page's own mapcount
 * before anything else about the page; from v6.9 it tests
 * folio_likely_mapped_shared() after the anon test.
 */
#ifdef COMPAT_LAZYFREE_FIX_PAGE
#define COMPAT_KHUGEPAGED_SHARED_FIRST 1
#else
#define COMPAT_KHUGEPAGED_SHARED_FIRST 0
#endif

#ifdef MA_CARRY_LAZYFREE
static inline bool compat_khugepaged_mapped_shared(struct page *page,
						   struct folio *folio)
{
#ifdef COMPAT_LAZYFREE_FIX_PAGE
	return page_mapcount(page) > 1;
#else
	return folio_likely_mapped_shared(folio);
#endif
}

static inline bool compat_khugepaged_swp_uffd_wp(pte_t pte)
{
#ifdef COMPAT_LAZYFREE_FIX_PAGE
	return pte_swp_uffd_wp(pte);
#else
	return pte_swp_uffd_wp_any(pte);
#endif
}

static inline bool compat_is_refcount_suitable(struct folio *folio)
{
#ifdef COMPAT_LAZYFREE_FIX_PAGE
	return is_refcount_suitable(&folio->page);
#else
	return is_refcount_suitable(folio);
#endif
}
#endif

#endif /* _MLOCK_AUDIT_FIX_LAZYFREE_KERNEL_H */
