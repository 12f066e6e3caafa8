// SPDX-License-Identifier: GPL-2.0
/*
 * How the fixes module reaches unexported kernel symbols: through
 * livepatch relocations, which the livepatch core applies when the module
 * loads (see symbols.h and tools/klp-relocs.c). Nothing here looks an
 * address up at run time.
 */
#include "khugepaged_internal.h"
#include "mm_internal.h"
#include "symbols.h"

/*
 * The wrappers of symbols.h's "one relocation per function" for the
 * functions that more than one fix calls. Each calls the kernel function
 * by its own name (the macros are undone here).
 */
#ifdef MA_NEEDS_VM_NORMAL_PAGE
#undef vm_normal_page

noinline struct page *ma_call_vm_normal_page(struct vm_area_struct *vma,
					     unsigned long addr, pte_t pte)
{
	return vm_normal_page(vma, addr, pte);
}
#endif

#ifdef MA_NEEDS_FIND_PMD_OR_THP_OR_NONE
#undef find_pmd_or_thp_or_none

noinline int ma_call_find_pmd_or_thp_or_none(struct mm_struct *mm,
					     unsigned long address, pmd_t **pmd)
{
	return find_pmd_or_thp_or_none(mm, address, pmd);
}
#endif
