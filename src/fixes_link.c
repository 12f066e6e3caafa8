// SPDX-License-Identifier: GPL-2.0
/*
 * The audit's side of the fixes module (mlock_audit_fixes.ko).
 *
 * The fixes need many unexported kernel symbols, resolved through
 * livepatch relocations at load; one that a kernel build lacks makes the
 * kernel refuse the whole module. So they live in a module of their own,
 * and the audit stays up without them.
 *
 * fixes= is parsed here, so a bad value refuses the audit's load. The
 * fixes module is requested from a work item: it uses the audit's exports,
 * which the kernel resolves only once the audit is live, so a request from
 * the audit's module_init would wait on itself. The work item also sees
 * modprobe's status and the kernel's reason for a refusal.
 *
 * ma_link_mutex makes the fixes module's exit wait for a reader of the
 * "fixes" file.
 */
#include <linux/kernel.h>
#include <linux/kmod.h>
#include <linux/kmsg_dump.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "fixes_link.h"
#include "fix_states.h"

/* Kbuild's MA_FIXES, in the order both modules list them. */
static const char *const ma_fix_names[] = { MA_FIX_NAME_ENTRIES };

/* What the build-time probes say of each fix (fix_states.h), same order */
static const struct {
	const char *upstream, *unsupported;
} ma_fix_build[] = {
#define MA_FIX_BUILD(FIX) { MA_##FIX##_UPSTREAM, MA_##FIX##_UNSUPPORTED }
	MA_FIX_BUILD_ENTRIES
#undef MA_FIX_BUILD
};

static_assert(ARRAY_SIZE(ma_fix_build) == ARRAY_SIZE(ma_fix_names));

/* Built out: System.map lacks a symbol or has it twice (ksym-check.c) */
static const struct {
	const char *fix, *why;
} ma_fixes_out[] = {
#define MA_FIX_OUT(fix, why) { fix, why },
#include "fixes_out.h"
#undef MA_FIX_OUT
	{ }
};

static char *ma_fixes_param;
module_param_named(fixes, ma_fixes_param, charp, 0444);
MODULE_PARM_DESC(fixes,
		 "Live fixes to apply at load: all (default), none, or a comma-separated list of: "
		 MA_FIX_NAMES);

static bool ma_allow_unverified_param;
module_param_named(allow_unverified, ma_allow_unverified_param, bool, 0444);
MODULE_PARM_DESC(allow_unverified, "Apply the live fixes also where the running kernel build is not in the record of verified builds, or its code for a fix differs (default 0). Risk: a replacement copies kernel functions of the verified builds; on other code it may undo that build's own fixes or corrupt memory.");

#define MA_FIXES_PARAM_MAX	256

static bool ma_want[ARRAY_SIZE(ma_fix_names)], ma_named[ARRAY_SIZE(ma_fix_names)];

static enum {
	MA_LINK_NONE,		/* fixes=none: not asked for */
	MA_LINK_LOADING,	/* asked for, modprobe not done */
	MA_LINK_REFUSED,	/* modprobe failed */
	MA_LINK_REGISTERED,
	MA_LINK_GONE,		/* was registered, then unloaded */
} ma_link_state;

static DEFINE_MUTEX(ma_link_mutex);
static const struct ma_fixes_ops *ma_ops;	/* under ma_link_mutex */
static char ma_refused[320];			/* why, when refused */

static int ma_fix_index(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ma_fix_names); i++)
		if (!strcmp(ma_fix_names[i], name))
			return i;
	return -1;
}

