// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "scanresume" (seed 004, "mm/khugepaged: scan mm's more
 * efficiently under mmap_lock contention", in no released kernel):
 * khugepaged resumes an mm where it stopped instead of at address 0 after
 * a failed mmap_read_trylock(), so under mmap_lock contention the end of a
 * large mm is still reached.
 *
 * The mm-slot scanner is inlined into khugepaged() on every supported
 * kernel, so ma_khugepaged() replaces khugepaged() whole. It matches
 * khugepaged(), khugepaged_do_scan(), the mm-slot scanner and
 * khugepaged_wait_work() of Debian 7.3.4 mm/khugepaged.c:2856-3073
 * (COMPAT_SCANRESUME_FIX_MTHP), Debian 6.12.118 mm/khugepaged.c:2359-2608
 * (COMPAT_SCANRESUME_FIX_ORDERS) and Debian 6.1.192
 * mm/khugepaged.c:2266-2536 (COMPAT_SCANRESUME_FIX_VMA_CHECK), except for
 * the position of an mm, which seed 004 changes:
 *
 *  - on leaving a slot before its last VMA, it is kept in an xarray keyed
 *    by mm->context.ctx_id (unique per mm on x86, never reused);
 *  - after a VMA that cannot be collapsed it moves to the end of that VMA;
 *  - it goes back to 0 only when the walk ran off the last VMA.
 *
 * khugepaged_scan.address still holds the position in the current slot, so
 * the stock khugepaged() carries on from it once the fix is disabled. Only
 * the khugepaged thread touches the positions. As the key is never reused,
 * no new mm can pick up a stale position; one that a whole pass did not
 * consume belongs to a freed slot and is dropped when the pass ends.
 */
#include <linux/atomic.h>
#include <linux/file.h>
#include <linux/freezer.h>
#include <linux/huge_mm.h>
#include <linux/kthread.h>
#include <linux/livepatch.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include "scanresume.h"
#include "khugepaged_internal.h"
#include "symbols.h"

atomic_long_t ma_scanresume_resumes;	/* visits that did not start at 0 */
struct task_struct *ma_khugepaged_successor;

static bool ma_mm_exiting(struct mm_struct *mm)
{
	return !atomic_read(&mm->mm_users);
}

/* xarray value: page number of the address, low bits of its pass */
#define MA_POS_PASS_BITS	16
#define MA_POS_PASS_MASK	((1UL << MA_POS_PASS_BITS) - 1)

static DEFINE_XARRAY(ma_positions);

static unsigned long ma_pos_key(struct ma_khugepaged_mm_slot *mm_slot)
{
	return mm_slot->slot.mm->context.ctx_id;
}

/* Where to start in @mm_slot: its saved position, or 0. Atomic context. */
static unsigned long ma_pos_load(struct ma_khugepaged_mm_slot *mm_slot)
{
	void *pos = xa_load(&ma_positions, ma_pos_key(mm_slot));

	if (!pos)
		return 0;
	atomic_long_inc(&ma_scanresume_resumes);
	return (xa_to_value(pos) >> MA_POS_PASS_BITS) << PAGE_SHIFT;
}

/* Forget the position of @mm_slot's mm. Atomic context. */
static void ma_pos_drop(struct ma_khugepaged_mm_slot *mm_slot)
{
	xa_erase(&ma_positions, ma_pos_key(mm_slot));
}

/* On -ENOMEM the next visit starts at 0, as stock khugepaged does. */
static void ma_pos_save(struct ma_khugepaged_mm_slot *mm_slot,
			unsigned long address)
{
	unsigned long pass = READ_ONCE(*ma_kh.full_scans) & MA_POS_PASS_MASK;

	if (!address) {
		ma_pos_drop(mm_slot);
		return;
	}
	xa_store(&ma_positions, ma_pos_key(mm_slot),
		 xa_mk_value((address >> PAGE_SHIFT) << MA_POS_PASS_BITS | pass),
		 GFP_KERNEL);
}

/*
 * Positions older than the pass that just ended belong to mms that are
 * gone. Atomic context.
 */
static void ma_pos_collect(unsigned int pass)
{
	unsigned long key, last = (pass - 1) & MA_POS_PASS_MASK;
	void *pos;

	xa_for_each(&ma_positions, key, pos)
		if ((xa_to_value(pos) & MA_POS_PASS_MASK) != last)
			xa_erase(&ma_positions, key);
}

/**
 * ma_scanresume_forget() - drop every saved position (the fix is gone).
 */
void ma_scanresume_forget(void)
{
	xa_destroy(&ma_positions);
}

