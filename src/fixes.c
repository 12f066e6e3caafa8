// SPDX-License-Identifier: GPL-2.0
/*
 * The live fixes (mlock_audit_fixes.ko), and the one livepatch that
 * carries them. The patch does not use atomic replace, so other
 * livepatches on the host are left alone. The livepatch core holds a
 * reference on the module until the patch is disabled, which is for good.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/livepatch.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "fixes.h"
#include "fixes_count.h"
#include "fixes_link.h"
#include "testing.h"
#include "layout.h"
#include "symbols.h"
#include "verified.h"

/* Kbuild's MA_FIXES, each defined in src/fixes/FIX/fix.c */
static struct ma_fix *const ma_fixes[] = {
	MA_FIX_ENTRIES
};

#define MA_KLP_FUNCS_MAX	16

static struct klp_func ma_klp_funcs[MA_KLP_FUNCS_MAX + 1];

static enum {
	MA_LP_NONE,		/* no livepatch registered */
	MA_LP_TRANSITION,
	MA_LP_ENABLED,
	MA_LP_DISABLING,
	MA_LP_DISABLED,
	MA_LP_REPLACED,		/* by another, cumulative livepatch */
} ma_lp_state;

static const char *const ma_lp_names[] = {
	"none", "transition", "enabled", "disabling", "disabled", "replaced",
};

static const char *const ma_state_names[] = {
	[MA_FIX_OFF] = "off",
	[MA_FIX_PENDING] = "pending",
	[MA_FIX_ACTIVE] = "active",
	[MA_FIX_UPSTREAM] = "upstream",
	[MA_FIX_UNSUPPORTED] = "unsupported",
	[MA_FIX_UNVERIFIED] = "unverified",
};

static ktime_t ma_lp_start;
static s64 ma_lp_transition_ms = -1;
static atomic_long_t ma_fix_events[MA_NR_FIX_EVENTS];

/**
 * ma_fix_event() - count a large folio that a replacement mlocked.
 * @ev: the path that mlocked it
 * @folio: the folio
 */
void ma_fix_event(enum ma_fix_event ev, struct folio *folio)
{
	if (folio_test_large(folio))
		atomic_long_inc(&ma_fix_events[ev]);
}

static void ma_fixes_set(enum ma_fix_state from, enum ma_fix_state to,
			 const char *detail)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ma_fixes); i++) {
		if (ma_fixes[i]->state != from)
			continue;
		ma_fixes[i]->detail = detail;
		WRITE_ONCE(ma_fixes[i]->state, to);
	}
}

static void ma_fixes_transition(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ma_fixes); i++)
		if (ma_fixes[i]->queued && ma_fixes[i]->transition)
			ma_fixes[i]->transition(ma_fixes[i]);
}

/* Deactivating again is harmless; a fix may not have been deactivated. */
static void ma_fixes_gone(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ma_fixes); i++)
		if (ma_fixes[i]->queued && ma_fixes[i]->deactivating)
			ma_fixes[i]->deactivating(ma_fixes[i]);
	for (i = 0; i < ARRAY_SIZE(ma_fixes); i++)
		if (ma_fixes[i]->queued && ma_fixes[i]->unpatched)
			ma_fixes[i]->unpatched(ma_fixes[i]);
	ma_counts_take_back();
}

static struct klp_patch ma_klp_patch;

/*
 * When a cumulative livepatch (.replace = true) replaces ours, the core
 * disables ours without running any of our callbacks. A work item watches
 * for that and does what disabling would have done.
 */
#define MA_WATCH_POLL	(HZ / 2)

static void ma_watch_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(ma_watch_work, ma_watch_fn);

static void ma_watch_fn(struct work_struct *work)
{
	static const char why[] =
		"replaced by a cumulative livepatch (atomic replace): its replacements are gone";
	enum { GO_ON, STOP, REPLACED } what = GO_ON;

	switch (READ_ONCE(ma_lp_state)) {
	case MA_LP_TRANSITION:
		break;
	case MA_LP_ENABLED:
		/*
		 * Our own disabling moves the state on (pre-unpatch callback)
		 * before the core clears "enabled": look at the state again.
		 */
		if (!READ_ONCE(ma_klp_patch.enabled)) {
			smp_rmb();	/* the state was written before "enabled" */
			if (READ_ONCE(ma_lp_state) == MA_LP_ENABLED)
				what = REPLACED;
		}
		break;
	default:
		what = STOP;
	}
	if (what == GO_ON)
		schedule_delayed_work(&ma_watch_work, MA_WATCH_POLL);
	if (what != REPLACED)
		return;
	pr_info("livepatch replaced by a cumulative livepatch: the fixes are off\n");
	ma_fixes_gone();
	ma_fixes_set(MA_FIX_ACTIVE, MA_FIX_OFF, why);
	WRITE_ONCE(ma_lp_state, MA_LP_REPLACED);
}

