// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol resolution with explicit fallbacks, and the ftrace plumbing shared
 * by the observation hooks (one hook per file: rmap_probe.c, fault_probe.c,
 * khugepaged_probe.c).
 *
 * Each probed function has an ftrace_ops of its own, without flags, whose
 * callback adds one to a per-CPU counter. Of the mechanisms that work on
 * 6.1, 6.12 and 7.3 it is the cheapest: in one boot under TCG (make bench,
 * hook-cost) it cost 37-63 ns a call against 139-186 ns for a kprobe on
 * ftrace, which saves all the registers, and 103-131 ns for an fprobe,
 * which Debian's 6.1 lacks; the ftrace_ops flags SAVE_REGS and RECURSION
 * nearly double it. Without RECURSION ftrace calls the callback directly,
 * which must then not recurse: it calls nothing traced. It reads no
 * register and never moves the instruction pointer, so a livepatch of the
 * same function (an IPMODIFY ftrace_ops) can still register.
 *
 * A hook tries its symbol sets in order. Renamed functions are separate
 * sets (e.g. folio_add_file_rmap_ptes/_pmd on 6.8+, page_add_file_rmap
 * before); functions GCC cloned are found under their clone suffix. When no
 * set resolves, the hook stays unregistered and the reason is reported in
 * debugfs "probes" instead of failing the load.
 *
 * probes=off registers no hook: for hosts that want the audit and the
 * fixes and not even the cost of a callback on their hottest paths.
 */
#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/livepatch.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "hook.h"
#include "testing.h"

static bool ma_probes_on = true;
module_param_named(probes, ma_probes_on, bool, 0444);
MODULE_PARM_DESC(probes, "Register the observation hooks (default on; off: the audit and the fixes only)");

static struct ma_hook *const ma_hooks[] = {
	&ma_rmap_hook,
	&ma_fault_hook,
	&ma_khugepaged_hook,
};

static const char *const clone_suffixes[] = { "", ".constprop.0", ".isra.0" };

/*
 * Whether the livepatch sends the current call to @fix's replacement, which
 * then counts it: the choice klp_ftrace_handler() (kernel/livepatch/patch.c,
 * the same in 6.1, 6.12 and 7.3) makes at the same call site, from the same
 * fields. During a transition a task runs the replacement once its own
 * state is patched; the state of the running task cannot change inside an
 * ftrace handler, so both handlers see the same one. Not seen here: another
 * livepatch stacked on the same function, whose replacement counts nothing.
 */
static __always_inline bool ma_klp_sends(const struct klp_func *fix)
{
	if (!READ_ONCE(fix->patched))
		return false;
	if (READ_ONCE(fix->transition)) {
		smp_rmb();	/* as klp_ftrace_handler(): transition, then state */
		return READ_ONCE(current->patch_state) != KLP_TRANSITION_UNPATCHED;
	}
	return true;
}

static void notrace ma_hook_call(unsigned long ip, unsigned long parent_ip,
				 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct ma_site *site = container_of(op, struct ma_site, ops);
	const struct klp_func *fix;

	/* ftrace calls it preemptible: ma_site_take_back() waits for this */
	preempt_disable_notrace();
	fix = READ_ONCE(site->fix);
	if (!fix || !ma_klp_sends(fix))
		ma_site_count(site);
	preempt_enable_notrace();
}

/* Start or stop counting at @site's function (may sleep). */
static int ma_site_arm(struct ma_site *site, bool arm)
{
	int ret;

	ret = arm ? register_ftrace_function(&site->ops) :
		    unregister_ftrace_function(&site->ops);
	if (!ret)
		site->armed = arm;
	return ret;
}

static void ma_site_release(struct ma_site *site)
{
	if (site->armed)
		ma_site_arm(site, false);
	ftrace_free_filter(&site->ops);
	free_percpu(site->hits);
	memset(site, 0, sizeof(*site));
}

/*
 * Point @site's filter at its function, site->sym. Where the build found
 * the function in the kernel's symbols, its address came with the module
 * (hook_sites.c) and ftrace finds its record by that address. Otherwise
 * by name, for which ftrace looks up the symbol of every traceable
 * function, a module's by a linear search of its symbols: with xfs loaded
 * that made a load of the audit take 5.0-5.3 s on 6.1, 12.6-16.8 s on 6.12
 * and 25.5 s on 7.3 (TCG, six guests at once), against 0.3-0.75 s with
 * probes=off. A name the kernel lacks is told apart first, without that
 * walk: a kprobe, registered disabled and removed at once, fails with
 * -ENOENT from the kernel's name table. Its address is not read: only
 * ftrace resolves the name, so no kernel address is looked up here.
 * Any other kprobe error (a function kprobes refuse) leaves the answer to
 * ftrace.
 */
