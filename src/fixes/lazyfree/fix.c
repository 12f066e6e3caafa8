// SPDX-License-Identifier: GPL-2.0
/*
 * The live fix "lazyfree": seed 003 ("mm: khugepaged: skip lazy-free
 * folios", reviewed form, v7.2). khugepaged leaves a PMD range alone when
 * it maps a clean lazy-free folio (lp_hpage_collapse_scan_pmd.c);
 * MADV_COLLAPSE still collapses it.
 *
 * Disabling needs no undo: nothing was changed, only not collapsed.
 */
#include "lazyfree.h"
#include "fix_states.h"

#ifdef MA_CARRY_LAZYFREE
static struct klp_func ma_lazyfree_funcs[] = {
	{ .old_name = "hpage_collapse_scan_pmd", .new_func = ma_hpage_collapse_scan_pmd },
	{ }
};

static void ma_lazyfree_show(struct seq_file *m, struct ma_fix *fix)
{
	seq_printf(m, " skipped_ranges=%ld", atomic_long_read(&ma_lazyfree_skips));
}
#endif

struct ma_fix ma_fix_lazyfree = {
	.name = "lazyfree",
	.upstream = MA_LAZYFREE_UPSTREAM,
	.unsupported = MA_LAZYFREE_UNSUPPORTED,
#ifdef MA_CARRY_LAZYFREE
	MA_FIX_CARRIED(lazyfree),
	.show = ma_lazyfree_show,
#endif
};
