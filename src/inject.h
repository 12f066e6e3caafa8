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

#endif /* _MLOCK_AUDIT_INJECT_H */
