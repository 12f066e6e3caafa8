// SPDX-License-Identifier: GPL-2.0
/*
 * The mlock audit. For every VM_LOCKED VMA (VM_LOCKONFAULT included) of
 * every process, walk its page tables and classify each mapped page by its
 * folio:
 *
 *   mlocked          the folio has PG_mlocked
 *   missed           a large folio, not mlocked, all of its pages mapped
 *                    by one contiguous run in this VMA; missed_crossed is
 *                    the subset whose run crosses a PMD (page-table)
 *                    boundary, which upstream still leaves out
 *   partial          a large folio, not mlocked, only partly mapped here
 *   small_unmlocked  an order-0 folio that is not mlocked (transiently,
 *                    e.g. while an mlock is in progress on another CPU)
 *
 * The zero pages (small and huge), special and device pages are not
 * counted. VM_PFNMAP and VM_IO VMAs are not walked (no struct pages to
 * classify). Hugetlb VMAs are counted apart, locked or not: the kernel
 * never sets VM_LOCKED on them and their pages are never on the LRU.
 *
 * Locking: mmap_lock is held for read for at most MA_PMDS_PER_HOLD units of
 * work, a unit being one page table (2 MiB of address space) walked or one
 * VMA visited; then it is dropped (and cond_resched() called) so that page
 * faults and mmap writers of the process get through (the 6.1 undo
 * excepted, see below). A VMA that changed meanwhile is abandoned and
 * counted as "changed". Each page table is walked under its page-table
 * lock, a PMD-mapped THP under the PMD lock.
 *
 * System-wide, each physical page is counted once however many VMAs map
 * it, with a bitmap of one bit per page frame (RAM / 32768 bytes),
 * allocated per read of "summary": its size does not depend on the number
 * of processes.
 *
 * Repair (ma_audit_repair(), for a live fix of mlock tracking) is the same walk
 * that also hands each "missed" folio that is not crossed (a PMD-mapped
 * THP, or a PTE-mapped run whose entries were all seen under the one
 * page-table lock held) to the fix's repair, which mlocks it once per
 * locked mapping (fixes/mlock/repair.c). It needs the folio lock, so the
 * folios of one page table are referenced and handed over once its lock
 * is dropped.
 * Undo (ma_audit_undo(), when the fix is disabled on 6.1) walks every
 * VMA, locked or not, and munlocks in full (whatever its mlock_count) each
 * large folio that it finds mapped by a PTE, mlocked, and mapped by no PMD:
 * 6.1 itself mlocks a large folio only through a PMD mapping, so such a
 * folio was mlocked by the fix, whatever its mappings went through since
 * (VMA splits inside it, mremap of a part, a page-table relock between
 * its entries). A folio that a PMD also maps may be mlocked by the fix
 * through a PTE mapping of a VM_LOCKED VMA, or by the kernel through a
 * locked PMD mapping: where a VM_LOCKED VMA maps it by PTEs it is
 * munlocked too, and stock reclaim mlocks it again if a locked VMA maps it
 * by a PMD (folio_referenced_one()). It holds mmap_lock for reading over
 * the whole of each process (it only calls cond_resched() between units
 * of work): were it
 * let go, an mremap() could move a folio from ahead of the walk to behind
 * it, where nothing munlocks it. Writers of that process wait for the walk
 * of it, once, at disable, and with a writer waiting so do its page
 * faults. The undo runs in a work item, not under klp_mutex; it waits for
 * mmap_lock as long as it takes and stops only when the fix is in force
 * again (a reversed disable; seen while it waits for a lock and between
 * processes): what it leaves mlocked would stay so.
 */
#include <linux/bitmap.h>
#include <linux/ctype.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/hugetlb.h>
#include <linux/magic.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>

#include "audit.h"
#include "summary.h"
#include "symbols.h"

#define MA_PMDS_PER_HOLD	512
/* folios of one page table queued for the repair: large ones, 2+ entries */
#define MA_PENDING_MAX		(PTRS_PER_PTE / 2)

enum ma_class { MA_MLOCKED, MA_MISSED, MA_MISSED_CROSSED, MA_PARTIAL, MA_SMALL,
		MA_NR_CLASSES };

static const char *const ma_class_names[MA_NR_CLASSES] = {
	"mlocked", "missed", "missed_crossed", "partial", "small_unmlocked",
};

