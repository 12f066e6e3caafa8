/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live fixes: which exist, which the running kernel needs, and the
 * livepatch that carries the selected ones (see fixes.c and README.md).
 */
#ifndef _MLOCK_AUDIT_FIXES_H
#define _MLOCK_AUDIT_FIXES_H

#include <linux/livepatch.h>
#include <linux/mm_types.h>
#include <linux/rmap.h>
#include <linux/seq_file.h>

struct ma_layout;

enum ma_fix_state {
	MA_FIX_OFF,		/* not selected, or disabled */
	MA_FIX_PENDING,		/* selected, livepatch in transition */
	MA_FIX_ACTIVE,		/* livepatched */
	MA_FIX_UPSTREAM,	/* the kernel has it: nothing to patch */
	MA_FIX_UNSUPPORTED,	/* cannot be carried on this kernel */
	MA_FIX_UNVERIFIED,	/* not verified for this build: left off */
};

/* Large folios the replacement functions mlocked, by path. */
enum ma_fix_event {
	MA_EV_RMAP_MLOCK,
	MA_EV_REFERENCED_MLOCK,
	MA_EV_UNMAP_MLOCK,
	MA_EV_FAULT_WHOLE_FOLIO,	/* large folios mapped whole */
	MA_EV_FAULTAROUND_WHOLE_FOLIO,
	MA_NR_FIX_EVENTS,
};

struct ma_fix {
	const char *name;
	/* the replacements, { } terminated; NULL unless carried here */
	struct klp_func *funcs;
	/* what it relies on in the kernel (its mirrors.c); NULL unless carried */
	const struct ma_layout *mirrors;
	/* why the kernel has it, or why it cannot be carried, or NULL */
	const char *upstream, *unsupported;
	/* at load: the evidence that the running kernel has it, or NULL */
	const char *(*upstream_probe)(void);
	/* after the livepatch transition completed (may sleep) */
	void (*activated)(struct ma_fix *fix);
	/*
	 * Before the livepatch is disabled, or once it is gone after a
	 * reversed transition (may sleep; must be idempotent).
	 */
	void (*deactivating)(struct ma_fix *fix);
	/* a transition has started (must not take klp_mutex) */
	void (*transition)(struct ma_fix *fix);
	/* the livepatch is gone (may sleep; must be idempotent) */
	void (*unpatched)(struct ma_fix *fix);
	/* unload, after unpatched: wait for the fix's work (may sleep long) */
	void (*exit)(struct ma_fix *fix);
	void (*show)(struct seq_file *m, struct ma_fix *fix);

	enum ma_fix_state state;
	const char *detail;	/* the reason for the state */
	char unverified[192];	/* the reason it is unverified, if it is */
	char layout[192];	/* how its mirrors differ, if they do */
	char ibt[192];		/* which pointer-reached function IBT forbids */
	bool queued;		/* its replacements were put in the livepatch */
};

/* The leading fields of every struct ma_fix, from the fix's state.h */
#define MA_FIX(fix, FIX)	.name = #fix, .upstream = MA_##FIX##_UPSTREAM, \
				.unsupported = MA_##FIX##_UNSUPPORTED, MA_##FIX##_CARRIED
#define MA_FIX_CARRIED(fix)	.funcs = ma_##fix##_funcs, .mirrors = &ma_##fix##_layout,

/* ma_FIX_funcs: the kernel function @old replaced by @new, for each */
#define MA_FIX_FUNCS(fix, ...)	\
	static struct klp_func ma_##fix##_funcs[] = { __VA_ARGS__, { } }
#define MA_REPLACE(old, new)	{ .old_name = #old, .new_func = new }

/* ma_fix_FIX, for each FIX of Kbuild's MA_FIXES */
MA_FIX_DECLS;

int ma_fixes_init(void);
void ma_fixes_exit(void);
void ma_fixes_show(struct seq_file *m);
void ma_fix_event(enum ma_fix_event ev, struct folio *folio);
struct klp_patch *ma_fixes_patch(void);

#endif /* _MLOCK_AUDIT_FIXES_H */
