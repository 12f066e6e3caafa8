// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "mlock", 6.1: the sweep that ends the undo (fix.c). The undo's
 * walk of every process (audit.c) munlocks what the fix mlocked and is
 * still mapped when the walk reaches its process. A folio that every
 * mapping left before that, by a process that exited or unmapped it with
 * the stock code (tasks go back to it during the disabling transition, or
 * during the whole transition of a cumulative livepatch that replaces
 * ours, which runs none of our callbacks), stays mlocked with no locked
 * mapping, out of reach of any walk of page tables: stock 6.1 never
 * munlocks a PTE-mapped large folio.
 *
 * So after the walk, every page frame of every online node is looked at,
 * and each large folio that is mlocked and mapped by no PMD is munlocked
 * in full: stock 6.1 mlocks a large folio only through a PMD mapping
 * (mlock_vma_folio() with compound, mlock_pte_range(), and reclaim's
 * mlock_vma_folio(.., !pvmw.pte)), and munlocks it when that mapping goes,
 * so such a folio is one the fix mlocked. A folio whose last PMD mapping
 * has just gone may also be mlocked until the munlock that the kernel
 * queued for it runs: munlocking it here first is what that munlock would
 * do (it finds PG_mlocked clear and counts nothing).
 *
 * Each folio is referenced and looked at under its folio lock, taken with
 * a trylock: a file folio is mapped by a PMD (do_set_pmd()) under its
 * lock, so none gains a PMD mapping between the check and the munlock,
 * and the sweep never sleeps on a folio locked for I/O. A folio found
 * locked is looked at again in a later pass, up to MA_SWEEP_PASSES passes
 * 100 ms apart. The sweep stops when *@stop becomes true (the fix in force
 * again), like the walk.
 */
#include <linux/delay.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/pagemap.h>

#include "mlock.h"
#include "mm_internal.h"

#define MA_SWEEP_PASSES		10

/* Munlock @folio if the fix mlocked it; its number of pages if so. */
static unsigned long ma_sweep_folio(struct folio *folio, bool *busy)
{
	unsigned long nr = 0;

	if (!folio_trylock(folio)) {
		*busy = true;
		return 0;
	}
	if (folio_test_large(folio) && folio_test_mlocked(folio) &&
	    !folio_entire_mapcount(folio)) {
		compat_munlock_folio_all(folio);
		if (!folio_test_mlocked(folio))
			nr = folio_nr_pages(folio);
	}
	folio_unlock(folio);
	return nr;
}

/* One pass over the page frames of node @nid; sets *@busy as above. */
static unsigned long ma_sweep_node(int nid, const bool *stop, bool *busy)
{
	unsigned long pfn = node_start_pfn(nid), end = node_end_pfn(nid);
	unsigned long pages = 0;

	for (; pfn < end; pfn++) {
		struct folio *folio;
		struct page *page;

		if (!(pfn % 1024)) {
			cond_resched();
			if (READ_ONCE(*stop))
				break;
		}
		page = pfn_to_online_page(pfn);
		/* a cheap look first, without a reference */
		if (!page || !PageHead(page) || !PageMlocked(page))
			continue;
		folio = page_folio(page);
		if (!folio_try_get(folio))
			continue;
		/* still the head of that folio, now that it cannot be freed */
		if (&folio->page == page && folio_test_large(folio)) {
			pages += ma_sweep_folio(folio, busy);
			pfn += folio_nr_pages(folio) - 1;
		}
		folio_put(folio);
	}
	return pages;
}

/**
 * ma_mlock_sweep() - munlock the large folios the fix left mlocked (6.1).
 * @stop: ends the sweep when it becomes true
 * @busy_left: set to true if folios stayed locked in every pass
 *
 * Return: the number of pages munlocked.
 */
unsigned long ma_mlock_sweep(const bool *stop, bool *busy_left)
{
	unsigned long pages = 0;
	unsigned int pass;
	bool busy = true;
	int nid;

	for (pass = 0; busy && pass < MA_SWEEP_PASSES; pass++) {
		if (pass)
			msleep(100);
		busy = false;
		for_each_online_node(nid)
			pages += ma_sweep_node(nid, stop, &busy);
		if (READ_ONCE(*stop))
			break;
	}
	*busy_left = busy;
	return pages;
}