/* One VMA's counts, in pages, and its large folios per order. */
struct ma_counts {
	unsigned long resident;
	unsigned long pages[MA_NR_CLASSES];
	unsigned long folios[MA_ORDERS];
};

/* System-wide counts of distinct pages, and of what was walked. */
struct ma_system {
	unsigned long locked, pages[MA_NR_CLASSES];
	unsigned long processes, vmas, skipped_vmas, hugetlb_vmas, changed_vmas;
	unsigned long vma_bytes, hugetlb_bytes;
	unsigned long *seen;		/* one bit per pfn */
	unsigned long nbits;
};

struct ma_walk {
	struct mm_struct *mm;
	struct ma_counts c;
	struct ma_system *sys;		/* NULL when only rows are wanted */
	/* the current run of pages of one large folio, mapped contiguously */
	struct folio *run_folio;
	unsigned long run_head_pfn, run_pfn, run_addr, run_count, run_nr;
	unsigned int run_order;
	bool run_mlocked;
	/* page tables (and VMAs) left to visit before mmap_lock is dropped */
	unsigned int budget;
	/* repair: mlock missed folios of VMAs that mlock_vma_folio() accepts */
	bool repair, may_mlock;
	unsigned long (*repair_folio)(struct folio *folio);
	/* the folios of one page table waiting for it (a reference each) */
	struct folio **pending;
	unsigned int npending;
	/* undo: munlock mlocked PTE-mapped large folios instead */
	bool undo, vma_locked;
	void (*munlock_folio)(struct folio *folio);
	/* the repair stops when this becomes true (NULL: audit and undo) */
	const bool *stop;
	unsigned long repaired;
};

static void ma_sys_add(struct ma_walk *w, unsigned long pfn, unsigned long n,
		       enum ma_class class, bool crossed)
{
	struct ma_system *sys = w->sys;
	unsigned long i;

	if (!sys)
		return;
	/* pfns past the direct map (device memory) have no bit: not counted */
	for (i = 0; i < n; i++) {
		if (pfn + i >= sys->nbits || __test_and_set_bit(pfn + i, sys->seen))
			continue;
		sys->locked++;
		sys->pages[class]++;
		if (crossed)
			sys->pages[MA_MISSED_CROSSED]++;
	}
}

static void ma_run_end(struct ma_walk *w)
{
	unsigned long last = w->run_addr + (w->run_count - 1) * PAGE_SIZE;
	bool crossed = false;
	enum ma_class class;

	if (!w->run_folio)
		return;
	w->c.folios[min_t(unsigned int, w->run_order, MA_ORDERS - 1)]++;
	if (w->run_mlocked) {
		class = MA_MLOCKED;
	} else if (w->run_count == w->run_nr) {
		class = MA_MISSED;
		crossed = (w->run_addr >> PMD_SHIFT) != (last >> PMD_SHIFT);
		if (crossed)
			w->c.pages[MA_MISSED_CROSSED] += w->run_count;
	} else {
		class = MA_PARTIAL;
	}
	w->c.pages[class] += w->run_count;
	ma_sys_add(w, w->run_pfn, w->run_count, class, crossed);
	w->run_folio = NULL;
}

/* One PTE-mapped page; called under its page-table lock. */
static void ma_pte_page(struct ma_walk *w, struct page *page, unsigned long pfn,
			unsigned long addr)
{
	struct folio *folio = page_folio(page);

	w->c.resident++;
	if (!folio_test_large(folio)) {
		enum ma_class class = folio_test_mlocked(folio) ? MA_MLOCKED : MA_SMALL;

		ma_run_end(w);
		w->c.pages[class]++;
		ma_sys_add(w, pfn, 1, class, false);
		return;
	}
	if (w->run_folio == folio && pfn == w->run_pfn + w->run_count &&
	    addr == w->run_addr + w->run_count * PAGE_SIZE) {
		w->run_count++;
		return;
	}
	ma_run_end(w);
	w->run_folio = folio;
	w->run_pfn = pfn;
	w->run_addr = addr;
	w->run_count = 1;
	w->run_nr = folio_nr_pages(folio);
	w->run_head_pfn = folio_pfn(folio);
	w->run_order = folio_order(folio);
	w->run_mlocked = folio_test_mlocked(folio);
}

/* Queue @folio for the repair; called under a page-table or PMD lock. */
static void ma_repair_queue(struct ma_walk *w, struct folio *folio)
{
	if (w->npending == MA_PENDING_MAX)
		return;		/* never: at most one per two entries */
	folio_get(folio);
	w->pending[w->npending++] = folio;
}