static void ma_post_patch(struct klp_object *obj)
{
	unsigned int i;

	ma_lp_transition_ms = ktime_ms_delta(ktime_get(), ma_lp_start);
	WRITE_ONCE(ma_lp_state, MA_LP_ENABLED);
	ma_fixes_set(MA_FIX_PENDING, MA_FIX_ACTIVE, "livepatched");
	for (i = 0; i < ARRAY_SIZE(ma_fixes); i++)
		if (ma_fixes[i]->state == MA_FIX_ACTIVE && ma_fixes[i]->activated)
			ma_fixes[i]->activated(ma_fixes[i]);
	ma_counts_quiet(true);
	/* again after a reversed disable, which had stopped it */
	mod_delayed_work(system_wq, &ma_watch_work, MA_WATCH_POLL);
}

static int ma_pre_patch(struct klp_object *obj)
{
	ma_lp_start = ktime_get();
	return 0;
}

static void ma_pre_unpatch(struct klp_object *obj)
{
	unsigned int i;

	WRITE_ONCE(ma_lp_state, MA_LP_DISABLING);
	ma_counts_quiet(false);
	for (i = 0; i < ARRAY_SIZE(ma_fixes); i++)
		if (ma_fixes[i]->state == MA_FIX_ACTIVE && ma_fixes[i]->deactivating)
			ma_fixes[i]->deactivating(ma_fixes[i]);
	ma_fixes_transition();
}

static void ma_post_unpatch(struct klp_object *obj)
{
	static const char why[] = "livepatch disabled (reload the module to enable it)";

	/*
	 * A transition reversed while enabling skips the pre-unpatch
	 * callback: deactivate now, before the module can go.
	 */
	ma_fixes_gone();

	ma_fixes_set(MA_FIX_ACTIVE, MA_FIX_OFF, why);
	ma_fixes_set(MA_FIX_PENDING, MA_FIX_OFF, why);
	WRITE_ONCE(ma_lp_state, MA_LP_DISABLED);
}

static struct klp_object ma_klp_objs[] = {
	{
		/* .name NULL: vmlinux */
		.funcs = ma_klp_funcs,
		.callbacks = {
			.pre_patch = ma_pre_patch,
			.post_patch = ma_post_patch,
			.pre_unpatch = ma_pre_unpatch,
			.post_unpatch = ma_post_unpatch,
		},
	},
	{ }
};

static struct klp_patch ma_klp_patch = {
	.mod = THIS_MODULE,
	.objs = ma_klp_objs,
};

/**
 * ma_fixes_patch() - the livepatch that carries the fixes.
 *
 * Return: it, registered or not.
 */
struct klp_patch *ma_fixes_patch(void)
{
	return &ma_klp_patch;
}

/* Queue the replacements of @fix into the patch; false if no room. */
static bool ma_fix_queue(struct ma_fix *fix, unsigned int *n)
{
	const struct klp_func *f;

	unsigned int first = *n;

	for (f = fix->funcs; f->old_name; f++) {
		if (*n == MA_KLP_FUNCS_MAX) {
			memset(&ma_klp_funcs[first], 0, (*n - first) * sizeof(*f));
			*n = first;
			return false;
		}
		ma_klp_funcs[(*n)++] = *f;
	}
	fix->queued = true;
	return true;
}

/**
 * ma_fixes_init() - classify the fixes and enable the livepatch.
 *
 * Return: 0, or -ENOMEM (fail_at=fixes).
 */
