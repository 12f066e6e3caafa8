// SPDX-License-Identifier: GPL-2.0
/*
 * What the "lazyfree" fix relies on in the kernel, checked against its BTF
 * at load (layout.c): struct collapse_control and enum scan_result, which
 * it mirrors (src/khugepaged_internal.h), and the prototypes of the
 * functions it replaces or calls by a hand-written declaration (lazyfree.h,
 * kernel.h).
 */
#include "lazyfree.h"
#include "khugepaged_layout.h"
#include "symbols.h"

static const struct ma_layout_struct ma_lazyfree_structs[] = {
	MA_COLLAPSE_CONTROL_LAYOUT,
};

static const struct ma_layout_enum ma_lazyfree_enums[] = {
	MA_SCAN_RESULT_LAYOUT,
};

/* mm/khugepaged.c */
static const struct ma_layout_proto ma_lazyfree_protos[] = {
	MA_REPLACED(hpage_collapse_scan_pmd, ma_hpage_collapse_scan_pmd,
		    int, struct mm_struct *, struct vm_area_struct *, unsigned long,
		    bool *, struct collapse_control *),
	MA_PROTO(hpage_collapse_scan_abort, bool, int,
		 struct collapse_control *),
#ifdef COMPAT_LAZYFREE_FIX_PAGE
	MA_PROTO(is_refcount_suitable, bool, struct page *),
#else
	MA_PROTO(is_refcount_suitable, bool, struct folio *),
#endif
	MA_PROTO(collapse_huge_page, int, struct mm_struct *,
		 unsigned long, int, int, struct collapse_control *),
	MA_PROTO(find_pmd_or_thp_or_none, int,
		 struct mm_struct *, unsigned long, pmd_t **),
};

/* the tracepoint's iterator, which the replacement calls */
static const struct ma_ibt_target ma_lazyfree_ibt[] = {
	MA_IBT_ITERATOR(mm_khugepaged_scan_pmd),
};

const struct ma_layout ma_lazyfree_layout = {
	.structs = ma_lazyfree_structs, .nr_structs = ARRAY_SIZE(ma_lazyfree_structs),
	.protos = ma_lazyfree_protos, .nr_protos = ARRAY_SIZE(ma_lazyfree_protos),
	.enums = ma_lazyfree_enums, .nr_enums = ARRAY_SIZE(ma_lazyfree_enums),
	.ibt = ma_lazyfree_ibt, .nr_ibt = ARRAY_SIZE(ma_lazyfree_ibt),
};