/* Repair the folios queued, with no page-table lock held. */
static void ma_repair_pending(struct ma_walk *w)
{
	unsigned int i;

	for (i = 0; i < w->npending; i++) {
		w->repaired += w->repair_folio(w->pending[i]);
		folio_put(w->pending[i]);
	}
	w->npending = 0;
}

/*
 * Queue the current run for the repair once it covers its whole folio
 * within the page table being walked (its first entry is in the same
 * table as @addr, the last one seen); called under that page-table lock.
 */
static void ma_repair_run(struct ma_walk *w, unsigned long addr)
{
	if (!w->run_folio || w->run_count != w->run_nr)
		return;
	if (w->run_mlocked || (w->run_addr & PMD_MASK) != (addr & PMD_MASK))
		return;
	ma_repair_queue(w, w->run_folio);
	w->run_mlocked = true;	/* queued once */
}

/*
 * The 6.1 undo, for the page just seen: munlock its folio in full if it is
 * large, mlocked, and mapped by no PMD or mapped here by a VM_LOCKED VMA
 * (see the header comment); called under the page-table lock.
 */
static void ma_undo_run(struct ma_walk *w)
{
	struct folio *folio = w->run_folio;

	if (!folio || !folio_test_mlocked(folio))
		return;
	if (folio_entire_mapcount(folio) && !w->vma_locked)
		return;
	w->munlock_folio(folio);
	w->run_mlocked = folio_test_mlocked(folio);
	if (!w->run_mlocked)
		w->repaired += folio_nr_pages(folio);
}

/* A PMD-mapped THP; called under the PMD lock. */
static void ma_pmd_folio(struct ma_walk *w, pmd_t pmd)
{
	struct folio *folio = page_folio(pmd_page(pmd));
	enum ma_class class;

	ma_run_end(w);
	if (w->may_mlock && !w->undo && !folio_test_mlocked(folio))
		ma_repair_queue(w, folio);
	class = folio_test_mlocked(folio) ? MA_MLOCKED : MA_MISSED;
	w->c.resident += HPAGE_PMD_NR;
	w->c.pages[class] += HPAGE_PMD_NR;
	w->c.folios[min_t(unsigned int, HPAGE_PMD_ORDER, MA_ORDERS - 1)]++;
	ma_sys_add(w, pmd_pfn(pmd), HPAGE_PMD_NR, class, false);
}

static void ma_walk_pmd(struct ma_walk *w, pmd_t *pmd, unsigned long addr,
			unsigned long end)
{
	pmd_t pmdval = pmdp_get(pmd);
	spinlock_t *ptl;	/* the PMD or page-table lock */
	pte_t *start, *pte;

	if (pmd_none(pmdval) || !pmd_present(pmdval))
		return;
	if (pmd_trans_huge(pmdval)) {
		ptl = pmd_lock(w->mm, pmd);
		pmdval = pmdp_get(pmd);
		/* the huge zero page is not counted, like the zero page */
		if (pmd_trans_huge(pmdval) && pmd_present(pmdval) &&
		    pmd_pfn(pmdval) != READ_ONCE(huge_zero_pfn))
			ma_pmd_folio(w, pmdval);
		spin_unlock(ptl);
		ma_repair_pending(w);
		if (pmd_trans_huge(pmdval))
			return;
	}
	/* other leaf PMDs (DAX) and corrupt entries map no page table */
	if (pmd_leaf(pmdval) || pmd_bad(pmdval))
		return;
	start = ma_pte_offset_map_lock(w->mm, pmd, addr, &ptl);
	if (!start)
		return;
	for (pte = start; addr < end; pte++, addr += PAGE_SIZE) {
		pte_t ptent = ptep_get(pte);
		unsigned long pfn;
		struct page *page;

		if (!pte_present(ptent) || pte_special(ptent))
			continue;
		pfn = pte_pfn(ptent);
		/*
		 * Fast path: the next page of the current run, within the
		 * run's folio, is the same folio (about half the cost of a
		 * walk of PTE-mapped large folios).
		 */
		if (w->run_folio && pfn == w->run_pfn + w->run_count &&
		    pfn < w->run_head_pfn + w->run_nr &&
		    addr == w->run_addr + w->run_count * PAGE_SIZE) {
			w->c.resident++;
			w->run_count++;
		} else {
			if (is_zero_pfn(pfn) || !pfn_valid(pfn))
				continue;
			page = pfn_to_page(pfn);
			if (is_zone_device_page(page))
				continue;
			ma_pte_page(w, page, pfn, addr);
		}
		if (w->undo)
			ma_undo_run(w);
		else if (w->may_mlock)
			ma_repair_run(w, addr);
	}
	pte_unmap_unlock(start, ptl);
	ma_repair_pending(w);
}

