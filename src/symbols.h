/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unexported kernel functions and data that mlock_audit reaches, and
 * how: by name, through livepatch relocations
 * (Documentation/livepatch/module-elf-format.rst).
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

struct collapse_control;
struct klp_patch;
struct ma_khugepaged_mm_slot;
struct ma_khugepaged_scan;
struct tracepoint;

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

#ifdef MA_CARRY_MLOCK
#include <linux/pagevec.h>	/* renamed folio_batch.h in 7.3, which needs none */

/* mm/mlock.c (declared in mm/internal.h) */
void mlock_folio(struct folio *folio) MA_KSYM;
/*
 * mm/mlock.c, static: mlock_folio()'s per-CPU batch and the function that
 * runs it (struct ma_mlock_batch_pcpu: mm_internal.h), by their 6.12 and
 * their 6.1 names
 */
struct ma_mlock_batch_pcpu;
#ifndef COMPAT_MLOCK_BATCH_PAGEVEC
DECLARE_PER_CPU(struct ma_mlock_batch_pcpu, mlock_fbatch) MA_KSYM;
void mlock_folio_batch(struct folio_batch *fbatch) MA_KSYM;
#else
DECLARE_PER_CPU(struct ma_mlock_batch_pcpu, mlock_pvec) MA_KSYM;
void mlock_pagevec(struct pagevec *pvec) MA_KSYM;
#endif
/* mm/swap.c, mm/memcontrol.c (declared in linux/swap.h, linux/memcontrol.h) */
extern atomic_t lru_disable_count MA_KSYM;
extern typeof(folio_lruvec_lock_irq) folio_lruvec_lock_irq MA_KSYM;
/* mm/page_vma_mapped.c, mm/rmap.c */
extern typeof(page_vma_mapped_walk) page_vma_mapped_walk MA_KSYM;
extern typeof(rmap_walk) rmap_walk MA_KSYM;
extern typeof(rmap_walk_locked) rmap_walk_locked MA_KSYM;
extern typeof(folio_lock_anon_vma_read) folio_lock_anon_vma_read MA_KSYM;
/* static in mm/rmap.c, which takes their addresses too */
bool folio_referenced_one(struct folio *folio, struct vm_area_struct *vma,
			  unsigned long address, void *arg) MA_KSYM;
bool invalid_folio_referenced_vma(struct vm_area_struct *vma, void *arg) MA_KSYM;
bool try_to_unmap_one(struct folio *folio, struct vm_area_struct *vma,
		      unsigned long address, void *arg) MA_KSYM;
#endif

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

#ifdef MA_NEEDS_MM_TRACE_RSS_STAT
/* mm/memory.c (declared in linux/mm.h): add_mm_counter()'s trace hook */
extern typeof(mm_trace_rss_stat) mm_trace_rss_stat MA_KSYM;
#endif

#ifdef COMPAT_MLOCK_FIX_PAGE_RMAP
/* 6.1: mm/mlock.c (mm/internal.h) */
void munlock_page(struct page *page) MA_KSYM;
MA_KSYM void mlock_page_drain_local(void);
/* 6.1: mm/memcontrol.c, mm/huge_memory.c, mm/rmap.c, mm/swap.c, mm/memory.c */
extern typeof(lock_page_memcg) lock_page_memcg MA_KSYM;
extern typeof(unlock_page_memcg) unlock_page_memcg MA_KSYM;
extern typeof(deferred_split_huge_page) deferred_split_huge_page MA_KSYM;
extern typeof(page_add_file_rmap) page_add_file_rmap MA_KSYM;
extern typeof(page_add_new_anon_rmap) page_add_new_anon_rmap MA_KSYM;
extern typeof(lru_cache_add_inactive_or_unevictable)
	lru_cache_add_inactive_or_unevictable MA_KSYM;
extern typeof(split_huge_pmd_address) split_huge_pmd_address MA_KSYM;
extern typeof(__pmd_trans_huge_lock) __pmd_trans_huge_lock MA_KSYM;
extern typeof(folio_mapcount) folio_mapcount MA_KSYM;
#endif

#ifdef MA_NEEDS_VM_NORMAL_PAGE
/* mm/memory.c */
extern typeof(vm_normal_page) vm_normal_page MA_KSYM;
#endif

#ifdef COMPAT_FAULT_FIX_SET_PTE_RANGE
/* mm/memory.c (pmd_install() is declared in mm/internal.h) */
extern typeof(do_set_pmd) do_set_pmd MA_KSYM;
void pmd_install(struct mm_struct *mm, pmd_t *pmd, pgtable_t *pte) MA_KSYM;
extern typeof(__pte_alloc) __pte_alloc MA_KSYM;
extern typeof(set_pte_range) set_pte_range MA_KSYM;
#endif

