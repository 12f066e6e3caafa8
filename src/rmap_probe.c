// SPDX-License-Identifier: GPL-2.0
/*
 * rmap-add hook: counts file folios (page cache, shmem) mapped into a page
 * table. This is where the kernel decides whether a newly mapped folio in a
 * VM_LOCKED VMA gets mlocked, and so where large folios were left out of
 * Mlocked before 6.18 (seed 000, patch 6/6). Its functions, by kernel:
 * src/hook-sites.
 */
#include "hook.h"
#include "hook_sets.h"

struct ma_hook ma_rmap_hook = {
	.name = "rmap_add",
	.variants = MA_HOOK_VARIANTS_rmap_add,
};
