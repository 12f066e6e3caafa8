// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "mlock", repair at load: mlock a large folio that a locked VMA
 * mapped while the fix was not in force, once per VM_LOCKED VMA that maps
 * all of it within one page table (the fix's rule, lp_referenced.c), so
 * that folio->mlock_count is what the fix's rmap add would have made it.
 *
 * Races: the fix's rmap add mlocks an already mapped folio under the folio
 * lock, held here; a concurrent mlock() sets VM_IO over its own walk, which
 * the VM_SPECIAL test skips. Any other mlock counted during this walk shows
 * as mlock_count above this walk's mlocks, and the walk stops: the count
 * may end low (the kernel's own rule then applies: munlocked early,
 * mlocked again by reclaim), never high, which would leave the folio
 * mlocked after its last locked mapping goes.
 *
 * Disabling waits for the repair in the pre-unpatch callback, with
 * klp_mutex held, so the repair only trylocks (folio lock, i_mmap_rwsem,
 * anon_vma lock: held across I/O) and gives up once ma_repair_stop is set.
 */
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/rmap.h>

#include "mlock.h"
#include "mm_internal.h"

struct ma_repair_arg {
	unsigned int mlocks;	/* mlock_folio() calls made */
};

/*
 * mlock_folio() applies a large folio's mlock at once, so on the
 * unevictable list mlock_count == @mlocks unless someone else counted one.
 * Read without the LRU lock: a stale value only stops the walk early.
 */
static bool ma_counted_elsewhere(struct folio *folio, unsigned int mlocks)
{
	return mlocks && folio_test_lru(folio) && folio_test_unevictable(folio) &&
	       READ_ONCE(folio->mlock_count) > mlocks;
}

static bool ma_repair_one(struct folio *folio, struct vm_area_struct *vma,
			  unsigned long address, void *arg)
{
	struct ma_repair_arg *ra = arg;
	struct page_vma_mapped_walk pvmw;
	unsigned long first = 0, ptes = 0;

	if ((vma->vm_flags & (VM_LOCKED | VM_SPECIAL)) != VM_LOCKED)
		return true;

	pvmw = ma_folio_vma_walk(folio, vma, address);
	while (page_vma_mapped_walk(&pvmw)) {
		if (!ma_pvmw_whole(&pvmw, &first, &ptes))
			continue;
		/* mlocked by someone else: the mappings left are theirs */
		if ((!ra->mlocks && folio_test_mlocked(folio)) ||
		    ma_counted_elsewhere(folio, ra->mlocks) ||
		    !ma_mlock_large_allowed()) {
			page_vma_mapped_walk_done(&pvmw);
			return false;
		}
		mlock_folio(folio);
		ra->mlocks++;
		page_vma_mapped_walk_done(&pvmw);
		return true;
	}
	return true;
}

/* false: the repair must end */
static bool ma_repair_wait(void)
{
	if (READ_ONCE(ma_repair_stop))
		return false;
	usleep_range(1000, 2000);
	return true;
}

/**
 * ma_mlock_repair_folio() - mlock @folio once per locked mapping of it.
 * @folio: a large folio, referenced by the caller, which holds the
 *         mmap_lock of an mm that mapped it (no page-table lock)
 *
 * Return: the number of pages of @folio if it was mlocked here, else 0
 * (also when the repair was asked to end while it waited for a lock).
 */
unsigned long ma_mlock_repair_folio(struct folio *folio)
{
	struct ma_repair_arg ra = { };
	struct rmap_walk_control rwc = {
		.rmap_one = ma_repair_one,
		.arg = &ra,
		.try_lock = true,
	};

	while (!folio_trylock(folio))
		if (!ma_repair_wait())
			return 0;
	/* not mlocked, still mapped, not truncated or freed meanwhile */
	if (!folio_test_mlocked(folio) && folio_mapped(folio) &&
	    ma_folio_raw_mapping(folio) && !folio_test_ksm(folio)) {
		do {
			rwc.contended = false;
			rmap_walk(folio, &rwc);
		} while (rwc.contended && ma_repair_wait());
	}
	folio_unlock(folio);
	return ra.mlocks ? folio_nr_pages(folio) : 0;
}
