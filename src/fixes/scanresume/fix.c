// SPDX-License-Identifier: GPL-2.0
/*
 * The live fix "scanresume": seed 004 ("mm/khugepaged: scan mm's more
 * efficiently under mmap_lock contention"), see lp_khugepaged.c.
 *
 * khugepaged() never returns, so the livepatch core can never switch the
 * khugepaged kthread and the transition would never complete. A work item
 * therefore replaces the thread during a transition:
 *
 *  - the new thread takes the old one's place under khugepaged_mutex, as
 *    start_stop_khugepaged() does, so a concurrent write to the THP
 *    "enabled" files neither loses nor doubles a thread;
 *  - it is created only once kthreadd is in the target state (a kthread
 *    inherits kthreadd's patch state, klp_copy_process()), from the
 *    kernel's khugepaged() so ftrace sends it to that state's function and
 *    current_is_khugepaged() stays true; a thread created too early is
 *    stopped before it runs any khugepaged code (kthread() tests
 *    KTHREAD_SHOULD_STOP first);
 *  - the old thread is stopped before the new one is woken, so two
 *    scanners never run at once;
 *  - the swap waits for the old thread to be stoppable at once (see
 *    ma_khugepaged_stoppable()), since both the new thread, created but
 *    not yet woken, and the work wait uninterruptibly until it exits.
 *
 * The new thread keeps what the administrator set on the old one (CPU
 * affinity, scheduling, I/O priority, cgroups); THP settings and the
 * registered mms are not touched. A reversed transition flips the target
 * state, and the same work moves the thread back.
 *
 * A cumulative livepatch (.replace = true) also changes khugepaged(), with
 * a nop, and cannot switch the thread either; so the work keeps watching
 * and swaps the thread into another patch's target state after
 * MA_SWAP_FOREIGN polls. It never dereferences the other patch, which may
 * go at any time.
 */
#include <linux/cgroup.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/iocontext.h>
#include <linux/ioprio.h>
#include <linux/kthread.h>
#include <linux/livepatch.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <uapi/linux/sched/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "scanresume.h"
#include "layout.h"
#include "fix_states.h"

#ifdef MA_CARRY_SCANRESUME
#include "khugepaged_internal.h"
#include "symbols.h"

#define MA_SWAP_POLL	(HZ / 10)	/* during a transition */
#define MA_SWAP_IDLE	(HZ / 2)	/* otherwise */
#define MA_SWAP_FOREIGN	5		/* polls before swapping for another patch */
#define MA_SWAP_RUNNING	20		/* polls of an awake thread, see below */
#define MA_SWAP_BLOCKED	3		/* polls in a row of a blocked one */

static atomic_long_t ma_swaps, ma_swap_early, ma_swap_failed, ma_swap_foreign;
static unsigned int ma_foreign_polls, ma_awake_polls, ma_blocked_polls;
static struct cpumask ma_swap_cpus;	/* only the swap work uses it */

/*
 * SCHED_DEADLINE is not copied: it needs runtime parameters and means
 * nothing for khugepaged.
 */
static void ma_khugepaged_copy_attrs(struct task_struct *old, struct task_struct *new)
{
	struct sched_attr attr = { .size = sizeof(attr) };
	int ioprio = -1, ret;

	/* the mask set, not the effective one (one CPU in migrate_disable()) */
	raw_spin_lock_irq(&old->pi_lock);
	cpumask_copy(&ma_swap_cpus, &old->cpus_mask);
	raw_spin_unlock_irq(&old->pi_lock);
	ret = set_cpus_allowed_ptr(new, &ma_swap_cpus);
	if (ret)
		pr_warn("scanresume: new khugepaged keeps its CPU affinity: %pe\n", ERR_PTR(ret));
	attr.sched_policy = READ_ONCE(old->policy);
	if (attr.sched_policy != SCHED_DEADLINE) {
		if (attr.sched_policy == SCHED_FIFO || attr.sched_policy == SCHED_RR)
			attr.sched_priority = READ_ONCE(old->rt_priority);
		else
			/* see ma_khugepaged_settle() */
			attr.sched_nice = min(task_nice(old), MAX_NICE - 1);
		ret = sched_setattr_nocheck(new, &attr);
		if (ret)
			pr_warn("scanresume: new khugepaged keeps its scheduling: %pe\n",
				ERR_PTR(ret));
	}
	task_lock(old);
	if (old->io_context)
		ioprio = old->io_context->ioprio;
	task_unlock(old);
	if (ioprio >= 0) {
		ret = set_task_ioprio(new, ioprio);
		if (ret)
			pr_warn("scanresume: new khugepaged keeps its I/O priority: %pe\n",
				ERR_PTR(ret));
	}
	ret = cgroup_attach_task_all(old, new);
	if (ret)
		pr_warn("scanresume: new khugepaged keeps its cgroups: %pe\n", ERR_PTR(ret));
}

