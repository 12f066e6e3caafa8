/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the "fault" fix needs of the kernel on the form its fix.mk selects
 * (COMPAT_FAULT_FIX_SET_PTE_RANGE): the unexported functions of
 * mm/memory.c it calls through livepatch relocations (src/symbols.h says
 * how). Included by fault.h.
 */
#ifndef _MLOCK_AUDIT_FIX_FAULT_KERNEL_H
#define _MLOCK_AUDIT_FIX_FAULT_KERNEL_H

#include <linux/mm.h>

#include "mm_internal.h"
#include "symbols.h"

#ifdef COMPAT_FAULT_FIX_SET_PTE_RANGE
/* mm/memory.c (pmd_install() is declared in mm/internal.h) */
extern typeof(do_set_pmd) do_set_pmd MA_KSYM;
void pmd_install(struct mm_struct *mm, pmd_t *pmd, pgtable_t *pte) MA_KSYM;
extern typeof(__pte_alloc) __pte_alloc MA_KSYM;
extern typeof(set_pte_range) set_pte_range MA_KSYM;
#endif

#endif /* _MLOCK_AUDIT_FIX_FAULT_KERNEL_H */
