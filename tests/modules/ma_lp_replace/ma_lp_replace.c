// SPDX-License-Identifier: GPL-2.0
/*
 * ma_lp_replace: a stand-in for another vendor's livepatch, for the guest
 * test 47-foreign-livepatch. Like the livepatches kpatch builds and
 * distribution livepatch services ship, it is cumulative (.replace =
 * true): once its transition completes, every function another livepatch
 * patched is back to the kernel's own code unless this one replaces it.
 * It replaces only cmdline_proc_show(), so that a read of /proc/cmdline
 * shows it is in force.
 */
#include <linux/kernel.h>
#include <linux/livepatch.h>
#include <linux/module.h>
#include <linux/seq_file.h>

static int ma_lp_replace_cmdline_show(struct seq_file *m, void *v)
{
	seq_puts(m, "ma_lp_replace is in force\n");
	return 0;
}

static struct klp_func ma_lp_replace_funcs[] = {
	{ .old_name = "cmdline_proc_show", .new_func = ma_lp_replace_cmdline_show },
	{ }
};

static struct klp_object ma_lp_replace_objs[] = {
	{ .funcs = ma_lp_replace_funcs },	/* vmlinux */
	{ }
};

static struct klp_patch ma_lp_replace_patch = {
	.mod = THIS_MODULE,
	.objs = ma_lp_replace_objs,
	.replace = true,
};

static int __init ma_lp_replace_init(void)
{
	return klp_enable_patch(&ma_lp_replace_patch);
}

static void __exit ma_lp_replace_exit(void)
{
}

module_init(ma_lp_replace_init);
module_exit(ma_lp_replace_exit);
MODULE_DESCRIPTION("mlock_audit test: a cumulative livepatch of cmdline_proc_show");
MODULE_LICENSE("GPL");
MODULE_INFO(livepatch, "Y");
