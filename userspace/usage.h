/* SPDX-License-Identifier: GPL-2.0 */
/* The top-level --help. */
#ifndef MLOCK_AUDIT_USAGE_H
#define MLOCK_AUDIT_USAGE_H

#include <stdio.h>

void ma_usage(FILE *f);

#endif
