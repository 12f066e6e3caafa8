/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The load-time check (layout.c) of what both khugepaged fixes mirror from
 * mm/khugepaged.c (khugepaged_internal.h): struct collapse_control and
 * enum scan_result. Included by the mirrors.c of those fixes only.
 */
#ifndef _MLOCK_AUDIT_KHUGEPAGED_LAYOUT_H
#define _MLOCK_AUDIT_KHUGEPAGED_LAYOUT_H

#include "khugepaged_internal.h"
#include "layout.h"

/* mm/khugepaged.c */
static const struct ma_layout_member ma_collapse_control[] = {
	{ "is_khugepaged", offsetof(struct collapse_control, is_khugepaged),
	  sizeof_field(struct collapse_control, is_khugepaged) },
	{ "node_load", offsetof(struct collapse_control, node_load),
	  sizeof_field(struct collapse_control, node_load) },
#ifdef COMPAT_KHUGEPAGED_TVA_TYPE
	{ "progress", offsetof(struct collapse_control, progress),
	  sizeof_field(struct collapse_control, progress) },
#endif
	{ "alloc_nmask", offsetof(struct collapse_control, alloc_nmask),
	  sizeof_field(struct collapse_control, alloc_nmask) },
};

static const struct ma_layout_enumerator ma_scan_result[] = {
	MA_ENUMERATOR(SCAN_FAIL),
	MA_ENUMERATOR(SCAN_SUCCEED),
#ifndef COMPAT_KHUGEPAGED_TVA_TYPE
	MA_ENUMERATOR(SCAN_PMD_NULL),
	MA_ENUMERATOR(SCAN_PMD_NONE),
	MA_ENUMERATOR(SCAN_PMD_MAPPED),
	MA_ENUMERATOR(SCAN_EXCEED_NONE_PTE),
	MA_ENUMERATOR(SCAN_EXCEED_SWAP_PTE),
	MA_ENUMERATOR(SCAN_EXCEED_SHARED_PTE),
	MA_ENUMERATOR(SCAN_PTE_NON_PRESENT),
	MA_ENUMERATOR(SCAN_PTE_UFFD_WP),
	MA_ENUMERATOR(SCAN_PTE_MAPPED_HUGEPAGE),
	MA_ENUMERATOR(SCAN_PAGE_RO),
	MA_ENUMERATOR(SCAN_LACK_REFERENCED_PAGE),
	MA_ENUMERATOR(SCAN_PAGE_NULL),
	MA_ENUMERATOR(SCAN_SCAN_ABORT),
	MA_ENUMERATOR(SCAN_PAGE_COUNT),
	MA_ENUMERATOR(SCAN_PAGE_LRU),
	MA_ENUMERATOR(SCAN_PAGE_LOCK),
	MA_ENUMERATOR(SCAN_PAGE_ANON),
	MA_ENUMERATOR(SCAN_PAGE_COMPOUND),
	MA_ENUMERATOR(SCAN_ANY_PROCESS),
	MA_ENUMERATOR(SCAN_VMA_NULL),
	MA_ENUMERATOR(SCAN_VMA_CHECK),
	MA_ENUMERATOR(SCAN_ADDRESS_RANGE),
	MA_ENUMERATOR(SCAN_DEL_PAGE_LRU),
#endif
	MA_ENUMERATOR(SCAN_ALLOC_HUGE_PAGE_FAIL),
};

#define MA_COLLAPSE_CONTROL_LAYOUT \
	MA_STRUCT("collapse_control", struct collapse_control, false, collapse_control)

#define MA_SCAN_RESULT_LAYOUT {						\
	.name = "scan_result",						\
	.values = ma_scan_result, .nr = ARRAY_SIZE(ma_scan_result) }

#endif /* _MLOCK_AUDIT_KHUGEPAGED_LAYOUT_H */
