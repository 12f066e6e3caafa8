/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test support (testing.c, in the audit), only in a build with
 * MLOCK_AUDIT_TESTING (Kbuild): fault injection at load (fail_at=; the
 * Debian kernels are built without CONFIG_FAULT_INJECTION, so failslab and
 * fail_page_alloc cannot reach the module's init path), which the fixes
 * module also obeys through the audit's ma_inject(). In any other build
 * both are empty inlines.
 */
#ifndef _MLOCK_AUDIT_TESTING_H
#define _MLOCK_AUDIT_TESTING_H

#include <linux/types.h>

#ifdef MLOCK_AUDIT_TESTING
int ma_testing_init(void);
bool ma_inject(const char *site);
#else
static inline int ma_testing_init(void)
{
	return 0;
}

static inline bool ma_inject(const char *site)
{
	return false;
}
#endif

#endif /* _MLOCK_AUDIT_TESTING_H */