int ma_fixes_init(void)
{
	unsigned int i, n = 0;
	int ret;

	if (ma_inject("fixes"))
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(ma_fixes); i++) {
		struct ma_fix *fix = ma_fixes[i];
		bool named, want = ma_link_selected(i, &named);
		const char *unverified = ma_unverified_why(fix->name, fix->unverified,
							   sizeof(fix->unverified));

		if (!fix->upstream && fix->upstream_probe)
			fix->upstream = fix->upstream_probe();
		if (fix->upstream) {
			fix->state = MA_FIX_UPSTREAM;
			fix->detail = fix->upstream;
		} else if (ma_link_fix_out(fix->name)) {
			fix->state = MA_FIX_UNSUPPORTED;
			fix->detail = ma_link_fix_out(fix->name);
		} else if (fix->unsupported) {
			fix->state = MA_FIX_UNSUPPORTED;
			fix->detail = fix->unsupported;
		} else if (ma_layout_check(fix->mirrors, fix->layout, sizeof(fix->layout))) {
			fix->state = MA_FIX_UNSUPPORTED;
			fix->detail = fix->layout;
		} else if (ma_ibt_check(fix->mirrors, fix->ibt, sizeof(fix->ibt))) {
			fix->state = MA_FIX_UNSUPPORTED;
			fix->detail = fix->ibt;
		} else if (unverified && !ma_allow_unverified()) {
			fix->state = MA_FIX_UNVERIFIED;
			fix->detail = unverified;
		} else if (!want) {
			fix->state = MA_FIX_OFF;
			fix->detail = "not selected by fixes=";
		} else if (!ma_fix_queue(fix, &n)) {
			fix->state = MA_FIX_UNSUPPORTED;
			fix->detail = "too many replacement functions";
		} else {
			fix->state = MA_FIX_PENDING;
			fix->detail = "livepatch transition in progress";
		}
		/* asked for by name: say why it is not applied */
		if (named && (fix->state == MA_FIX_UNSUPPORTED ||
			      fix->state == MA_FIX_UNVERIFIED))
			pr_warn("fix %s is %s here: %s\n", fix->name,
				ma_state_names[fix->state], fix->detail);
		if (unverified && fix->queued)
			pr_warn("applying fix %s although it is unverified: %s\n",
				fix->name, unverified);
	}
	if (!n)
		return 0;

	ma_lp_state = MA_LP_TRANSITION;
	ma_counts_hand_over(ma_klp_funcs);
	ret = ma_inject("livepatch") ? -ENOMEM : klp_enable_patch(&ma_klp_patch);
	if (ret) {
		pr_err("livepatch refused the fixes: %pe\n", ERR_PTR(ret));
		ma_counts_take_back();
		ma_lp_state = MA_LP_NONE;
		for (i = 0; i < ARRAY_SIZE(ma_fixes); i++)
			ma_fixes[i]->queued = false;
		ma_fixes_set(MA_FIX_PENDING, MA_FIX_UNSUPPORTED,
			     "klp_enable_patch() failed (see the kernel log)");
		return 0;
	}
	ma_fixes_transition();
	schedule_delayed_work(&ma_watch_work, MA_WATCH_POLL);
	return 0;
}

/* Only called once the livepatch is gone (it holds a module reference). */
void ma_fixes_exit(void)
{
	unsigned int i;

	cancel_delayed_work_sync(&ma_watch_work);
	ma_fixes_gone();
	for (i = 0; i < ARRAY_SIZE(ma_fixes); i++)
		if (ma_fixes[i]->exit)
			ma_fixes[i]->exit(ma_fixes[i]);
}

/**
 * ma_fixes_show() - the "fixes" debugfs file after its first line (format
 * in README.md).
 * @m: the seq_file
 */
void ma_fixes_show(struct seq_file *m)
{
	unsigned int i;

	seq_printf(m, "livepatch state=%s transition_ms=%lld", ma_lp_names[READ_ONCE(ma_lp_state)],
		   READ_ONCE(ma_lp_transition_ms));
	seq_printf(m, " rmap_mlocks=%ld referenced_mlocks=%ld unmap_mlocks=%ld",
		   atomic_long_read(&ma_fix_events[MA_EV_RMAP_MLOCK]),
		   atomic_long_read(&ma_fix_events[MA_EV_REFERENCED_MLOCK]),
		   atomic_long_read(&ma_fix_events[MA_EV_UNMAP_MLOCK]));
	seq_printf(m, " fault_whole_folios=%ld faultaround_whole_folios=%ld\n",
		   atomic_long_read(&ma_fix_events[MA_EV_FAULT_WHOLE_FOLIO]),
		   atomic_long_read(&ma_fix_events[MA_EV_FAULTAROUND_WHOLE_FOLIO]));
	for (i = 0; i < ARRAY_SIZE(ma_fixes); i++) {
		struct ma_fix *fix = ma_fixes[i];
		enum ma_fix_state state = READ_ONCE(fix->state);

		seq_printf(m, "fix=%s state=%s", fix->name, ma_state_names[state]);
		if (fix->show)
			fix->show(m, fix);
		seq_printf(m, " detail=%s\n", fix->detail);
	}
}

