/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record of verified kernel builds (compat/verified/builds), compiled
 * into the module, and the check of the running build against it.
 */
#ifndef _MLOCK_AUDIT_VERIFIED_H
#define _MLOCK_AUDIT_VERIFIED_H

#include <linux/types.h>

const char *ma_unverified_why(const char *fix, char *buf, size_t len);
const char *ma_build_version(void);

#endif
