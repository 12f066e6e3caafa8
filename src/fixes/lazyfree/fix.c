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
MA_FIX_FUNCS(lazyfree, MA_REPLACE(hpage_collapse_scan_pmd, ma_hpage_collapse_scan_pmd));

static void ma_lazyfree_show(struct seq_file *m, struct ma_fix *fix)
{
	seq_printf(m, " skipped_ranges=%ld", atomic_long_read(&ma_lazyfree_skips));
}
#endif

struct ma_fix ma_fix_lazyfree = {
	MA_FIX(lazyfree, LAZYFREE)
#ifdef MA_CARRY_LAZYFREE
	.show = ma_lazyfree_show,
#endif
};
