/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MLOCK_AUDIT_SYMBOLS_H
#define _MLOCK_AUDIT_SYMBOLS_H

#include <linux/mm_types.h>
#include <linux/rmap.h>

struct collapse_control;
struct klp_patch;
struct ma_khugepaged_mm_slot;
struct ma_khugepaged_scan;
struct tracepoint;

int ma_symbols_init(void);

/* Unexported kernel data, resolved by ma_symbols_init(). */
extern unsigned long *ma_huge_zero_pfn;	/* mm/huge_memory.c */
/* mm/khugepaged.c, for the "lazyfree" fix */
extern unsigned int *ma_khugepaged_max_ptes_none;
extern unsigned int *ma_khugepaged_max_ptes_swap;
extern unsigned int *ma_khugepaged_max_ptes_shared;
extern struct tracepoint *ma_tp_mm_khugepaged_scan_pmd;

/*
 * mm/khugepaged.c, mm/huge_memory.c and kernel/livepatch/transition.c,
 * for the "scanresume" fix: khugepaged's state and the livepatch
 * transition it takes part in.
 */
struct ma_khugepaged_syms {
	struct ma_khugepaged_scan *scan;		/* khugepaged_scan */
	spinlock_t *mm_lock;				/* khugepaged_mm_lock */
	unsigned int *pages_to_scan, *full_scans;
	unsigned int *pages_collapsed;			/* before 7.3 */
	unsigned int *scan_sleep_millisecs, *alloc_sleep_millisecs;
	unsigned long *sleep_expire;
	wait_queue_head_t *wait;			/* khugepaged_wait */
	struct task_struct **thread;			/* khugepaged_thread */
	struct mutex *mutex;				/* khugepaged_mutex */
	struct collapse_control *collapse_control;
	unsigned long *thp_flags;			/* transparent_hugepage_flags */
	unsigned long *anon_orders_always, *anon_orders_madvise;
	unsigned long *anon_orders_inherit;		/* 6.12 and 7.3 forms */
	struct klp_patch **klp_transition_patch;
	int *klp_target_state;
	struct tracepoint *tp_scan;			/* 7.3 form only */
};

extern struct ma_khugepaged_syms ma_kh;

/*
 * Unexported kernel functions that the live fixes call or hand to the
 * kernel. They are resolved at load; a fix whose functions are missing
 * reports itself unsupported and names the first one (ma_sym_missing()).
 * Their types are those of the newest kernel; compat.h adapts the few
 * calls whose form changed.
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
	void *mm_trace_rss_stat;			/* see ma_add_mm_counter() */
	/* 6.1 only (page-based rmap) */
	void (*munlock_page)(struct page *page);
	void (*lock_page_memcg)(struct page *page);
	void (*unlock_page_memcg)(struct page *page);
	void (*deferred_split_huge_page)(struct page *page);
	void (*page_add_file_rmap)(struct page *page, struct vm_area_struct *vma,
				   bool compound);
	void (*page_add_new_anon_rmap)(struct page *page, struct vm_area_struct *vma,
				       unsigned long address);
	void (*lru_cache_add_inactive_or_unevictable)(struct page *page,
						      struct vm_area_struct *vma);
	spinlock_t *(*__pmd_trans_huge_lock)(pmd_t *pmd, struct vm_area_struct *vma);
	int (*folio_mapcount)(struct folio *folio);
	struct page *(*vm_normal_page)(struct vm_area_struct *vma,
				       unsigned long addr, pte_t pte);
	void (*split_huge_pmd_address)(struct vm_area_struct *vma,
				       unsigned long address, bool freeze,
				       struct folio *folio);
	/* mm/khugepaged.c (static) and mm/mmu_notifier.c, for "lazyfree" */
	int (*find_pmd_or_thp_or_none)(struct mm_struct *mm, unsigned long address,
				       pmd_t **pmd);
	bool (*hpage_collapse_scan_abort)(int nid, struct collapse_control *cc);
	bool (*is_refcount_suitable)(struct folio *folio);
	int (*collapse_huge_page)(struct mm_struct *mm, unsigned long address,
				  int referenced, int unmapped,
				  struct collapse_control *cc);
	int (*__mmu_notifier_test_young)(struct mm_struct *mm,
					 unsigned long address);
	/* mm/khugepaged.c, mm/huge_memory.c, mm/swap.c, for "scanresume" */
	int (*khugepaged)(void *none);
	void (*collect_mm_slot)(struct ma_khugepaged_mm_slot *mm_slot);
	int (*hpage_collapse_scan_pmd)(struct mm_struct *mm,
				       struct vm_area_struct *vma,
				       unsigned long address, bool *mmap_locked,
				       struct collapse_control *cc);
	int (*hpage_collapse_scan_file)(struct mm_struct *mm, unsigned long addr,
					struct file *file, pgoff_t start,
					struct collapse_control *cc);
	int (*collapse_pte_mapped_thp)(struct mm_struct *mm, unsigned long addr,
				       bool install_pmd);
	void (*lru_add_drain_all)(void);
	/* the 6.12 and 7.3 forms */
	unsigned long (*__thp_vma_allowable_orders)(struct vm_area_struct *vma,
						    unsigned long vm_flags,
						    COMPAT_TVA_T type,
						    unsigned long orders);
	bool (*hugepage_pmd_enabled)(void);
	/* the 7.3 form */
	bool (*hugepage_enabled)(void);
	int (*collapse_single_pmd)(unsigned long addr, struct vm_area_struct *vma,
				   bool *lock_dropped, struct collapse_control *cc);
	/* the 6.1 form */
	bool (*hugepage_vma_check)(struct vm_area_struct *vma,
				   unsigned long vm_flags, bool smaps,
				   bool in_pf, bool enforce_sysfs);
	bool (*khugepaged_add_pte_mapped_thp)(struct mm_struct *mm,
					      unsigned long addr);
};

extern struct ma_kernel_syms ma_sym;
const char *ma_sym_missing(const char *fix);

#endif /* _MLOCK_AUDIT_SYMBOLS_H */