/*
 * Whether kthread_stop() of the old thread returns at once. Asleep (between
 * passes, or in an allocation sleep), it is woken and exits. Blocked (on an
 * mmap_lock behind a long mlock() populate, a folio lock), it exits only
 * when the lock is granted and its collapse is done: the work and the new
 * thread, which never ran, would wait that long uninterruptibly, and the
 * hung-task detector reports such a wait (and panics on it under
 * hung_task_panic). So a blocked thread is waited for, however long. A
 * thread that scans back to back (scan_sleep_millisecs 0) is never asleep
 * at a poll, and blocks only for moments (lru_add_drain_all(), a lock):
 * once MA_SWAP_RUNNING polls have found it awake and not blocked for
 * MA_SWAP_BLOCKED polls in a row, it is swapped at the next poll that finds
 * it running, as it checks for a stop before each mm. Only the first check
 * of a poll, before the new thread is made, counts.
 */
static bool ma_khugepaged_stoppable(struct task_struct *t, bool first)
{
	unsigned int state = READ_ONCE(t->__state);

	if (state & TASK_INTERRUPTIBLE) {
		ma_awake_polls = 0;
		ma_blocked_polls = 0;
		return true;
	}
	if (first) {
		if (state == TASK_RUNNING)
			ma_blocked_polls = 0;
		else if (ma_blocked_polls < MA_SWAP_BLOCKED)
			ma_blocked_polls++;
		if (ma_blocked_polls >= MA_SWAP_BLOCKED)
			ma_awake_polls = 0;
		else if (ma_awake_polls < MA_SWAP_RUNNING)
			ma_awake_polls++;
	}
	return state == TASK_RUNNING && ma_awake_polls >= MA_SWAP_RUNNING;
}

/* The polls counted so far belong to one old thread and one transition. */
static void ma_swap_polls_reset(void)
{
	ma_foreign_polls = 0;
	ma_awake_polls = 0;
	ma_blocked_polls = 0;
}

static void ma_swap_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(ma_swap_work, ma_swap_fn);

/*
 * 7.3's kthread() applies the default affinity when the thread starts, and
 * khugepaged() sets MAX_NICE first: wait (1 s at most) for MAX_NICE, then
 * set the old thread's affinity and nice value again.
 */
static void ma_khugepaged_settle(struct task_struct *new, int nice)
{
	unsigned int i;

	for (i = 0; i < 50 && task_nice(new) != MAX_NICE; i++)
		msleep(20);
	set_cpus_allowed_ptr(new, &ma_swap_cpus);
	if (nice != MAX_NICE)
		set_user_nice(new, nice);
}

/*
 * The new thread gets its attributes outside khugepaged_mutex:
 * cgroup_attach_task_all() takes the CPU hotplug lock, which memory
 * onlining holds when it takes khugepaged_mutex. The old thread is stopped
 * outside the mutex too: kthread_stop() waits for its pass, which may
 * wait on an mmap_lock for long.
 */