/* Walk [addr, end) of the VMA; returns the address reached. */
static unsigned long ma_walk_range(struct ma_walk *w, unsigned long addr,
				   unsigned long end)
{
	while (addr < end && w->budget) {
		unsigned long next = pmd_addr_end(addr, end);
		pgd_t *pgd = pgd_offset(w->mm, addr);
		p4d_t *p4d;
		pud_t *pud;

		w->budget--;
		if (pgd_none(*pgd) || pgd_bad(*pgd))
			goto next;
		p4d = p4d_offset(pgd, addr);
		if (p4d_none(*p4d) || p4d_bad(*p4d))
			goto next;
		pud = pud_offset(p4d, addr);
		if (pud_none(*pud) || pud_leaf(*pud) || pud_bad(*pud))
			goto next;
		ma_walk_pmd(w, pmd_offset(pud, addr), addr, next);
next:
		addr = next;
	}
	return addr;
}

static const char *ma_backing(struct vm_area_struct *vma)
{
	if (!vma->vm_file)
		return "anon";
	if (file_inode(vma->vm_file)->i_sb->s_magic == TMPFS_MAGIC)
		return "shmem";
	return "file";
}

static void ma_row(struct seq_file *m, struct ma_walk *w, struct task_struct *task,
		   struct vm_area_struct *vma)
{
	char comm[TASK_COMM_LEN], *c;
	const char *sep = "";
	int i;

	get_task_comm(comm, task);
	for (c = comm; *c; c++)
		if (!isgraph(*c) || *c == '=')
			*c = '_';
	seq_printf(m, "pid=%d comm=%s start=%lx end=%lx flags=%s backing=%s resident=%lu",
		   task_tgid_nr(task), comm, vma->vm_start, vma->vm_end,
		   vma->vm_flags & VM_LOCKONFAULT ? "onfault" : "locked",
		   ma_backing(vma), w->c.resident);
	for (i = 0; i < MA_NR_CLASSES; i++)
		seq_printf(m, " %s=%lu", ma_class_names[i], w->c.pages[i]);
	seq_puts(m, " orders=");
	for (i = 1; i < MA_ORDERS; i++) {
		if (!w->c.folios[i])
			continue;
		seq_printf(m, "%s%d:%lu", sep, i, w->c.folios[i]);
		sep = ",";
	}
	seq_printf(m, "%s path=", *sep ? "" : "-");
	if (vma->vm_file)
		seq_file_path(m, vma->vm_file, " \t\n\\=");
	else
		seq_putc(m, '-');
	seq_putc(m, '\n');
}

/* Should a walk stop: a fatal signal, or the repair asked to stop? */
static bool ma_stop(const bool *stop)
{
	return fatal_signal_pending(current) || (stop && READ_ONCE(*stop));
}

/*
 * Take mmap_lock for reading. The repair and the undo, which the
 * livepatch's callbacks stop and wait for with klp_mutex held, must not
 * sleep behind a writer that may never let go (a task stuck in D state
 * holding it): they only try, as long as it takes, and give up as soon as
 * they are asked to stop. The audit's readers wait killably.
 */
static int ma_mmap_lock(struct mm_struct *mm, const bool *stop)
{
	if (!stop)
		return mmap_read_lock_killable(mm);
	while (!mmap_read_trylock(mm)) {
		if (ma_stop(stop))
			return -EINTR;
		usleep_range(1000, 2000);
	}
	return 0;
}

/*
 * Drop and retake mmap_lock, letting faults and writers through. The undo
 * keeps it (see the header comment) and only lets the CPU go.
 */
static int ma_relock(struct ma_walk *w)
{
	w->budget = MA_PMDS_PER_HOLD;
	if (w->undo) {
		cond_resched();
		return 0;
	}
	mmap_read_unlock(w->mm);
	cond_resched();
	return ma_mmap_lock(w->mm, w->stop);
}

