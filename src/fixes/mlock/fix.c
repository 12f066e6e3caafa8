// SPDX-License-Identifier: GPL-2.0
/*
 * The live fix "mlock": seed 000 patches 1-3 and 6 ("mm: Improve mlock
 * tracking for large folios", mainline 2db579838296, a2880202767d,
 * 8c49fbafedf1, ab521b4142aa, v6.18). A large folio fully mapped, under
 * one page table, into a VM_LOCKED VMA is mlocked when it is added to the
 * rmap (lp_rmap_add.c), and when reclaim finds it (lp_referenced.c,
 * lp_unmap.c).
 *
 * Repair: once the transition completes, a walk of every process
 * (audit.c) mlocks the folios the stock kernel left unmlocked although
 * they qualify (repair.c).
 *
 * Disabling, 6.12: nothing to undo. The stock kernel munlocks a large
 * folio when any of its mappings leaves a VM_LOCKED VMA, and when munlock()
 * walks it (mlock_pte_range() handles large folios since v6.6).
 *
 * Disabling, 6.1: the stock kernel never munlocks a PTE-mapped large
 * folio, so at pre-unpatch the replacements stop mlocking such folios
 * (ma_mlock_large_off, read under the page-table lock the undo walk also
 * takes), then ma_audit_undo() munlocks each mlocked large folio mapped by
 * a PTE and by no PMD: 6.1 itself mlocks large folios only through PMD
 * mappings, so those are the fix's. A sweep of every page frame (sweep.c)
 * then catches those the walk cannot reach. The undo is a work item so
 * that disabling never waits for it under klp_mutex; unload waits for it.
 */
#include <linux/jiffies.h>
#include <linux/workqueue.h>

#include "audit.h"
#include "mlock.h"
#include "fix_states.h"

#ifdef COMPAT_MLOCK_FIX_PAGE_RMAP
#define MA_MLOCK_UNDO 1
#else
#define MA_MLOCK_UNDO 0
#endif

#ifdef COMPAT_MLOCK_FIX_FOLIO_RMAP
MA_FIX_FUNCS(mlock,
	     MA_REPLACE(folio_add_file_rmap_ptes, ma_folio_add_file_rmap_ptes),
	     MA_REPLACE(folio_add_file_rmap_pmd, ma_folio_add_file_rmap_pmd),
	     MA_REPLACE(folio_add_anon_rmap_ptes, ma_folio_add_anon_rmap_ptes),
	     MA_REPLACE(folio_add_anon_rmap_pmd, ma_folio_add_anon_rmap_pmd),
	     MA_REPLACE(folio_referenced, ma_folio_referenced),
	     MA_REPLACE(try_to_unmap, ma_try_to_unmap),
	     MA_REPLACE(mlock_folio, ma_mlock_folio));

#elif defined(COMPAT_MLOCK_FIX_PAGE_RMAP)
MA_FIX_FUNCS(mlock,
	     MA_REPLACE(do_set_pte, ma_do_set_pte),
	     MA_REPLACE(mlock_pte_range, ma_mlock_pte_range),
	     MA_REPLACE(page_remove_rmap, ma_page_remove_rmap),
	     MA_REPLACE(folio_referenced, ma_folio_referenced),
	     MA_REPLACE(try_to_unmap, ma_try_to_unmap),
	     MA_REPLACE(mlock_folio, ma_mlock_folio));
#endif

/*
 * 6.1: off until the enable transition completes, or a switched task could
 * mlock a folio that an unswitched task unmaps with the stock code, which
 * never munlocks it. The repair picks up what is mapped meanwhile.
 */
bool ma_mlock_large_off = MA_MLOCK_UNDO;

enum ma_repair_state {
	MA_REPAIR_NONE, MA_REPAIR_RUNNING, MA_REPAIR_DONE, MA_REPAIR_STOPPED,
};

static enum ma_repair_state ma_repair_state;
static const char *const ma_repair_names[] = {
	"none", "running", "done", "stopped",
};

static enum ma_repair_state ma_undo_state;
static unsigned long ma_repaired_pages, ma_undone_pages;
static unsigned int ma_repair_ms;
bool ma_repair_stop;
static bool ma_undo_stop;

