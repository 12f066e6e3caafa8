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

#include "inject.h"
#include "symbols.h"

#ifdef COMPAT_PTE_OFFSET_MAP_LOCK_SYM
pte_t *(*compat_pte_offset_map_lock)(struct mm_struct *mm, pmd_t *pmd,
				     unsigned long addr, spinlock_t **ptlp);
#endif

unsigned long *ma_huge_zero_pfn;
unsigned int *ma_khugepaged_max_ptes_none;
unsigned int *ma_khugepaged_max_ptes_swap;
unsigned int *ma_khugepaged_max_ptes_shared;
struct tracepoint *ma_tp_mm_khugepaged_scan_pmd;
struct ma_khugepaged_syms ma_kh;
struct ma_kernel_syms ma_sym;

enum { MA_SYM_DATA, MA_SYM_CALL };	/* what the address is used for */

struct ma_symbol {
	const char *name;
	void **addr;
	u8 use;
	const char *fix;	/* the live fix that needs it, NULL: the core */
	bool missing;
};

#define MA_FIX_CALL(fix, sym) { #sym, (void **)&ma_sym.sym, MA_SYM_CALL, fix }
#define MA_FIX_DATA(fix, sym, ptr) { #sym, (void **)&(ptr), MA_SYM_DATA, fix }

