// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "mlock", repair at load: mlock a large folio that a locked VMA
 * mapped before the fix was in force, counting one mlock per locked
 * mapping, as the fix's rmap add and the kernel's mlock() do (one
 * mlock_folio() per VMA that maps the whole folio: folio->mlock_count).
 *
 * The audit's walk (audit.c) finds the folio, fully mapped in a locked VMA
 * and not mlocked, and hands it here once that page-table lock is dropped.
 * Under the folio lock, an rmap walk then visits every VMA that maps it
 * and mlocks it once per VM_LOCKED VMA (VM_SPECIAL excluded, the rule of
 * mlock_vma_folio()) that maps all of it within one page table, while
 * holding that table's lock: the fix's own rule (lp_referenced.c).
 *
 * Nobody counted these mappings: the folio is not mlocked, so no mlock of
 * it is outstanding. The fix mlocks a large folio in an rmap add, under the
 * folio lock for every folio that is already mapped (faults, swap-in,
 * migration), so not during this walk; and in reclaim, under the folio
 * lock, or, for an anonymous folio on the active list, while it is
 * isolated, where the kernel keeps no mlock_count anyway (mm/mlock.c). A
 * concurrent mlock() sets VM_IO on the VMA over its own walk, which the
 * rule above skips. An mlock() or a reclaim mlock that ends between two
 * VMAs of this walk after its first mlock shows in the folio's
 * mlock_count, which then exceeds this walk's mlocks: the walk stops there
 * (ma_counted_elsewhere()), leaving the count low rather than high. An
 * mlock of another mapping counted between that check and this walk's
 * mlock_folio() is seen at that mapping's visit, if still to come, and a
 * mapping already visited was VM_LOCKED then (mlock() does not count it
 * again) or was not counted here. A count too high would leave the folio
 * mlocked after its last locked mapping goes; too low, the kernel's own
 * rule applies (munlocked early, mlocked again by reclaim). The counts
 * are the kernel's best effort: none is kept while the folio is off the
 * LRU.
 *
 * Disabling the fix stops the repair and waits for it, in the livepatch's
 * pre-unpatch callback, with klp_mutex held: so the repair never sleeps
 * on a lock that I/O or a stuck task may hold for as long as a device
 * takes (the folio lock of a folio under read or write, the file's
 * i_mmap_rwsem, an anon_vma's lock; the audit's walk does the same for
 * mmap_lock). It tries, sleeps a millisecond, and gives up once
 * ma_repair_stop is set.
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
 * Has an mlock of @folio other than this walk's @mlocks been counted since
 * the walk's first? mlock_folio() applies the mlock of a large folio at
 * once (it runs its per-CPU batch), so a folio on the unevictable list
 * has mlock_count == @mlocks unless somebody else counted one meanwhile
 * (the count is kept only there: elsewhere nobody's count is). Read
 * without the LRU lock: a stale value only stops the walk early, which
 * leaves the count low (safe, see above).
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
		/*
		 * Mlocked by someone else since the walk began (6.1's disable
		 * also stops it here): the mappings left are theirs to count.
		 */
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

/* Wait a little before trying a lock again; false: the repair must end. */
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
		/* a contended rmap lock: nothing visited, try again */
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