/*
 * The mm of process @task, referenced: that of any of its threads, so that
 * a process whose thread-group leader has exited (a zombie, with no mm) is
 * still walked. NULL when every thread is gone.
 */
static struct mm_struct *ma_task_mm(struct task_struct *task)
{
	struct mm_struct *mm = NULL;
	struct task_struct *t;

	rcu_read_lock();
	for_each_thread(task, t) {
		task_lock(t);
		if (t->mm && !(t->flags & PF_KTHREAD)) {
			mm = t->mm;
			mmget(mm);
		}
		task_unlock(t);
		if (mm)
			break;
	}
	rcu_read_unlock();
	return mm;
}

/* A repair or an undo over every process. */
struct ma_fixer {
	unsigned long pages;		/* mlocked or munlocked */
	const bool *stop;
	bool undo;
	unsigned long (*repair_folio)(struct folio *folio);	/* the repair's */
	void (*munlock_folio)(struct folio *folio);		/* the undo's */
	struct folio **pending;		/* the repair's, MA_PENDING_MAX */
};

/*
 * Audit the locked VMAs of @task: rows into @m (when @m), distinct pages
 * into @sys (when @sys); with @fx, repair or undo too and add the pages
 * mlocked or munlocked to fx->pages. Returns 0 or -EINTR when a fatal
 * signal arrived or *fx->stop was set.
 */
static int ma_audit_task(struct task_struct *task, struct seq_file *m,
			 struct ma_system *sys, struct ma_fixer *fx)
{
	const bool undo = fx && fx->undo, *stop = fx ? fx->stop : NULL;
	struct ma_walk w = { .sys = sys, .budget = MA_PMDS_PER_HOLD,
			     .repair = fx && !undo, .undo = undo, .stop = stop,
			     .repair_folio = fx ? fx->repair_folio : NULL,
			     .munlock_folio = fx ? fx->munlock_folio : NULL,
			     .pending = fx ? fx->pending : NULL };
	struct vm_area_struct *vma;
	unsigned long addr = 0;
	bool changed;

	w.mm = ma_task_mm(task);
	if (!w.mm)
		return 0;	/* exiting */
	if (ma_mmap_lock(w.mm, stop))
		goto intr;
	if (sys)
		sys->processes++;
	while ((vma = find_vma(w.mm, addr))) {
		unsigned long start = vma->vm_start, end = vma->vm_end;
		unsigned long flags = vma->vm_flags;
		/* a repair or an undo may resume inside a VMA (see below) */
		unsigned long from = max(start, addr);

		addr = end;
		/* every VMA visited costs one unit of the hold budget */
		if (w.budget)
			w.budget--;
		/*
		 * mlock() and MAP_LOCKED never set VM_LOCKED on hugetlb VMAs
		 * (nor on VM_PFNMAP/VM_IO ones), and hugetlb pages are never
		 * on the LRU: hugetlb is reported apart, locked or not.
		 */
		if (is_vm_hugetlb_page(vma)) {
			if (sys) {
				sys->hugetlb_vmas++;
				sys->hugetlb_bytes += end - start;
			}
		} else if (!(flags & VM_LOCKED) && !undo) {
			;
		} else if (flags & (VM_PFNMAP | VM_IO)) {
			/* no struct pages to classify: never walked */
			if (sys) {
				sys->vmas++;
				sys->vma_bytes += end - start;
				sys->skipped_vmas++;
			}
		} else {
			if (sys) {
				sys->vmas++;
				sys->vma_bytes += end - start;
			}
			memset(&w.c, 0, sizeof(w.c));
			w.run_folio = NULL;
			w.vma_locked = flags & VM_LOCKED;
			/* the rule of mlock_vma_folio() */
			w.may_mlock = w.repair &&
				(flags & (VM_LOCKED | VM_SPECIAL)) == VM_LOCKED;
			changed = false;
			for (addr = from; ; ) {
				addr = ma_walk_range(&w, addr, end);
				if (addr >= end)
					break;
				ma_run_end(&w);
				if (ma_relock(&w))
					goto intr;
				vma = find_vma(w.mm, addr);
				changed = !vma || vma->vm_start != start ||
					  vma->vm_end != end || vma->vm_flags != flags;
				if (changed)
					break;
			}
			ma_run_end(&w);
			/*
			 * The VMA changed while mmap_lock was let go: the audit
			 * reports it apart, but the repair goes on from where it
			 * was, in whatever VMA is there now (the undo never lets
			 * mmap_lock go within a process).
			 */
			if (!changed || !w.repair)
				addr = end;
			if (changed && sys)
				sys->changed_vmas++;
			if (!changed && m)
				ma_row(m, &w, task, vma);
		}
		if (!undo && ma_stop(stop)) {
			mmap_read_unlock(w.mm);
			goto intr;
		}
		if (!w.budget && ma_relock(&w))
			goto intr;
	}
	mmap_read_unlock(w.mm);
	mmput(w.mm);
	if (fx)
		fx->pages += w.repaired;
	return 0;
intr:
	mmput(w.mm);
	if (fx)
		fx->pages += w.repaired;
	return -EINTR;
}

