// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "mlock", reclaim's reference check (seed 000 patch 2/6, mainline
 * a2880202767d): folio_referenced_one() mlocks a large folio found in a
 * VM_LOCKED VMA only while holding the page-table lock of every entry that
 * maps it; the stock 6.12 decides after the walk, with the lock dropped
 * (racing with MADV_DONTNEED), and 6.1 never mlocks a PTE-mapped large
 * folio there.
 *
 * folio_referenced_one() is static and reached only through
 * folio_referenced()'s rmap_walk_control, so folio_referenced() is
 * replaced: ma_folio_referenced() matches folio_referenced() of Debian
 * 6.12.118 and 6.1.192 mm/rmap.c except that its rmap_one is
 * ma_referenced_one(), which does the VM_LOCKED case as upstream (7.3
 * mm/rmap.c) and hands the rest to the kernel's.
 */
#include <linux/mm.h>
#include <linux/page_idle.h>
#include <linux/rmap.h>

#include "mlock.h"
#include "mm_internal.h"

static bool ma_referenced_one(struct folio *folio, struct vm_area_struct *vma,
			      unsigned long address, void *arg)
{
	struct folio_referenced_arg *pra = arg;
	struct page_vma_mapped_walk pvmw;
	unsigned long first = 0, ptes = 0;

	/* hugetlb VMAs never have VM_LOCKED; leave them to the kernel anyway */
	if (!(vma->vm_flags & VM_LOCKED) || folio_test_hugetlb(folio))
		return folio_referenced_one(folio, vma, address, arg);

	pvmw = ma_folio_vma_walk(folio, vma, address);

	while (page_vma_mapped_walk(&pvmw)) {
		pra->mapcount--;
		if (!ma_pvmw_whole(&pvmw, &first, &ptes))
			continue;
		/* (and not while the fix is being disabled on 6.1) */
		if (pvmw.pte && folio_test_large(folio) && !ma_mlock_large_allowed())
			continue;

		/* restore the mlock which got missed */
		ma_mlock_vma_folio(folio, vma);
		ma_fix_event(MA_EV_REFERENCED_MLOCK, folio);
		page_vma_mapped_walk_done(&pvmw);
		pra->vm_flags |= VM_LOCKED;
		return false;	/* to break the loop */
	}

	/* no reference is taken through a VM_LOCKED VMA */
	if (folio_test_clear_young(folio)) {
		pra->referenced++;
		pra->vm_flags |= vma->vm_flags & ~VM_LOCKED;
	}
	return pra->mapcount != 0;
}

int ma_folio_referenced(struct folio *folio, int is_locked,
			struct mem_cgroup *memcg, unsigned long *vm_flags)
{
	bool we_locked = false;
	struct folio_referenced_arg pra = {
		.mapcount = folio_mapcount(folio),
		.memcg = memcg,
	};
	struct rmap_walk_control rwc = {
		.rmap_one = ma_referenced_one,
		.arg = (void *)&pra,
		.anon_lock = folio_lock_anon_vma_read,
		.try_lock = true,
		.invalid_vma = compat_referenced_invalid_vma(memcg),
	};

	*vm_flags = 0;
	if (!pra.mapcount)
		return 0;

	if (!ma_folio_raw_mapping(folio))
		return 0;

	if (!is_locked && (!folio_test_anon(folio) || folio_test_ksm(folio))) {
		we_locked = folio_trylock(folio);
		if (!we_locked)
			return 1;
	}

	rmap_walk(folio, &rwc);
	*vm_flags = pra.vm_flags;

	if (we_locked)
		folio_unlock(folio);

	return rwc.contended ? -1 : pra.referenced;
}
