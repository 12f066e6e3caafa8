// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "mlock", a guard of the kernel's mlock count: mlock_folio()
 * (mm/mlock.c; matches Debian 6.12.118 mm/mlock.c:242 and Debian 6.1.192
 * mm/mlock.c:243), plus the guard below.
 *
 * Why: a munlock that finds the folio off the LRU for a moment (another
 * CPU's batch holds PG_lru) clears PG_mlocked and leaves mlock_count alone
 * ("stranded"); the other CPU's munlock then decrements the count and
 * leaves the folio unevictable with a count above 0. The next
 * mlock_folio() adds 1 to that stale count, so the folio stays mlocked
 * once every mapping has gone. The stock kernel has the race; the fix,
 * which mlocks every large folio a locked VMA maps whole, makes it
 * frequent.
 *
 * The guard: an mlock_folio() that finds PG_mlocked clear (so no mlock is
 * counted) on a folio already on the unevictable list although its mapping
 * is evictable runs its batch at once and lowers the count to 1. Another
 * CPU's mlock in between is then not counted, which only munlocks the
 * folio early (the kernel's own choice when in doubt: reclaim mlocks it
 * again). The count is touched as __mlock_folio() touches it: with PG_lru
 * taken, under the LRU lock. When another CPU holds PG_lru, the guard
 * waits for it through the LRU lock a few times, then gives up
 * (count_reset_misses in "fixes"), leaving the count as the stock kernel
 * would.
 */
#include <linux/local_lock.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/rcupdate.h>
#include <linux/swap.h>
#include <linux/vmstat.h>

#include "mlock.h"
#include "mm_internal.h"

atomic_long_t ma_mlock_count_resets = ATOMIC_LONG_INIT(0);
atomic_long_t ma_mlock_count_reset_misses = ATOMIC_LONG_INIT(0);

/* times the guard waits for another CPU to put PG_lru back */
#define MA_RESTART_TRIES	8

/* Called with PG_mlocked set by this mlock_folio(), its batch run. */
static void ma_mlock_count_restart(struct folio *folio)
{
	struct lruvec *lruvec;
	int tries;

	/*
	 * An LRU batch holding PG_lru sets it again before it drops the LRU
	 * lock: wait through that lock. cpu_relax() first, as the holder may
	 * not have the lock yet. An isolation holds PG_lru longer, but puts
	 * the folio back through lru_add(), which restarts the count itself;
	 * giving up leaves the count as the stock kernel would.
	 */
	for (tries = 0; !folio_test_clear_lru(folio); tries++) {
		if (tries == MA_RESTART_TRIES) {
			atomic_long_inc(&ma_mlock_count_reset_misses);
			return;
		}
		cpu_relax();
		lruvec = folio_lruvec_lock_irq(folio);
		unlock_page_lruvec_irq(lruvec);
	}
	lruvec = folio_lruvec_lock_irq(folio);
	if (folio_test_unevictable(folio) && folio_test_mlocked(folio) &&
	    folio->mlock_count > 1) {
		folio->mlock_count = 1;
		atomic_long_inc(&ma_mlock_count_resets);
	}
	unlock_page_lruvec_irq(lruvec);
	folio_set_lru(folio);
}

/* mm/internal.h: folio_evictable() without the PG_mlocked test */
static bool ma_mapping_evictable(struct folio *folio)
{
	bool ret;

	rcu_read_lock();
	ret = !mapping_unevictable(folio_mapping(folio));
	rcu_read_unlock();
	return ret;
}

void ma_mlock_folio(struct folio *folio)
{
	struct ma_mlock_batch *batch;
	bool stale = false;

	local_lock(&MA_MLOCK_BATCH.lock);
	batch = this_cpu_ptr(&MA_MLOCK_BATCH.batch);

	if (!folio_test_set_mlocked(folio)) {
		int nr_pages = folio_nr_pages(folio);

		zone_stat_mod_folio(folio, NR_MLOCK, nr_pages);
		__count_vm_events(UNEVICTABLE_PGMLOCKED, nr_pages);
		stale = folio_test_unevictable(folio) &&
			ma_mapping_evictable(folio);
	}

	folio_get(folio);
	if (!ma_mlock_batch_add(batch, folio) ||
	    !folio_may_be_lru_cached(folio) || lru_cache_disabled() || stale)
		MA_MLOCK_BATCH_RUN(batch);
	local_unlock(&MA_MLOCK_BATCH.lock);

	if (stale)
		ma_mlock_count_restart(folio);
}
