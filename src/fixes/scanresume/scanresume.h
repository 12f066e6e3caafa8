/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "scanresume" fix: its replacement function (lp_khugepaged.c) and
 * what it shares with its registration (fix.c).
 * Included by this directory's files only.
 */
#ifndef _MLOCK_AUDIT_FIX_SCANRESUME_H
#define _MLOCK_AUDIT_FIX_SCANRESUME_H

#include "fixes.h"
#include "layout.h"

#include "kernel.h"

/* The replacement function of the "scanresume" fix. */
int ma_khugepaged(void *none);
extern atomic_long_t ma_scanresume_resumes;
void ma_scanresume_forget(void);
/* the thread fixes/scanresume/fix.c put in place of one that ran ma_khugepaged() */
extern struct task_struct *ma_khugepaged_successor;

/* What the fix relies on in the kernel (mirrors.c), for its guard */
extern const struct ma_layout ma_scanresume_layout;

#endif /* _MLOCK_AUDIT_FIX_SCANRESUME_H */
