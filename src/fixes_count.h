/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replacements of probed functions count the calls the livepatch
 * sends them, for the audit's hooks (fixes_count.c, hook.h).
 */
#ifndef _MLOCK_AUDIT_FIXES_COUNT_H
#define _MLOCK_AUDIT_FIXES_COUNT_H

#include <linux/livepatch.h>

#include "hook.h"

/* The replaced functions that a hook of the audit may probe. */
enum ma_counted {
	MA_CNT_FILE_RMAP_PTES,		/* folio_add_file_rmap_ptes */
	MA_CNT_FILE_RMAP_PMD,		/* folio_add_file_rmap_pmd */
	MA_CNT_FINISH_FAULT,		/* finish_fault */
	MA_CNT_SCAN_PMD,		/* hpage_collapse_scan_pmd */
	MA_NR_COUNTED,
};

extern struct ma_site *ma_counted_sites[MA_NR_COUNTED];

/* First thing in the replacement of @c's function. */
static __always_inline void ma_count_call(enum ma_counted c)
{
	struct ma_site *site = READ_ONCE(ma_counted_sites[c]);

	if (site)
		ma_site_count(site);
}

void ma_counts_hand_over(const struct klp_func *funcs);
void ma_counts_quiet(bool quiet);
void ma_counts_take_back(void);

#endif /* _MLOCK_AUDIT_FIXES_COUNT_H */
