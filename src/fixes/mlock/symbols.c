// SPDX-License-Identifier: GPL-2.0
/*
 * The wrappers of src/symbols.h's "one relocation per function" for the
 * functions of kernel.h that the "mlock" fix calls from more than one
 * place. Each calls the kernel function by its own name (the macros are
 * undone here).
 */
#include "mlock.h"

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
