/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the "lazyfree" fix is on the kernel built for, by the probes of its
 * fix.mk; src/fix_states.h says how both modules read it.
 */
#ifndef _MLOCK_AUDIT_FIX_LAZYFREE_STATE_H
#define _MLOCK_AUDIT_FIX_LAZYFREE_STATE_H

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

/* Where it is carried (fix.mk): its replacements and mirrors (fixes.h) */
#ifdef MA_CARRY_LAZYFREE
#define MA_LAZYFREE_CARRIED	MA_FIX_CARRIED(lazyfree)
#else
#define MA_LAZYFREE_CARRIED
#endif

#endif /* _MLOCK_AUDIT_FIX_LAZYFREE_STATE_H */
