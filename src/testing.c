// SPDX-License-Identifier: GPL-2.0
/*
 * Test support, compiled only with MLOCK_AUDIT_TESTING=1 (the test
 * suite's builds), never in a DKMS or `make` build: fault injection at
 * load must not ship.
 *
 * fail_at=SITE[:N] makes the N-th pass (default the first) through one
 * init step fail as if memory had run out, to check that each failure is
 * reported and unwound. The sites: symbols, hook, fixes, livepatch.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "testing.h"

static char *ma_fail_at;
module_param_named(fail_at, ma_fail_at, charp, 0444);
MODULE_PARM_DESC(fail_at, "Testing only: make one init step fail (symbols, hook[:N], fixes, livepatch)");

static const char *const ma_inject_sites[] = {
	"symbols", "hook", "fixes", "livepatch",
};

static char ma_inject_site[16];
static unsigned int ma_inject_nth, ma_inject_seen;

/* Parse fail_at=: 0, or -EINVAL (with a message) for a value that names no site. */
static int ma_inject_parse(void)
{
	const char *colon;
	unsigned int i;
	size_t len;

	if (!ma_fail_at)
		return 0;
	colon = strchr(ma_fail_at, ':');
	len = colon ? colon - ma_fail_at : strlen(ma_fail_at);
	ma_inject_nth = 1;
	if (colon && (kstrtouint(colon + 1, 10, &ma_inject_nth) || !ma_inject_nth))
		goto bad;
	for (i = 0; i < ARRAY_SIZE(ma_inject_sites); i++) {
		if (strlen(ma_inject_sites[i]) != len ||
		    strncmp(ma_inject_sites[i], ma_fail_at, len))
			continue;
		strscpy(ma_inject_site, ma_inject_sites[i], sizeof(ma_inject_site));
		return 0;
	}
bad:
	pr_err("fail_at=: '%s' is not symbols, hook[:N], fixes or livepatch (N >= 1)\n",
	       ma_fail_at);
	return -EINVAL;
}

/**
 * ma_inject() - should this pass through @site fail?
 * @site: one of the sites above
 *
 * Return: true (once, with a message) on the chosen pass of the chosen site.
 */
bool ma_inject(const char *site)
{
	if (!ma_inject_site[0] || strcmp(site, ma_inject_site))
		return false;
	if (++ma_inject_seen != ma_inject_nth)
		return false;
	pr_info("fail_at=%s: injecting a failure (pass %u)\n", site, ma_inject_seen);
	return true;
}
EXPORT_SYMBOL_GPL(ma_inject);

/**
 * ma_testing_init() - the first step of the module's init in a test build.
 *
 * Return: 0, or -EINVAL for a fail_at= value that names no site.
 */
int ma_testing_init(void)
{
	return ma_inject_parse();
}