static int ma_site_filter(struct ma_site *site)
{
	unsigned long start = ma_hook_site_start(site->sym);
#ifdef CONFIG_KPROBES
	struct kprobe kp = {
		.symbol_name = site->sym,
		.flags = KPROBE_FLAG_DISABLED,
	};
	int ret;
#endif

	/* ftrace maps a function's start to its __fentry__ call */
	if (start)
		return ftrace_set_filter_ip(&site->ops, start, 0, 1);
#ifdef CONFIG_KPROBES
	ret = register_kprobe(&kp);
	if (ret == -ENOENT)
		return ret;
	if (!ret)
		unregister_kprobe(&kp);
#endif
	/* ftrace's filter parser takes a writable buffer; a plain name stays as it is */
	return ftrace_set_filter(&site->ops, (unsigned char *)site->sym,
				 strlen(site->sym), 1);
}

/*
 * Hook @name, or, with @clones, @name or one of its clones; 0 or the error
 * of the plain name (-ENOENT: no such symbol; -EINVAL: ftrace cannot trace
 * it).
 */
static int ma_site_register(struct ma_hook *hook, struct ma_site *site,
			    const char *name, bool clones)
{
	int i, ret, first = -ENOENT;
	int tries = clones ? ARRAY_SIZE(clone_suffixes) : 1;

	site->hits = alloc_percpu(unsigned long);
	if (!site->hits)
		return -ENOMEM;
	site->hook = hook;
	site->ops.func = ma_hook_call;
	for (i = 0; i < tries; i++) {
		snprintf(site->sym, sizeof(site->sym), "%s%s", name,
			 clone_suffixes[i]);
		if (ma_inject("hook")) {
			ma_site_release(site);
			return -ENOMEM;
		}
		ret = ma_site_filter(site);
		if (!ret)
			ret = ma_site_arm(site, true);
		if (!ret)
			return 0;
		if (i == 0)
			first = ret;
	}
	ma_site_release(site);
	return first;
}

static void ma_hook_unregister_sites(struct ma_hook *hook)
{
	unsigned int i;

	for (i = 0; i < hook->nr_sites; i++)
		ma_site_release(&hook->sites[i]);
	hook->nr_sites = 0;
}

/*
 * One pass over the symbol sets of @hook, with or without the clone
 * suffixes: 0 when a set was probed, -ENOENT when none resolved (the
 * reason is in hook->why), or the error that ends the registration.
 */
static int ma_hook_pass(struct ma_hook *hook, bool clones)
{
	const char *const *const *set;
	size_t len = 0;
	int ret;

	hook->why[0] = '\0';
	for (set = hook->variants; *set; set++) {
		const char *const *name;

		for (name = *set; *name; name++) {
			if (WARN_ON(hook->nr_sites == MA_HOOK_MAX_SYMS)) {
				ma_hook_unregister_sites(hook);
				return -EINVAL;
			}
			ret = ma_site_register(hook, &hook->sites[hook->nr_sites],
					       *name, clones);
			if (ret == -ENOMEM) {
				ma_hook_unregister_sites(hook);
				return ret;
			}
			if (ret) {
				len += scnprintf(hook->why + len,
						 sizeof(hook->why) - len,
						 "%s%s (%pe)", len ? ", " : "",
						 *name, ERR_PTR(ret));
				break;
			}
			hook->nr_sites++;
		}
		if (!*name)
			return 0;
		ma_hook_unregister_sites(hook);
	}
	return -ENOENT;
}

/**
 * ma_hook_register() - probe the first symbol set of @hook that resolves.
 * @hook: the hook
 *
 * The sets are tried with their plain names first, and with the clone
 * suffixes only when no set resolves so: a try of a name whose address the
 * build did not give looks it up (in vmlinux's sorted name table, then,
 * for a name vmlinux lacks, by a linear search of every module's symbols),
 * and each such name found costs ftrace's walk of every traceable function
 * (ma_site_filter()); on the supported kernels every probed function has
 * its plain name: 7 tries a load on 6.1 instead of 13, 6 on 6.12 instead
 * of 8.
 *
 * Return: 0 when a set was probed or when none resolved (the reason is kept
 * for the report); -ENOMEM when memory ran out; -EINVAL when a set has more
 * symbols than MA_HOOK_MAX_SYMS.
 */
