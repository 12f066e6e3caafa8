/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the "scanresume" fix needs of the kernel (COMPAT_SCANRESUME_FIX_MTHP:
 * 7.3 form; _ORDERS: 6.12 form; _VMA_CHECK: 6.1 form): khugepaged's
 * thread function, state and helpers (src/symbols.h), mirrors of
 * mm/khugepaged.c and mm/mm_slot.h structs (checked by mirrors.c), and
 * shims for kernel differences only this fix meets.
 */
#ifndef _MLOCK_AUDIT_FIX_SCANRESUME_KERNEL_H
#define _MLOCK_AUDIT_FIX_SCANRESUME_KERNEL_H

#include <linux/huge_mm.h>
#include <linux/khugepaged.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/swap.h>

#include "khugepaged_internal.h"
#include "symbols.h"

struct klp_patch;
struct tracepoint;

/* mm/mm_slot.h: struct mm_slot, the same from 6.1 to 7.3. */
struct ma_mm_slot {
	struct hlist_node hash;
	struct list_head mm_node;
	struct mm_struct *mm;
};

/*
 * mm/khugepaged.c: struct khugepaged_mm_slot. 6.12 (khugepaged.c:112-114)
 * has only the mm_slot; 6.1 (:112-118) also queues PTE-mapped THPs
 * (MAX_PTE_MAPPED_THP, :94; gone in v6.5, "mm/khugepaged:
 * collapse_pte_mapped_thp() with mmap_read_lock()"). 7.3 uses the bare
 * mm_slot, laid out as the 6.12 form.
 */
struct ma_khugepaged_mm_slot {
	struct ma_mm_slot slot;
#ifdef COMPAT_SCANRESUME_FIX_VMA_CHECK
	int nr_pte_mapped_thp;
	unsigned long pte_mapped_thp[8];
#endif
};

/* mm/khugepaged.c: struct khugepaged_scan (6.1 :128-136, 6.12 :124-132). */
struct ma_khugepaged_scan {
	struct list_head mm_head;
	struct ma_khugepaged_mm_slot *mm_slot;
	unsigned long address;
};

#ifdef MA_CARRY_SCANRESUME
/*
 * mm/khugepaged.c, mm/huge_memory.c, mm/swap.c and
 * kernel/livepatch/transition.c
 */
int khugepaged(void *none) MA_KSYM;
void collect_mm_slot(struct ma_khugepaged_mm_slot *mm_slot) MA_KSYM;
extern typeof(lru_add_drain_all) lru_add_drain_all MA_KSYM;

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

extern struct ma_khugepaged_scan khugepaged_scan MA_KSYM;
extern spinlock_t khugepaged_mm_lock MA_KSYM;
extern unsigned int khugepaged_pages_to_scan MA_KSYM;
extern unsigned int khugepaged_full_scans MA_KSYM;
extern unsigned int khugepaged_scan_sleep_millisecs MA_KSYM;
extern unsigned int khugepaged_alloc_sleep_millisecs MA_KSYM;
extern unsigned long khugepaged_sleep_expire MA_KSYM;
extern wait_queue_head_t khugepaged_wait MA_KSYM;
extern struct task_struct *khugepaged_thread MA_KSYM;
extern struct mutex khugepaged_mutex MA_KSYM;
extern struct collapse_control khugepaged_collapse_control MA_KSYM;
extern unsigned long transparent_hugepage_flags MA_KSYM;
extern struct klp_patch *klp_transition_patch MA_KSYM;
extern int klp_target_state MA_KSYM;
#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_MTHP)
extern unsigned long huge_anon_orders_always MA_KSYM;
extern unsigned long huge_anon_orders_madvise MA_KSYM;
extern unsigned long huge_anon_orders_inherit MA_KSYM;
#endif
#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_VMA_CHECK)
/* 7.3 counts collapsed ranges in collapse_single_pmd() */
extern unsigned int khugepaged_pages_collapsed MA_KSYM;
#endif
#ifdef COMPAT_SCANRESUME_FIX_MTHP
extern struct tracepoint __tracepoint_mm_khugepaged_scan MA_KSYM;
#endif

extern const struct ma_khugepaged_syms ma_kh;
#endif

#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_MTHP)
/* mm/huge_memory.c */
extern typeof(__thp_vma_allowable_orders) __thp_vma_allowable_orders MA_KSYM;
#endif

#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_VMA_CHECK)
/* static in mm/khugepaged.c (6.1, 6.12); collapse_pte_mapped_thp() is not */
int hpage_collapse_scan_pmd(struct mm_struct *mm, struct vm_area_struct *vma,
			    unsigned long address, bool *mmap_locked,
			    struct collapse_control *cc) MA_KSYM;
int hpage_collapse_scan_file(struct mm_struct *mm, unsigned long addr,
			     struct file *file, pgoff_t start,
			     struct collapse_control *cc) MA_KSYM;
extern typeof(collapse_pte_mapped_thp) collapse_pte_mapped_thp MA_KSYM;
#endif

#ifdef COMPAT_SCANRESUME_FIX_ORDERS
/* static in mm/khugepaged.c (6.12) */
MA_KSYM bool hugepage_pmd_enabled(void);
#endif

#ifdef COMPAT_SCANRESUME_FIX_MTHP
/* static in mm/khugepaged.c (7.3) */
MA_KSYM bool hugepage_enabled(void);
int collapse_single_pmd(unsigned long addr, struct vm_area_struct *vma,
			bool *lock_dropped, struct collapse_control *cc) MA_KSYM;
