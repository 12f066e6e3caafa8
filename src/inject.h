/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test-only fault injection at load (fail_at=, see inject.c). The Debian
 * kernels are built without CONFIG_FAULT_INJECTION, so failslab and
 * fail_page_alloc cannot reach the module's init path.
 */
#ifndef _MLOCK_AUDIT_INJECT_H
#define _MLOCK_AUDIT_INJECT_H

#include <linux/types.h>

int ma_inject_init(void);
bool ma_inject(const char *site);

/*
 * Test-only (MLOCK_AUDIT_BREAK=hold or hold_early_mlock): one more object
 * in the livepatch, the test module ma_hold, whose ma_hold_wait() it
 * replaces, so that a task waiting there keeps the transition open
 * (tests/host/enable-window). Never in a real build.
 */
#if defined(MLOCK_AUDIT_BREAK_HOLD) || defined(MLOCK_AUDIT_BREAK_HOLD_EARLY_MLOCK)
#include <linux/livepatch.h>
extern struct klp_func ma_hold_funcs[];
#define MA_HOLD_OBJECT	{ .name = "ma_hold", .funcs = ma_hold_funcs },
#else
#define MA_HOLD_OBJECT
#endif

#endif /* _MLOCK_AUDIT_INJECT_H */