#ifdef MA_NEEDS_FIND_PMD_OR_THP_OR_NONE
/* static in mm/khugepaged.c (6.1 :963, 6.12 :945) */
int find_pmd_or_thp_or_none(struct mm_struct *mm, unsigned long address,
			    pmd_t **pmd) MA_KSYM;
#endif

#ifdef MA_CARRY_LAZYFREE
/* static in mm/khugepaged.c, for the "lazyfree" fix */
bool hpage_collapse_scan_abort(int nid, struct collapse_control *cc) MA_KSYM;
#ifdef COMPAT_LAZYFREE_FIX_PAGE
bool is_refcount_suitable(struct page *page) MA_KSYM;		/* 6.1 */
#else
bool is_refcount_suitable(struct folio *folio) MA_KSYM;		/* 6.12 */
#endif
int collapse_huge_page(struct mm_struct *mm, unsigned long address,
		       int referenced, int unmapped,
		       struct collapse_control *cc) MA_KSYM;
extern unsigned int khugepaged_max_ptes_none MA_KSYM;
extern unsigned int khugepaged_max_ptes_swap MA_KSYM;
extern unsigned int khugepaged_max_ptes_shared MA_KSYM;
extern struct tracepoint __tracepoint_mm_khugepaged_scan_pmd MA_KSYM;
/* mm/mmu_notifier.c */
extern typeof(__mmu_notifier_test_young) __mmu_notifier_test_young MA_KSYM;
#endif

#ifdef MA_CARRY_SCANRESUME
/*
 * mm/khugepaged.c, mm/huge_memory.c, mm/swap.c and
 * kernel/livepatch/transition.c, for the "scanresume" fix: khugepaged's
 * thread function, state and helpers, and the livepatch transition the
 * thread swap takes part in. khugepaged() is handed to kthread_create()
 * as the kernel itself does.
 */
int khugepaged(void *none) MA_KSYM;
void collect_mm_slot(struct ma_khugepaged_mm_slot *mm_slot) MA_KSYM;
extern typeof(lru_add_drain_all) lru_add_drain_all MA_KSYM;

struct ma_khugepaged_syms {
	struct ma_khugepaged_scan *scan;		/* khugepaged_scan */
	spinlock_t *mm_lock;				/* khugepaged_mm_lock */
	unsigned int *pages_to_scan, *full_scans;
	unsigned int *pages_collapsed;			/* before 7.3 */
	unsigned int *scan_sleep_millisecs, *alloc_sleep_millisecs;
	unsigned long *sleep_expire;
	wait_queue_head_t *wait;			/* khugepaged_wait */
	struct task_struct **thread;			/* khugepaged_thread */
	struct mutex *mutex;				/* khugepaged_mutex */
	struct collapse_control *collapse_control;
	unsigned long *thp_flags;			/* transparent_hugepage_flags */
	unsigned long *anon_orders_always, *anon_orders_madvise;
	unsigned long *anon_orders_inherit;		/* 6.12 and 7.3 forms */
	struct klp_patch **klp_transition_patch;
	int *klp_target_state;
	struct tracepoint *tp_scan;			/* 7.3 form only */
};

/* that state (struct ma_khugepaged_scan: khugepaged_internal.h) */
extern struct ma_khugepaged_scan khugepaged_scan MA_KSYM;
extern spinlock_t khugepaged_mm_lock MA_KSYM;
extern unsigned int khugepaged_pages_to_scan MA_KSYM;
extern unsigned int khugepaged_full_scans MA_KSYM;
extern unsigned int khugepaged_scan_sleep_millisecs MA_KSYM;
extern unsigned int khugepaged_alloc_sleep_millisecs MA_KSYM;
extern unsigned long khugepaged_sleep_expire MA_KSYM;
extern wait_queue_head_t khugepaged_wait MA_KSYM;
extern struct task_struct *khugepaged_thread MA_KSYM;
extern struct mutex khugepaged_mutex MA_KSYM;
extern struct collapse_control khugepaged_collapse_control MA_KSYM;
extern unsigned long transparent_hugepage_flags MA_KSYM;
extern struct klp_patch *klp_transition_patch MA_KSYM;
extern int klp_target_state MA_KSYM;
#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_MTHP)
extern unsigned long huge_anon_orders_always MA_KSYM;
extern unsigned long huge_anon_orders_madvise MA_KSYM;
extern unsigned long huge_anon_orders_inherit MA_KSYM;
#endif
#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_VMA_CHECK)
/* 7.3 counts collapsed ranges in collapse_single_pmd() */
extern unsigned int khugepaged_pages_collapsed MA_KSYM;
#endif
#ifdef COMPAT_SCANRESUME_FIX_MTHP
extern struct tracepoint __tracepoint_mm_khugepaged_scan MA_KSYM;
#endif

/* The addresses of that state, filled by the livepatch relocations. */
extern const struct ma_khugepaged_syms ma_kh;
#endif

