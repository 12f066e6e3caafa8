// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol resolution with explicit fallbacks, and the ftrace plumbing shared
 * by the observation hooks (rmap_probe.c, fault_probe.c, khugepaged_probe.c).
 *
 * Each probed function has an ftrace_ops of its own, without flags: a
 * plain ftrace_ops is cheaper than a kprobe (which saves all registers)
 * and than an fprobe (which Debian's 6.1 lacks), and SAVE_REGS or
 * RECURSION would nearly double its cost. Without RECURSION the callback
 * must not recurse: it calls nothing traced. It never moves the
 * instruction pointer, so a livepatch of the same function (an IPMODIFY
 * ftrace_ops) can still register.
 *
 * A hook tries its symbol sets (src/hook-sites) in order; renamed
 * functions are separate sets, GCC clones are found under their suffix. A hook that resolves no
 * set is reported in debugfs "probes" instead of failing the load.
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
#include "hook_sites.h"
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
 * The choice klp_ftrace_handler() (kernel/livepatch/patch.c, the same in
 * 6.1, 6.12 and 7.3) makes from the same fields; the running task's patch
 * state cannot change inside an ftrace handler, so both see the same.
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
 * Filter by the address the build found (hook_sites.c) where there is one:
 * by name, ftrace looks up the symbol of every traceable function, which
 * is slow with large modules loaded. A name the kernel lacks is rejected
 * first without that walk: a disabled kprobe fails with -ENOENT. Any
 * other kprobe error leaves the answer to ftrace.
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

/* Return: 0 or the error of the plain name (-EINVAL: not traceable). */
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
 * Clone suffixes are tried only when no set resolves by plain names: each
 * name looked up costs a walk of the kernel's and modules' symbols.
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
 * A quiet hook leaves the livepatch alone on the call site, so ftrace
 * takes its direct path instead of its list. May sleep.
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
 * Called once the livepatch is gone (no call reaches the replacement),
 * before the replacement's module can go. May sleep.
 */
void ma_site_take_back(struct ma_site *site)
{
	ma_site_quiet(site, false);
	WRITE_ONCE(site->fix, NULL);
	/* a callback may still read the klp_func, which goes with its module */
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(ma_site_take_back);