static int ma_fixes_parse(void)
{
	bool all = false, none = false, named = false;
	char *buf, *cur, *name;
	unsigned int i;
	int ret = 0;

	if (!ma_fixes_param) {
		for (i = 0; i < ARRAY_SIZE(ma_want); i++)
			ma_want[i] = true;
		return 0;
	}
	if (strlen(ma_fixes_param) > MA_FIXES_PARAM_MAX) {
		pr_err("fixes=: longer than %d characters\n", MA_FIXES_PARAM_MAX);
		return -EINVAL;
	}
	buf = kstrdup(ma_fixes_param, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	cur = buf;
	while (!ret && (name = strsep(&cur, ","))) {
		int fix;

		name = strim(name);
		fix = ma_fix_index(name);
		if (!strcmp(name, "all")) {
			all = true;
		} else if (!strcmp(name, "none")) {
			none = true;
		} else if (fix >= 0) {
			named = true;
			ma_want[fix] = true;
			ma_named[fix] = true;
		} else {
			pr_err("fixes=: unknown fix '%s' (known: all, none, " MA_FIX_NAMES ")\n",
			       name);
			ret = -EINVAL;
		}
	}
	kfree(buf);
	if (!ret && none && (all || named)) {
		pr_err("fixes=: 'none' cannot be combined with other fixes\n");
		ret = -EINVAL;
	}
	for (i = 0; all && i < ARRAY_SIZE(ma_want); i++)
		ma_want[i] = true;
	return ret;
}

static void ma_refusal_lines(u64 from, char *buf, size_t len)
{
	static const char *const prefixes[] = { "livepatch: ", MA_FIXES_MODULE ": " };
	struct kmsg_dump_iter it;
	size_t n, used = 0;
	char line[200], *text;
	unsigned int i;

	kmsg_dump_rewind(&it);
	/* from our own mark on, also past a "dmesg -c" meanwhile */
	it.cur_seq = from;
	while (used + 3 < len &&
	       kmsg_dump_get_line(&it, false, line, sizeof(line) - 1, &n)) {
		line[n] = '\0';
		text = strim(line);
		/* "[    5.123456] " when printk.time is on */
		if (*text == '[' && strchr(text, ']'))
			text = skip_spaces(strchr(text, ']') + 1);
		for (i = 0; i < ARRAY_SIZE(prefixes); i++)
			if (!strncmp(text, prefixes[i], strlen(prefixes[i])))
				break;
		if (i == ARRAY_SIZE(prefixes))
			continue;
		used += scnprintf(buf + used, len - used, "%s%s", used ? "; " : "", text);
	}
}

/* modprobe failed and the kernel logged nothing: most likely not installed */
#define MA_SILENT	"the kernel said nothing; is it installed? (insmod " MA_FIXES_MODULE ".ko)"

static void ma_request_fn(struct work_struct *work)
{
	struct kmsg_dump_iter it;
	char lines[240] = "";
	u64 from;
	int ret;

	kmsg_dump_rewind(&it);
	from = it.next_seq;
	ret = request_module(MA_FIXES_MODULE);
	mutex_lock(&ma_link_mutex);
	if (ma_link_state != MA_LINK_LOADING) {
		mutex_unlock(&ma_link_mutex);
		return;
	}
	ma_refusal_lines(from, lines, sizeof(lines));
	if (ret < 0)
		snprintf(ma_refused, sizeof(ma_refused),
			 "the fixes module %s was not loaded: request_module() failed: %pe",
			 MA_FIXES_MODULE, ERR_PTR(ret));
	else if (ret & 0x7f)
		snprintf(ma_refused, sizeof(ma_refused),
			 "the fixes module %s was not loaded (modprobe killed by signal %d): %s",
			 MA_FIXES_MODULE, ret & 0x7f, lines[0] ? lines : MA_SILENT);
	else
		/* modprobe's wait status: its exit status in bits 8 to 15 */
		snprintf(ma_refused, sizeof(ma_refused),
			 "the fixes module %s was not loaded (modprobe exit %d): %s",
			 MA_FIXES_MODULE, (ret >> 8) & 0xff, lines[0] ? lines : MA_SILENT);
	ma_link_state = MA_LINK_REFUSED;
	mutex_unlock(&ma_link_mutex);
	pr_warn("%s\n", ma_refused);
}

static DECLARE_WORK(ma_request_work, ma_request_fn);

/**
 * ma_link_init() - parse fixes= and ask for the fixes module.
 *
 * Return: 0, or -EINVAL for a bad fixes=, or -ENOMEM.
 */
int ma_link_init(void)
{
	unsigned int i;
	int ret;

	ret = ma_fixes_parse();
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(ma_want); i++)
		if (ma_want[i])
			break;
	if (i == ARRAY_SIZE(ma_want)) {
		ma_link_state = MA_LINK_NONE;
		return 0;
	}
	ma_link_state = MA_LINK_LOADING;
	schedule_work(&ma_request_work);
	return 0;
}

/* Only called once the fixes module is gone: it holds a reference on us. */
void ma_link_exit(void)
{
	cancel_work_sync(&ma_request_work);
}

