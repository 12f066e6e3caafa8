/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the audit module (mlock_audit.ko) offers the fixes module
 * (mlock_audit_fixes.ko), which depends on it: the load parameters that
 * select and allow the fixes, the place of the fixes in the "fixes" file,
 * and the repair and undo walks a fix may run over every locked mapping,
 * which share the audit's page-table walk (audit.h). See fixes_link.c.
 */
#ifndef _MLOCK_AUDIT_FIXES_LINK_H
#define _MLOCK_AUDIT_FIXES_LINK_H

#include <linux/seq_file.h>
#include <linux/types.h>

/* The fixes module's name: the livepatch's name in /sys/kernel/livepatch. */
#define MA_FIXES_MODULE		"mlock_audit_fixes"

/* How the fixes module shows itself in the "fixes" file. */
struct ma_fixes_ops {
	/* the lines after "format 1" (README.md, "fixes") */
	void (*show)(struct seq_file *m);
};

/* Audit side: its init and exit, and the "fixes" file. */
int ma_link_init(void);
void ma_link_exit(void);
int ma_link_show(struct seq_file *m);

/* Exported to the fixes module. */
void ma_link_register(const struct ma_fixes_ops *ops);
void ma_link_unregister(void);
bool ma_link_selected(unsigned int i, bool *named);
bool ma_allow_unverified(void);
const char *ma_link_fix_out(const char *name);

#endif /* _MLOCK_AUDIT_FIXES_LINK_H */
