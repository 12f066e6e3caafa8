/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the "mlock" fix needs of the kernel (COMPAT_MLOCK_FIX_FOLIO_RMAP:
 * 6.12 form; COMPAT_MLOCK_FIX_PAGE_RMAP: 6.1 form): unexported symbols
 * (src/symbols.h), mirrors of private mm/internal.h, mm/mlock.c and
 * mm/rmap.c definitions, which no headers package ships (checked against
 * BTF by mirrors.c), and shims for kernel differences only this fix meets.
 */
#ifndef _MLOCK_AUDIT_FIX_MLOCK_KERNEL_H
#define _MLOCK_AUDIT_FIX_MLOCK_KERNEL_H

#include <linux/huge_mm.h>
#include <linux/local_lock.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/rmap.h>
#include <linux/swap.h>

#include "mm_internal.h"
#include "symbols.h"

#ifdef MA_CARRY_MLOCK
#include <linux/pagevec.h>	/* renamed folio_batch.h in 7.3, which needs none */

/* mm/mlock.c (declared in mm/internal.h) */
void mlock_folio(struct folio *folio) MA_KSYM;
/* mm/mlock.c, static: the batch and its runner, 6.12 and 6.1 names */
struct ma_mlock_batch_pcpu;
#ifndef COMPAT_MLOCK_BATCH_PAGEVEC
DECLARE_PER_CPU(struct ma_mlock_batch_pcpu, mlock_fbatch) MA_KSYM;
void mlock_folio_batch(struct folio_batch *fbatch) MA_KSYM;
#else
DECLARE_PER_CPU(struct ma_mlock_batch_pcpu, mlock_pvec) MA_KSYM;
void mlock_pagevec(struct pagevec *pvec) MA_KSYM;
#endif
/* mm/swap.c, mm/memcontrol.c (declared in linux/swap.h, linux/memcontrol.h) */
extern atomic_t lru_disable_count MA_KSYM;
extern typeof(folio_lruvec_lock_irq) folio_lruvec_lock_irq MA_KSYM;
/* mm/page_vma_mapped.c, mm/rmap.c */
extern typeof(page_vma_mapped_walk) page_vma_mapped_walk MA_KSYM;
extern typeof(rmap_walk) rmap_walk MA_KSYM;
extern typeof(rmap_walk_locked) rmap_walk_locked MA_KSYM;
extern typeof(folio_lock_anon_vma_read) folio_lock_anon_vma_read MA_KSYM;
/* static in mm/rmap.c, which takes their addresses too */
bool folio_referenced_one(struct folio *folio, struct vm_area_struct *vma,
			  unsigned long address, void *arg) MA_KSYM;
bool invalid_folio_referenced_vma(struct vm_area_struct *vma, void *arg) MA_KSYM;
bool try_to_unmap_one(struct folio *folio, struct vm_area_struct *vma,
		      unsigned long address, void *arg) MA_KSYM;
#endif

#ifdef COMPAT_MLOCK_FIX_PAGE_RMAP
/* 6.1: mm/mlock.c (mm/internal.h) */
void munlock_page(struct page *page) MA_KSYM;
MA_KSYM void mlock_page_drain_local(void);
/* 6.1: mm/memcontrol.c, mm/huge_memory.c, mm/rmap.c, mm/swap.c, mm/memory.c */
extern typeof(lock_page_memcg) lock_page_memcg MA_KSYM;
extern typeof(unlock_page_memcg) unlock_page_memcg MA_KSYM;
extern typeof(deferred_split_huge_page) deferred_split_huge_page MA_KSYM;
extern typeof(page_add_file_rmap) page_add_file_rmap MA_KSYM;
extern typeof(page_add_new_anon_rmap) page_add_new_anon_rmap MA_KSYM;
extern typeof(lru_cache_add_inactive_or_unevictable)
	lru_cache_add_inactive_or_unevictable MA_KSYM;
extern typeof(split_huge_pmd_address) split_huge_pmd_address MA_KSYM;
extern typeof(__pmd_trans_huge_lock) __pmd_trans_huge_lock MA_KSYM;
/*
 * 6.1: mm/rmap.c; inline since v6.3 ("mm: convert
 * total_compound_mapcount() to folio_total_mapcount()")
 */
extern typeof(folio_mapcount) folio_mapcount MA_KSYM;
#endif

