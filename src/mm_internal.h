/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the live fixes need from the kernel's private mm/internal.h and
 * mm/rmap.c, which no headers package ships. Each definition is written
 * to match the kernel it is built for (the same on every supported
 * kernel unless compat.h says otherwise) and names its origin.
 */
#ifndef _MLOCK_AUDIT_MM_INTERNAL_H
#define _MLOCK_AUDIT_MM_INTERNAL_H

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
		ma_sym.mlock_folio(folio);
}

/*
 * The result PVMW_PGTABLE_CROSSED gives upstream (seed 000 patch 1/6,
 * mainline 2db579838296): has this page_vma_mapped_walk() left the page
 * table where it found the first mapping of the folio, at @first? The walk
 * then holds the lock of only one of the tables, so the folio must not be
 * mlocked. Computed here instead of patching page_vma_mapped_walk().
 */
static inline bool ma_pvmw_crossed(const struct page_vma_mapped_walk *pvmw,
				   unsigned long first)
{
	return (pvmw->address & PMD_MASK) != (first & PMD_MASK);
}

/*
 * include/linux/mm.h: add_mm_counter(), whose rss_stat trace hook
 * mm_trace_rss_stat() is not exported.
 */
static inline void ma_add_mm_counter(struct mm_struct *mm, int member, long value)
{
	percpu_counter_add(&mm->rss_stat[member], value);
	ma_sym.mm_trace_rss_stat(mm, member);
}

#endif /* _MLOCK_AUDIT_MM_INTERNAL_H */
