/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How mlock_audit reaches unexported kernel symbols: by name, through
 * livepatch relocations (Documentation/livepatch/module-elf-format.rst).
 *
 * Each symbol is declared weak, so the compiler emits ordinary relocations
 * (a direct "call rel32") and modpost accepts the module. tools/klp-relocs.c
 * then turns every weak undefined symbol of the .ko into a livepatch
 * symbol ".klp.sym.vmlinux.<name>,<pos>" with ".klp.rela.vmlinux.<section>"
 * relocations, which the livepatch core resolves before module_init runs.
 *
 * A direct call is not checked by IBT, so a callee may be sealed or have
 * no ENDBR64. Only rmap_walk_control callbacks and thread functions are
 * reached through a pointer; the kernel takes their addresses itself, so
 * IBT leaves their ENDBR64 alone.
 *
 * Prototypes the kernel headers declare are taken with typeof(); the others
 * match the kernel source named beside them.
 */
#ifndef _MLOCK_AUDIT_SYMBOLS_H
#define _MLOCK_AUDIT_SYMBOLS_H

#include <linux/btf.h>
#include <linux/mm.h>

/* A kernel symbol reached through a livepatch relocation. */
#define MA_KSYM	__weak

/*
 * Cleared by tools/klp-relocs: a module built without that step must not
 * load (its kernel references would be NULL).
 */
extern u32 ma_klp_unconverted;
#define MA_KLP_FLAG	u32 ma_klp_unconverted = 1

/**
 * ma_symbols_init() - refuse a module whose relocations were not converted.
 *
 * Return: 0, or -ENOEXEC when the .ko did not go through tools/klp-relocs
 * (built with a bare "make -C <kdir> M=..." instead of the project's make).
 */
static inline int ma_symbols_init(void)
{
	if (READ_ONCE(ma_klp_unconverted)) {
		pr_err("this module was not post-linked by tools/klp-relocs: its references to kernel symbols are unresolved; build it with the project's Makefile (make KDIR=...)\n");
		return -ENOEXEC;
	}
	return 0;
}

/* mm/huge_memory.c */
extern unsigned long huge_zero_pfn MA_KSYM;

#ifdef COMPAT_PTE_OFFSET_MAP_LOCK_SYM
/* mm/pgtable-generic.c (declared in linux/mm.h) */
extern typeof(COMPAT_PTE_OFFSET_MAP_LOCK_SYM) COMPAT_PTE_OFFSET_MAP_LOCK_SYM MA_KSYM;
#endif

/*
 * pte_offset_map_lock() with its v6.5+ semantics (may return NULL when the
 * PMD changed; "mm/pgtable: allow pte_offset_map[_lock]() to fail"), whose
 * work an unexported function does. On 6.1 the inline macro cannot fail:
 * the caller has checked the PMD, and mmap_lock keeps the table.
 */
static inline pte_t *ma_pte_offset_map_lock(struct mm_struct *mm, pmd_t *pmd,
					    unsigned long addr, spinlock_t **ptlp)
{
#ifdef COMPAT_PTE_OFFSET_MAP_LOCK_SYM
	return COMPAT_PTE_OFFSET_MAP_LOCK_SYM(mm, pmd, addr, ptlp);
#else
	return pte_offset_map_lock(mm, pmd, addr, ptlp);
#endif
}

#if IS_ENABLED(CONFIG_DEBUG_INFO_BTF) && IS_ENABLED(CONFIG_BPF_SYSCALL)
/*
 * kernel/bpf/verifier.c, kernel/bpf/btf.c. linux/bpf.h is not included:
 * its enum of BPF helpers would put the kallsyms lookup helper's name in
 * the module's debug info, which ibt-seal refuses.
 */
MA_KSYM struct btf *bpf_get_btf_vmlinux(void);
extern typeof(btf_find_by_name_kind) btf_find_by_name_kind MA_KSYM;
extern typeof(btf_name_by_offset) btf_name_by_offset MA_KSYM;
#endif

/*
 * One relocation per function: 6.1's livepatch core resolves each with a
 * walk of all of kallsyms (klp_find_object_symbol()), and the compiler
 * copies a call into every path it duplicates. So a function called from
 * more than one place is called through one out-of-line wrapper
 * (mm_internal.c, khugepaged_internal.c, src/fixes/FIX/symbols.c), to
 * which a macro of the callee's name beside its declaration sends the
 * calls.
 */
#endif /* _MLOCK_AUDIT_SYMBOLS_H */
