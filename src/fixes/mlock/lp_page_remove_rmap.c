// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "mlock" on 6.1, unmap side: a large folio the fix mlocked while
 * fully mapped by PTEs in a VM_LOCKED VMA is munlocked when that full
 * mapping breaks; 6.1 itself only munlocks small and PMD-mapped folios
 * here.
 *
 * A folio not contained in one page table of the VMA (mremap(), a
 * VMA split) is munlocked at every removal: better an extra munlock, which
 * reclaim undoes (folio_referenced(), as upstream), than a folio left
 * mlocked with no locked mapping.
 *
 * ma_page_remove_rmap(), with ma_page_remove_file_rmap() and
 * ma_page_remove_anon_compound_rmap(), matches page_remove_rmap() of Debian
 * 6.1.192 mm/rmap.c (CONFIG_DEBUG_VM off) plus that step.
 */
#include <linux/huge_mm.h>
#include <linux/hugetlb.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/rmap.h>

#include "mlock.h"
#include "mm_internal.h"

/* page_remove_file_rmap() */
static void ma_page_remove_file_rmap(struct page *page, bool compound)
{
	int i, nr = 0;

	/* hugetlb pages are not counted in NR_FILE_MAPPED for now */
	if (unlikely(PageHuge(page))) {
		/* hugetlb pages are always mapped with pmds */
		atomic_dec(compound_mapcount_ptr(page));
		return;
	}

	/* page still mapped by someone else? */
	if (compound && PageTransHuge(page)) {
		int nr_pages = thp_nr_pages(page);

		for (i = 0; i < nr_pages; i++) {
			if (atomic_add_negative(-1, &page[i]._mapcount))
				nr++;
		}
		if (!atomic_add_negative(-1, compound_mapcount_ptr(page)))
			goto out;
		if (PageSwapBacked(page))
			__mod_lruvec_page_state(page, NR_SHMEM_PMDMAPPED,
						-nr_pages);
		else
			__mod_lruvec_page_state(page, NR_FILE_PMDMAPPED,
						-nr_pages);
	} else {
		if (atomic_add_negative(-1, &page->_mapcount))
			nr++;
	}
out:
	if (nr)
		__mod_lruvec_page_state(page, NR_FILE_MAPPED, -nr);
}

/* page_remove_anon_compound_rmap() */
static void ma_page_remove_anon_compound_rmap(struct page *page)
{
	int i, nr;

	if (!atomic_add_negative(-1, compound_mapcount_ptr(page)))
		return;

	/* hugepages are not counted in NR_ANON_PAGES for now */
	if (unlikely(PageHuge(page)))
		return;

	if (!IS_ENABLED(CONFIG_TRANSPARENT_HUGEPAGE))
		return;

	__mod_lruvec_page_state(page, NR_ANON_THPS, -thp_nr_pages(page));

	if (TestClearPageDoubleMap(page)) {
		/* subpages can be mapped with PTEs too: how many still are? */
		for (i = 0, nr = 0; i < thp_nr_pages(page); i++) {
			if (atomic_add_negative(-1, &page[i]._mapcount))
				nr++;
		}
		/* partly unmapped: queue for deferred split */
		if (nr && nr < thp_nr_pages(page))
			deferred_split_huge_page(page);
	} else {
		nr = thp_nr_pages(page);
	}

	if (nr)
		__mod_lruvec_page_state(page, NR_ANON_MAPPED, -nr);
}

/* Called under the lock of the page table that mapped @page. */
static bool ma_breaks_full_mapping(struct page *page, struct folio *folio,
				   struct vm_area_struct *vma)
{
	long idx = folio_page_idx(folio, page);
	unsigned long addr, start, len = folio_size(folio);
	pgd_t *pgd;
	p4d_t *p4d;
	pud_t *pud;
	pmd_t *pmd, pmdval;
	pte_t *pte;
	bool full;

	/* page_to_pgoff() of a page that is not hugetlb */
	addr = vma->vm_start + ((folio->index + idx - vma->vm_pgoff) << PAGE_SHIFT);
	start = addr - idx * PAGE_SIZE;
	if (addr < vma->vm_start || addr >= vma->vm_end ||
	    start < vma->vm_start || start + len > vma->vm_end ||
	    (start & PMD_MASK) != ((start + len - 1) & PMD_MASK))
		return true;
	pgd = pgd_offset(vma->vm_mm, addr);
	if (pgd_none(*pgd) || pgd_bad(*pgd))
		return true;
	p4d = p4d_offset(pgd, addr);
	if (p4d_none(*p4d) || p4d_bad(*p4d))
		return true;
	pud = pud_offset(p4d, addr);
	if (pud_none(*pud) || pud_bad(*pud))
		return true;
	pmd = pmd_offset(pud, addr);
	pmdval = pmdp_get(pmd);
	if (!pmd_present(pmdval) || pmd_trans_huge(pmdval) || pmd_bad(pmdval))
		return true;
	pte = pte_offset_map(pmd, addr);
	full = ma_folio_pte_full(vma, folio, pte, addr, idx, true);
	pte_unmap(pte);
	return full;
}

void ma_page_remove_rmap(struct page *page, struct vm_area_struct *vma,
			 bool compound)
{
	lock_page_memcg(page);

	if (!PageAnon(page)) {
		ma_page_remove_file_rmap(page, compound);
		goto out;
	}

	if (compound) {
		ma_page_remove_anon_compound_rmap(page);
		goto out;
	}

	/* page still mapped by someone else? */
	if (!atomic_add_negative(-1, &page->_mapcount))
		goto out;

	/*
	 * The irq-unsafe __{inc|mod}_lruvec_page_state() is enough: not
	 * modified in interrupt context, and under the page-table lock.
	 */
	__dec_lruvec_page_state(page, NR_ANON_MAPPED);

	if (PageTransCompound(page))
		deferred_split_huge_page(compound_head(page));

	/*
	 * The PageAnon mapping is left set (it may race with a
	 * page_add_anon_rmap(); free_unref_page() resets it).
	 */
out:
	unlock_page_memcg(page);

	/* munlock_vma_page(): small and PMD-mapped folios */
	if (unlikely(vma->vm_flags & VM_LOCKED) &&
	    (compound || !PageTransCompound(page))) {
		munlock_page(page);
		return;
	}
	/* the fix: a large folio whose full mapping in @vma breaks */
	if (unlikely(vma->vm_flags & VM_LOCKED) && PageMlocked(compound_head(page))) {
		struct folio *folio = page_folio(page);

		if (ma_breaks_full_mapping(page, folio, vma))
			munlock_page(&folio->page);
	}
}
