/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels mlock_audit supports lives here,
 * decided by the header probes in compat/Kbuild.include. This header is
 * force-included into every translation unit; no source includes it.
 *
 * Supported: x86_64 Debian 6.1 (bookworm), 6.12 (trixie), 7.3
 * (trixie-backports). Shims keep the upstream name and cite the upstream
 * commit that made them necessary.
 */
#ifndef _MLOCK_AUDIT_COMPAT_H
#define _MLOCK_AUDIT_COMPAT_H

#ifndef CONFIG_X86_64
#error "mlock_audit supports x86_64 only"
#endif

#ifndef CONFIG_KPROBES
#error "mlock_audit needs CONFIG_KPROBES: its observation hooks are kprobes"
#endif

#ifndef CONFIG_DEBUG_FS
#error "mlock_audit needs CONFIG_DEBUG_FS: it reports through debugfs"
#endif

#ifndef CONFIG_LIVEPATCH
#error "mlock_audit needs CONFIG_LIVEPATCH: it carries its fixes as livepatches"
#endif

/*
 * No API shims are needed yet: the skeleton uses only interfaces that are
 * identical on every supported kernel. The oldest supported kernel (6.1)
 * is enforced by BUILD_EXCLUSIVE_KERNEL in dkms.conf.
 */

#endif /* _MLOCK_AUDIT_COMPAT_H */
