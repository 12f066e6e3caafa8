/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live fixes: which exist, which the running kernel needs, and the
 * livepatch that carries the selected ones (see fixes.c and README.md).
 */
#ifndef _MLOCK_AUDIT_FIXES_H
#define _MLOCK_AUDIT_FIXES_H

#include <linux/livepatch.h>
#include <linux/mm_types.h>
#include <linux/rmap.h>
#include <linux/seq_file.h>

/*
 * Test-only (MLOCK_AUDIT_BREAK=noop_mlock and so on, see Kbuild): true in a
 * build whose replacements of that fix do what the stock functions do and
 * no more (noop_fault: one page per fault, also on anonymous shmem, which
 * the stock finish_fault() maps whole), while the fix reports "active";
 * tests/host/fix-noop shows that the fix tests fail on it.
 */
#ifdef MLOCK_AUDIT_BREAK_NOOP_MLOCK
#define MA_NOOP_MLOCK		1
#endif
#ifdef MLOCK_AUDIT_BREAK_NOOP_FAULT
#define MA_NOOP_FAULT		1
#endif
#ifdef MLOCK_AUDIT_BREAK_NOOP_LAZYFREE
#define MA_NOOP_LAZYFREE	1
#endif
#ifdef MLOCK_AUDIT_BREAK_NOOP_SCANRESUME
#define MA_NOOP_SCANRESUME	1
#endif
#define MA_NOOP(fix)		IS_ENABLED(MA_NOOP_##fix)
/*
 * Test-only (MLOCK_AUDIT_BREAK=hold_early_mlock): the 6.1 mlock fix
 * mlocks large folios from the start of the enable transition, as it did
 * before issue 15 (tests/host/enable-window shows what that strands).
 */
#ifdef MLOCK_AUDIT_BREAK_HOLD_EARLY_MLOCK
#define MA_EARLY_MLOCK		1
#else
#define MA_EARLY_MLOCK		0
#endif

enum ma_fix_state {
	MA_FIX_OFF,		/* not selected, or disabled */
	MA_FIX_PENDING,		/* selected, livepatch in transition */
	MA_FIX_ACTIVE,		/* livepatched */
	MA_FIX_UPSTREAM,	/* the kernel has it: nothing to patch */
	MA_FIX_UNSUPPORTED,	/* cannot be carried on this kernel */
	MA_FIX_UNVERIFIED,	/* not verified for this build: left off */
};

/* Large folios the replacement functions mlocked, by path. */
enum ma_fix_event {
	MA_EV_RMAP_MLOCK,
	MA_EV_REFERENCED_MLOCK,
	MA_EV_UNMAP_MLOCK,
	MA_EV_FAULT_WHOLE_FOLIO,	/* large folios mapped whole */
	MA_EV_FAULTAROUND_WHOLE_FOLIO,
	MA_NR_FIX_EVENTS,
};

struct ma_fix {
	const char *name;
	/* the replacements, { } terminated; NULL unless carried here */
	struct klp_func *funcs;
	/* why the kernel has it, or why it cannot be carried, or NULL */
	const char *upstream, *unsupported;
	/* at load: the evidence that the running kernel has it, or NULL */
	const char *(*upstream_probe)(void);
	/* after the livepatch transition completed (may sleep) */
	void (*activated)(struct ma_fix *fix);
	/*
	 * Before the livepatch is disabled, or once it is gone when a
	 * transition was reversed (may sleep; called again at unload, so it
	 * must be idempotent).
	 */
	void (*deactivating)(struct ma_fix *fix);
	/*
	 * A transition of the livepatch has started: after klp_enable_patch()
	 * and before disabling (must not take klp_mutex).
	 */
	void (*transition)(struct ma_fix *fix);
	/*
	 * The livepatch is gone: its transition to unpatched completed, or
	 * the module unloads (may sleep; must be idempotent).
	 */
	void (*unpatched)(struct ma_fix *fix);
	/*
	 * Unload, once the livepatch is gone and after unpatched: wait for
	 * work the fix still runs (may sleep long).
	 */
	void (*exit)(struct ma_fix *fix);
	void (*show)(struct seq_file *m, struct ma_fix *fix);

