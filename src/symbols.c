// SPDX-License-Identifier: GPL-2.0
/*
 * The one place where mlock_audit resolves kernel functions that are not
 * exported to modules. kallsyms_lookup_name() itself has not been exported
 * since v5.7 ("kallsyms: unexport kallsyms_lookup_name() and
 * kallsyms_on_each_symbol()"); its address is learnt by registering and
 * removing a kprobe on it, as out-of-tree tracers do.
 *
 * Every needed symbol is listed in ma_symbols[] with the pointer it fills
 * (functions and, with CONFIG_KALLSYMS_ALL as on Debian, data). The audit
 * cannot work without the "core" ones; a missing "fix" one only makes the
 * live fixes report themselves unsupported (see fixes.c).
 *
 * Indirect branch tracking: with IBT enforced (X86_KERNEL_IBT and a CPU
 * with CET), the kernel seals at boot every function whose address it never
 * takes, replacing its ENDBR64 with a NOP, and an indirect call to it then
 * faults. A function we call through a pointer must therefore start with
 * ENDBR64 when IBT is on; one that does not is treated as missing.
 */
#include <asm/cpufeature.h>
#include <linux/kprobes.h>
#include <linux/string.h>

#include "symbols.h"

#ifdef COMPAT_PTE_OFFSET_MAP_LOCK_SYM
pte_t *(*compat_pte_offset_map_lock)(struct mm_struct *mm, pmd_t *pmd,
				     unsigned long addr, spinlock_t **ptlp);
#endif

unsigned long *ma_huge_zero_pfn;
struct ma_kernel_syms ma_sym;
const char *ma_sym_missing;

enum { MA_SYM_DATA, MA_SYM_CALL };	/* what the address is used for */
enum { MA_SYM_CORE, MA_SYM_FIX };	/* who cannot do without it */

struct ma_symbol {
	const char *name;
	void **addr;
	u8 use, need;
};

#define MA_FIX_CALL(sym) { #sym, (void **)&ma_sym.sym, MA_SYM_CALL, MA_SYM_FIX }

static const struct ma_symbol ma_symbols[] = {
	{ "huge_zero_pfn", (void **)&ma_huge_zero_pfn, MA_SYM_DATA, MA_SYM_CORE },
#ifdef COMPAT_PTE_OFFSET_MAP_LOCK_SYM
	{ COMPAT_PTE_OFFSET_MAP_LOCK_NAME, (void **)&compat_pte_offset_map_lock,
	  MA_SYM_CALL, MA_SYM_CORE },
#endif
	MA_FIX_CALL(mlock_folio),
	MA_FIX_CALL(page_vma_mapped_walk),
	MA_FIX_CALL(rmap_walk),
	MA_FIX_CALL(rmap_walk_locked),
	MA_FIX_CALL(folio_lock_anon_vma_read),
	MA_FIX_CALL(folio_referenced_one),
	MA_FIX_CALL(invalid_folio_referenced_vma),
	MA_FIX_CALL(try_to_unmap_one),
	MA_FIX_CALL(do_set_pmd),
	MA_FIX_CALL(pmd_install),
	MA_FIX_CALL(__pte_alloc),
	MA_FIX_CALL(set_pte_range),
	MA_FIX_CALL(mm_trace_rss_stat),
	{ }
};

static const u8 ma_endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

/*
 * With IBT, a kprobe on a function lands after its ENDBR64; an indirect
 * call must go to the ENDBR64 itself.
 */
static void *ma_func_start(void *addr)
{
	if (!memcmp((u8 *)addr - sizeof(ma_endbr64), ma_endbr64, sizeof(ma_endbr64)))
		return (u8 *)addr - sizeof(ma_endbr64);
	return addr;
}

/* Can @addr be called through a pointer? Not if IBT sealed it. */
static bool ma_callable(const void *addr)
{
	return !cpu_feature_enabled(X86_FEATURE_IBT) ||
	       !memcmp(addr, ma_endbr64, sizeof(ma_endbr64));
}

/**
 * ma_symbols_init() - resolve every symbol in ma_symbols[].
 *
 * Return: 0, or -ENOENT (with the symbol named in the log) when a core
 * one is missing, or the error of the kprobe used to find
 * kallsyms_lookup_name. A missing fix symbol is only named in
 * ma_sym_missing.
 */
int ma_symbols_init(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long (*lookup)(const char *name);
	const struct ma_symbol *s;
	int ret;

	ret = register_kprobe(&kp);
	if (ret) {
		pr_err("cannot locate kallsyms_lookup_name: %pe\n", ERR_PTR(ret));
		return ret;
	}
	lookup = ma_func_start(kp.addr);
	unregister_kprobe(&kp);
	if (!ma_callable(lookup)) {
		pr_err("kallsyms_lookup_name is sealed by IBT: cannot resolve symbols\n");
		return -EOPNOTSUPP;
	}

	for (s = ma_symbols; s->name; s++) {
		void *addr = (void *)lookup(s->name);

		if (addr && s->use == MA_SYM_CALL && !ma_callable(addr)) {
			pr_warn("kernel function %s is sealed by IBT\n", s->name);
			addr = NULL;
		}
		*s->addr = addr;
		if (addr)
			continue;
		if (s->need == MA_SYM_CORE) {
			pr_err("kernel symbol %s not found\n", s->name);
			return -ENOENT;
		}
		if (!ma_sym_missing)
			ma_sym_missing = s->name;
	}
	return 0;
}
