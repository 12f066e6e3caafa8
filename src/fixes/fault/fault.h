/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "fault" fix: its replacement functions (lp_*.c).
 * Included by this directory's files only.
 */
#ifndef _MLOCK_AUDIT_FIX_FAULT_H
#define _MLOCK_AUDIT_FIX_FAULT_H

#include "fixes.h"
#include "layout.h"

#include "kernel.h"

/* The replacement functions of the "fault" fix. */
vm_fault_t ma_finish_fault(struct vm_fault *vmf);
vm_fault_t ma_filemap_map_pages(struct vm_fault *vmf, pgoff_t start_pgoff,
				pgoff_t end_pgoff);

/* What the fix relies on in the kernel (mirrors.c), for its guard */
extern const struct ma_layout ma_fault_layout;

#endif /* _MLOCK_AUDIT_FIX_FAULT_H */