	enum ma_fix_state state;
	const char *detail;	/* the reason for the state */
	char unverified[192];	/* the reason it is unverified, if it is */
	char layout[192];	/* how its mirrors differ, if they do */
	bool queued;		/* its replacements were put in the livepatch */
};

/* ma_fix_FIX, for each FIX of Kbuild's MA_FIXES */
MA_FIX_DECLS;

int ma_fixes_init(void);
void ma_fixes_exit(void);
int ma_fixes_show(struct seq_file *m);
void ma_fix_event(enum ma_fix_event ev, struct folio *folio);
struct klp_patch *ma_fixes_patch(void);
bool ma_fix_listed(const char *list, const char *fix);

/* The replacement functions of the "mlock" fix. */
void ma_folio_add_anon_rmap_ptes(struct folio *folio, struct page *page,
				 int nr_pages, struct vm_area_struct *vma,
				 unsigned long address, rmap_t flags);
void ma_folio_add_anon_rmap_pmd(struct folio *folio, struct page *page,
				struct vm_area_struct *vma, unsigned long address,
				rmap_t flags);
void ma_folio_add_file_rmap_ptes(struct folio *folio, struct page *page,
				 int nr_pages, struct vm_area_struct *vma);
void ma_folio_add_file_rmap_pmd(struct folio *folio, struct page *page,
				struct vm_area_struct *vma);
int ma_folio_referenced(struct folio *folio, int is_locked,
			struct mem_cgroup *memcg, unsigned long *vm_flags);
void ma_try_to_unmap(struct folio *folio, enum ttu_flags flags);
void ma_mlock_folio(struct folio *folio);
extern atomic_long_t ma_mlock_count_resets;	/* stale counts restarted */
extern atomic_long_t ma_mlock_count_reset_misses;	/* restarts given up */

/* ... on 6.1 (page-based rmap) */
void ma_do_set_pte(struct vm_fault *vmf, struct page *page, unsigned long addr);
void ma_page_remove_rmap(struct page *page, struct vm_area_struct *vma,
			 bool compound);
struct mm_walk;
int ma_mlock_pte_range(pmd_t *pmd, unsigned long addr, unsigned long end,
		       struct mm_walk *walk);

/*
 * May the replacements mlock a PTE-mapped large folio? Not any more once
 * the fix is being disabled on a kernel where the stock code would never
 * munlock it (6.1): see fixes/mlock/fix.c.
 */
extern bool ma_mlock_large_off;
static inline bool ma_mlock_large_allowed(void)
{
	return !MA_NOOP(MLOCK) && !READ_ONCE(ma_mlock_large_off);
}

/* The replacement functions of the "fault" fix. */
vm_fault_t ma_finish_fault(struct vm_fault *vmf);
vm_fault_t ma_filemap_map_pages(struct vm_fault *vmf, pgoff_t start_pgoff,
				pgoff_t end_pgoff);

/* The replacement function of the "lazyfree" fix. */
struct collapse_control;
int ma_hpage_collapse_scan_pmd(struct mm_struct *mm, struct vm_area_struct *vma,
			       unsigned long address, bool *mmap_locked,
			       struct collapse_control *cc);
extern atomic_long_t ma_lazyfree_skips;	/* ranges it left alone */

/* The replacement function of the "scanresume" fix. */
int ma_khugepaged(void *none);
extern atomic_long_t ma_scanresume_resumes;
void ma_scanresume_forget(void);
/* the thread fixes/scanresume/fix.c put in place of one that ran ma_khugepaged() */
extern struct task_struct *ma_khugepaged_successor;
/* ma_khugepaged() is in a pass (not in a wait or an allocation sleep) */
extern bool ma_khugepaged_in_pass;

#endif /* _MLOCK_AUDIT_FIXES_H */