#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_VMA_CHECK)
static int ma_scan_file(struct mm_struct *mm, struct vm_area_struct *vma,
			unsigned long address, struct collapse_control *cc)
{
	struct file *file = get_file(vma->vm_file);
	pgoff_t pgoff = linear_page_index(vma, address);
	int result;

	mmap_read_unlock(mm);
	result = hpage_collapse_scan_file(mm, address, file, pgoff, cc);
	fput(file);
	return result;
}
#endif

#if defined(COMPAT_SCANRESUME_FIX_MTHP)
/*
 * 7.3 (khugepaged.c:2920-2921): collapse_single_pmd() counts the progress
 * and the collapsed ranges itself. False: stop with mmap_lock held.
 */
static bool ma_scan_range(struct mm_struct *mm, struct vm_area_struct *vma,
			  unsigned long address, bool *mmap_locked, int *result,
			  struct collapse_control *cc)
{
	bool lock_dropped = false;

	*result = collapse_single_pmd(address, vma, &lock_dropped, cc);
	*mmap_locked = !lock_dropped;
	return true;
}

static void ma_collapse_pte_mapped_thps(struct ma_khugepaged_mm_slot *mm_slot)
{
}

/*
 * trace_mm_khugepaged_scan() is not exported: call its probes, with the
 * TP_PROTO of 7.3 include/trace/events/huge_memory.h:253.
 */
static void ma_trace_mm_scan(struct mm_struct *mm, unsigned int progress,
			     bool full_scan_finished)
{
	struct tracepoint *tp = ma_kh.tp_scan;
	/* the kernel's __traceiter_mm_khugepaged_scan(), which returns int */
	int (*iter)(void *data, struct mm_struct *mm, unsigned int progress,
		    bool full_scan_finished);

	if (!static_key_enabled(&tp->key))
		return;
	iter = tp->iterator;
	preempt_disable_notrace();
	iter(NULL, mm, progress, full_scan_finished);
	preempt_enable_notrace();
}
#elif defined(COMPAT_SCANRESUME_FIX_ORDERS)
/* 6.12 (khugepaged.c:2430-2456). False: stop with mmap_lock held. */
static bool ma_scan_range(struct mm_struct *mm, struct vm_area_struct *vma,
			  unsigned long address, bool *mmap_locked, int *result,
			  struct collapse_control *cc)
{
	if (IS_ENABLED(CONFIG_SHMEM) && !vma_is_anonymous(vma)) {
		*mmap_locked = false;
		*result = ma_scan_file(mm, vma, address, cc);
		if (*result == SCAN_PTE_MAPPED_HUGEPAGE) {
			mmap_read_lock(mm);
			if (compat_khugepaged_test_exit_or_disable(mm))
				return false;
			*result = collapse_pte_mapped_thp(mm, address, false);
			if (*result == SCAN_PMD_MAPPED)
				*result = SCAN_SUCCEED;
			mmap_read_unlock(mm);
		}
	} else {
		*result = hpage_collapse_scan_pmd(mm, vma, address, mmap_locked, cc);
	}
	if (*result == SCAN_SUCCEED)
		++*ma_kh.pages_collapsed;
	return true;
}

static void ma_collapse_pte_mapped_thps(struct ma_khugepaged_mm_slot *mm_slot)
{
}

static void ma_trace_mm_scan(struct mm_struct *mm, unsigned int progress,
			     bool full_scan_finished)
{
}
#elif defined(COMPAT_SCANRESUME_FIX_VMA_CHECK)
/* 6.1 (khugepaged.c:2347-2380) */
static bool ma_scan_range(struct mm_struct *mm, struct vm_area_struct *vma,
			  unsigned long address, bool *mmap_locked, int *result,
			  struct collapse_control *cc)
{
	pmd_t *pmd;

	if (IS_ENABLED(CONFIG_SHMEM) && !vma_is_anonymous(vma)) {
		*result = ma_scan_file(mm, vma, address, cc);
		*mmap_locked = false;
	} else {
		*result = hpage_collapse_scan_pmd(mm, vma, address, mmap_locked, cc);
	}
	if (*result == SCAN_PTE_MAPPED_HUGEPAGE) {
		*result = find_pmd_or_thp_or_none(mm, address, &pmd);
		if (*result != SCAN_SUCCEED ||
		    !khugepaged_add_pte_mapped_thp(mm, address))
			return true;
	}
	if (*result == SCAN_SUCCEED)
		++*ma_kh.pages_collapsed;
	return true;
}

