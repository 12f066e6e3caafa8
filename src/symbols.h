/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MLOCK_AUDIT_SYMBOLS_H
#define _MLOCK_AUDIT_SYMBOLS_H

#include <linux/mm_types.h>
#include <linux/rmap.h>

int ma_symbols_init(void);

/* Unexported kernel data, resolved by ma_symbols_init(). */
extern unsigned long *ma_huge_zero_pfn;	/* mm/huge_memory.c */

/*
 * Unexported kernel functions that the live fixes call or hand to the
 * kernel. They are resolved at load; a fix whose functions are missing
 * reports itself unsupported and names the first one in ma_sym_missing.
 */
struct ma_kernel_syms {
	void (*mlock_folio)(struct folio *folio);		/* mm/mlock.c */
	bool (*page_vma_mapped_walk)(struct page_vma_mapped_walk *pvmw);
	void (*rmap_walk)(struct folio *folio, struct rmap_walk_control *rwc);
	void (*rmap_walk_locked)(struct folio *folio,
				 struct rmap_walk_control *rwc);
	struct anon_vma *(*folio_lock_anon_vma_read)(struct folio *folio,
						     struct rmap_walk_control *rwc);
	/* static in mm/rmap.c; their addresses are taken there too */
	bool (*folio_referenced_one)(struct folio *folio, struct vm_area_struct *vma,
				     unsigned long address, void *arg);
	bool (*invalid_folio_referenced_vma)(struct vm_area_struct *vma, void *arg);
	bool (*try_to_unmap_one)(struct folio *folio, struct vm_area_struct *vma,
				 unsigned long address, void *arg);
	/* mm/memory.c, for the fault path */
	vm_fault_t (*do_set_pmd)(struct vm_fault *vmf, struct page *page);
	void (*pmd_install)(struct mm_struct *mm, pmd_t *pmd, pgtable_t *pte);
	int (*__pte_alloc)(struct mm_struct *mm, pmd_t *pmd);
	void (*set_pte_range)(struct vm_fault *vmf, struct folio *folio,
			      struct page *page, unsigned int nr, unsigned long addr);
	void (*mm_trace_rss_stat)(struct mm_struct *mm, int member);
};

extern struct ma_kernel_syms ma_sym;
extern const char *ma_sym_missing;

#endif /* _MLOCK_AUDIT_SYMBOLS_H */
