// SPDX-License-Identifier: GPL-2.0
/*
 * The live fix "scanresume": seed 004 ("mm/khugepaged: scan mm's more
 * efficiently under mmap_lock contention"). khugepaged resumes an mm where
 * it stopped instead of at address 0 (lp_khugepaged.c).
 *
 * The replaced function is the body of the khugepaged kthread, which never
 * returns: the thread always has khugepaged() on its stack, so the
 * livepatch core can never switch it, and the transition of the whole
 * patch would never complete. A work item therefore replaces the thread
 * while a transition of our patch is in progress, polling every 100 ms:
 *
 *  - under khugepaged_mutex, which start_stop_khugepaged() holds whenever
 *    it starts or stops the thread, so a concurrent write to the THP
 *    "enabled" files neither loses nor doubles a thread;
 *  - only when the running thread is not yet in the transition's target
 *    state, and only once kthreadd is: a new kthread takes kthreadd's
 *    patch state (klp_copy_process()), and the new thread is created from
 *    the kernel's own khugepaged() so that ftrace sends it to the function
 *    of that state (and current_is_khugepaged() stays true). A thread
 *    created too early is stopped before it ever runs khugepaged code
 *    (kthread() tests KTHREAD_SHOULD_STOP before calling it);
 *  - the old thread is stopped before the new one is woken, so two
 *    scanners never run at once. The old one leaves through khugepaged's
 *    own exit path, and the next pass of the livepatch core completes the
 *    transition.
 *
 * The THP settings, min_free_kbytes and the registered mms are not
 * touched: khugepaged only pauses for one kthread_stop() and one fork. A
 * reversed transition (0 written to "enabled" while enabling) flips the
 * target state, and the same work moves the thread back. With THP off
 * there is no thread, and the one userspace starts later is forked from
 * kthreadd, which is already switched.
 */
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/livepatch.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "fixes.h"

#ifdef COMPAT_SCANRESUME_FIX
#include "khugepaged_internal.h"
#include "symbols.h"

#define MA_SWAP_POLL	(HZ / 10)

static atomic_long_t ma_swaps, ma_swap_early, ma_swap_failed;

static void ma_swap_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(ma_swap_work, ma_swap_fn);

/* Put khugepaged on the function of livepatch state @target. */
static void ma_khugepaged_swap(int target)
{
	struct task_struct *old, *new;

	mutex_lock(ma_kh.mutex);
	old = *ma_kh.thread;
	if (!old || READ_ONCE(old->patch_state) == target)
		goto out;
	new = kthread_create(khugepaged, NULL, "khugepaged");
	if (IS_ERR(new)) {
		atomic_long_inc(&ma_swap_failed);	/* tried again next poll */
		goto out;
	}
	if (READ_ONCE(new->patch_state) != target) {
		/* kthreadd has not switched yet */
		kthread_stop(new);
		atomic_long_inc(&ma_swap_early);
		goto out;
	}
	kthread_stop(old);
	*ma_kh.thread = new;
	wake_up_process(new);
	if (!list_empty(&ma_kh.scan->mm_head))
		wake_up_interruptible(ma_kh.wait);
	atomic_long_inc(&ma_swaps);
out:
	mutex_unlock(ma_kh.mutex);
}

static void ma_swap_fn(struct work_struct *work)
{
	if (READ_ONCE(*ma_kh.klp_transition_patch) != ma_fixes_patch())
		return;		/* no transition of ours in progress */
	ma_khugepaged_swap(READ_ONCE(*ma_kh.klp_target_state));
	schedule_delayed_work(&ma_swap_work, MA_SWAP_POLL);
}

static void ma_scanresume_transition(struct ma_fix *fix)
{
	schedule_delayed_work(&ma_swap_work, 0);
}

/* No thread runs ma_khugepaged() any more: forget every position. */
static void ma_scanresume_unpatched(struct ma_fix *fix)
{
	cancel_delayed_work_sync(&ma_swap_work);
	klp_shadow_free_all(MA_SV_SCAN_POS, NULL);
}

static void ma_scanresume_show(struct seq_file *m, struct ma_fix *fix)
{
	seq_printf(m, " resumed_visits=%ld thread_swaps=%ld swap_retries=%ld swap_failures=%ld",
		   atomic_long_read(&ma_scanresume_resumes),
		   atomic_long_read(&ma_swaps), atomic_long_read(&ma_swap_early),
		   atomic_long_read(&ma_swap_failed));
}

static struct klp_func ma_scanresume_funcs[] = {
	{ .old_name = "khugepaged", .new_func = ma_khugepaged },
	{ }
};

#define MA_SCANRESUME_FUNCS ma_scanresume_funcs
#define MA_SCANRESUME_TRANSITION ma_scanresume_transition
#define MA_SCANRESUME_UNPATCHED ma_scanresume_unpatched
#define MA_SCANRESUME_SHOW ma_scanresume_show
#else
#define MA_SCANRESUME_FUNCS NULL
#define MA_SCANRESUME_TRANSITION NULL
#define MA_SCANRESUME_UNPATCHED NULL
#define MA_SCANRESUME_SHOW NULL
#endif

struct ma_fix ma_fix_scanresume = {
	.name = "scanresume",
	.funcs = MA_SCANRESUME_FUNCS,
	.unsupported = COMPAT_SCANRESUME_FIX_UNSUPPORTED,
	.transition = MA_SCANRESUME_TRANSITION,
	.unpatched = MA_SCANRESUME_UNPATCHED,
	.show = MA_SCANRESUME_SHOW,
};
