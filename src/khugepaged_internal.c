// SPDX-License-Identifier: GPL-2.0
/*
 * The wrapper of symbols.h's "one relocation per function" for the
 * khugepaged_internal.h function that more than one fix calls. It calls
 * the kernel function by its own name (the macro is undone here).
 */
#include <linux/mm_types.h>

#include "khugepaged_internal.h"

#ifdef MA_NEEDS_FIND_PMD_OR_THP_OR_NONE
#undef find_pmd_or_thp_or_none

noinline int ma_call_find_pmd_or_thp_or_none(struct mm_struct *mm,
					     unsigned long address, pmd_t **pmd)
{
	return find_pmd_or_thp_or_none(mm, address, pmd);
}
#endif