/**
 * ma_link_register() - the fixes module shows itself in the "fixes" file.
 * @ops: how; it stays until ma_link_unregister()
 */
void ma_link_register(const struct ma_fixes_ops *ops)
{
	mutex_lock(&ma_link_mutex);
	ma_ops = ops;
	ma_link_state = MA_LINK_REGISTERED;
	mutex_unlock(&ma_link_mutex);
}
EXPORT_SYMBOL_GPL(ma_link_register);

/**
 * ma_link_unregister() - the fixes module goes; waits for a reader.
 */
void ma_link_unregister(void)
{
	mutex_lock(&ma_link_mutex);
	ma_ops = NULL;
	ma_link_state = MA_LINK_GONE;
	mutex_unlock(&ma_link_mutex);
}
EXPORT_SYMBOL_GPL(ma_link_unregister);

/**
 * ma_link_selected() - whether fixes= selects a fix.
 * @i: the fix's index in Kbuild's MA_FIXES
 * @named: set to whether fixes= names it
 *
 * Return: true if it is selected.
 */
bool ma_link_selected(unsigned int i, bool *named)
{
	if (i >= ARRAY_SIZE(ma_want))
		return false;
	*named = ma_named[i];
	return ma_want[i];
}
EXPORT_SYMBOL_GPL(ma_link_selected);

/**
 * ma_link_fix_out() - why a fix is built out of this build, if it is.
 * @name: the fix
 *
 * Return: the reason (from the kernel's System.map), or NULL.
 */
const char *ma_link_fix_out(const char *name)
{
	unsigned int i;

	for (i = 0; ma_fixes_out[i].fix; i++)
		if (!strcmp(ma_fixes_out[i].fix, name))
			return ma_fixes_out[i].why;
	return NULL;
}
EXPORT_SYMBOL_GPL(ma_link_fix_out);

/**
 * ma_allow_unverified() - the administrator asked for unverified fixes.
 *
 * Return: allow_unverified=.
 */
bool ma_allow_unverified(void)
{
	return ma_allow_unverified_param;
}
EXPORT_SYMBOL_GPL(ma_allow_unverified);

/**
 * ma_link_show() - the "fixes" debugfs file (format in README.md).
 * @m: the seq_file
 *
 * Without the fixes module, the build's verdict ("upstream",
 * "unsupported") is shown as the fixes module would show it.
 *
 * Return: 0.
 */
int ma_link_show(struct seq_file *m)
{
	const char *state = "off", *lp_state = "none", *detail;
	unsigned int i;

	seq_puts(m, "format 1\n");
	mutex_lock(&ma_link_mutex);
	if (ma_ops) {
		ma_ops->show(m);
		goto out;
	}
	switch (ma_link_state) {
	case MA_LINK_NONE:
		detail = "fixes=none: the fixes module " MA_FIXES_MODULE " is not loaded";
		break;
	case MA_LINK_LOADING:
		lp_state = "loading";
		state = "pending";
		detail = "loading the fixes module " MA_FIXES_MODULE;
		break;
	case MA_LINK_REFUSED:
		state = "unsupported";
		detail = ma_refused;
		break;
	default:
		detail = "the fixes module " MA_FIXES_MODULE " was unloaded";
	}
	seq_printf(m, "livepatch state=%s transition_ms=-1 rmap_mlocks=0 referenced_mlocks=0 unmap_mlocks=0 fault_whole_folios=0 faultaround_whole_folios=0\n",
		   lp_state);
	for (i = 0; i < ARRAY_SIZE(ma_fix_names); i++) {
		const char *out = ma_link_fix_out(ma_fix_names[i]);

		if (ma_fix_build[i].upstream)
			seq_printf(m, "fix=%s state=upstream detail=%s\n", ma_fix_names[i],
				   ma_fix_build[i].upstream);
		else if (out || ma_fix_build[i].unsupported)
			seq_printf(m, "fix=%s state=unsupported detail=%s\n", ma_fix_names[i],
				   out ? out : ma_fix_build[i].unsupported);
		else
			seq_printf(m, "fix=%s state=%s detail=%s\n", ma_fix_names[i], state,
				   detail);
	}
out:
	mutex_unlock(&ma_link_mutex);
	return 0;
}
