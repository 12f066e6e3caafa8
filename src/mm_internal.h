/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the live fixes need from the kernel's private mm/internal.h and
 * mm/rmap.c, which no headers package ships. Each definition is written
 * to match the kernel it is built for (the same on every supported
 * kernel unless compat.h says otherwise) and names its origin.
 */
#ifndef _MLOCK_AUDIT_MM_INTERNAL_H
#define _MLOCK_AUDIT_MM_INTERNAL_H

#include <linux/local_lock.h>
#include <linux/mm.h>
#include <linux/rmap.h>

#include "symbols.h"

/* mm/rmap.c: the argument of folio_referenced_one(), 6.1 to 7.3 alike. */
struct folio_referenced_arg {
	int mapcount;
	int referenced;
	unsigned long vm_flags;
	struct mem_cgroup *memcg;
};

/*
 * DEFINE_FOLIO_VMA_WALK() for a folio that is not hugetlb, whose pgoff is
 * then folio->index (6.1's folio_pgoff() would call the unexported
 * hugetlb_basepage_index() for hugetlb folios).
 */
static inline struct page_vma_mapped_walk
ma_folio_vma_walk(struct folio *folio, struct vm_area_struct *vma,
		  unsigned long address)
{
	return (struct page_vma_mapped_walk) {
		.pfn = folio_pfn(folio),
		.nr_pages = folio_nr_pages(folio),
		.pgoff = folio->index,
		.vma = vma,
		.address = address,
	};
}

/* mm/internal.h: folio_raw_mapping(). */
static inline void *ma_folio_raw_mapping(const struct folio *folio)
{
	unsigned long mapping = (unsigned long)folio->mapping;

	return (void *)(mapping & ~PAGE_MAPPING_FLAGS);
}

#ifdef MA_CARRY_MLOCK
/*
 * mm/internal.h: mlock_vma_folio() as of 6.8 (two arguments; the caller
 * decides whether a large folio may be mlocked). Called under the page
 * table lock of the entries that map @folio.
 */
static inline void ma_mlock_vma_folio(struct folio *folio,
				      struct vm_area_struct *vma)
{
	if (unlikely((vma->vm_flags & (VM_LOCKED | VM_SPECIAL)) == VM_LOCKED))
		mlock_folio(folio);
}

/*
 * mm/mlock.c: mlock_folio()'s per-CPU batch, a local lock and the batch
 * (6.12.118 mlock.c:31 struct mlock_fbatch, a folio_batch of folio
 * pointers; 6.1.192 mlock.c:31 struct mlock_pvec, a pagevec of page
 * pointers: COMPAT_MLOCK_BATCH_PAGEVEC), whose entries carry in their low
 * bits what to do (LRU_FOLIO, 6.1's LRU_PAGE, 0x1: mlock a folio on the
 * LRU).
 */
#define MA_MLOCK_LRU	0x1UL
#ifndef COMPAT_MLOCK_BATCH_PAGEVEC
#define ma_mlock_batch		folio_batch
#define MA_MLOCK_BATCH		mlock_fbatch
#define MA_MLOCK_BATCH_RUN	mlock_folio_batch
static inline unsigned int ma_mlock_batch_add(struct folio_batch *batch,
					      struct folio *folio)
{
	return folio_batch_add(batch, (struct folio *)((unsigned long)folio + MA_MLOCK_LRU));
}
#else
#define ma_mlock_batch		pagevec
#define MA_MLOCK_BATCH		mlock_pvec
#define MA_MLOCK_BATCH_RUN	mlock_pagevec
static inline unsigned int ma_mlock_batch_add(struct pagevec *batch,
					      struct folio *folio)
{
	return pagevec_add(batch, (struct page *)((unsigned long)&folio->page + MA_MLOCK_LRU));
}
#endif
struct ma_mlock_batch_pcpu {
	local_lock_t lock;
	struct ma_mlock_batch batch;
};
#endif

/*
 * ma_pvmw_whole() - one more entry of a page_vma_mapped_walk() over a folio
 * in one VMA: @ptes counts the entries so far, @first is the address of
 * the first. True when this entry completes a mapping of the whole folio,
 * all of it in one page table, so that the walk holds the lock of every
 * entry that maps it: the rule for mlocking a large folio. Upstream gets
 * the page-table half from PVMW_PGTABLE_CROSSED (seed 000 patch 1/6,
 * mainline 2db579838296); it is computed here instead of patching
 * page_vma_mapped_walk(). A PMD entry maps the whole folio.
 */
static inline bool ma_pvmw_whole(const struct page_vma_mapped_walk *pvmw,
				 unsigned long *first, unsigned long *ptes)
{
	if (!(*ptes)++)
		*first = pvmw->address;
	if (pvmw->pte && *ptes != pvmw->nr_pages)
		return false;
	return (pvmw->address & PMD_MASK) == (*first & PMD_MASK);
}

/*
 * include/linux/mm.h: add_mm_counter(), whose rss_stat trace hook
 * mm_trace_rss_stat() is not exported.
 */
static inline void ma_add_mm_counter(struct mm_struct *mm, int member, long value)
{
	compat_add_mm_counter(mm, member, value);
}

/*
 * Is @folio, whose page @idx is mapped at @addr by *@pte, mapped in full by
 * this one page table: every page present at its place, within the VMA?
 * With @skip_idx the entry of page @idx is not looked at (its caller has
 * just cleared it). Called under the page-table lock. The entries after
 * @idx are looked at first: while a folio is faulted in page by page in
 * ascending order they are the empty ones.
 */
static inline bool ma_folio_pte_full(struct vm_area_struct *vma,
				     struct folio *folio, pte_t *pte,
				     unsigned long addr, long idx, bool skip_idx)
{
	long i, nr = folio_nr_pages(folio);
	unsigned long start = addr - idx * PAGE_SIZE, pfn = folio_pfn(folio);
	pte_t entry;

	if (start < vma->vm_start || start + nr * PAGE_SIZE > vma->vm_end ||
	    (start & PMD_MASK) != ((start + nr * PAGE_SIZE - 1) & PMD_MASK))
		return false;
	pte -= idx;
	for (i = idx + 1; i < nr; i++) {
		entry = ptep_get(pte + i);
		if (!pte_present(entry) || pte_pfn(entry) != pfn + i)
			return false;
	}
	for (i = skip_idx ? idx - 1 : idx; i >= 0; i--) {
		entry = ptep_get(pte + i);
		if (!pte_present(entry) || pte_pfn(entry) != pfn + i)
			return false;
	}
	return true;
}

#endif /* _MLOCK_AUDIT_MM_INTERNAL_H */
