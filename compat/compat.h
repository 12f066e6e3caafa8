/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shims for the differences between the kernels mlock_audit
 * supports, decided by the header probes in compat/Kbuild.include. Which
 * form of a live fix a kernel gets is declared in that fix's
 * src/fixes/FIX/fix.mk; the shims below that only one fix's form needs
 * are keyed by that form's define (COMPAT_MLOCK_FIX_PAGE_RMAP, ...) or by
 * MA_CARRY_FIX. This header is force-included into every translation
 * unit; no source includes it.
 *
 * Supported: x86_64 Debian 6.1 (bookworm), 6.12 (trixie), 7.3
 * (trixie-backports). Shims keep the upstream name and cite the upstream
 * commit that made them necessary.
 */
#ifndef _MLOCK_AUDIT_COMPAT_H
#define _MLOCK_AUDIT_COMPAT_H

#ifndef CONFIG_X86_64
#error "mlock_audit supports x86_64 only"
#endif

/*
 * Kernel options the module cannot work without. MLOCK_AUDIT_MISSING_*
 * (Kbuild's test-only MLOCK_AUDIT_SIMULATE_MISSING) pretends one is unset.
 */
#if !defined(CONFIG_DYNAMIC_FTRACE) || defined(MLOCK_AUDIT_MISSING_DYNAMIC_FTRACE)
#error "mlock_audit needs CONFIG_DYNAMIC_FTRACE: its observation hooks are ftrace callbacks"
#endif

#if !defined(CONFIG_DEBUG_FS) || defined(MLOCK_AUDIT_MISSING_DEBUG_FS)
#error "mlock_audit needs CONFIG_DEBUG_FS: it reports through debugfs"
#endif

#if !defined(CONFIG_LIVEPATCH) || defined(MLOCK_AUDIT_MISSING_LIVEPATCH)
#error "mlock_audit needs CONFIG_LIVEPATCH: it carries its fixes as livepatches"
#endif

/*
 * The livepatch core resolves the module's references to unexported
 * kernel variables (huge_zero_pfn, ...) through kallsyms, which lists
 * variables only with CONFIG_KALLSYMS_ALL: without it the load fails.
 */
#if !defined(CONFIG_KALLSYMS_ALL) || defined(MLOCK_AUDIT_MISSING_KALLSYMS_ALL)
#error "mlock_audit needs CONFIG_KALLSYMS_ALL: it finds kernel variables through kallsyms"
#endif

/* The oldest supported kernel (6.1) is enforced by dkms.conf. */

#include <linux/mm.h>
#include <linux/pgtable.h>

/* pmdp_get() came after 6.1; there a PMD is read with READ_ONCE(). */
#ifdef COMPAT_CANNOT_PMDP_GET
static inline pmd_t pmdp_get(pmd_t *pmdp)
{
	return READ_ONCE(*pmdp);
}
#endif

/* d927752f287f ("livepatch: Rename KLP_* to KLP_TRANSITION_*") */
#ifdef COMPAT_CANNOT_KLP_TRANSITION
#define KLP_TRANSITION_UNPATCHED	KLP_UNPATCHED
#endif

/*
 * folio_may_be_lru_cached() came with "mm: folio_may_be_lru_cached()
 * unless folio_test_large()" (Hugh Dickins, v6.18; in the 6.1.y and
 * 6.12.y stable series since autumn 2025). Before it, mlock_folio() ran
 * its batch at once for every large folio, which is what it says.
 */
#ifdef COMPAT_CANNOT_FOLIO_MAY_BE_LRU_CACHED
static inline bool folio_may_be_lru_cached(struct folio *folio)
{
	return !folio_test_large(folio);
}
#endif

/*
 * ma_pte_offset_map_lock(): pte_offset_map_lock() with its newest
 * semantics (may return NULL when the PMD changed under us). Since v6.5
 * ("mm/pgtable: allow pte_offset_map[_lock]() to fail") the work is done
 * out of line by an unexported function, called directly through a
 * livepatch relocation (src/symbols.h declares it); on 6.1 the inline
 * macro is used and cannot fail (its caller has checked the PMD, and
 * mmap_lock keeps the table).
 */
#include "symbols.h"

static inline pte_t *ma_pte_offset_map_lock(struct mm_struct *mm, pmd_t *pmd,
					    unsigned long addr, spinlock_t **ptlp)
{
#ifdef COMPAT_PTE_OFFSET_MAP_LOCK_SYM
	return COMPAT_PTE_OFFSET_MAP_LOCK_SYM(mm, pmd, addr, ptlp);
#else
	return pte_offset_map_lock(mm, pmd, addr, ptlp);
#endif
}

/* Every fix, on a kernel without THP (Debian's rt flavour; Kbuild.include). */
#define COMPAT_NO_THP_REASON \
	"not needed: the kernel is built without CONFIG_TRANSPARENT_HUGEPAGE, so it has no large folios and no khugepaged"

/*
 * How __thp_vma_allowable_orders() is told who asks: TVA_* flags (v6.8,
 * "mm: thp: introduce multi-size THP sysfs interface") that became an enum
 * tva_type in v6.18.
 */
#include <linux/huge_mm.h>
#ifdef COMPAT_SCANRESUME_FIX_MTHP
#define COMPAT_TVA_T	enum tva_type
#else
#define COMPAT_TVA_T	unsigned long
#endif

/* VM_DROPPABLE: since v6.11 ("mm: add MAP_DROPPABLE ..."); none before. */
#ifdef COMPAT_CANNOT_VM_DROPPABLE
#define VM_DROPPABLE VM_NONE
#endif

