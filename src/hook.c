// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol resolution with explicit fallbacks, and the kprobe plumbing shared
 * by the observation hooks (one hook per file: rmap_probe.c, fault_probe.c,
 * khugepaged_probe.c).
 *
 * A hook tries its symbol sets in order. Renamed functions are separate
 * sets (e.g. folio_add_file_rmap_ptes/_pmd on 6.8+, page_add_file_rmap
 * before); functions GCC cloned are found under their clone suffix. When no
 * set resolves, the hook stays unregistered and the reason is reported in
 * debugfs "probes" instead of failing the load.
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "hook.h"
#include "testing.h"

static const char *const clone_suffixes[] = { "", ".constprop.0", ".isra.0" };

static int ma_hook_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct ma_site *site = container_of(kp, struct ma_site, kp);

	if (!site->hook->count_if || site->hook->count_if())
		this_cpu_inc(*site->hits);
	return 0;
}
NOKPROBE_SYMBOL(ma_hook_pre);

static void ma_site_release(struct ma_site *site)
{
	free_percpu(site->hits);
	memset(site, 0, sizeof(*site));
}

/* Probe @name or one of its clones; 0 or the error of the plain name. */
static int ma_site_register(struct ma_hook *hook, struct ma_site *site,
			    const char *name)
{
	int i, ret, first = -ENOENT;

	site->hits = alloc_percpu(unsigned long);
	if (!site->hits)
		return -ENOMEM;
	if (ma_inject("kprobe")) {
		ma_site_release(site);
		return -ENOMEM;
	}
	site->hook = hook;
	for (i = 0; i < ARRAY_SIZE(clone_suffixes); i++) {
		snprintf(site->sym, sizeof(site->sym), "%s%s", name,
			 clone_suffixes[i]);
		memset(&site->kp, 0, sizeof(site->kp));
		site->kp.symbol_name = site->sym;
		site->kp.pre_handler = ma_hook_pre;
		ret = register_kprobe(&site->kp);
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
	struct kprobe *kps[MA_HOOK_MAX_SYMS];
	unsigned int i;

	for (i = 0; i < hook->nr_sites; i++)
		kps[i] = &hook->sites[i].kp;
	if (hook->nr_sites)
		unregister_kprobes(kps, hook->nr_sites);
	for (i = 0; i < hook->nr_sites; i++)
		ma_site_release(&hook->sites[i]);
	hook->nr_sites = 0;
}

/**
 * ma_hook_register() - probe the first symbol set of @hook that resolves.
 * @hook: the hook
 *
 * Return: 0 when a set was probed or when none resolved (the reason is kept
 * for the report); -ENOMEM when memory ran out; -EINVAL when a set has more
 * symbols than MA_HOOK_MAX_SYMS.
 */
int ma_hook_register(struct ma_hook *hook)
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
					       *name);
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
	pr_warn("hook %s not found: %s\n", hook->name, hook->why);
	return 0;
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
void ma_hook_show(struct seq_file *m, struct ma_hook *hook)
{
	unsigned int i;

	if (!hook->nr_sites) {
		seq_printf(m, "%s not found: tried %s\n", hook->name, hook->why);
		return;
	}
	for (i = 0; i < hook->nr_sites; i++)
		seq_printf(m, "%s %s hits=%lu missed=%lu\n", hook->name,
			   hook->sites[i].sym, ma_site_hits(&hook->sites[i]),
			   hook->sites[i].kp.nmissed);
}
