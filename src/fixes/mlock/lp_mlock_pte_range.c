// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "mlock" on 6.1, mlock()/munlock() side: 6.1's mlock_fixup()
 * walk skips every PTE-mapped large folio. With the fix it mlocks one fully
 * mapped in the walked page table of a VM_LOCKED VMA, and munlocks each
 * mlocked large folio once when VM_LOCKED is cleared, as mlock_pte_range()
 * does since v6.6 (7.3 mm/mlock.c: folio_mlock_step(),
 * allow_mlock_munlock()).
 *
 * mlock_pte_range() is static and reached through mlock_walk_ops, so it is
 * replaced by name; ma_mlock_pte_range() matches it in Debian 6.1.192
 * mm/mlock.c plus that handling.
 */
#include <linux/huge_mm.h>
#include <linux/mm.h>
#include <linux/pagewalk.h>

#include "mlock.h"
#include "mm_internal.h"

/* The first page of a PTE-mapped large folio met in this walk. */
static void ma_mlock_large(struct vm_area_struct *vma, struct folio *folio,
			   struct page *page, pte_t *pte, unsigned long addr)
{
	if (!(vma->vm_flags & VM_LOCKED)) {
		if (folio_test_mlocked(folio))
			munlock_page(&folio->page);
		return;
	}
	/*
	 * No VM_SPECIAL test, as in mlock_pte_range(): mlock_fixup() sets
	 * VM_IO on the VMA during this walk to fend off other mlockers.
	 */
	if (ma_mlock_large_allowed() &&
	    ma_folio_pte_full(vma, folio, pte, addr,
			      folio_page_idx(folio, page), false)) {
		mlock_folio(folio);
		ma_fix_event(MA_EV_RMAP_MLOCK, folio);
	}
}

/* include/linux/huge_mm.h: pmd_trans_huge_lock(), is_huge_zero_pmd() */
static spinlock_t *ma_pmd_trans_huge_lock(pmd_t *pmd, struct vm_area_struct *vma)
{
	if (is_swap_pmd(*pmd) || pmd_trans_huge(*pmd) || pmd_devmap(*pmd))
		return __pmd_trans_huge_lock(pmd, vma);
	return NULL;
}

static bool ma_is_huge_zero_pmd(pmd_t pmd)
{
	return pmd_present(pmd) && READ_ONCE(huge_zero_pfn) == pmd_pfn(pmd);
}

int ma_mlock_pte_range(pmd_t *pmd, unsigned long addr, unsigned long end,
		       struct mm_walk *walk)
{
	struct vm_area_struct *vma = walk->vma;
	spinlock_t *ptl;	/* the PMD or page-table lock */
	pte_t *start_pte, *pte;
	struct folio *last = NULL;
	struct page *page;

	ptl = ma_pmd_trans_huge_lock(pmd, vma);
	if (ptl) {
		if (!pmd_present(*pmd))
			goto out;
		if (ma_is_huge_zero_pmd(*pmd))
			goto out;
		page = pmd_page(*pmd);
		if (vma->vm_flags & VM_LOCKED)
			mlock_folio(page_folio(page));
		else
			munlock_page(page);
		goto out;
	}

	start_pte = pte_offset_map_lock(vma->vm_mm, pmd, addr, &ptl);
	for (pte = start_pte; addr != end; pte++, addr += PAGE_SIZE) {
		if (!pte_present(*pte))
			continue;
		page = vm_normal_page(vma, addr, *pte);
		if (!page || is_zone_device_page(page))
			continue;
		if (PageTransCompound(page)) {
			/* once per folio: its first page met in this walk */
			if (page_folio(page) != last)
				ma_mlock_large(vma, page_folio(page), page, pte, addr);
			last = page_folio(page);
			continue;
		}
		if (vma->vm_flags & VM_LOCKED)
			mlock_folio(page_folio(page));
		else
			munlock_page(page);
	}
	pte_unmap(start_pte);
out:
	spin_unlock(ptl);
	cond_resched();
	return 0;
}