#endif

#ifdef COMPAT_SCANRESUME_FIX_VMA_CHECK
/* 6.1: mm/huge_memory.c, and static in mm/khugepaged.c */
extern typeof(hugepage_vma_check) hugepage_vma_check MA_KSYM;
bool khugepaged_add_pte_mapped_thp(struct mm_struct *mm, unsigned long addr) MA_KSYM;
#endif

#ifdef MA_CARRY_SCANRESUME
/* through one wrapper (src/symbols.h) */
extern typeof(collect_mm_slot) ma_call_collect_mm_slot;
#define collect_mm_slot(...)		ma_call_collect_mm_slot(__VA_ARGS__)
#endif

/*
 * How khugepaged judges a VMA, an mm and the THP settings, and counts its
 * progress; each form matches its Debian kernel's mm/khugepaged.c. 7.3's
 * collapse_single_pmd() counts each PTE itself ("mm: khugepaged: refine
 * scan progress number"). thp_vma_allowable_orders() is rewritten because
 * the settings it reads are not exported.
 */
#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_MTHP)
#ifdef COMPAT_SCANRESUME_FIX_MTHP
#define COMPAT_KHUGEPAGED_TVA		TVA_KHUGEPAGED
#define COMPAT_KHUGEPAGED_ANON_ORDERS	THP_ORDERS_ALL_ANON
#define COMPAT_KHUGEPAGED_RANGE_PAGES	0
#define COMPAT_KHUGEPAGED_RELEASE_DISABLED 1
#else
#define COMPAT_KHUGEPAGED_TVA		TVA_ENFORCE_SYSFS
#define COMPAT_KHUGEPAGED_ANON_ORDERS	BIT(PMD_ORDER)
#define COMPAT_KHUGEPAGED_RANGE_PAGES	HPAGE_PMD_NR
#define COMPAT_KHUGEPAGED_RELEASE_DISABLED 0
#endif

static inline bool compat_khugepaged_vma_suitable(struct vm_area_struct *vma)
{
	unsigned long flags = vma->vm_flags, thp = READ_ONCE(*ma_kh.thp_flags);
	unsigned long orders = BIT(PMD_ORDER);

	if (vma_is_anonymous(vma)) {
		unsigned long mask = READ_ONCE(*ma_kh.anon_orders_always);
		bool global = thp & (BIT(TRANSPARENT_HUGEPAGE_FLAG) |
				     BIT(TRANSPARENT_HUGEPAGE_REQ_MADV_FLAG));

		if (flags & VM_HUGEPAGE)
			mask |= READ_ONCE(*ma_kh.anon_orders_madvise);
		if ((thp & BIT(TRANSPARENT_HUGEPAGE_FLAG)) ||
		    ((flags & VM_HUGEPAGE) && global))
			mask |= READ_ONCE(*ma_kh.anon_orders_inherit);
		orders = COMPAT_KHUGEPAGED_ANON_ORDERS & mask;
		if (!orders)
			return false;
	}
	return __thp_vma_allowable_orders(vma, flags, COMPAT_KHUGEPAGED_TVA,
						 orders);
}

static inline bool compat_khugepaged_try_to_freeze(void)
{
	return false;
}
#endif

#ifdef COMPAT_SCANRESUME_FIX_MTHP
static inline bool compat_khugepaged_enabled(void)
{
	return hugepage_enabled();
}

static inline bool compat_khugepaged_test_exit_or_disable(struct mm_struct *mm)
{
	return !atomic_read(&mm->mm_users) ||
	       mm_flags_test(MMF_DISABLE_THP_COMPLETELY, mm);
}

#define compat_khugepaged_progress(cc, local)	((void)(local), &(cc)->progress)
#elif defined(COMPAT_SCANRESUME_FIX_ORDERS)
static inline bool compat_khugepaged_enabled(void)
{
	return hugepage_pmd_enabled();
}

static inline bool compat_khugepaged_test_exit_or_disable(struct mm_struct *mm)
{
	return !atomic_read(&mm->mm_users) || test_bit(MMF_DISABLE_THP, &mm->flags);
}
#elif defined(COMPAT_SCANRESUME_FIX_VMA_CHECK)
#include <linux/freezer.h>
#define COMPAT_KHUGEPAGED_RANGE_PAGES	HPAGE_PMD_NR
#define COMPAT_KHUGEPAGED_RELEASE_DISABLED 0

static inline bool compat_khugepaged_vma_suitable(struct vm_area_struct *vma)
{
	return hugepage_vma_check(vma, vma->vm_flags, false, false, true);
}

static inline bool compat_khugepaged_enabled(void)
{
	return READ_ONCE(*ma_kh.thp_flags) & (BIT(TRANSPARENT_HUGEPAGE_FLAG) |
					      BIT(TRANSPARENT_HUGEPAGE_REQ_MADV_FLAG));
}

static inline bool compat_khugepaged_test_exit_or_disable(struct mm_struct *mm)
{
	return !atomic_read(&mm->mm_users);
}

static inline bool compat_khugepaged_try_to_freeze(void)
{
	return try_to_freeze();
}
#endif

#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_VMA_CHECK)
#define compat_khugepaged_progress(cc, local)	((void)(cc), (local))
#endif

#endif /* _MLOCK_AUDIT_FIX_SCANRESUME_KERNEL_H */