static void ma_khugepaged_swap(int target, bool foreign)
{
	struct task_struct *old, *new;
	bool placed = false, woken = false;
	int nice;

	mutex_lock(ma_kh.mutex);
	old = *ma_kh.thread;
	if (old && READ_ONCE(old->patch_state) != target && ma_khugepaged_stoppable(old, true))
		get_task_struct(old);
	else
		old = NULL;
	mutex_unlock(ma_kh.mutex);
	if (!old)
		return;

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
	nice = task_nice(old);
	ma_khugepaged_copy_attrs(old, new);
	get_task_struct(new);

	mutex_lock(ma_kh.mutex);
	if (*ma_kh.thread == old && READ_ONCE(old->patch_state) != target &&
	    ma_khugepaged_stoppable(old, false)) {
		*ma_kh.thread = new;
		placed = true;
	}
	mutex_unlock(ma_kh.mutex);
	if (!placed) {
		/*
		 * khugepaged was stopped or restarted meanwhile, or the old
		 * thread began to wait on a lock: tried again next poll
		 */
		kthread_stop(new);
		put_task_struct(new);
		atomic_long_inc(&ma_swap_early);
		goto out;
	}
	kthread_stop(old);
	ma_swap_polls_reset();

	mutex_lock(ma_kh.mutex);
	if (*ma_kh.thread == new) {
		if (!foreign)
			WRITE_ONCE(ma_khugepaged_successor, new);
		wake_up_process(new);
		if (!list_empty(&ma_kh.scan->mm_head))
			wake_up_interruptible(ma_kh.wait);
		woken = true;
	}
	mutex_unlock(ma_kh.mutex);
	if (woken) {
		ma_khugepaged_settle(new, nice);
		atomic_long_inc(&ma_swaps);
		if (foreign)
			atomic_long_inc(&ma_swap_foreign);
	}
	/* else start_stop_khugepaged() stopped it before it ran */
	put_task_struct(new);
out:
	put_task_struct(old);
}

static bool ma_khugepaged_stuck(int target)
{
	struct task_struct *t;
	bool ret;

	mutex_lock(ma_kh.mutex);
	t = *ma_kh.thread;
	ret = t && READ_ONCE(t->patch_state) != target;
	mutex_unlock(ma_kh.mutex);
	return ret;
}

static void ma_swap_fn(struct work_struct *work)
{
	struct klp_patch *tp = READ_ONCE(*ma_kh.klp_transition_patch);
	int target = READ_ONCE(*ma_kh.klp_target_state);
	unsigned long next = MA_SWAP_IDLE;

	if (tp == ma_fixes_patch()) {
		ma_foreign_polls = 0;
		ma_khugepaged_swap(target, false);
		next = MA_SWAP_POLL;
	} else if (tp) {
		/* another livepatch's transition, not looked into */
		if (!ma_khugepaged_stuck(target))
			ma_swap_polls_reset();
		else if (ma_foreign_polls < MA_SWAP_FOREIGN)
			ma_foreign_polls++;
		else
			ma_khugepaged_swap(target, true);
		next = MA_SWAP_POLL;
	} else {
		ma_swap_polls_reset();
	}
	schedule_delayed_work(&ma_swap_work, next);
}

static void ma_scanresume_transition(struct ma_fix *fix)
{
	mod_delayed_work(system_wq, &ma_swap_work, 0);
}

/* No thread runs ma_khugepaged(): forget every position. */
static void ma_scanresume_unpatched(struct ma_fix *fix)
{
	cancel_delayed_work_sync(&ma_swap_work);
	WRITE_ONCE(ma_khugepaged_successor, NULL);
	ma_scanresume_forget();
}

static void ma_scanresume_show(struct seq_file *m, struct ma_fix *fix)
{
	seq_printf(m, " resumed_visits=%ld thread_swaps=%ld swap_retries=%ld swap_failures=%ld foreign_swaps=%ld",
		   atomic_long_read(&ma_scanresume_resumes),
		   atomic_long_read(&ma_swaps), atomic_long_read(&ma_swap_early),
		   atomic_long_read(&ma_swap_failed), atomic_long_read(&ma_swap_foreign));
}

MA_FIX_FUNCS(scanresume, MA_REPLACE(khugepaged, ma_khugepaged));
#endif

/* seed 004 moves the scan address into struct khugepaged_mm_slot */
#define MA_SEED004_STRUCT	"khugepaged_mm_slot"
#define MA_SEED004_MEMBER	"address"

static const char *ma_scanresume_upstream(void)
{
	if (!ma_layout_has_member(MA_SEED004_STRUCT, MA_SEED004_MEMBER))
		return NULL;
	return "struct " MA_SEED004_STRUCT " has the member " MA_SEED004_MEMBER
	       " (BTF): seed 004 is merged";
}

struct ma_fix ma_fix_scanresume = {
	MA_FIX(scanresume, SCANRESUME)
	.upstream_probe = ma_scanresume_upstream,
#ifdef MA_CARRY_SCANRESUME
	.transition = ma_scanresume_transition,
	.unpatched = ma_scanresume_unpatched,
	.show = ma_scanresume_show,
#endif
};
