// SPDX-License-Identifier: GPL-2.0
/*
 * How the fixes module reaches unexported kernel symbols: through
 * livepatch relocations, which the livepatch core applies when the module
 * loads (see symbols.h and tools/klp-relocs.c). Nothing here looks an
 * address up at run time.
 */
#include "symbols.h"

#ifdef MA_CARRY_SCANRESUME
#include <linux/livepatch.h>

#include "khugepaged_internal.h"

const struct ma_khugepaged_syms ma_kh = {
	.scan = &khugepaged_scan,
	.mm_lock = &khugepaged_mm_lock,
	.pages_to_scan = &khugepaged_pages_to_scan,
	.full_scans = &khugepaged_full_scans,
#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_VMA_CHECK)
	.pages_collapsed = &khugepaged_pages_collapsed,
#endif
	.scan_sleep_millisecs = &khugepaged_scan_sleep_millisecs,
	.alloc_sleep_millisecs = &khugepaged_alloc_sleep_millisecs,
	.sleep_expire = &khugepaged_sleep_expire,
	.wait = &khugepaged_wait,
	.thread = &khugepaged_thread,
	.mutex = &khugepaged_mutex,
	.collapse_control = &khugepaged_collapse_control,
	.thp_flags = &transparent_hugepage_flags,
#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_MTHP)
	.anon_orders_always = &huge_anon_orders_always,
	.anon_orders_madvise = &huge_anon_orders_madvise,
	.anon_orders_inherit = &huge_anon_orders_inherit,
#endif
	.klp_transition_patch = &klp_transition_patch,
	.klp_target_state = &klp_target_state,
#ifdef COMPAT_SCANRESUME_FIX_MTHP
	.tp_scan = &__tracepoint_mm_khugepaged_scan,
#endif
};
#endif

/*
 * The wrappers of symbols.h's "one relocation per function". Each calls the
 * kernel function by its own name (the macros are undone here).
 */
#ifdef MA_CARRY_MLOCK
#undef mlock_folio
#undef rmap_walk
#undef page_vma_mapped_walk
#undef folio_lruvec_lock_irq
#undef folio_lock_anon_vma_read

noinline void ma_call_mlock_folio(struct folio *folio)
{
	mlock_folio(folio);
}

noinline void ma_call_rmap_walk(struct folio *folio, struct rmap_walk_control *rwc)
{
	rmap_walk(folio, rwc);
}

noinline bool ma_call_page_vma_mapped_walk(struct page_vma_mapped_walk *pvmw)
{
	return page_vma_mapped_walk(pvmw);
}

noinline struct lruvec *ma_call_folio_lruvec_lock_irq(struct folio *folio)
{
	return folio_lruvec_lock_irq(folio);
}

noinline struct anon_vma *ma_call_folio_lock_anon_vma_read(struct folio *folio,
							   struct rmap_walk_control *rwc)
{
	return folio_lock_anon_vma_read(folio, rwc);
}
#endif

#ifdef COMPAT_MLOCK_FIX_PAGE_RMAP
#undef munlock_page
#undef unlock_page_memcg
#undef deferred_split_huge_page

noinline void ma_call_munlock_page(struct page *page)
{
	munlock_page(page);
}

noinline void ma_call_unlock_page_memcg(struct page *page)
{
	unlock_page_memcg(page);
}

noinline void ma_call_deferred_split_huge_page(struct page *page)
{
	deferred_split_huge_page(page);
}
#endif

#ifdef MA_NEEDS_VM_NORMAL_PAGE
#undef vm_normal_page

noinline struct page *ma_call_vm_normal_page(struct vm_area_struct *vma,
					     unsigned long addr, pte_t pte)
{
	return vm_normal_page(vma, addr, pte);
}
#endif

#ifdef MA_NEEDS_FIND_PMD_OR_THP_OR_NONE
#undef find_pmd_or_thp_or_none

noinline int ma_call_find_pmd_or_thp_or_none(struct mm_struct *mm,
					     unsigned long address, pmd_t **pmd)
{
	return find_pmd_or_thp_or_none(mm, address, pmd);
}
#endif

#ifdef MA_CARRY_SCANRESUME
#undef collect_mm_slot

noinline void ma_call_collect_mm_slot(struct ma_khugepaged_mm_slot *mm_slot)
{
	collect_mm_slot(mm_slot);
}
#endif
