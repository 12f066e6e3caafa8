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
 * from a kernel thread (khugepaged) are counted. Its functions, by kernel:
 * src/hook-sites.
 */
#include <linux/sched.h>

#include "hook.h"
#include "hook_sets.h"

static bool notrace khugepaged_context(void)
{
	return current->flags & PF_KTHREAD;
}

struct ma_hook ma_khugepaged_hook = {
	.name = "khugepaged_scan",
	.variants = MA_HOOK_VARIANTS_khugepaged_scan,
	.count_if = khugepaged_context,
};