/* khugepaged_collapse_pte_mapped_thps(), 6.1 (khugepaged.c:1610-1630). */
static void ma_collapse_pte_mapped_thps(struct ma_khugepaged_mm_slot *mm_slot)
{
	struct mm_struct *mm = mm_slot->slot.mm;
	int i;

	if (likely(mm_slot->nr_pte_mapped_thp == 0))
		return;
	if (!mmap_write_trylock(mm))
		return;
	if (!ma_mm_exiting(mm))
		for (i = 0; i < mm_slot->nr_pte_mapped_thp; i++)
			collapse_pte_mapped_thp(mm, mm_slot->pte_mapped_thp[i], false);
	mm_slot->nr_pte_mapped_thp = 0;
	mmap_write_unlock(mm);
}

static void ma_trace_mm_scan(struct mm_struct *mm, unsigned int progress,
			     bool full_scan_finished)
{
}
#endif

static void ma_scan_mm_slot(unsigned int pages, int *result,
			    struct collapse_control *cc, unsigned int *progress)
	__releases(ma_kh.mm_lock)
	__acquires(ma_kh.mm_lock)
{
	struct ma_khugepaged_scan *scan = ma_kh.scan;
	struct ma_khugepaged_mm_slot *mm_slot, *next;
	struct vm_area_struct *vma;
	struct vma_iterator vmi;
	struct mm_struct *mm;
	unsigned int progress_prev = *progress;
	bool walked = false, release;

	VM_WARN_ON_ONCE(*progress >= pages);
	lockdep_assert_held(ma_kh.mm_lock);
	*result = SCAN_FAIL;

	if (scan->mm_slot) {
		mm_slot = scan->mm_slot;
	} else {
		mm_slot = list_first_entry(&scan->mm_head,
					   struct ma_khugepaged_mm_slot, slot.mm_node);
		scan->address = ma_pos_load(mm_slot);
		scan->mm_slot = mm_slot;
	}
	spin_unlock(ma_kh.mm_lock);
	ma_collapse_pte_mapped_thps(mm_slot);

	mm = mm_slot->slot.mm;
	vma = NULL;
	if (unlikely(!mmap_read_trylock(mm))) {
		/* contended: come back to this address, not to 0 */
		ma_pos_save(mm_slot, scan->address);
		goto breakouterloop_mmap_lock;
	}

	(*progress)++;
	if (unlikely(compat_khugepaged_test_exit_or_disable(mm)))
		goto breakouterloop;

	vma_iter_init(&vmi, mm, scan->address);
	for_each_vma(vmi, vma) {
		unsigned long hstart, hend;

		cond_resched();
		if (unlikely(compat_khugepaged_test_exit_or_disable(mm))) {
			(*progress)++;
			break;
		}
		if (!compat_khugepaged_vma_suitable(vma)) {
			/* not collapsible: resume after it */
			scan->address = ALIGN(vma->vm_end, HPAGE_PMD_SIZE);
			(*progress)++;
			continue;
		}
		hstart = round_up(vma->vm_start, HPAGE_PMD_SIZE);
		hend = round_down(vma->vm_end, HPAGE_PMD_SIZE);
		if (scan->address > hend) {
			(*progress)++;
			continue;
		}
		if (scan->address < hstart)
			scan->address = hstart;
		VM_WARN_ON_ONCE(scan->address & ~HPAGE_PMD_MASK);

		while (scan->address < hend) {
			bool mmap_locked = true;

			cond_resched();
			if (unlikely(compat_khugepaged_test_exit_or_disable(mm)))
				goto breakouterloop;
			VM_WARN_ON_ONCE(scan->address < hstart ||
					scan->address + HPAGE_PMD_SIZE > hend);
			if (!ma_scan_range(mm, vma, scan->address, &mmap_locked,
					   result, cc))
				goto breakouterloop;

			scan->address += HPAGE_PMD_SIZE;
			*progress += COMPAT_KHUGEPAGED_RANGE_PAGES;
			if (!mmap_locked)
				goto breakouterloop_mmap_lock;
			if (*progress >= pages)
				goto breakouterloop;
		}
	}
	/* every VMA was looked at: the next visit starts at 0 */
	walked = !vma;
breakouterloop:
	mmap_read_unlock(mm); /* exit_mmap will destroy ptes after this */
breakouterloop_mmap_lock:
	if (walked)
		ma_pos_save(mm_slot, 0);

	spin_lock(ma_kh.mm_lock);
	VM_WARN_ON_ONCE(scan->mm_slot != mm_slot);
	if (COMPAT_KHUGEPAGED_RELEASE_DISABLED)
		release = compat_khugepaged_test_exit_or_disable(mm);
	else
		release = ma_mm_exiting(mm);
	if (release || !vma) {
		if (!list_is_last(&mm_slot->slot.mm_node, &scan->mm_head)) {
			next = list_next_entry(mm_slot, slot.mm_node);
			scan->mm_slot = next;
			scan->address = ma_pos_load(next);
		} else {
			scan->mm_slot = NULL;
			++*ma_kh.full_scans;
			ma_pos_collect(*ma_kh.full_scans);
		}
		if (ma_mm_exiting(mm))
			ma_pos_drop(mm_slot);
		collect_mm_slot(mm_slot);
	}
	ma_trace_mm_scan(mm, *progress - progress_prev, !scan->mm_slot);
}

