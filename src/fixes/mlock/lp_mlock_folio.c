// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "mlock", a guard of the kernel's mlock count: mlock_folio()
 * (mm/mlock.c; matches Debian 6.12.118 mm/mlock.c:242 and Debian 6.1.192
 * mm/mlock.c:243), plus the guard below.
 *
 * Why. A folio on the unevictable LRU counts its mlocks in mlock_count,
 * one per locked mapping, and stays unevictable until munlocks bring the
 * count to 0. A munlock that finds the folio off the LRU for a moment
 * (another CPU's mlock or munlock batch holds PG_lru while it waits for
 * the LRU lock) clears PG_mlocked at once and leaves mlock_count alone
 * ("stranded" in /proc/vmstat); when the other CPU's munlock then gets
 * the lock, it decrements that count and leaves the folio unevictable
 * with the count still above 0. The next mlock_folio() sets PG_mlocked
 * again and adds 1 to the stale count, so the munlocks of the mappings
 * that follow never reach 0: the folio stays mlocked once every mapping
 * has gone, page cache pinned until the file is truncated, its cache
 * dropped or the folio migrated. The stock kernel has the race; the fix,
 * which mlocks every large folio a locked VMA maps whole, from every
 * process that maps it, makes it frequent (83-stress-fixes-on on 6.12: a
 * 1 MiB folio of the reference file's page cache left mlocked, and once a
 * 4 KiB page outside the test's file systems, where the stock kernel left
 * none).
 *
 * The guard. An mlock_folio() that finds PG_mlocked clear (so no mlock of
 * the folio is counted, whatever mlock_count says) on a folio that is on
 * the unevictable list although its mapping is evictable (the stale
 * state; otherwise the batch moves it there with a count of 1, and a
 * folio of an unevictable mapping, ramfs or SHM_LOCK, keeps the stock
 * path) runs its batch at once and then lowers the count to 1 if it is
 * higher: a stale count restarts at this mlock. Another CPU's mlock of the
 * folio in between is then not counted, which only munlocks the folio
 * early (the kernel's own choice when in doubt: reclaim mlocks it again
 * where a locked VMA still maps it). The count is touched as
 * __mlock_folio() touches it: with PG_lru taken and under the LRU lock.
 * When another CPU holds PG_lru meanwhile, the guard waits for it through
 * the LRU lock a few times; if it still cannot take PG_lru, it gives up
 * (count_reset_misses in "fixes"): a count that another CPU's mlock
 * raised over the stale one during that time stays too high, as in the
 * stock kernel. While the guard holds PG_lru, a munlock on another CPU
 * takes the stranded path, as it does during any LRU batch. Every other
 * mlock_folio() is the kernel's, batching included.
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

/* stale mlock counts restarted by the guard, and restarts given up */
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
	 * Another CPU's LRU batch that holds PG_lru sets it again before it
	 * lets the LRU lock go: wait for it through that lock. It may have
	 * taken PG_lru and not yet the lock: cpu_relax() first, whose PAUSE
	 * also lets a vCPU that shares a host thread with this one (QEMU's
	 * single-threaded TCG) run on to the lock. An isolation (reclaim,
	 * migration) holds PG_lru longer, and puts the folio back through
	 * lru_add(), which restarts the count itself.
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
