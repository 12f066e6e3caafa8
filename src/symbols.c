// SPDX-License-Identifier: GPL-2.0
/*
 * The one place that knows how mlock_audit reaches unexported kernel
 * symbols: through livepatch relocations, which the livepatch core applies
 * when the module loads (see symbols.h and tools/klp-relocs.c). Nothing
 * here looks an address up at run time.
 */
#include "inject.h"
#include "symbols.h"

#ifdef COMPAT_SCANRESUME_FIX
#include <linux/livepatch.h>

#include "khugepaged_internal.h"

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
#endif

/* Global, so that the compiler cannot assume it keeps this value. */
u32 ma_klp_unconverted = 1;

/**
 * ma_symbols_init() - refuse a module whose relocations were not converted.
 *
 * Return: 0, or -ENOEXEC when the .ko did not go through tools/klp-relocs
 * (built with a bare "make -C <kdir> M=..." instead of the project's make).
 */
int ma_symbols_init(void)
{
	if (ma_inject("symbols"))
		return -ENOMEM;
	if (READ_ONCE(ma_klp_unconverted)) {
		pr_err("this module was not post-linked by tools/klp-relocs: its references to kernel symbols are unresolved; build it with the project's Makefile (make KDIR=...)\n");
		return -ENOEXEC;
	}
	return 0;
}
