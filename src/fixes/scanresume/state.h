/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the "scanresume" fix is on the kernel built for, by the probes of its
 * fix.mk; src/fix_states.h says how both modules read it.
 */
#ifndef _MLOCK_AUDIT_FIX_SCANRESUME_STATE_H
#define _MLOCK_AUDIT_FIX_SCANRESUME_STATE_H

/*
 * "scanresume" on the kernel built for (fix.mk): in no released kernel.
 * Carried on a khugepaged() of the 7.3 form (COMPAT_SCANRESUME_FIX_MTHP),
 * the 6.12 form (COMPAT_SCANRESUME_FIX_ORDERS) or the 6.1 form
 * (COMPAT_SCANRESUME_FIX_VMA_CHECK).
 * Whether it is upstream is read at run time, from BTF
 * (fix.c: ma_scanresume_upstream()).
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

/* Where it is carried (fix.mk): its replacements and mirrors (fixes.h) */
#ifdef MA_CARRY_SCANRESUME
#define MA_SCANRESUME_CARRIED	MA_FIX_CARRIED(scanresume)
#else
#define MA_SCANRESUME_CARRIED
#endif

#endif /* _MLOCK_AUDIT_FIX_SCANRESUME_STATE_H */