static bool ma_has_work(void)
{
	return !list_empty(&ma_kh.scan->mm_head) && compat_khugepaged_enabled();
}

static bool ma_wait_event(void)
{
	return !list_empty(&ma_kh.scan->mm_head) || kthread_should_stop();
}

static bool ma_should_wakeup(void)
{
	return kthread_should_stop() ||
	       time_after_eq(jiffies, READ_ONCE(*ma_kh.sleep_expire));
}

static void ma_alloc_sleep(void)
{
	DEFINE_WAIT(wait);

	add_wait_queue(ma_kh.wait, &wait);
	__set_current_state(TASK_INTERRUPTIBLE | TASK_FREEZABLE);
	schedule_timeout(msecs_to_jiffies(READ_ONCE(*ma_kh.alloc_sleep_millisecs)));
	remove_wait_queue(ma_kh.wait, &wait);
}

static void ma_do_scan(struct collapse_control *cc)
{
	unsigned int local, pass_through_head = 0;
	unsigned int *progress = compat_khugepaged_progress(cc, &local);
	unsigned int pages = READ_ONCE(*ma_kh.pages_to_scan);
	bool wait = true;
	int result = SCAN_SUCCEED;

	lru_add_drain_all();

	*progress = 0;
	while (true) {
		cond_resched();

		if (unlikely(kthread_should_stop() || compat_khugepaged_try_to_freeze()))
			break;

		spin_lock(ma_kh.mm_lock);
		if (!ma_kh.scan->mm_slot)
			pass_through_head++;
		if (ma_has_work() && pass_through_head < 2)
			ma_scan_mm_slot(pages, &result, cc, progress);
		else
			*progress = pages;
		spin_unlock(ma_kh.mm_lock);

		if (*progress >= pages)
			break;

		if (result == SCAN_ALLOC_HUGE_PAGE_FAIL) {
			if (!wait)
				break;
			wait = false;
			ma_alloc_sleep();
		}
	}
}

static void ma_wait_work(void)
{
	if (ma_has_work()) {
		const unsigned long scan_sleep_jiffies =
			msecs_to_jiffies(READ_ONCE(*ma_kh.scan_sleep_millisecs));

		if (!scan_sleep_jiffies)
			return;

		WRITE_ONCE(*ma_kh.sleep_expire, jiffies + scan_sleep_jiffies);
		wait_event_freezable_timeout(*ma_kh.wait, ma_should_wakeup(),
					     scan_sleep_jiffies);
		return;
	}

	if (compat_khugepaged_enabled())
		wait_event_freezable(*ma_kh.wait, ma_wait_event());
}

/* The scan sleep of the thread this one replaced, to its end. */
static void ma_continue_sleep(void)
{
	long left = READ_ONCE(*ma_kh.sleep_expire) - jiffies;

	if (left <= 0 || !ma_has_work())
		return;
	wait_event_freezable_timeout(*ma_kh.wait, ma_should_wakeup(), left);
}

/**
 * ma_khugepaged() - the khugepaged kthread, with seed 004.
 * @none: unused, as for khugepaged()
 *
 * Return: 0 once the thread is told to stop.
 */
int ma_khugepaged(void *none)
{
	struct ma_khugepaged_mm_slot *mm_slot;

	set_freezable();
	set_user_nice(current, MAX_NICE);

	/*
	 * Replacing the thread our transition stopped: finish its scan sleep
	 * so there is still one pass per sleep period.
	 */
	if (READ_ONCE(ma_khugepaged_successor) == current) {
		WRITE_ONCE(ma_khugepaged_successor, NULL);
		ma_continue_sleep();
	}
	while (!kthread_should_stop()) {
		ma_do_scan(ma_kh.collapse_control);
		ma_wait_work();
	}

	mm_slot = ma_kh.scan->mm_slot;
	if (mm_slot)
		ma_pos_save(mm_slot, ma_kh.scan->address);

	spin_lock(ma_kh.mm_lock);
	mm_slot = ma_kh.scan->mm_slot;
	ma_kh.scan->mm_slot = NULL;
	if (mm_slot) {
		if (ma_mm_exiting(mm_slot->slot.mm))
			ma_pos_drop(mm_slot);
		collect_mm_slot(mm_slot);
	}
	spin_unlock(ma_kh.mm_lock);
	return 0;
}
