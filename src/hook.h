/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An observation hook: an ftrace callback (hook.c) on each function of the
 * first set of symbols that resolves on the running kernel. A replaced
 * function's calls are counted as fixes_count.c explains.
 */
#ifndef _MLOCK_AUDIT_HOOK_H
#define _MLOCK_AUDIT_HOOK_H

#include <linux/ftrace.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#define MA_HOOK_MAX_SYMS	2
#define MA_HOOK_SYM_LEN		64
#define MA_HOOK_WHY_LEN		192

struct klp_func;
struct ma_hook;

struct ma_site {
	struct ftrace_ops ops;	/* its filter: this one function */
	unsigned long __percpu *hits;
	struct ma_hook *hook;
	/* the fixes module's replacement of this function, or NULL */
	const struct klp_func *fix;
	bool armed;		/* ops registered */
	/* ops unregistered: the replacement counts every call */
	bool quiet;
	char sym[MA_HOOK_SYM_LEN];
};

struct ma_hook {
	const char *name;
	/* Symbol sets, NULL-terminated, newest kernel first. */
	const char *const *const *variants;
	/* Optional: a hit is counted only when this returns true. */
	bool (*count_if)(void);

	/* Run-time state, owned by hook.c. */
	bool off;		/* probes=off: nothing registered */
	unsigned int nr_sites;
	struct ma_site sites[MA_HOOK_MAX_SYMS];
	char why[MA_HOOK_WHY_LEN];
};

int ma_hook_register(struct ma_hook *hook);
void ma_hook_unregister(struct ma_hook *hook);
void ma_hooks_show(struct seq_file *m);

/* For the fixes module (fixes_count.c), exported by the audit. */
struct ma_site *ma_hook_site(const char *func);
void ma_site_hand_over(struct ma_site *site, const struct klp_func *fix);
void ma_site_quiet(struct ma_site *site, bool quiet);
void ma_site_take_back(struct ma_site *site);

/* A call of @site's function, seen by its hook or its replacement. */
static __always_inline void ma_site_count(struct ma_site *site)
{
	if (!site->hook->count_if || site->hook->count_if())
		this_cpu_inc(*site->hits);
}

extern struct ma_hook ma_rmap_hook;
extern struct ma_hook ma_fault_hook;
extern struct ma_hook ma_khugepaged_hook;

#endif /* _MLOCK_AUDIT_HOOK_H */
