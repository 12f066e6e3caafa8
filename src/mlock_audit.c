// SPDX-License-Identifier: GPL-2.0
/*
 * mlock_audit: audit, observe and live-fix mlock accounting of large folios.
 *
 * This file holds module init/exit and the debugfs views. Usage:
 *
 *   # modprobe mlock_audit
 *   # cat /sys/kernel/debug/mlock_audit/version
 *   # cat /sys/kernel/debug/mlock_audit/probes
 *   # cat /sys/kernel/debug/mlock_audit/fixes
 *   # echo 0 > /sys/kernel/livepatch/mlock_audit_fixes/enabled
 *   # modprobe -r mlock_audit_fixes mlock_audit
 *
 * The live fixes are a second module, mlock_audit_fixes, which this one
 * loads once its own init is done (fixes_link.c).
 *
 * Every debugfs file is a read-only seq_file (kernel lockdown refuses
 * writable debugfs files) whose first line is "format <N>". The formats are
 * documented in README.md.
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/utsname.h>
#include <generated/utsrelease.h>

#include "audit.h"
#include "fixes_link.h"
#include "hook.h"
#include "symbols.h"
#include "testing.h"

#define MA_FORMAT_VERSION	1

MA_KLP_FLAG;

static struct dentry *ma_debugfs_dir;

static int version_show(struct seq_file *m, void *v)
{
	seq_printf(m, "format %d\n", MA_FORMAT_VERSION);
	seq_printf(m, "module %s\n", MLOCK_AUDIT_VERSION);
	seq_printf(m, "kernel %s\n", init_utsname()->release);
	seq_printf(m, "built_for %s\n", UTS_RELEASE);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(version);

static int probes_show(struct seq_file *m, void *v)
{
	seq_printf(m, "format %d\n", MA_FORMAT_VERSION);
	ma_hooks_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(probes);

static int summary_show(struct seq_file *m, void *v)
{
	return ma_summary_show(m);
}
DEFINE_SHOW_ATTRIBUTE(summary);

static int fixes_show(struct seq_file *m, void *v)
{
	return ma_link_show(m);
}
DEFINE_SHOW_ATTRIBUTE(fixes);

static int vmas_show(struct seq_file *m, void *v)
{
	return ma_vmas_show(m);
}
DEFINE_SHOW_ATTRIBUTE(vmas);

static void ma_debugfs_init(void)
{
	ma_debugfs_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(ma_debugfs_dir))
		pr_warn("debugfs unavailable (%pe): no reports will be shown\n",
			ma_debugfs_dir);
	debugfs_create_file("version", 0444, ma_debugfs_dir, NULL,
			    &version_fops);
	debugfs_create_file("probes", 0444, ma_debugfs_dir, NULL,
			    &probes_fops);
	debugfs_create_file("summary", 0444, ma_debugfs_dir, NULL,
			    &summary_fops);
	debugfs_create_file("vmas", 0444, ma_debugfs_dir, NULL, &vmas_fops);
	debugfs_create_file("fixes", 0444, ma_debugfs_dir, NULL, &fixes_fops);
}

static int __init mlock_audit_init(void)
{
	int ret;

	ret = ma_testing_init();
	if (ret)
		return ret;
	ret = ma_inject("symbols") ? -ENOMEM : ma_symbols_init();
	if (ret)
		return ret;
	ret = ma_hook_register(&ma_rmap_hook);
	if (ret)
		goto err;
	ret = ma_hook_register(&ma_fault_hook);
	if (ret)
		goto err_rmap;
	ret = ma_hook_register(&ma_khugepaged_hook);
	if (ret)
		goto err_fault;
	ma_debugfs_init();
	ret = ma_link_init();
	if (ret)
		goto err_debugfs;
	pr_info("version %s loaded\n", MLOCK_AUDIT_VERSION);
	return 0;

err_debugfs:
	debugfs_remove(ma_debugfs_dir);
	ma_hook_unregister(&ma_khugepaged_hook);
err_fault:
	ma_hook_unregister(&ma_fault_hook);
err_rmap:
	ma_hook_unregister(&ma_rmap_hook);
err:
	return ret;
}

static void __exit mlock_audit_exit(void)
{
	ma_link_exit();
	debugfs_remove(ma_debugfs_dir);
	ma_hook_unregister(&ma_khugepaged_hook);
	ma_hook_unregister(&ma_fault_hook);
	ma_hook_unregister(&ma_rmap_hook);
	pr_info("unloaded\n");
}

module_init(mlock_audit_init);
module_exit(mlock_audit_exit);

MODULE_DESCRIPTION("Audit and observe mlock accounting of large folios");
MODULE_AUTHOR("mlock_audit developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(MLOCK_AUDIT_VERSION);
/* its two kernel symbols are livepatch relocations (symbols.h) */
MODULE_INFO(livepatch, "Y");
