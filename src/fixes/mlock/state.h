/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the "mlock" fix is on the kernel built for, by the probes of its
 * fix.mk; src/fix_states.h says how both modules read it.
 */
#ifndef _MLOCK_AUDIT_FIX_MLOCK_STATE_H
#define _MLOCK_AUDIT_FIX_MLOCK_STATE_H

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

/* Where it is carried (fix.mk): its replacements and mirrors (fixes.h) */
#ifdef MA_CARRY_MLOCK
#define MA_MLOCK_CARRIED	MA_FIX_CARRIED(mlock)
#else
#define MA_MLOCK_CARRIED
#endif

#endif /* _MLOCK_AUDIT_FIX_MLOCK_STATE_H */
