// SPDX-License-Identifier: GPL-2.0
/*
 * finish_fault hook: counts file-backed faults completed through
 * finish_fault() (read faults that fault-around did not satisfy, COW and
 * shared-write faults). Each hit installs one page on 6.1 and 6.12, and a
 * whole large folio on 6.18+ (seed 000, patch 4/6), so hits per touched page
 * show whether the fault-path fix is in effect. Its function:
 * src/hook-sites.
 */
#include "hook.h"
#include "hook_sets.h"

struct ma_hook ma_fault_hook = {
	.name = "finish_fault",
	.variants = MA_HOOK_VARIANTS_finish_fault,
};
