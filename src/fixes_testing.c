// SPDX-License-Identifier: GPL-2.0
/*
 * Test support of the fixes module, compiled only into a test build (see
 * testing.c, whose fail_at= the fixes module also obeys through the
 * audit's ma_inject()):
 *
 *  - the ma_hold object of MLOCK_AUDIT_BREAK=hold and hold_early_mlock;
 *  - MLOCK_AUDIT_BREAK=ksym: a reference to a kernel symbol that no
 *    kernel has, so that the kernel refuses this module at load while
 *    the audit stays (tests/host/klp-refusals).
 */
#include <linux/livepatch.h>

#include "symbols.h"
#include "testing.h"

#if defined(MLOCK_AUDIT_BREAK_HOLD) || defined(MLOCK_AUDIT_BREAK_HOLD_EARLY_MLOCK)
/*
 * In place of ma_hold_wait() (tests/modules/ma_hold): the tests never call
 * it once the transition has switched them; it waits for nothing.
 */
static int ma_hold_wait_replaced(void)
{
	return 0;
}

struct klp_func ma_hold_funcs[] = {
	{ .old_name = "ma_hold_wait", .new_func = ma_hold_wait_replaced },
	{ }
};
#endif

#ifdef MLOCK_AUDIT_BREAK_KSYM
/* no kernel has it: its livepatch relocation cannot be resolved */
MA_KSYM void ma_no_such_kernel_symbol(void);

/* never called: its relocation alone makes the kernel refuse the module */
void ma_break_ksym(void)
{
	ma_no_such_kernel_symbol();
}
#endif
