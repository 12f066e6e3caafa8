// SPDX-License-Identifier: GPL-2.0
/*
 * The wrapper of symbols.h's "one relocation per function" for the
 * mm_internal.h function that more than one fix calls. It calls the
 * kernel function by its own name (the macro is undone here).
 */
#include "mm_internal.h"

#ifdef MA_NEEDS_VM_NORMAL_PAGE
#undef vm_normal_page

noinline struct page *ma_call_vm_normal_page(struct vm_area_struct *vma,
					     unsigned long addr, pte_t pte)
{
	return vm_normal_page(vma, addr, pte);
}
#endif
