// SPDX-License-Identifier: GPL-2.0
/*
 * How the "scanresume" fix reaches khugepaged's state and helpers
 * (kernel.h): ma_kh, the addresses of that state, which the livepatch
 * relocations fill at load, and the wrapper of src/symbols.h's "one
 * relocation per function" for collect_mm_slot().
 */
#include <linux/livepatch.h>

#include "scanresume.h"

const struct ma_khugepaged_syms ma_kh = {
	.scan = &khugepaged_scan,
	.mm_lock = &khugepaged_mm_lock,
	.pages_to_scan = &khugepaged_pages_to_scan,
	.full_scans = &khugepaged_full_scans,
#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_VMA_CHECK)
	.pages_collapsed = &khugepaged_pages_collapsed,
#endif
	.scan_sleep_millisecs = &khugepaged_scan_sleep_millisecs,
	.alloc_sleep_millisecs = &khugepaged_alloc_sleep_millisecs,
	.sleep_expire = &khugepaged_sleep_expire,
	.wait = &khugepaged_wait,
	.thread = &khugepaged_thread,
	.mutex = &khugepaged_mutex,
	.collapse_control = &khugepaged_collapse_control,
	.thp_flags = &transparent_hugepage_flags,
#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_MTHP)
	.anon_orders_always = &huge_anon_orders_always,
	.anon_orders_madvise = &huge_anon_orders_madvise,
	.anon_orders_inherit = &huge_anon_orders_inherit,
#endif
	.klp_transition_patch = &klp_transition_patch,
	.klp_target_state = &klp_target_state,
#ifdef COMPAT_SCANRESUME_FIX_MTHP
	.tp_scan = &__tracepoint_mm_khugepaged_scan,
#endif
};

#undef collect_mm_slot

noinline void ma_call_collect_mm_slot(struct ma_khugepaged_mm_slot *mm_slot)
{
	collect_mm_slot(mm_slot);
}
