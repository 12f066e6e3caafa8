/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test support (testing.c in the audit, fixes_testing.c in the fixes
 * module), only in a build with MLOCK_AUDIT_TESTING (Kbuild): the
 * MLOCK_AUDIT_BREAK modes that act at load, and fault injection at load
 * (fail_at=; the Debian kernels are built without CONFIG_FAULT_INJECTION,
 * so failslab and fail_page_alloc cannot reach the module's init path).
 * In any other build both are empty inlines.
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

/*
 * Test-only (MLOCK_AUDIT_BREAK=hold or hold_early_mlock): one more object
 * in the livepatch, the test module ma_hold, whose ma_hold_wait() it
 * replaces, so that a task waiting there keeps the transition open
 * (tests/host/enable-window). Never in a real build.
 */
#ifdef MLOCK_AUDIT_BREAK_KSYM
void ma_break_ksym(void);
#endif

#if defined(MLOCK_AUDIT_BREAK_HOLD) || defined(MLOCK_AUDIT_BREAK_HOLD_EARLY_MLOCK)
#include <linux/livepatch.h>
extern struct klp_func ma_hold_funcs[];
#define MA_HOLD_OBJECT	{ .name = "ma_hold", .funcs = ma_hold_funcs },
#else
#define MA_HOLD_OBJECT
#endif

#endif /* _MLOCK_AUDIT_TESTING_H */