#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_MTHP)
/* mm/huge_memory.c */
extern typeof(__thp_vma_allowable_orders) __thp_vma_allowable_orders MA_KSYM;
#endif

#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_VMA_CHECK)
/* static in mm/khugepaged.c (6.1, 6.12); collapse_pte_mapped_thp() is not */
int hpage_collapse_scan_pmd(struct mm_struct *mm, struct vm_area_struct *vma,
			    unsigned long address, bool *mmap_locked,
			    struct collapse_control *cc) MA_KSYM;
int hpage_collapse_scan_file(struct mm_struct *mm, unsigned long addr,
			     struct file *file, pgoff_t start,
			     struct collapse_control *cc) MA_KSYM;
extern typeof(collapse_pte_mapped_thp) collapse_pte_mapped_thp MA_KSYM;
#endif

#ifdef COMPAT_SCANRESUME_FIX_ORDERS
/* static in mm/khugepaged.c (6.12) */
MA_KSYM bool hugepage_pmd_enabled(void);
#endif

#ifdef COMPAT_SCANRESUME_FIX_MTHP
/* static in mm/khugepaged.c (7.3) */
MA_KSYM bool hugepage_enabled(void);
int collapse_single_pmd(unsigned long addr, struct vm_area_struct *vma,
			bool *lock_dropped, struct collapse_control *cc) MA_KSYM;
#endif

#ifdef COMPAT_SCANRESUME_FIX_VMA_CHECK
/* 6.1: mm/huge_memory.c, and static in mm/khugepaged.c */
extern typeof(hugepage_vma_check) hugepage_vma_check MA_KSYM;
bool khugepaged_add_pte_mapped_thp(struct mm_struct *mm, unsigned long addr) MA_KSYM;
#endif

/*
 * One relocation per function. 6.1's livepatch core resolves each
 * livepatch relocation with a walk of the whole of kallsyms
 * (klp_find_object_symbol(), kernel/livepatch/core.c), 50 to 70 ms under
 * TCG, and the compiler copies a call into every path it duplicates (one
 * unlock_page_memcg() call in the source had five relocations): a 6.1
 * load took 6 s. The functions called from more than one place are called
 * through one out-of-line wrapper each (symbols.c), which holds the only
 * relocation; each macro below sends the calls after this point to it.
 */
#ifdef MA_CARRY_MLOCK
extern typeof(mlock_folio) ma_call_mlock_folio;
#define mlock_folio(...)		ma_call_mlock_folio(__VA_ARGS__)
extern typeof(rmap_walk) ma_call_rmap_walk;
#define rmap_walk(...)			ma_call_rmap_walk(__VA_ARGS__)
extern typeof(page_vma_mapped_walk) ma_call_page_vma_mapped_walk;
#define page_vma_mapped_walk(...)	ma_call_page_vma_mapped_walk(__VA_ARGS__)
extern typeof(folio_lruvec_lock_irq) ma_call_folio_lruvec_lock_irq;
#define folio_lruvec_lock_irq(...)	ma_call_folio_lruvec_lock_irq(__VA_ARGS__)
extern typeof(folio_lock_anon_vma_read) ma_call_folio_lock_anon_vma_read;
#define folio_lock_anon_vma_read(...)	ma_call_folio_lock_anon_vma_read(__VA_ARGS__)
#endif
#ifdef COMPAT_MLOCK_FIX_PAGE_RMAP
extern typeof(munlock_page) ma_call_munlock_page;
#define munlock_page(...)		ma_call_munlock_page(__VA_ARGS__)
extern typeof(unlock_page_memcg) ma_call_unlock_page_memcg;
#define unlock_page_memcg(...)		ma_call_unlock_page_memcg(__VA_ARGS__)
extern typeof(deferred_split_huge_page) ma_call_deferred_split_huge_page;
#define deferred_split_huge_page(...)	ma_call_deferred_split_huge_page(__VA_ARGS__)
#endif
#ifdef MA_NEEDS_VM_NORMAL_PAGE
extern typeof(vm_normal_page) ma_call_vm_normal_page;
#define vm_normal_page(...)		ma_call_vm_normal_page(__VA_ARGS__)
#endif
#ifdef MA_NEEDS_FIND_PMD_OR_THP_OR_NONE
extern typeof(find_pmd_or_thp_or_none) ma_call_find_pmd_or_thp_or_none;
#define find_pmd_or_thp_or_none(...)	ma_call_find_pmd_or_thp_or_none(__VA_ARGS__)
#endif
#ifdef MA_CARRY_SCANRESUME
extern typeof(collect_mm_slot) ma_call_collect_mm_slot;
#define collect_mm_slot(...)		ma_call_collect_mm_slot(__VA_ARGS__)
#endif

#endif /* _MLOCK_AUDIT_SYMBOLS_H */
