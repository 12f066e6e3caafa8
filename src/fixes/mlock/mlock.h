/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "mlock" fix: its replacement functions (lp_*.c) and what they share
 * with its registration (fix.c).
 * Included by this directory's files only.
 */
#ifndef _MLOCK_AUDIT_FIX_MLOCK_H
#define _MLOCK_AUDIT_FIX_MLOCK_H

#include "fixes.h"
#include "layout.h"

#include "kernel.h"

void ma_folio_add_anon_rmap_ptes(struct folio *folio, struct page *page,
				 int nr_pages, struct vm_area_struct *vma,
				 unsigned long address, rmap_t flags);
void ma_folio_add_anon_rmap_pmd(struct folio *folio, struct page *page,
				struct vm_area_struct *vma, unsigned long address,
				rmap_t flags);
void ma_folio_add_file_rmap_ptes(struct folio *folio, struct page *page,
				 int nr_pages, struct vm_area_struct *vma);
void ma_folio_add_file_rmap_pmd(struct folio *folio, struct page *page,
				struct vm_area_struct *vma);
int ma_folio_referenced(struct folio *folio, int is_locked,
			struct mem_cgroup *memcg, unsigned long *vm_flags);
void ma_try_to_unmap(struct folio *folio, enum ttu_flags flags);
void ma_mlock_folio(struct folio *folio);
/* Where the fix is not carried no repair starts: the stub never runs. */
#ifdef MA_CARRY_MLOCK
unsigned long ma_mlock_repair_folio(struct folio *folio);
extern bool ma_repair_stop;	/* set when the repair must end */
#else
static inline unsigned long ma_mlock_repair_folio(struct folio *folio)
{
	return 0;
}
#endif
extern atomic_long_t ma_mlock_count_resets;	/* stale counts restarted */
extern atomic_long_t ma_mlock_count_reset_misses;	/* restarts given up */

/* 6.1 only: elsewhere the stock kernel munlocks what the fix mlocked. */
#ifdef COMPAT_MLOCK_FIX_PAGE_RMAP
unsigned long ma_mlock_sweep(const bool *stop, bool *busy_left);
#else
static inline unsigned long ma_mlock_sweep(const bool *stop, bool *busy_left)
{
	*busy_left = false;
	return 0;
}
#endif

/* ... on 6.1 (page-based rmap) */
void ma_do_set_pte(struct vm_fault *vmf, struct page *page, unsigned long addr);
void ma_page_remove_rmap(struct page *page, struct vm_area_struct *vma,
			 bool compound);
struct mm_walk;
int ma_mlock_pte_range(pmd_t *pmd, unsigned long addr, unsigned long end,
		       struct mm_walk *walk);

/*
 * Not while the fix is being disabled on 6.1, whose stock code never
 * munlocks a PTE-mapped large folio (fix.c).
 */
extern bool ma_mlock_large_off;
static inline bool ma_mlock_large_allowed(void)
{
	return !READ_ONCE(ma_mlock_large_off);
}

/* What the fix relies on in the kernel (mirrors.c), for its guard */
extern const struct ma_layout ma_mlock_layout;

#endif /* _MLOCK_AUDIT_FIX_MLOCK_H */
