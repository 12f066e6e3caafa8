// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "mlock", reclaim's unmap (seed 000 patch 3/6, mainline
 * 8c49fbafedf1): try_to_unmap_one() also mlocks a folio in a VM_LOCKED VMA
 * when it is large, fully mapped and all its entries are under the one
 * page-table lock the walk holds.
 *
 * try_to_unmap_one() is static and reached only through try_to_unmap()'s
 * rmap_walk_control, so try_to_unmap() is replaced: ma_try_to_unmap()
 * matches try_to_unmap() of Debian 6.12.118 and 6.1.192 mm/rmap.c except
 * that its rmap_one is ma_try_to_unmap_one(), which does the VM_LOCKED
 * case as upstream (7.3 mm/rmap.c) and hands the rest to the kernel's.
 * It sends no mmu-notifier invalidation in that case (the entry points are
 * not exported); nothing changes in the range anyway.
 */
#include <linux/mm.h>
#include <linux/rmap.h>

#include "mlock.h"
#include "mm_internal.h"

static bool ma_try_to_unmap_one(struct folio *folio, struct vm_area_struct *vma,
				unsigned long address, void *arg)
{
	enum ttu_flags flags = (enum ttu_flags)(long)arg;
	struct page_vma_mapped_walk pvmw;
	unsigned long first = 0, ptes = 0;

	/* hugetlb VMAs never have VM_LOCKED; leave them to the kernel anyway */
	if ((flags & TTU_IGNORE_MLOCK) || !(vma->vm_flags & VM_LOCKED) ||
	    folio_test_hugetlb(folio))
		return try_to_unmap_one(folio, vma, address, arg);

	pvmw = ma_folio_vma_walk(folio, vma, address);

	if (flags & TTU_SYNC)
		pvmw.flags = PVMW_SYNC;
	compat_unmap_locked_split(vma, address, flags, folio);

	/* the folio is in an mlock()ed VMA: it must not be swapped out */
	while (page_vma_mapped_walk(&pvmw)) {
		/* partial or page-table-crossing mappings are not mlocked */
		if (!ma_pvmw_whole(&pvmw, &first, &ptes))
			continue;
		if (!pvmw.pte || !folio_test_large(folio) ||
		    ma_mlock_large_allowed()) {
			/* restore the mlock which got missed */
			ma_mlock_vma_folio(folio, vma);
			ma_fix_event(MA_EV_UNMAP_MLOCK, folio);
		}
		page_vma_mapped_walk_done(&pvmw);
		break;
	}
	/*
	 * With no mapping found here (untouched MLOCK_ONFAULT range, COW after
	 * fork) the walk goes on to the other VMAs, as upstream.
	 */
	return !ptes;
}

/* try_to_unmap()'s "done" test, as in mm/rmap.c */
static int ma_folio_not_mapped(struct folio *folio)
{
	return !folio_mapped(folio);
}

void ma_try_to_unmap(struct folio *folio, enum ttu_flags flags)
{
	struct rmap_walk_control rwc = {
		.rmap_one = ma_try_to_unmap_one,
		.arg = (void *)flags,
		.done = ma_folio_not_mapped,
		.anon_lock = folio_lock_anon_vma_read,
	};

	if (flags & TTU_RMAP_LOCKED)
		rmap_walk_locked(folio, &rwc);
	else
		rmap_walk(folio, &rwc);
}