static struct ma_symbol ma_symbols[] = {
	{ "huge_zero_pfn", (void **)&ma_huge_zero_pfn, MA_SYM_DATA },
#ifdef COMPAT_PTE_OFFSET_MAP_LOCK_SYM
	{ COMPAT_PTE_OFFSET_MAP_LOCK_NAME, (void **)&compat_pte_offset_map_lock,
	  MA_SYM_CALL },
#endif
#if defined(COMPAT_MLOCK_FIX_FOLIO_RMAP) || defined(COMPAT_MLOCK_FIX_PAGE_RMAP)
	MA_FIX_CALL("mlock", mlock_folio),
	MA_FIX_CALL("mlock", page_vma_mapped_walk),
	MA_FIX_CALL("mlock", rmap_walk),
	MA_FIX_CALL("mlock", rmap_walk_locked),
	MA_FIX_CALL("mlock", folio_lock_anon_vma_read),
	MA_FIX_CALL("mlock", folio_referenced_one),
	MA_FIX_CALL("mlock", invalid_folio_referenced_vma),
	MA_FIX_CALL("mlock", try_to_unmap_one),
#endif
#ifdef COMPAT_MLOCK_FIX_PAGE_RMAP
	MA_FIX_CALL("mlock", munlock_page),
	MA_FIX_CALL("mlock", lock_page_memcg),
	MA_FIX_CALL("mlock", unlock_page_memcg),
	MA_FIX_CALL("mlock", deferred_split_huge_page),
	MA_FIX_CALL("mlock", page_add_file_rmap),
	MA_FIX_CALL("mlock", page_add_new_anon_rmap),
	MA_FIX_CALL("mlock", lru_cache_add_inactive_or_unevictable),
	MA_FIX_CALL("mlock", split_huge_pmd_address),
	MA_FIX_CALL("mlock", vm_normal_page),
	MA_FIX_CALL("mlock", __pmd_trans_huge_lock),
	MA_FIX_CALL("mlock", folio_mapcount),
	MA_FIX_CALL("mlock", mm_trace_rss_stat),
#endif
#ifdef COMPAT_FAULT_FIX_SET_PTE_RANGE
	MA_FIX_CALL("fault", do_set_pmd),
	MA_FIX_CALL("fault", pmd_install),
	MA_FIX_CALL("fault", __pte_alloc),
	MA_FIX_CALL("fault", set_pte_range),
	MA_FIX_CALL("fault", mm_trace_rss_stat),
#endif
#if defined(COMPAT_LAZYFREE_FIX_FOLIO) || defined(COMPAT_LAZYFREE_FIX_PAGE)
	MA_FIX_CALL("lazyfree", find_pmd_or_thp_or_none),
	MA_FIX_CALL("lazyfree", vm_normal_page),
	MA_FIX_CALL("lazyfree", hpage_collapse_scan_abort),
	MA_FIX_CALL("lazyfree", is_refcount_suitable),
	MA_FIX_CALL("lazyfree", collapse_huge_page),
	MA_FIX_CALL("lazyfree", __mmu_notifier_test_young),
	MA_FIX_DATA("lazyfree", khugepaged_max_ptes_none, ma_khugepaged_max_ptes_none),
	MA_FIX_DATA("lazyfree", khugepaged_max_ptes_swap, ma_khugepaged_max_ptes_swap),
	MA_FIX_DATA("lazyfree", khugepaged_max_ptes_shared, ma_khugepaged_max_ptes_shared),
	MA_FIX_DATA("lazyfree", __tracepoint_mm_khugepaged_scan_pmd,
		    ma_tp_mm_khugepaged_scan_pmd),
#endif
#ifdef COMPAT_SCANRESUME_FIX
	MA_FIX_CALL("scanresume", khugepaged),
	MA_FIX_CALL("scanresume", collect_mm_slot),
	MA_FIX_CALL("scanresume", lru_add_drain_all),
	MA_FIX_DATA("scanresume", khugepaged_scan, ma_kh.scan),
	MA_FIX_DATA("scanresume", khugepaged_mm_lock, ma_kh.mm_lock),
	MA_FIX_DATA("scanresume", khugepaged_pages_to_scan, ma_kh.pages_to_scan),
	MA_FIX_DATA("scanresume", khugepaged_full_scans, ma_kh.full_scans),
	MA_FIX_DATA("scanresume", khugepaged_scan_sleep_millisecs,
		    ma_kh.scan_sleep_millisecs),
	MA_FIX_DATA("scanresume", khugepaged_alloc_sleep_millisecs,
		    ma_kh.alloc_sleep_millisecs),
	MA_FIX_DATA("scanresume", khugepaged_sleep_expire, ma_kh.sleep_expire),
	MA_FIX_DATA("scanresume", khugepaged_wait, ma_kh.wait),
	MA_FIX_DATA("scanresume", khugepaged_thread, ma_kh.thread),
	MA_FIX_DATA("scanresume", khugepaged_mutex, ma_kh.mutex),
	MA_FIX_DATA("scanresume", khugepaged_collapse_control, ma_kh.collapse_control),
	MA_FIX_DATA("scanresume", transparent_hugepage_flags, ma_kh.thp_flags),
	MA_FIX_DATA("scanresume", klp_transition_patch, ma_kh.klp_transition_patch),
	MA_FIX_DATA("scanresume", klp_target_state, ma_kh.klp_target_state),
#endif
#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_MTHP)
	MA_FIX_CALL("scanresume", __thp_vma_allowable_orders),
	MA_FIX_DATA("scanresume", huge_anon_orders_always, ma_kh.anon_orders_always),
	MA_FIX_DATA("scanresume", huge_anon_orders_madvise, ma_kh.anon_orders_madvise),
	MA_FIX_DATA("scanresume", huge_anon_orders_inherit, ma_kh.anon_orders_inherit),
#endif
#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_VMA_CHECK)
	MA_FIX_CALL("scanresume", hpage_collapse_scan_pmd),
	MA_FIX_CALL("scanresume", hpage_collapse_scan_file),
	MA_FIX_CALL("scanresume", collapse_pte_mapped_thp),
	/* 7.3 counts collapsed ranges in collapse_single_pmd() */
	MA_FIX_DATA("scanresume", khugepaged_pages_collapsed, ma_kh.pages_collapsed),
#endif
#ifdef COMPAT_SCANRESUME_FIX_ORDERS
	MA_FIX_CALL("scanresume", hugepage_pmd_enabled),
#endif
#ifdef COMPAT_SCANRESUME_FIX_MTHP
	MA_FIX_CALL("scanresume", hugepage_enabled),
	MA_FIX_CALL("scanresume", collapse_single_pmd),
	MA_FIX_DATA("scanresume", __tracepoint_mm_khugepaged_scan, ma_kh.tp_scan),
#endif
#ifdef COMPAT_SCANRESUME_FIX_VMA_CHECK
	MA_FIX_CALL("scanresume", hugepage_vma_check),
	MA_FIX_CALL("scanresume", find_pmd_or_thp_or_none),
	MA_FIX_CALL("scanresume", khugepaged_add_pte_mapped_thp),
#endif
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
 * kallsyms_lookup_name. A missing fix symbol is only recorded for
 * ma_sym_missing().
 */
int ma_symbols_init(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long (*lookup)(const char *name);
	struct ma_symbol *s;
	int ret;

	if (ma_inject("symbols"))
		return -ENOMEM;
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
		s->missing = !addr;
		if (addr || s->fix)
			continue;
		pr_err("kernel symbol %s not found\n", s->name);
		return -ENOENT;
	}
	return 0;
}

/**
 * ma_sym_missing() - the first kernel function @fix needs that is missing.
 * @fix: the name of a live fix
 *
 * Return: its name, or NULL when the fix has all it needs.
 */
const char *ma_sym_missing(const char *fix)
{
	const struct ma_symbol *s;

	for (s = ma_symbols; s->name; s++)
		if (s->missing && s->fix && !strcmp(s->fix, fix))
			return s->name;
	return NULL;
}
