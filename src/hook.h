/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An observation hook: entry kprobes (never a post_handler, so that a
 * livepatch of the same function can still register its IPMODIFY ftrace
 * handler) on the first set of symbols that resolves on the running kernel.
 */
#ifndef _MLOCK_AUDIT_HOOK_H
#define _MLOCK_AUDIT_HOOK_H

#include <linux/kprobes.h>
#include <linux/seq_file.h>

#define MA_HOOK_MAX_SYMS	2
#define MA_HOOK_SYM_LEN		64
#define MA_HOOK_WHY_LEN		192

struct ma_hook;

struct ma_site {
	struct kprobe kp;
	unsigned long __percpu *hits;
	struct ma_hook *hook;
	char sym[MA_HOOK_SYM_LEN];
};

struct ma_hook {
	/* Name in reports. */
	const char *name;
	/*
	 * Symbol sets, NULL-terminated, newest kernel first. The first set
	 * whose every symbol can be probed wins. Each symbol is also tried
	 * with the GCC clone suffixes .constprop.0 and .isra.0.
	 */
	const char *const *const *variants;
	/* Optional: a hit is counted only when this returns true. */
	bool (*count_if)(void);

	/* Run-time state, owned by hook.c. */
	unsigned int nr_sites;
	struct ma_site sites[MA_HOOK_MAX_SYMS];
	char why[MA_HOOK_WHY_LEN];
};

int ma_hook_register(struct ma_hook *hook);
void ma_hook_unregister(struct ma_hook *hook);
void ma_hook_show(struct seq_file *m, struct ma_hook *hook);

extern struct ma_hook ma_rmap_hook;
extern struct ma_hook ma_fault_hook;
extern struct ma_hook ma_khugepaged_hook;

#endif /* _MLOCK_AUDIT_HOOK_H */
