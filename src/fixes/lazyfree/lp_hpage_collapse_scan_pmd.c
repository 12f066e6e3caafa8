// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "lazyfree" (seed 003, "mm: khugepaged: skip lazy-free folios" in
 * its reviewed form, upstream in 7.2): khugepaged does not collapse a PMD
 * range that maps a clean lazy-free folio. The THP would be swap-backed and
 * dirty, so memory the process gave away could not be reclaimed by simply
 * dropping it. MADV_COLLAPSE still collapses it, and so does khugepaged in
 * a VM_DROPPABLE VMA, whose collapsed folio stays lazy-free.
 *
 * ma_hpage_collapse_scan_pmd() matches hpage_collapse_scan_pmd() of Debian
 * 6.12.118 mm/khugepaged.c:1257-1425 (COMPAT_LAZYFREE_FIX_FOLIO) and of
 * Debian 6.1.192 mm/khugepaged.c:1134-1304 (COMPAT_LAZYFREE_FIX_PAGE)
 * except for that test, placed where each kernel first has the folio, as
 * upstream places it.
 *
 * 6.1 and 6.12 have no SCAN_PAGE_LAZYFREE: a skipped range returns
 * SCAN_FAIL, which no caller treats specially.
 *
 * The collapse side of the upstream patch (in
 * __collapse_huge_page_isolate()) is not carried: it only catches an
 * MADV_FREE that runs while collapse_huge_page() has dropped mmap_lock.
 */
#include <linux/atomic.h>
#include <linux/huge_mm.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mmu_notifier.h>
#include <linux/page_idle.h>
#include <linux/pgtable.h>
#include <linux/swapops.h>
#include <linux/tracepoint-defs.h>
#include <linux/userfaultfd_k.h>
#include <linux/vmstat.h>

#include "fixes_count.h"
#include "lazyfree.h"
#include "khugepaged_internal.h"
#include "mm_internal.h"

atomic_long_t ma_lazyfree_skips;

/* mmu_notifier_test_young(): its out-of-line part is not exported */
static int ma_mmu_notifier_test_young(struct mm_struct *mm, unsigned long address)
{
	if (mm_has_notifiers(mm))
		return __mmu_notifier_test_young(mm, address);
	return 0;
}

/*
 * trace_mm_khugepaged_scan_pmd() is not exported: call its iterator as
 * __DO_TRACE() does without static calls. 6.1 and 6.12 share TP_PROTO
 * (include/trace/events/huge_memory.h:54 and :56).
 */
static void ma_trace_scan_pmd(struct mm_struct *mm, struct page *page,
			      bool writable, int referenced, int none_or_zero,
			      int status, int unmapped)
{
	struct tracepoint *tp = &__tracepoint_mm_khugepaged_scan_pmd;
	/* the kernel's __traceiter_mm_khugepaged_scan_pmd(), which returns int */
	int (*iter)(void *data, struct mm_struct *mm, struct page *page,
		    bool writable, int referenced, int none_or_zero,
		    int status, int unmapped);

	if (!static_key_enabled(&tp->key))
		return;
	iter = tp->iterator;
	preempt_disable_notrace();
	iter(NULL, mm, page, writable, referenced, none_or_zero, status,
	     unmapped);
	preempt_enable_notrace();
}

static bool ma_scan_shared_ok(struct collapse_control *cc, struct page *page,
			      struct folio *folio, int *shared)
{
	if (!compat_khugepaged_mapped_shared(page, folio))
		return true;
	++*shared;
	if (cc->is_khugepaged && *shared > khugepaged_max_ptes_shared) {
		count_vm_event(THP_SCAN_EXCEED_SHARED_PTE);
		return false;
	}
	return true;
}

int ma_hpage_collapse_scan_pmd(struct mm_struct *mm, struct vm_area_struct *vma,
			       unsigned long address, bool *mmap_locked,
			       struct collapse_control *cc)
{
	pmd_t *pmd;
	pte_t *pte, *_pte;
	int result = SCAN_FAIL, referenced = 0;
	int none_or_zero = 0, shared = 0;
	struct page *page = NULL;
	struct folio *folio = NULL, *this;
	unsigned long _address;
	spinlock_t *ptl;	/* the page table's lock */
	int node = NUMA_NO_NODE, unmapped = 0;
	bool writable = false;

	ma_count_call(MA_CNT_SCAN_PMD);
	VM_WARN_ON_ONCE(address & ~HPAGE_PMD_MASK);

	result = find_pmd_or_thp_or_none(mm, address, &pmd);
	if (result != SCAN_SUCCEED)
		goto out;

	memset(cc->node_load, 0, sizeof(cc->node_load));
	nodes_clear(cc->alloc_nmask);
	/* cannot fail on 6.1, where the PMD was checked under mmap_lock */
	pte = ma_pte_offset_map_lock(mm, pmd, address, &ptl);
	if (!pte) {
		result = SCAN_PMD_NULL;
		goto out;
	}

