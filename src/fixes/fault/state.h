/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the "fault" fix is on the kernel built for, by the probes of its
 * fix.mk; src/fix_states.h says how both modules read it.
 */
#ifndef _MLOCK_AUDIT_FIX_FAULT_STATE_H
#define _MLOCK_AUDIT_FIX_FAULT_STATE_H

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

/* Where it is carried (fix.mk): its replacements and mirrors (fixes.h) */
#ifdef MA_CARRY_FAULT
#define MA_FAULT_CARRIED	MA_FIX_CARRIED(fault)
#else
#define MA_FAULT_CARRIED
#endif

#endif /* _MLOCK_AUDIT_FIX_FAULT_STATE_H */
