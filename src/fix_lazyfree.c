// SPDX-License-Identifier: GPL-2.0
/*
 * The live fix "lazyfree": seed 003 ("mm: khugepaged: skip lazy-free
 * folios", reviewed form, v7.2). khugepaged leaves a PMD range alone when
 * it maps a clean lazy-free folio (lp_hpage_collapse_scan_pmd.c);
 * MADV_COLLAPSE still collapses it.
 *
 * Disabling needs no undo: nothing was changed, only not collapsed.
 */
#include "fixes.h"

#if defined(COMPAT_LAZYFREE_FIX_FOLIO) || defined(COMPAT_LAZYFREE_FIX_PAGE)
static struct klp_func ma_lazyfree_funcs[] = {
	{ .old_name = "hpage_collapse_scan_pmd", .new_func = ma_hpage_collapse_scan_pmd },
	{ }
};

static void ma_lazyfree_show(struct seq_file *m, struct ma_fix *fix)
{
	seq_printf(m, " skipped_ranges=%ld", atomic_long_read(&ma_lazyfree_skips));
}

#define MA_LAZYFREE_FUNCS ma_lazyfree_funcs
#define MA_LAZYFREE_SHOW ma_lazyfree_show
#else
#define MA_LAZYFREE_FUNCS NULL
#define MA_LAZYFREE_SHOW NULL
#endif

struct ma_fix ma_fix_lazyfree = {
	.name = "lazyfree",
	.funcs = MA_LAZYFREE_FUNCS,
	.upstream = COMPAT_LAZYFREE_FIX_UPSTREAM,
	.unsupported = COMPAT_LAZYFREE_FIX_UNSUPPORTED,
	.show = MA_LAZYFREE_SHOW,
};
