// SPDX-License-Identifier: GPL-2.0
/*
 * The one place where mlock_audit resolves kernel functions that are not
 * exported to modules. kallsyms_lookup_name() itself has not been exported
 * since v5.7 ("kallsyms: unexport kallsyms_lookup_name() and
 * kallsyms_on_each_symbol()"); its address is learnt by registering and
 * removing a kprobe on it, as out-of-tree tracers do.
 *
 * Every needed symbol is listed in ma_symbols[] with the pointer it fills
 * (functions and, with CONFIG_KALLSYMS_ALL as on Debian, data).
 */
#include <linux/kprobes.h>
#include <linux/string.h>

#include "symbols.h"

#ifdef COMPAT_PTE_OFFSET_MAP_LOCK_SYM
pte_t *(*compat_pte_offset_map_lock)(struct mm_struct *mm, pmd_t *pmd,
				     unsigned long addr, spinlock_t **ptlp);
#endif

unsigned long *ma_huge_zero_pfn;

struct ma_symbol {
	const char *name;
	void **addr;
};

static const struct ma_symbol ma_symbols[] = {
	{ "huge_zero_pfn", (void **)&ma_huge_zero_pfn },
#ifdef COMPAT_PTE_OFFSET_MAP_LOCK_SYM
	{ COMPAT_PTE_OFFSET_MAP_LOCK_NAME, (void **)&compat_pte_offset_map_lock },
#endif
	{ }
};

/*
 * With IBT, a kprobe on a function lands after its ENDBR64; an indirect
 * call must go to the ENDBR64 itself.
 */
static void *ma_func_start(void *addr)
{
	static const u8 endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

	if (!memcmp((u8 *)addr - sizeof(endbr64), endbr64, sizeof(endbr64)))
		return (u8 *)addr - sizeof(endbr64);
	return addr;
}

/**
 * ma_symbols_init() - resolve every symbol in ma_symbols[].
 *
 * Return: 0, or -ENOENT (with the symbol named in the log) when one is
 * missing, or the error of the kprobe used to find kallsyms_lookup_name.
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

	for (s = ma_symbols; s->name; s++) {
		*s->addr = (void *)lookup(s->name);
		if (!*s->addr) {
			pr_err("kernel symbol %s not found\n", s->name);
			return -ENOENT;
		}
	}
	return 0;
}