#ifdef COMPAT_CANNOT_FOLIO_TEST_LAZYFREE
/* include/linux/page-flags.h of v7.2 ("mm: add folio_test_lazyfree helper") */
static __always_inline bool folio_test_lazyfree(struct folio *folio)
{
	return folio_test_anon(folio) && !folio_test_swapbacked(folio);
}
#endif

/*
 * add_mm_counter() with its unexported rss_stat trace hook: mm's RSS
 * counters became percpu_counters and the hook lost its count argument in
 * v6.2 (f1a7941243c1 "mm: convert mm's rss stats into percpu_counter").
 */
static inline void compat_add_mm_counter(struct mm_struct *mm, int member,
					 long value)
{
#ifdef COMPAT_CANNOT_PERCPU_RSS_STAT
	long count = atomic_long_add_return(value, &mm->rss_stat.count[member]);

	mm_trace_rss_stat(mm, member, count);
#else
	percpu_counter_add(&mm->rss_stat[member], value);
	mm_trace_rss_stat(mm, member);
#endif
}

/*
 * The mlock fix's try_to_unmap_one() for VM_LOCKED VMAs: before v6.7
 * (e.g. 6.1) the kernel split a PMD mapping before walking ("mm/rmap:
 * integrate PMD-mapped folio splitting into pagewalk loop" moved the split
 * into the walk, after the VM_LOCKED test).
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
 * munlock a folio in full, whatever its mlock_count: munlock_page() before
 * v6.3 (its folio form came with "mm: mlock: update the interface to use
 * folios") queues the folio to a per-CPU batch, which is drained at once
 * so that the next round sees the count go down. Used only by the 6.1 undo
 * of the "mlock" fix (audit.c), so a no-op elsewhere.
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
 * folio_mapcount(): out of line and unexported before v6.3 ("mm: convert
 * total_compound_mapcount() to folio_total_mapcount()" made it inline).
 */
static inline int compat_folio_mapcount(struct folio *folio)
{
#ifdef COMPAT_CANNOT_INLINE_FOLIO_MAPCOUNT
	return folio_mapcount(folio);
#else
	return folio_mapcount(folio);
#endif
}

/*
 * The VMA filter folio_referenced() gives its rmap walk: always since v6.3
 * (8788f6781486 "mm: support POSIX_FADV_NOREUSE"), only for memcg reclaim
 * before.
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

/*
 * hpage_collapse_scan_pmd() before v6.9 (6.1): a page is shared when its
 * own mapcount exceeds 1, tested before anything else about the page, and
 * is_refcount_suitable() takes the page; a uffd-wp swap entry is tested
 * with pte_swp_uffd_wp(). Since, a folio is "likely mapped shared"
 * (folio_likely_mapped_shared(), after the anon test), is_refcount_suitable()
 * takes the folio, and pte_swp_uffd_wp_any() also catches uffd-wp markers.
 */
#ifdef COMPAT_LAZYFREE_FIX_PAGE
#define COMPAT_KHUGEPAGED_SHARED_FIRST 1
#else
#define COMPAT_KHUGEPAGED_SHARED_FIRST 0
#endif

#ifdef MA_CARRY_LAZYFREE
#include <linux/userfaultfd_k.h>

static inline bool compat_khugepaged_mapped_shared(struct page *page,
						   struct folio *folio)
{
#ifdef COMPAT_LAZYFREE_FIX_PAGE
	return page_mapcount(page) > 1;
#else
	return folio_likely_mapped_shared(folio);
#endif
}

static inline bool compat_khugepaged_swp_uffd_wp(pte_t pte)
{
#ifdef COMPAT_LAZYFREE_FIX_PAGE
	return pte_swp_uffd_wp(pte);
#else
	return pte_swp_uffd_wp_any(pte);
#endif
}

static inline bool compat_is_refcount_suitable(struct folio *folio)
{
#ifdef COMPAT_LAZYFREE_FIX_PAGE
	return is_refcount_suitable(&folio->page);
#else
	return is_refcount_suitable(folio);
#endif
}
#endif

/*
 * How khugepaged (the "scanresume" replacement of khugepaged()) judges a
 * VMA, an mm and the THP settings, and counts its progress.
 *
 * The 7.3 form: thp_vma_allowable_orders() for TVA_KHUGEPAGED, with every
 * anonymous mTHP order; hugepage_enabled(); MMF_DISABLE_THP_COMPLETELY;
 * an mm that THP was disabled for is released like an exiting one; the
 * progress lives in collapse_control and collapse_single_pmd() counts each
 * PTE itself ("mm: khugepaged: refine scan progress number").
 * The 6.12 form: thp_vma_allowable_order() with TVA_ENFORCE_SYSFS (v6.8),
 * the MMF_DISABLE_THP test of hpage_collapse_test_exit_or_disable(), and
 * hugepage_pmd_enabled(); each PMD range counts HPAGE_PMD_NR pages.
 * The 6.1 form: hugepage_vma_check(), hpage_collapse_test_exit() alone,
 * hugepage_flags_enabled(), and a try_to_freeze() in the scan loop.
 * Commits not named here were not identified; each form matches its Debian
 * kernel's mm/khugepaged.c. thp_vma_allowable_orders() is rewritten
 * because the settings it reads are not exported.
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
/* before 7.3 the progress is the scanner's own count */
#define compat_khugepaged_progress(cc, local)	((void)(cc), (local))
#endif

#endif /* _MLOCK_AUDIT_COMPAT_H */
