// SPDX-License-Identifier: GPL-2.0
/*
 * Where a fix replaces a probed function, two ftrace users (livepatch and
 * hook) would put the call site on ftrace's slower list path. So the
 * replacement counts the calls sent to it, the hook only the others during
 * a transition, and the hook is unregistered once every task runs the
 * replacement. Each call is counted exactly once.
 */
#include <linux/string.h>

#include "fixes_count.h"

static const char *const ma_counted_names[MA_NR_COUNTED] = {
	[MA_CNT_FILE_RMAP_PTES] = "folio_add_file_rmap_ptes",
	[MA_CNT_FILE_RMAP_PMD] = "folio_add_file_rmap_pmd",
	[MA_CNT_FINISH_FAULT] = "finish_fault",
	[MA_CNT_SCAN_PMD] = "hpage_collapse_scan_pmd",
};

struct ma_site *ma_counted_sites[MA_NR_COUNTED];

/**
 * ma_counts_hand_over() - before the livepatch is enabled, give the
 * counting of each probed function in it to its replacement.
 * @funcs: the livepatch's functions, { } terminated
 */
void ma_counts_hand_over(const struct klp_func *funcs)
{
	const struct klp_func *f;
	unsigned int c;

	for (f = funcs; f->old_name; f++) {
		for (c = 0; c < MA_NR_COUNTED; c++)
			if (!strcmp(f->old_name, ma_counted_names[c]))
				break;
		if (c == MA_NR_COUNTED)
			continue;
		ma_counted_sites[c] = ma_hook_site(f->old_name);
		if (ma_counted_sites[c])
			ma_site_hand_over(ma_counted_sites[c], f);
	}
}

/**
 * ma_counts_quiet() - unregister the hooks the replacements stand in for,
 * or register them again.
 * @quiet: true when the transition to patched completed, false before
 *	the livepatch is disabled (may sleep)
 */
void ma_counts_quiet(bool quiet)
{
	unsigned int c;

	for (c = 0; c < MA_NR_COUNTED; c++)
		if (ma_counted_sites[c])
			ma_site_quiet(ma_counted_sites[c], quiet);
}

/**
 * ma_counts_take_back() - the livepatch is gone: the hooks count every
 * call again (idempotent; may sleep).
 */
void ma_counts_take_back(void)
{
	unsigned int c;

	for (c = 0; c < MA_NR_COUNTED; c++) {
		if (!ma_counted_sites[c])
			continue;
		ma_site_take_back(ma_counted_sites[c]);
		WRITE_ONCE(ma_counted_sites[c], NULL);
	}
}
