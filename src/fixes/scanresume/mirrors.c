// SPDX-License-Identifier: GPL-2.0
/*
 * What the "scanresume" fix relies on in the kernel, checked against its
 * BTF at load (layout.c): the khugepaged structs and enum it mirrors
 * (kernel.h, src/khugepaged_internal.h) and the prototypes of the
 * functions it replaces or calls by a hand-written declaration
 * (scanresume.h, kernel.h).
 */
#include "scanresume.h"
#include "khugepaged_layout.h"
#include "symbols.h"

/* mm/mm_slot.h */
static const struct ma_layout_member ma_mm_slot[] = {
	{ "hash", offsetof(struct ma_mm_slot, hash),
	  sizeof_field(struct ma_mm_slot, hash) },
	{ "mm_node", offsetof(struct ma_mm_slot, mm_node),
	  sizeof_field(struct ma_mm_slot, mm_node) },
	{ "mm", offsetof(struct ma_mm_slot, mm),
	  sizeof_field(struct ma_mm_slot, mm) },
};

/* mm/khugepaged.c; 7.3 has none (its scan cursor points to a mm_slot) */
#ifndef COMPAT_SCANRESUME_FIX_MTHP
static const struct ma_layout_member ma_khugepaged_mm_slot[] = {
	{ "slot", offsetof(struct ma_khugepaged_mm_slot, slot),
	  sizeof_field(struct ma_khugepaged_mm_slot, slot) },
#ifdef COMPAT_SCANRESUME_FIX_VMA_CHECK
	{ "nr_pte_mapped_thp", offsetof(struct ma_khugepaged_mm_slot, nr_pte_mapped_thp),
	  sizeof_field(struct ma_khugepaged_mm_slot, nr_pte_mapped_thp) },
	{ "pte_mapped_thp", offsetof(struct ma_khugepaged_mm_slot, pte_mapped_thp),
	  sizeof_field(struct ma_khugepaged_mm_slot, pte_mapped_thp) },
#endif
};
#endif

static const struct ma_layout_member ma_khugepaged_scan[] = {
	{ "mm_head", offsetof(struct ma_khugepaged_scan, mm_head),
	  sizeof_field(struct ma_khugepaged_scan, mm_head) },
	{ "mm_slot", offsetof(struct ma_khugepaged_scan, mm_slot),
	  sizeof_field(struct ma_khugepaged_scan, mm_slot) },
	{ "address", offsetof(struct ma_khugepaged_scan, address),
	  sizeof_field(struct ma_khugepaged_scan, address) },
};

static const struct ma_layout_struct ma_scanresume_structs[] = {
	MA_COLLAPSE_CONTROL_LAYOUT,
	MA_STRUCT("mm_slot", struct ma_mm_slot, false, mm_slot),
#ifndef COMPAT_SCANRESUME_FIX_MTHP
	MA_STRUCT("khugepaged_mm_slot", struct ma_khugepaged_mm_slot, false,
		  khugepaged_mm_slot),
#endif
	MA_STRUCT("khugepaged_scan", struct ma_khugepaged_scan, false, khugepaged_scan),
};

static const struct ma_layout_enum ma_scanresume_enums[] = {
	MA_SCAN_RESULT_LAYOUT,
};

/* mm/khugepaged.c */
static const struct ma_layout_proto ma_scanresume_protos[] = {
#ifdef COMPAT_SCANRESUME_FIX_VMA_CHECK
	MA_PROTO(find_pmd_or_thp_or_none, int,
		 struct mm_struct *, unsigned long, pmd_t **),
#endif
	MA_REPLACED(khugepaged, ma_khugepaged, int, void *),
	MA_PROTO(khugepaged, int, void *),
	MA_PROTO_VOID(collect_mm_slot, struct ma_khugepaged_mm_slot *),
#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_VMA_CHECK)
	MA_PROTO(hpage_collapse_scan_pmd, int, struct mm_struct *,
		 struct vm_area_struct *, unsigned long, bool *,
		 struct collapse_control *),
	MA_PROTO(hpage_collapse_scan_file, int, struct mm_struct *,
		 unsigned long, struct file *, pgoff_t, struct collapse_control *),
#endif
#ifdef COMPAT_SCANRESUME_FIX_ORDERS
	MA_PROTO_NOARGS(hugepage_pmd_enabled, bool),
#endif
#ifdef COMPAT_SCANRESUME_FIX_MTHP
	MA_PROTO_NOARGS(hugepage_enabled, bool),
	MA_PROTO(collapse_single_pmd, int, unsigned long,
		 struct vm_area_struct *, bool *, struct collapse_control *),
#endif
#ifdef COMPAT_SCANRESUME_FIX_VMA_CHECK
	MA_PROTO(khugepaged_add_pte_mapped_thp, bool,
		 struct mm_struct *, unsigned long),
#endif
};

/* the thread function of the khugepaged the fix starts, the iterator of
 * the tracepoint it calls
 */
static const struct ma_ibt_target ma_scanresume_ibt[] = {
	MA_IBT_FUNC(khugepaged),
#ifdef COMPAT_SCANRESUME_FIX_MTHP
	MA_IBT_ITERATOR(mm_khugepaged_scan),
#endif
};

const struct ma_layout ma_scanresume_layout = {
	.structs = ma_scanresume_structs, .nr_structs = ARRAY_SIZE(ma_scanresume_structs),
	.protos = ma_scanresume_protos, .nr_protos = ARRAY_SIZE(ma_scanresume_protos),
	.enums = ma_scanresume_enums, .nr_enums = ARRAY_SIZE(ma_scanresume_enums),
	.ibt = ma_scanresume_ibt, .nr_ibt = ARRAY_SIZE(ma_scanresume_ibt),
};
