/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "lazyfree" fix: its replacement function (lp_*.c) and its counter.
 * Included by this directory's files only.
 */
#ifndef _MLOCK_AUDIT_FIX_LAZYFREE_H
#define _MLOCK_AUDIT_FIX_LAZYFREE_H

#include "fixes.h"
#include "layout.h"

#include "kernel.h"

/* The replacement function of the "lazyfree" fix. */
struct collapse_control;
int ma_hpage_collapse_scan_pmd(struct mm_struct *mm, struct vm_area_struct *vma,
			       unsigned long address, bool *mmap_locked,
			       struct collapse_control *cc);
extern atomic_long_t ma_lazyfree_skips;	/* ranges it left alone */

/* What the fix relies on in the kernel (mirrors.c), for its guard */
extern const struct ma_layout ma_lazyfree_layout;

#endif /* _MLOCK_AUDIT_FIX_LAZYFREE_H */