	for (_address = address, _pte = pte; _pte < pte + HPAGE_PMD_NR;
	     _pte++, _address += PAGE_SIZE) {
		pte_t pteval = ptep_get(_pte);

		if (is_swap_pte(pteval)) {
			++unmapped;
			if (!cc->is_khugepaged ||
			    unmapped <= khugepaged_max_ptes_swap) {
				/* uffd-wp swap entries are never collapsed */
				if (compat_khugepaged_swp_uffd_wp(pteval)) {
					result = SCAN_PTE_UFFD_WP;
					goto out_unmap;
				}
				continue;
			}
			result = SCAN_EXCEED_SWAP_PTE;
			count_vm_event(THP_SCAN_EXCEED_SWAP_PTE);
			goto out_unmap;
		}
		/*
		 * pteval is none or present here: 6.1's test without
		 * pte_present() is the same as 6.12's pte_none_or_zero().
		 */
		if (pte_none(pteval) || is_zero_pfn(pte_pfn(pteval))) {
			++none_or_zero;
			if (!userfaultfd_armed(vma) &&
			    (!cc->is_khugepaged ||
			     none_or_zero <= khugepaged_max_ptes_none))
				continue;
			result = SCAN_EXCEED_NONE_PTE;
			count_vm_event(THP_SCAN_EXCEED_NONE_PTE);
			goto out_unmap;
		}
		if (pte_uffd_wp(pteval)) {
			/* no collapse under uffd write protection */
			result = SCAN_PTE_UFFD_WP;
			goto out_unmap;
		}
		if (pte_write(pteval))
			writable = true;

		page = vm_normal_page(vma, _address, pteval);
		if (unlikely(!page) || unlikely(is_zone_device_page(page))) {
			result = SCAN_PAGE_NULL;
			goto out_unmap;
		}
		this = page_folio(page);

		/* 6.1 tests the page's mapcount before it takes the folio */
		if (COMPAT_KHUGEPAGED_SHARED_FIRST &&
		    !ma_scan_shared_ok(cc, page, this, &shared)) {
			result = SCAN_EXCEED_SHARED_PTE;
			goto out_unmap;
		}
		folio = this;

		/*
		 * The fix. MADV_COLLAPSE is an explicit request; a
		 * VM_DROPPABLE VMA keeps its folios lazy-free when collapsed.
		 */
		if (cc->is_khugepaged &&
		    !(vma->vm_flags & VM_DROPPABLE) &&
		    folio_test_lazyfree(folio) && !pte_dirty(pteval)) {
			atomic_long_inc(&ma_lazyfree_skips);
			result = MA_SCAN_PAGE_LAZYFREE;
			goto out_unmap;
		}

		if (!COMPAT_KHUGEPAGED_SHARED_FIRST) {
			if (!folio_test_anon(folio)) {
				result = SCAN_PAGE_ANON;
				goto out_unmap;
			}
			if (!ma_scan_shared_ok(cc, page, folio, &shared)) {
				result = SCAN_EXCEED_SHARED_PTE;
				goto out_unmap;
			}
		}

		node = folio_nid(folio);
		if (hpage_collapse_scan_abort(node, cc)) {
			result = SCAN_SCAN_ABORT;
			goto out_unmap;
		}
		cc->node_load[node]++;
		if (!folio_test_lru(folio)) {
			result = SCAN_PAGE_LRU;
			goto out_unmap;
		}
		if (folio_test_locked(folio)) {
			result = SCAN_PAGE_LOCK;
			goto out_unmap;
		}
		if (COMPAT_KHUGEPAGED_SHARED_FIRST && !folio_test_anon(folio)) {
			result = SCAN_PAGE_ANON;
			goto out_unmap;
		}

		/* racy; collapse_huge_page() checks again */
		if (!compat_is_refcount_suitable(folio)) {
			result = SCAN_PAGE_COUNT;
			goto out_unmap;
		}

		if (cc->is_khugepaged &&
		    (pte_young(pteval) || folio_test_young(folio) ||
		     folio_test_referenced(folio) ||
		     ma_mmu_notifier_test_young(vma->vm_mm, _address)))
			referenced++;
	}
	if (!writable) {
		result = SCAN_PAGE_RO;
	} else if (cc->is_khugepaged &&
		   (!referenced ||
		    (unmapped && referenced < HPAGE_PMD_NR / 2))) {
		result = SCAN_LACK_REFERENCED_PAGE;
	} else {
		result = SCAN_SUCCEED;
	}
out_unmap:
	pte_unmap_unlock(pte, ptl);
	if (result == SCAN_SUCCEED) {
		result = collapse_huge_page(mm, address, referenced, unmapped, cc);
		*mmap_locked = false;
	}
out:
	/* 6.1 traces the last page it looked at, 6.12 that page's folio */
	ma_trace_scan_pmd(mm, COMPAT_KHUGEPAGED_SHARED_FIRST ? page : &folio->page,
			  writable, referenced, none_or_zero, result, unmapped);
	return result;
}