int ma_hook_register(struct ma_hook *hook)
{
	int ret;

	hook->off = !ma_probes_on;
	if (hook->off)
		return 0;
	ret = ma_hook_pass(hook, false);
	if (ret == -ENOENT)
		ret = ma_hook_pass(hook, true);
	if (ret == -ENOENT) {
		pr_warn("hook %s not found: %s\n", hook->name, hook->why);
		return 0;
	}
	return ret;
}

void ma_hook_unregister(struct ma_hook *hook)
{
	ma_hook_unregister_sites(hook);
}

static unsigned long ma_site_hits(struct ma_site *site)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(site->hits, cpu);
	return sum;
}

/* One line per probed symbol; see README.md, "debugfs probes". */
static void ma_hook_show(struct seq_file *m, struct ma_hook *hook)
{
	unsigned int i;

	if (hook->off) {
		seq_printf(m, "%s off: probes=off\n", hook->name);
		return;
	}
	if (!hook->nr_sites) {
		seq_printf(m, "%s not found: tried %s\n", hook->name, hook->why);
		return;
	}
	for (i = 0; i < hook->nr_sites; i++) {
		struct ma_site *site = &hook->sites[i];

		/* missed stays in the format: an ftrace callback drops no call */
		seq_printf(m, "%s %s hits=%lu missed=0%s\n", hook->name,
			   site->sym, ma_site_hits(site),
			   READ_ONCE(site->quiet) ? " counted by the live fix" : "");
	}
}

/* The "probes" file after its first line: every hook in turn. */
void ma_hooks_show(struct seq_file *m)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ma_hooks); i++)
		ma_hook_show(m, ma_hooks[i]);
}

/**
 * ma_hook_site() - the probe on a kernel function, for its replacement.
 * @func: the function's name, as the livepatch names it
 *
 * Return: the site probing @func under that very name (not a clone of it),
 * or NULL when no hook probes it (probes=off, not found, not probed).
 */
struct ma_site *ma_hook_site(const char *func)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(ma_hooks); i++)
		for (j = 0; j < ma_hooks[i]->nr_sites; j++)
			if (!strcmp(ma_hooks[i]->sites[j].sym, func))
				return &ma_hooks[i]->sites[j];
	return NULL;
}
EXPORT_SYMBOL_GPL(ma_hook_site);

/**
 * ma_site_hand_over() - let a replacement count the calls sent to it.
 * @site: the probe on the replaced function
 * @fix: the replacement's klp_func, before the livepatch is enabled
 *
 * From then on the hook counts only the calls the livepatch does not send
 * to @fix, and the replacement calls ma_site_count() for the others.
 */
void ma_site_hand_over(struct ma_site *site, const struct klp_func *fix)
{
	WRITE_ONCE(site->fix, fix);
}
EXPORT_SYMBOL_GPL(ma_site_hand_over);

/**
 * ma_site_quiet() - unregister or register again the hook of a handed-over
 * site.
 * @site: the site
 * @quiet: true once every task runs the replacement (the livepatch's
 *	transition completed), false before the livepatch is disabled
 *
 * A quiet hook leaves the livepatch alone on the function's ftrace call
 * site, which then takes ftrace's direct path instead of its list.
 * May sleep.
 */
void ma_site_quiet(struct ma_site *site, bool quiet)
{
	int ret;

	if (site->quiet == quiet)
		return;
	ret = ma_site_arm(site, !quiet);
	if (ret) {
		pr_warn("cannot %s the hook on %s: %pe\n", quiet ? "unregister" :
			"register again", site->sym, ERR_PTR(ret));
		return;
	}
	WRITE_ONCE(site->quiet, quiet);
}
EXPORT_SYMBOL_GPL(ma_site_quiet);

/**
 * ma_site_take_back() - the hook counts every call again.
 * @site: the site
 *
 * Called once the livepatch is gone, before the replacement's module can
 * go: no call reaches the replacement any more. May sleep.
 */
void ma_site_take_back(struct ma_site *site)
{
	ma_site_quiet(site, false);
	WRITE_ONCE(site->fix, NULL);
	/* a callback may still read the klp_func, which goes with its module */
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(ma_site_take_back);
