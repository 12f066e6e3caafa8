// SPDX-License-Identifier: GPL-2.0
/*
 * khugepaged scan hook: counts the PMD-sized ranges khugepaged examines.
 *
 * The mm-slot scanner itself (khugepaged_scan_mm_slot, collapse_scan_mm_slot
 * from 7.x) is inlined into the khugepaged() kthread on every Debian build,
 * and khugepaged() never returns, so neither can be probed per scan. The
 * closest hookable point is the per-range scanner the mm-slot loop calls for
 * each PMD range of each VMA: one hit is one range scanned.
 *
 * MADV_COLLAPSE calls the same scanner from the madvising task; only calls
 * from a kernel thread (khugepaged) are counted.
 */
#include <linux/sched.h>

#include "hook.h"

/*
 * 7.3 (Nico Pache's mTHP collapse rework): collapse_scan_pmd() is inlined
 * into collapse_single_pmd(), which the mm-slot scanner calls per range.
 */
static const char *const scan_single_pmd[] = {
	"collapse_single_pmd", NULL
};

/* 6.1 and 6.12: renamed from khugepaged_scan_* by the v6.1 MADV_COLLAPSE series */
static const char *const scan_hpage_collapse[] = {
	"hpage_collapse_scan_pmd", "hpage_collapse_scan_file", NULL
};

/* Before 6.1 */
static const char *const scan_khugepaged[] = {
	"khugepaged_scan_pmd", "khugepaged_scan_file", NULL
};

static const char *const *const scan_variants[] = {
	scan_single_pmd, scan_hpage_collapse, scan_khugepaged, NULL
};

static bool notrace khugepaged_context(void)
{
	return current->flags & PF_KTHREAD;
}

struct ma_hook ma_khugepaged_hook = {
	.name = "khugepaged_scan",
	.variants = scan_variants,
	.count_if = khugepaged_context,
};
