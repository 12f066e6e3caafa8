/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The load-time check of the structs and enums the fixes mirror from
 * private kernel headers, against the running kernel's BTF.
 */
#ifndef _MLOCK_AUDIT_LAYOUT_H
#define _MLOCK_AUDIT_LAYOUT_H

#include <linux/types.h>

int ma_layout_check(const char *fix, char *why, size_t len);
const char *ma_layout_scanresume_upstream(void);

#endif