/* The next process with tgid >= *nr, referenced. */
static struct task_struct *ma_next_process(pid_t *nr)
{
	struct task_struct *task = NULL;
	struct pid *pid;

	rcu_read_lock();
	while ((pid = find_ge_pid(*nr, &init_pid_ns))) {
		*nr = pid_nr(pid);
		task = pid_task(pid, PIDTYPE_TGID);
		if (task && !(task->flags & PF_KTHREAD)) {
			get_task_struct(task);
			break;
		}
		task = NULL;
		(*nr)++;
	}
	rcu_read_unlock();
	return task;
}

/**
 * ma_vmas_show() - one row per locked VMA of every process.
 * @m: the seq_file
 *
 * Return: 0, or -EINTR on a fatal signal.
 */
int ma_vmas_show(struct seq_file *m)
{
	struct task_struct *task;
	pid_t nr = 1;
	int ret = 0;

	seq_puts(m, "format 1\n");
	while (!ret && (task = ma_next_process(&nr))) {
		ret = ma_audit_task(task, m, NULL, NULL);
		put_task_struct(task);
		nr++;
		cond_resched();
	}
	return ret;
}

/* The lines of "summary", in order (summary_fields.h). */
static const struct {
	const char *key;
	size_t off;
} ma_summary_keys[] = {
#define MA_SIZE(key, ...) { #key, offsetof(struct ma_summary, key) },
#define MA_COUNT(key, ...) { #key, offsetof(struct ma_summary, key) },
#define MA_EVENT(name) \
	{ "unevictable_pgs_" #name, offsetof(struct ma_summary, events[MA_EVENT_##name]) },
#include "summary_fields.h"
#undef MA_SIZE
#undef MA_COUNT
#undef MA_EVENT
};

/**
 * ma_summary_show() - system-wide figures (see README.md, "summary").
 * @m: the seq_file
 *
 * Return: 0, -ENOMEM, or -EINTR on a fatal signal.
 */
int ma_summary_show(struct seq_file *m)
{
	static const struct { enum ma_summary_event e; enum vm_event_item item; } events[] = {
		{ MA_EVENT_culled, UNEVICTABLE_PGCULLED },
		{ MA_EVENT_scanned, UNEVICTABLE_PGSCANNED },
		{ MA_EVENT_rescued, UNEVICTABLE_PGRESCUED },
		{ MA_EVENT_mlocked, UNEVICTABLE_PGMLOCKED },
		{ MA_EVENT_munlocked, UNEVICTABLE_PGMUNLOCKED },
		{ MA_EVENT_cleared, UNEVICTABLE_PGCLEARED },
		{ MA_EVENT_stranded, UNEVICTABLE_PGSTRANDED },
	};
	struct ma_system sys = { };
	struct ma_summary s = { };
	struct task_struct *task;
	unsigned long *ev;
	pid_t nr = 1;
	int ret = 0, i;

	BUILD_BUG_ON(ARRAY_SIZE(events) != MA_NR_EVENTS);
	/* on x86_64 all RAM is in the direct map, which ends at high_memory */
	sys.nbits = PHYS_PFN(__pa(high_memory - 1)) + 1;
	sys.seen = vzalloc(BITS_TO_LONGS(sys.nbits) * sizeof(long));
	ev = kcalloc(NR_VM_EVENT_ITEMS, sizeof(*ev), GFP_KERNEL);
	if (!sys.seen || !ev) {
		ret = -ENOMEM;
		goto out;
	}
	while (!ret && (task = ma_next_process(&nr))) {
		ret = ma_audit_task(task, NULL, &sys, NULL);
		put_task_struct(task);
		nr++;
		cond_resched();
	}
	if (ret)
		goto out;
	all_vm_events(ev);

#define KB(pages) ((pages) << (PAGE_SHIFT - 10))
	s.mlocked_kb = KB(global_zone_page_state(NR_MLOCK));
	s.locked_kb = KB(sys.locked);
	s.locked_mlocked_kb = KB(sys.pages[MA_MLOCKED]);
	s.undercount_kb = KB(sys.locked - sys.pages[MA_MLOCKED]);
	s.undercount_missed_kb = KB(sys.pages[MA_MISSED]);
	s.undercount_missed_crossed_kb = KB(sys.pages[MA_MISSED_CROSSED]);
	s.undercount_partial_kb = KB(sys.pages[MA_PARTIAL]);
	s.undercount_small_unmlocked_kb = KB(sys.pages[MA_SMALL]);
	s.unevictable_kb = KB(global_node_page_state(NR_UNEVICTABLE));
	for (i = 0; i < ARRAY_SIZE(events); i++)
		s.events[events[i].e] = ev[events[i].item];
	s.processes = sys.processes;
	s.locked_vmas = sys.vmas;
	s.locked_vma_kb = sys.vma_bytes >> 10;
	s.pfnmap_vmas = sys.skipped_vmas;
	s.hugetlb_vmas = sys.hugetlb_vmas;
	s.hugetlb_vma_kb = sys.hugetlb_bytes >> 10;
	s.changed_vmas = sys.changed_vmas;
	s.bitmap_kb = BITS_TO_LONGS(sys.nbits) * sizeof(long) / 1024;
#undef KB
	seq_puts(m, "format 1\n");
	for (i = 0; i < ARRAY_SIZE(ma_summary_keys); i++)
		seq_printf(m, "%s %llu\n", ma_summary_keys[i].key,
			   *(const unsigned long long *)((const char *)&s +
							 ma_summary_keys[i].off));
out:
	kfree(ev);
	vfree(sys.seen);
	return ret;
}

/* Repair or undo in every process. */
static int ma_audit_fix(struct ma_fixer *fx)
{
	struct task_struct *task;
	pid_t nr = 1;
	int ret = 0;

	while (!ret && (task = ma_next_process(&nr))) {
		/* the undo looks at *@stop only here and while it waits */
		if (READ_ONCE(*fx->stop)) {
			put_task_struct(task);
			return -EINTR;
		}
		ret = ma_audit_task(task, NULL, NULL, fx);
		put_task_struct(task);
		nr++;
		cond_resched();
	}
	return ret;
}

/**
 * ma_audit_repair() - mlock what a fix of mlock tracking would have mlocked.
 * @pages: set to the number of pages mlocked
 * @stop: the walk stops when *@stop becomes true
 * @repair_folio: mlocks a folio found missed (see the header comment),
 *                returns the pages it mlocked
 *
 * Every process is walked as by the audit; see the header comment.
 *
 * Return: 0, -ENOMEM, or -EINTR when stopped.
 */
int ma_audit_repair(unsigned long *pages, const bool *stop,
		    unsigned long (*repair_folio)(struct folio *folio))
{
	struct ma_fixer fx = { .stop = stop, .repair_folio = repair_folio };
	int ret;

	*pages = 0;
	fx.pending = kmalloc_array(MA_PENDING_MAX, sizeof(*fx.pending),
				   GFP_KERNEL);
	if (!fx.pending)
		return -ENOMEM;
	ret = ma_audit_fix(&fx);
	kfree(fx.pending);
	*pages = fx.pages;
	return ret;
}
EXPORT_SYMBOL_GPL(ma_audit_repair);

/**
 * ma_audit_undo() - munlock what a fix of mlock tracking mlocked (6.1).
 * @pages: set to the number of pages munlocked
 * @stop: the walk stops when *@stop becomes true
 * @munlock_folio: munlocks a folio in full (called under its page-table lock)
 *
 * Return: 0, or -EINTR when stopped.
 */
int ma_audit_undo(unsigned long *pages, const bool *stop,
		  void (*munlock_folio)(struct folio *folio))
{
	struct ma_fixer fx = { .stop = stop, .undo = true, .munlock_folio = munlock_folio };
	int ret;

	ret = ma_audit_fix(&fx);
	*pages = fx.pages;
	return ret;
}
EXPORT_SYMBOL_GPL(ma_audit_undo);
