// SPDX-License-Identifier: GPL-2.0
/*
 * The live fix "fault": seed 000 patches 4 and 5 (mainline 19773df031bc
 * and 357b92761d94, v6.18) with the i_size clamp of "mm/memory: Do not
 * populate page table entries beyond i_size". A page fault maps a whole
 * large file folio (lp_finish_fault.c), and so does fault-around
 * (lp_filemap_map_pages.c): far fewer faults, and whole-folio rmap adds
 * that the live fix of mlock tracking can mlock.
 *
 * Disabling needs no undo: the mappings made are ordinary PTEs.
 */
#include "fault.h"
#include "fix_states.h"

#ifdef MA_CARRY_FAULT
MA_FIX_FUNCS(fault, MA_REPLACE(finish_fault, ma_finish_fault),
	     MA_REPLACE(filemap_map_pages, ma_filemap_map_pages));
#endif

struct ma_fix ma_fix_fault = { MA_FIX(fault, FAULT) };
