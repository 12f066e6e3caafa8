// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "mlock", rmap add (seed 000 patch 6/6, mainline ab521b4142aa):
 * a folio added to the rmap of a VM_LOCKED VMA is mlocked when the call
 * maps all of its pages, large or small.
 *
 * __folio_add_{anon,file}_rmap() are always inline, so their four callers
 * are replaced. Each matches the function of the same name in Debian
 * 6.12.118 mm/rmap.c with CONFIG_DEBUG_VM off (the VM_WARN and VM_BUG
 * checks, __page_check_anon_rmap() included, are empty), except for the
 * one condition the fix changes.
 */
#include <linux/huge_mm.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/rmap.h>
#include <linux/vmstat.h>

#include "fixes_count.h"
#include "mlock.h"
#include "mm_internal.h"

/* mm/internal.h: the ENTIRELY_MAPPED bit of folio->_nr_pages_mapped */
#define MA_ENTIRELY_MAPPED	0x800000
#define MA_FOLIO_PAGES_MAPPED	(MA_ENTIRELY_MAPPED - 1)

/*
 * __folio_add_rmap(): account @nr_pages new mappings (one entire mapping
 * when @pmd) of @folio from @page on; return how many pages became mapped.
 */
static __always_inline int ma_add_rmap(struct folio *folio, struct page *page,
				       int nr_pages, bool pmd, int *nr_pmdmapped)
{
	atomic_t *mapped = &folio->_nr_pages_mapped;
	const int orig_nr_pages = nr_pages;
	int first = 0, nr = 0;

	if (!pmd) {
		if (!folio_test_large(folio))
			return atomic_inc_and_test(&folio->_mapcount);

		do {
			first += atomic_inc_and_test(&page->_mapcount);
		} while (page++, --nr_pages > 0);

		if (first &&
		    atomic_add_return_relaxed(first, mapped) < MA_ENTIRELY_MAPPED)
			nr = first;

		atomic_add(orig_nr_pages, &folio->_large_mapcount);
		return nr;
	}

	first = atomic_inc_and_test(&folio->_entire_mapcount);
	if (first) {
		nr = atomic_add_return_relaxed(MA_ENTIRELY_MAPPED, mapped);
		if (likely(nr < MA_ENTIRELY_MAPPED + MA_ENTIRELY_MAPPED)) {
			*nr_pmdmapped = folio_nr_pages(folio);
			nr = *nr_pmdmapped - (nr & MA_FOLIO_PAGES_MAPPED);
			/* raced ahead of a remove and another add? */
			if (unlikely(nr < 0))
				nr = 0;
		} else {
			/* raced ahead of a remove of ENTIRELY_MAPPED */
			nr = 0;
		}
	}
	atomic_inc(&folio->_large_mapcount);
	return nr;
}

/* __folio_mod_stat() */
static void ma_mod_stat(struct folio *folio, int nr, int nr_pmdmapped)
{
	int idx;

	if (nr) {
		idx = folio_test_anon(folio) ? NR_ANON_MAPPED : NR_FILE_MAPPED;
		__lruvec_stat_mod_folio(folio, idx, nr);
	}
	if (nr_pmdmapped) {
		if (folio_test_anon(folio)) {
			__lruvec_stat_mod_folio(folio, NR_ANON_THPS, nr_pmdmapped);
		} else {
			/* NR_*_PMDMAPPED are not maintained per-memcg */
			idx = folio_test_swapbacked(folio) ?
				NR_SHMEM_PMDMAPPED : NR_FILE_PMDMAPPED;
			__mod_node_page_state(folio_pgdat(folio), idx,
					      nr_pmdmapped);
		}
	}
}

/*
 * The fix. A partly mapped folio stays out: reclaim can split it and
 * evict the part outside the locked VMA.
 */
static void ma_mlock_if_fully_mapped(struct folio *folio, int nr_pages,
				     struct vm_area_struct *vma)
{
	if (folio_nr_pages(folio) != nr_pages)
		return;
	ma_mlock_vma_folio(folio, vma);
	if (vma->vm_flags & VM_LOCKED)
		ma_fix_event(MA_EV_RMAP_MLOCK, folio);
}

/* __folio_add_anon_rmap() */
static __always_inline void ma_add_anon_rmap(struct folio *folio,
					     struct page *page, int nr_pages,
					     struct vm_area_struct *vma,
					     rmap_t flags, bool pmd)
{
	int i, nr, nr_pmdmapped = 0;

	nr = ma_add_rmap(folio, page, nr_pages, pmd, &nr_pmdmapped);
	ma_mod_stat(folio, nr, nr_pmdmapped);

	if (flags & RMAP_EXCLUSIVE) {
		if (pmd) {
			SetPageAnonExclusive(page);
		} else {
			for (i = 0; i < nr_pages; i++)
				SetPageAnonExclusive(page + i);
		}
	}
	ma_mlock_if_fully_mapped(folio, nr_pages, vma);
}

void ma_folio_add_anon_rmap_ptes(struct folio *folio, struct page *page,
				 int nr_pages, struct vm_area_struct *vma,
				 unsigned long address, rmap_t flags)
{
	ma_add_anon_rmap(folio, page, nr_pages, vma, flags, false);
}

void ma_folio_add_anon_rmap_pmd(struct folio *folio, struct page *page,
				struct vm_area_struct *vma, unsigned long address,
				rmap_t flags)
{
	ma_add_anon_rmap(folio, page, HPAGE_PMD_NR, vma, flags, true);
}

/* __folio_add_file_rmap() */
static __always_inline void ma_add_file_rmap(struct folio *folio,
					     struct page *page, int nr_pages,
					     struct vm_area_struct *vma,
					     bool pmd)
{
	int nr, nr_pmdmapped = 0;

	nr = ma_add_rmap(folio, page, nr_pages, pmd, &nr_pmdmapped);
	ma_mod_stat(folio, nr, nr_pmdmapped);
	ma_mlock_if_fully_mapped(folio, nr_pages, vma);
}

void ma_folio_add_file_rmap_ptes(struct folio *folio, struct page *page,
				 int nr_pages, struct vm_area_struct *vma)
{
	ma_count_call(MA_CNT_FILE_RMAP_PTES);
	ma_add_file_rmap(folio, page, nr_pages, vma, false);
}

void ma_folio_add_file_rmap_pmd(struct folio *folio, struct page *page,
				struct vm_area_struct *vma)
{
	ma_count_call(MA_CNT_FILE_RMAP_PMD);
	ma_add_file_rmap(folio, page, HPAGE_PMD_NR, vma, true);
}
