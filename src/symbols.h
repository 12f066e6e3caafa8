/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How mlock_audit reaches unexported kernel functions and data: by name,
 * through livepatch relocations
 * (Documentation/livepatch/module-elf-format.rst); and the symbols that
 * both modules, or the fixes module's shared code, reach so. What a fix
 * alone reaches is declared in its src/fixes/FIX/kernel.h, what more than
 * one fix reaches in mm_internal.h and khugepaged_internal.h.
 *
 * Each symbol below is declared weak. The compiler then emits ordinary
 * relocations against it (a direct "call rel32" for a call), and modpost
 * accepts the module although nothing exports the name. After the module
 * is linked, tools/klp-relocs.c turns every weak undefined symbol of the
 * .ko into a livepatch symbol ".klp.sym.vmlinux.<name>,<pos>" and moves its
 * relocations into ".klp.rela.vmlinux.<section>" sections (".text" gives
 * ".klp.rela.vmlinux..text"). When the module loads, the livepatch core
 * resolves them in vmlinux through kallsyms and applies them before
 * module_init runs; a symbol that is missing or ambiguous makes the load
 * fail, with livepatch naming it in the log.
 *
 * A direct call is not checked by indirect branch tracking (IBT), so a
 * callee may be sealed or have no ENDBR64. Only the functions handed to
 * the kernel as rmap_walk_control callbacks or as a thread function are
 * reached through a pointer; the kernel takes their addresses itself, so
 * IBT leaves their ENDBR64 alone (tests/host/ibt-seal checks both facts on
 * the stock images).
 *
 * Prototypes that kernel headers declare are taken with typeof() from the
 * header of the kernel being built for; the others are written to match
 * the kernel source named beside them.
 */
#ifndef _MLOCK_AUDIT_SYMBOLS_H
#define _MLOCK_AUDIT_SYMBOLS_H

#include <linux/btf.h>
#include <linux/huge_mm.h>
#include <linux/khugepaged.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/percpu.h>
#include <linux/rmap.h>
#include <linux/swap.h>

/* A kernel symbol reached through a livepatch relocation. */
#define MA_KSYM	__weak

/*
 * Cleared by tools/klp-relocs in the .ko it converts: a module built
 * without that step must not load (its kernel references would be NULL).
 * Each module defines its own (MA_KLP_FLAG in its main file); the tool
 * finds it by name.
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
 * ma_pte_offset_map_lock(): pte_offset_map_lock() with its newest
 * semantics (may return NULL when the PMD changed under us). Since v6.5
 * ("mm/pgtable: allow pte_offset_map[_lock]() to fail") the work is done
 * out of line by an unexported function, called directly through a
 * livepatch relocation; on 6.1 the inline macro is used and cannot fail
 * (its caller has checked the PMD, and mmap_lock keeps the table).
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
 * kernel/bpf/verifier.c, kernel/bpf/btf.c (declared in linux/bpf.h, which
 * is not included: its enum of BPF helpers would put the name of the one
 * that looks kernel symbols up in the module's debug info, which the host
 * test ibt-seal refuses; and in linux/btf.h):
 * the running kernel's BTF, for layout.c
 */
MA_KSYM struct btf *bpf_get_btf_vmlinux(void);
extern typeof(btf_find_by_name_kind) btf_find_by_name_kind MA_KSYM;
extern typeof(btf_name_by_offset) btf_name_by_offset MA_KSYM;
#endif

/*
 * One relocation per function. 6.1's livepatch core resolves each
 * livepatch relocation with a walk of the whole of kallsyms
 * (klp_find_object_symbol(), kernel/livepatch/core.c), 50 to 70 ms under
 * TCG, and the compiler copies a call into every path it duplicates (one
 * unlock_page_memcg() call in the source had five relocations): a 6.1
 * load took 6 s. The functions called from more than one place are called
 * through one out-of-line wrapper each (src/symbols.c,
 * src/fixes/FIX/symbols.c), which holds the only
 * relocation; a macro of the callee's name, beside its declaration
 * (mm_internal.h, khugepaged_internal.h, src/fixes/FIX/kernel.h), sends the
 * calls after that point to it.
 */
#endif /* _MLOCK_AUDIT_SYMBOLS_H */
