/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What each live fix is on the kernel built for, by the build-time probes
 * of its headers (compat/, each fix's fix.mk): already in the kernel
 * (MA_<FIX>_UPSTREAM: how we know), not carried on it (MA_<FIX>_UNSUPPORTED:
 * why), or neither (both NULL: the fix is carried). Both modules read it:
 * the fixes module for its fixes (fix.c), the audit for the "fixes" file
 * when the fixes module is not there (fixes_link.c), so that a kernel's
 * own fix shows as "upstream" also under fixes=none.
 */
#ifndef _MLOCK_AUDIT_FIX_STATES_H
#define _MLOCK_AUDIT_FIX_STATES_H

/* Each fix's state.h, in the order of Kbuild's MA_FIXES (generated) */
#include "fix_states_list.h"

#endif /* _MLOCK_AUDIT_FIX_STATES_H */
