/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel options mlock_audit needs, and the shims for kernel
 * differences that the audit or more than one fix meets (probes in
 * compat/Kbuild.include; a single fix's are in src/fixes/FIX/kernel.h).
 * Force-included into every translation unit; includes nothing of the
 * module's. Shims keep the upstream name and cite the upstream commit.
 * The supported kernels are listed in supported-kernels.
 */
#ifndef _MLOCK_AUDIT_COMPAT_H
#define _MLOCK_AUDIT_COMPAT_H

#ifndef CONFIG_X86_64
#error "mlock_audit supports x86_64 only"
#endif

/* MLOCK_AUDIT_MISSING_* (test builds only) pretends an option is unset. */
#if !defined(CONFIG_DYNAMIC_FTRACE) || defined(MLOCK_AUDIT_MISSING_DYNAMIC_FTRACE)
#error "mlock_audit needs CONFIG_DYNAMIC_FTRACE: its observation hooks are ftrace callbacks"
#endif

#if !defined(CONFIG_DEBUG_FS) || defined(MLOCK_AUDIT_MISSING_DEBUG_FS)
#error "mlock_audit needs CONFIG_DEBUG_FS: it reports through debugfs"
#endif

#if !defined(CONFIG_LIVEPATCH) || defined(MLOCK_AUDIT_MISSING_LIVEPATCH)
#error "mlock_audit needs CONFIG_LIVEPATCH: it carries its fixes as livepatches"
#endif

/*
 * The livepatch core resolves references to unexported variables through
 * kallsyms, which lists variables only with CONFIG_KALLSYMS_ALL.
 */
#if !defined(CONFIG_KALLSYMS_ALL) || defined(MLOCK_AUDIT_MISSING_KALLSYMS_ALL)
#error "mlock_audit needs CONFIG_KALLSYMS_ALL: it finds kernel variables through kallsyms"
#endif

/* The oldest supported kernel (supported-kernels) is enforced by Kbuild. */

#include <linux/mm.h>
#include <linux/pgtable.h>

/* pmdp_get() came after 6.1; there a PMD is read with READ_ONCE(). */
#ifdef COMPAT_CANNOT_PMDP_GET
static inline pmd_t pmdp_get(pmd_t *pmdp)
{
	return READ_ONCE(*pmdp);
}
#endif

/* d927752f287f ("livepatch: Rename KLP_* to KLP_TRANSITION_*") */
#ifdef COMPAT_CANNOT_KLP_TRANSITION
#define KLP_TRANSITION_UNPATCHED	KLP_UNPATCHED
#endif

/* Every fix, on a kernel without THP (Debian's rt flavour; Kbuild.include). */
#define COMPAT_NO_THP_REASON \
	"not needed: the kernel is built without CONFIG_TRANSPARENT_HUGEPAGE, so it has no large folios and no khugepaged"

#endif /* _MLOCK_AUDIT_COMPAT_H */
