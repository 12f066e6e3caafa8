// SPDX-License-Identifier: GPL-2.0
/*
 * mlock_audit_fixes: the live fixes of mlock_audit, as a livepatch.
 *
 * The audit module (mlock_audit) loads this one once its own init is done
 * and keeps fixes=, allow_unverified= and the "fixes" file; this module
 * registers its lines there (fixes_link.c). Every unexported kernel symbol
 * the fixes need is a livepatch relocation of this module, so a kernel
 * that lacks one refuses this module and not the audit.
 *
 *   # echo 0 > /sys/kernel/livepatch/mlock_audit_fixes/enabled
 *   # rmmod mlock_audit_fixes
 */
#include <linux/module.h>

#include "fixes.h"
#include "fixes_link.h"
#include "symbols.h"

MA_KLP_FLAG;

static const struct ma_fixes_ops ma_ops = {
	.show = ma_fixes_show,
};

static int __init mlock_audit_fixes_init(void)
{
	int ret;

	ret = ma_symbols_init();
	if (ret)
		goto err;
	/* last but for the registration: once the livepatch is enabled, init must not fail */
	ret = ma_fixes_init();
	if (ret)
		goto err;
	ma_link_register(&ma_ops);
	return 0;

err:
	/* for the audit's "fixes" file, which quotes the kernel log */
	pr_err("init failed: %pe\n", ERR_PTR(ret));
	return ret;
}

static void __exit mlock_audit_fixes_exit(void)
{
	ma_link_unregister();
	ma_fixes_exit();
}

module_init(mlock_audit_fixes_init);
module_exit(mlock_audit_fixes_exit);

MODULE_DESCRIPTION("Live fixes of mlock accounting of large folios (for mlock_audit)");
MODULE_AUTHOR("mlock_audit developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(MLOCK_AUDIT_VERSION);
MODULE_INFO(livepatch, "Y");
