/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What each live fix is on the kernel built for, by the build-time probes
 * of its headers (compat/, each fix's fix.mk): already in the kernel
 * (MA_<FIX>_UPSTREAM: how we know), not carried on it (MA_<FIX>_UNSUPPORTED:
 * why), or neither (both NULL: the fix is carried). Both modules read it:
 * the fixes module for its fixes (fix.c), the audit for the "fixes" file
 * when the fixes module is not there (fixes_link.c), so that a kernel's
 * own fix shows as "upstream" also under fixes=none.
 */
#ifndef _MLOCK_AUDIT_FIX_STATES_H
#define _MLOCK_AUDIT_FIX_STATES_H

/*
 * "mlock" on the kernel built for (fix.mk): already in the kernel, carried
 * (COMPAT_MLOCK_FIX_FOLIO_RMAP, the 6.12 form, or COMPAT_MLOCK_FIX_PAGE_RMAP,
 * the 6.1 form), or not carried on this kernel.
 */
#if defined(COMPAT_NO_THP)
#define MA_MLOCK_UPSTREAM NULL
#define MA_MLOCK_UNSUPPORTED COMPAT_NO_THP_REASON
#elif defined(COMPAT_MLOCK_FIX_IS_UPSTREAM)
#define MA_MLOCK_UPSTREAM \
	"include/linux/rmap.h defines PVMW_PGTABLE_CROSSED: seed 000 is merged (v6.18, 2db579838296..ab521b4142aa)"
#define MA_MLOCK_UNSUPPORTED NULL
#elif defined(COMPAT_MLOCK_FIX_FOLIO_RMAP)
#define MA_MLOCK_UPSTREAM NULL
#define MA_MLOCK_UNSUPPORTED NULL
#elif defined(COMPAT_MLOCK_FIX_PAGE_RMAP)
#define MA_MLOCK_UPSTREAM NULL
#define MA_MLOCK_UNSUPPORTED NULL
#else
#define MA_MLOCK_UPSTREAM NULL
#define MA_MLOCK_UNSUPPORTED "no known rmap interface in this kernel"
#endif

/*
 * "fault" on the kernel built for (fix.mk): already in the kernel, carried
 * (COMPAT_FAULT_FIX_SET_PTE_RANGE), or not carried on this kernel.
 */
#if defined(COMPAT_NO_THP)
#define MA_FAULT_UPSTREAM NULL
#define MA_FAULT_UNSUPPORTED COMPAT_NO_THP_REASON
#elif defined(COMPAT_FAULT_FIX_IS_UPSTREAM)
#define MA_FAULT_UPSTREAM \
	"include/linux/rmap.h defines PVMW_PGTABLE_CROSSED: seed 000 is merged (v6.18, 19773df031bc, 357b92761d94) with its i_size clamp"
#define MA_FAULT_UNSUPPORTED NULL
#elif defined(COMPAT_FAULT_FIX_SET_PTE_RANGE)
#define MA_FAULT_UPSTREAM NULL
#define MA_FAULT_UNSUPPORTED NULL
#else
#define MA_FAULT_UPSTREAM NULL
#define MA_FAULT_UNSUPPORTED \
	"unsupported on 6.1: finish_fault() and fault-around map one page per do_set_pte() call; there is no set_pte_range() (v6.6) to install a folio's PTEs in one batch"
#endif

/*
 * "lazyfree" on the kernel built for (fix.mk): already in the kernel,
 * carried on a 6.12-like (COMPAT_LAZYFREE_FIX_FOLIO) or 6.1-like
 * (COMPAT_LAZYFREE_FIX_PAGE) hpage_collapse_scan_pmd(), or not carried.
 */
#if defined(COMPAT_NO_THP)
#define MA_LAZYFREE_UPSTREAM NULL
#define MA_LAZYFREE_UNSUPPORTED COMPAT_NO_THP_REASON
#elif defined(COMPAT_LAZYFREE_FIX_IS_UPSTREAM)
#define MA_LAZYFREE_UPSTREAM \
	"include/linux/page-flags.h defines folio_test_lazyfree(): seed 003 is merged (v7.2, \"mm: khugepaged: skip lazy-free folios\")"
#define MA_LAZYFREE_UNSUPPORTED NULL
#elif defined(MA_CARRY_LAZYFREE)
#define MA_LAZYFREE_UPSTREAM NULL
#define MA_LAZYFREE_UNSUPPORTED NULL
#else
#define MA_LAZYFREE_UPSTREAM NULL
#define MA_LAZYFREE_UNSUPPORTED \
	"no known form of khugepaged's hpage_collapse_scan_pmd() in this kernel"
#endif

/*
 * "scanresume" on the kernel built for (fix.mk): in no released kernel.
 * Carried on a khugepaged() of the 7.3 form (COMPAT_SCANRESUME_FIX_MTHP),
 * the 6.12 form (COMPAT_SCANRESUME_FIX_ORDERS) or the 6.1 form
 * (COMPAT_SCANRESUME_FIX_VMA_CHECK).
 * Whether it is upstream is read at run time, from BTF
 * (ma_layout_scanresume_upstream()).
 */
#define MA_SCANRESUME_UPSTREAM NULL
#if defined(COMPAT_NO_THP)
#define MA_SCANRESUME_UNSUPPORTED COMPAT_NO_THP_REASON
#elif defined(MA_CARRY_SCANRESUME)
#define MA_SCANRESUME_UNSUPPORTED NULL
#else
#define MA_SCANRESUME_UNSUPPORTED \
	"no known form of khugepaged() in this kernel"
#endif

#endif /* _MLOCK_AUDIT_FIX_STATES_H */
