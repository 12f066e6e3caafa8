// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "mlock", 6.1: the sweep that ends the undo (fix.c). A folio
 * the fix mlocked whose mappings all went with the stock code (during a
 * transition, or a cumulative livepatch's, which runs none of our
 * callbacks) stays mlocked out of reach of any page-table walk: stock 6.1
 * never munlocks a PTE-mapped large folio.
 *
 * So every page frame is looked at, and each large folio that is mlocked
 * and mapped by no PMD is munlocked in full: stock 6.1 mlocks a large
 * folio only through a PMD mapping, and munlocks it when that goes, so
 * such a folio is the fix's. (One whose last PMD mapping just went may
 * still await the kernel's queued munlock, which then counts nothing.)
 *
 * The folio lock, taken with a trylock, keeps a PMD mapping from appearing
 * (do_set_pmd() holds it) without sleeping on a folio locked for I/O.
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