/* Called from more than one place: one wrapper each (src/symbols.h) */
#ifdef MA_CARRY_MLOCK
extern typeof(mlock_folio) ma_call_mlock_folio;
#define mlock_folio(...)		ma_call_mlock_folio(__VA_ARGS__)
extern typeof(rmap_walk) ma_call_rmap_walk;
#define rmap_walk(...)			ma_call_rmap_walk(__VA_ARGS__)
extern typeof(page_vma_mapped_walk) ma_call_page_vma_mapped_walk;
#define page_vma_mapped_walk(...)	ma_call_page_vma_mapped_walk(__VA_ARGS__)
extern typeof(folio_lruvec_lock_irq) ma_call_folio_lruvec_lock_irq;
#define folio_lruvec_lock_irq(...)	ma_call_folio_lruvec_lock_irq(__VA_ARGS__)
extern typeof(folio_lock_anon_vma_read) ma_call_folio_lock_anon_vma_read;
#define folio_lock_anon_vma_read(...)	ma_call_folio_lock_anon_vma_read(__VA_ARGS__)
#endif
#ifdef COMPAT_MLOCK_FIX_PAGE_RMAP
extern typeof(munlock_page) ma_call_munlock_page;
#define munlock_page(...)		ma_call_munlock_page(__VA_ARGS__)
extern typeof(unlock_page_memcg) ma_call_unlock_page_memcg;
#define unlock_page_memcg(...)		ma_call_unlock_page_memcg(__VA_ARGS__)
extern typeof(deferred_split_huge_page) ma_call_deferred_split_huge_page;
#define deferred_split_huge_page(...)	ma_call_deferred_split_huge_page(__VA_ARGS__)
#endif

/*
 * From "mm: folio_may_be_lru_cached() unless folio_test_large()" (v6.18,
 * also in 6.1.y and 6.12.y stable); without it, mlock_folio() runs its
 * batch at once for every large folio, which is what this says.
 */
#ifdef COMPAT_CANNOT_FOLIO_MAY_BE_LRU_CACHED
static inline bool folio_may_be_lru_cached(struct folio *folio)
{
	return !folio_test_large(folio);
}
#endif

/*
 * try_to_unmap_one() for VM_LOCKED VMAs: up to v6.6 the kernel splits a PMD
 * mapping before the walk ("mm/rmap: integrate PMD-mapped folio splitting
 * into pagewalk loop" puts it after the VM_LOCKED test).
 */
static inline void compat_unmap_locked_split(struct vm_area_struct *vma,
					     unsigned long address,
					     enum ttu_flags flags,
					     struct folio *folio)
{
#ifdef COMPAT_MLOCK_FIX_PAGE_RMAP
	if (flags & TTU_SPLIT_HUGE_PMD)
		split_huge_pmd_address(vma, address, false, folio);
#endif
}

/*
 * munlock a folio in full, whatever its mlock_count. 6.1's munlock_page()
 * queues to a per-CPU batch, drained at once so the next round sees the
 * count go down. Only the 6.1 undo needs it.
 */
static inline void compat_munlock_folio_all(struct folio *folio)
{
#ifdef COMPAT_MLOCK_FIX_PAGE_RMAP
	unsigned int i;

	for (i = 0; i < 1024 && folio_test_mlocked(folio); i++) {
		munlock_page(&folio->page);
		mlock_page_drain_local();
	}
#endif
}

/*
 * The VMA filter folio_referenced() gives its rmap walk: always from v6.3
 * (8788f6781486 "mm: support POSIX_FADV_NOREUSE"), only for memcg reclaim
 * up to v6.2.
 */
#ifdef MA_CARRY_MLOCK
typedef bool (*compat_invalid_vma_t)(struct vm_area_struct *vma, void *arg);

static inline compat_invalid_vma_t
compat_referenced_invalid_vma(struct mem_cgroup *memcg)
{
#ifdef COMPAT_CANNOT_REFERENCED_ALWAYS_FILTERS
	if (!memcg)
		return NULL;
#endif
	return invalid_folio_referenced_vma;
}
#endif

#ifdef MA_CARRY_MLOCK
/* mm/rmap.c: the argument of folio_referenced_one(), 6.1 to 7.3 alike. */
struct folio_referenced_arg {
	int mapcount;
	int referenced;
	unsigned long vm_flags;
	struct mem_cgroup *memcg;
};

/*
 * DEFINE_FOLIO_VMA_WALK() for a non-hugetlb folio: 6.1's folio_pgoff()
 * calls the unexported hugetlb_basepage_index().
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
 * mm/mlock.c: mlock_folio()'s per-CPU batch (6.12.118 mlock.c:31 struct
 * mlock_fbatch; 6.1.192 mlock.c:31 struct mlock_pvec:
 * COMPAT_MLOCK_BATCH_PAGEVEC). The low bits of an entry say what to do
 * (LRU_FOLIO, 6.1's LRU_PAGE, 0x1: mlock a folio on the LRU).
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

/*
 * True when this entry completes a mapping of the whole folio in one page
 * table, so the walk holds the lock of every entry that maps it: the rule
 * for mlocking a large folio. Upstream gets the page-table half from
 * PVMW_PGTABLE_CROSSED (seed 000 patch 1/6, mainline 2db579838296); it is
 * computed here so page_vma_mapped_walk() need not be patched.
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
 * Is @folio mapped in full by this one page table, within the VMA? Called
 * under the page-table lock. The entries after @idx are looked at first:
 * while a folio is faulted in page by page they are the empty ones.
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
#endif

#endif /* _MLOCK_AUDIT_FIX_MLOCK_KERNEL_H */
