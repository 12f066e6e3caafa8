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
 * rule above skips. What remains: an mlock() or a reclaim mlock that ends
 * between two VMAs of this walk after its first mlock is counted twice,
 * and that extra count leaves the folio mlocked after its last locked
 * mapping goes, until it is truncated or isolated. The window is the few
 * microseconds of one rmap walk; the kernel's own counts are best effort
 * in the same way.
 */
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/rmap.h>

#include "mlock.h"
#include "mm_internal.h"

struct ma_repair_arg {
	unsigned int mlocks;	/* mlock_folio() calls made */
};

static bool ma_repair_one(struct folio *folio, struct vm_area_struct *vma,
			  unsigned long address, void *arg)
{
	struct ma_repair_arg *ra = arg;
	struct page_vma_mapped_walk pvmw;
	unsigned long first = 0;
	unsigned int ptes = 0;

	if ((vma->vm_flags & (VM_LOCKED | VM_SPECIAL)) != VM_LOCKED)
		return true;

	pvmw = ma_folio_vma_walk(folio, vma, address);
	while (page_vma_mapped_walk(&pvmw)) {
		if (!ptes)
			first = pvmw.address;
		ptes++;
		/* only a fully mapped folio is mlocked */
		if (pvmw.pte && ptes != pvmw.nr_pages)
			continue;
		/* and only under the lock of every entry that maps it */
		if (ma_pvmw_crossed(&pvmw, first))
			continue;
		/*
		 * Mlocked by someone else since the walk began (6.1's disable
		 * also stops it here): the mappings left are theirs to count.
		 */
		if ((!ra->mlocks && folio_test_mlocked(folio)) ||
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

/**
 * ma_mlock_repair_folio() - mlock @folio once per locked mapping of it.
 * @folio: a large folio, referenced by the caller, which holds the
 *         mmap_lock of an mm that mapped it (no page-table lock)
 *
 * Return: the number of pages of @folio if it was mlocked here, else 0.
 */
unsigned long ma_mlock_repair_folio(struct folio *folio)
{
	struct ma_repair_arg ra = { };
	struct rmap_walk_control rwc = {
		.rmap_one = ma_repair_one,
		.arg = &ra,
	};

	folio_lock(folio);
	/* not mlocked, still mapped, not truncated or freed meanwhile */
	if (!folio_test_mlocked(folio) && folio_mapped(folio) &&
	    ma_folio_raw_mapping(folio) && !folio_test_ksm(folio))
		rmap_walk(folio, &rwc);
	folio_unlock(folio);
	return ra.mlocks ? folio_nr_pages(folio) : 0;
}
