/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mlock audit: walks the page tables of every VM_LOCKED VMA and
 * classifies each mapped page by its folio (see audit.c and README.md).
 */
#ifndef _MLOCK_AUDIT_AUDIT_H
#define _MLOCK_AUDIT_AUDIT_H

#include <linux/module.h>
#include <linux/seq_file.h>

/* Large folio orders 1 .. MA_ORDERS - 1 are counted; larger ones in the last. */
#define MA_ORDERS	11

int ma_vmas_show(struct seq_file *m);
int ma_summary_show(struct seq_file *m);
struct folio;
int ma_audit_repair(unsigned long *pages, const bool *stop,
		    unsigned long (*repair_folio)(struct folio *folio));
int ma_audit_undo(unsigned long *pages, const bool *stop,
		  void (*munlock_folio)(struct folio *folio));

#endif /* _MLOCK_AUDIT_AUDIT_H */