static void ma_repair_fn(struct work_struct *work)
{
	unsigned long start = jiffies, pages = 0;
	int ret;

	WRITE_ONCE(ma_repair_state, MA_REPAIR_RUNNING);
	ret = ma_audit_repair(&pages, &ma_repair_stop, ma_mlock_repair_folio);
	WRITE_ONCE(ma_repaired_pages, pages);
	WRITE_ONCE(ma_repair_ms, jiffies_to_msecs(jiffies - start));
	WRITE_ONCE(ma_repair_state, ret ? MA_REPAIR_STOPPED : MA_REPAIR_DONE);
	pr_info("mlock fix: repair mlocked %lu pages in %u ms%s\n", pages,
		ma_repair_ms, ret ? " (stopped)" : "");
}

static DECLARE_WORK(ma_repair_work, ma_repair_fn);

static void ma_undo_folio(struct folio *folio)
{
	compat_munlock_folio_all(folio);
}

/*
 * 6.1. Not run in the livepatch callback: it may wait long for an
 * mmap_lock, and the callback holds klp_mutex. Stopped only when the fix
 * is in force again (a reversed disable).
 */
static void ma_undo_fn(struct work_struct *work)
{
	unsigned long pages = 0, swept = 0;
	bool busy = false;
	int ret;

	WRITE_ONCE(ma_undo_state, MA_REPAIR_RUNNING);
	ret = ma_audit_undo(&pages, &ma_undo_stop, ma_undo_folio);
	if (!ret) {
		swept = ma_mlock_sweep(&ma_undo_stop, &busy);
		ret = READ_ONCE(ma_undo_stop) ? -EINTR : 0;
	}
	WRITE_ONCE(ma_undone_pages, pages + swept);
	WRITE_ONCE(ma_undo_state, ret ? MA_REPAIR_STOPPED : MA_REPAIR_DONE);
	pr_info("mlock fix: disabled; munlocked %lu pages it had mlocked (%lu by the sweep)%s%s\n",
		pages + swept, swept,
		busy ? "; folios locked all along were left as they were" : "",
		ret ? " (stopped: the fix is in force again)" : "");
}

static DECLARE_WORK(ma_undo_work, ma_undo_fn);

/*
 * Also after a reversed disable, whose pre-unpatch stopped the large
 * mlocks and the repair and queued the undo.
 */
static void ma_mlock_activated(struct ma_fix *fix)
{
	WRITE_ONCE(ma_undo_stop, true);
	cancel_work_sync(&ma_undo_work);
	WRITE_ONCE(ma_repair_stop, false);
	WRITE_ONCE(ma_mlock_large_off, false);
	schedule_work(&ma_repair_work);
}

static void ma_mlock_deactivating(struct ma_fix *fix)
{
	WRITE_ONCE(ma_repair_stop, true);
	cancel_work_sync(&ma_repair_work);
	if (!MA_MLOCK_UNDO || READ_ONCE(ma_mlock_large_off))
		return;
	WRITE_ONCE(ma_mlock_large_off, true);
	WRITE_ONCE(ma_undo_stop, false);
	WRITE_ONCE(ma_undo_state, MA_REPAIR_RUNNING);
	schedule_work(&ma_undo_work);
}

static void ma_mlock_exit(struct ma_fix *fix)
{
	flush_work(&ma_undo_work);
}

static void ma_mlock_show(struct seq_file *m, struct ma_fix *fix)
{
	seq_printf(m, " repair=%s repaired_pages=%lu repair_ms=%u undo=%s undone_pages=%lu",
		   ma_repair_names[READ_ONCE(ma_repair_state)],
		   READ_ONCE(ma_repaired_pages), READ_ONCE(ma_repair_ms),
		   ma_repair_names[READ_ONCE(ma_undo_state)],
		   READ_ONCE(ma_undone_pages));
#ifdef MA_CARRY_MLOCK
	seq_printf(m, " count_resets=%ld count_reset_misses=%ld",
		   atomic_long_read(&ma_mlock_count_resets),
		   atomic_long_read(&ma_mlock_count_reset_misses));
#endif
}

struct ma_fix ma_fix_mlock = {
	MA_FIX(mlock, MLOCK)
	.activated = ma_mlock_activated,
	.deactivating = ma_mlock_deactivating,
	.exit = ma_mlock_exit,
	.show = ma_mlock_show,
};
