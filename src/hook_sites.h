/* SPDX-License-Identifier: GPL-2.0 */
/* The addresses of the probed functions, where the build knew them. */
#ifndef _MLOCK_AUDIT_HOOK_SITES_H
#define _MLOCK_AUDIT_HOOK_SITES_H

unsigned long ma_hook_site_start(const char *sym);

#endif /* _MLOCK_AUDIT_HOOK_SITES_H */
