// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "fault", fault path (seed 000 patch 4/6, mainline 19773df031bc):
 * finish_fault() maps a whole large file folio with one batch of PTEs when
 * it fits the VMA and the page table, instead of one page per fault, so
 * the rmap sees it fully mapped and a fix of mlock tracking can mlock it.
 *
 * ma_finish_fault() matches finish_fault() of Debian 6.12.118 mm/memory.c
 * except for that condition; that kernel has the i_size clamp of
 * "mm/memory: Do not populate page table entries beyond i_size". A tmpfs
 * folio reaching past i_size is not mapped whole, unlike upstream, whose
 * shmem exception would map pages past EOF that stock 6.12 leaves to
 * SIGBUS.
 */
#include <linux/mm.h>
#include <linux/oom.h>
#include <linux/pgtable.h>
#include <linux/shmem_fs.h>
#include <linux/userfaultfd_k.h>

#include "fault.h"
#include "fixes_count.h"
#include "mm_internal.h"

/* mm/memory.c: vmf_pte_changed() */
static bool ma_vmf_pte_changed(struct vm_fault *vmf)
{
	if (vmf->flags & FAULT_FLAG_ORIG_PTE_VALID)
		return !pte_same(ptep_get(vmf->pte), vmf->orig_pte);

	return !pte_none(ptep_get(vmf->pte));
}

/* mm/memory.c: pte_range_none() */
static bool ma_pte_range_none(pte_t *pte, int nr_pages)
{
	int i;

	for (i = 0; i < nr_pages; i++) {
		if (!pte_none(ptep_get_lockless(pte + i)))
			return false;
	}
	return true;
}

vm_fault_t ma_finish_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct page *page;
	struct folio *folio;
	vm_fault_t ret;
	bool is_cow = (vmf->flags & FAULT_FLAG_WRITE) &&
		      !(vma->vm_flags & VM_SHARED);
	int type, nr_pages;
	unsigned long addr;
	bool needs_fallback = false, past_eof = false;

	ma_count_call(MA_CNT_FINISH_FAULT);
fallback:
	addr = vmf->address;

	/* did we COW the page? */
	page = is_cow ? vmf->cow_page : vmf->page;
	folio = page_folio(page);

	/* check even for read faults: we might have lost our CoWed page */
	if (!(vma->vm_flags & VM_SHARED)) {
		ret = check_stable_address_space(vma->vm_mm);
		if (ret)
			return ret;
	}

	if (!needs_fallback && vma->vm_file) {
		struct address_space *mapping = vma->vm_file->f_mapping;
		pgoff_t file_end;

		file_end = DIV_ROUND_UP(i_size_read(mapping->host), PAGE_SIZE);
		/* SIGBUS beyond i_size; shmem maps PMDs across it */
		needs_fallback = !shmem_mapping(mapping) &&
			file_end < folio_next_index(folio);
		/*
		 * Nor a whole tmpfs folio. For anonymous shmem, a folio past
		 * i_size is past the VMA too.
		 */
		past_eof = file_end < folio_next_index(folio);
	}

	if (pmd_none(*vmf->pmd)) {
		if (!needs_fallback && PageTransCompound(page)) {
			ret = do_set_pmd(vmf, page);
			if (ret != VM_FAULT_FALLBACK)
				return ret;
		}

		if (vmf->prealloc_pte)
			pmd_install(vma->vm_mm, vmf->pmd, &vmf->prealloc_pte);
		else if (unlikely(pmd_none(*vmf->pmd) &&
				  __pte_alloc(vma->vm_mm, vmf->pmd)))
			return VM_FAULT_OOM;
	}

	nr_pages = folio_nr_pages(folio);

	/* The fix: per-page faults only for userfaultfd and the i_size clamp */
	if (unlikely(userfaultfd_armed(vma)) || unlikely(needs_fallback) ||
	    unlikely(past_eof)) {
		nr_pages = 1;
	} else if (nr_pages > 1) {
		pgoff_t idx = folio_page_idx(folio, page);
		pgoff_t vma_off = vmf->pgoff - vmf->vma->vm_pgoff;
		pgoff_t pte_off = pte_index(vmf->address);

		/* one page if the folio reaches past the VMA or page table */
		if (unlikely(vma_off < idx ||
			     vma_off + (nr_pages - idx) > vma_pages(vma) ||
			     pte_off < idx ||
			     pte_off + (nr_pages - idx) > PTRS_PER_PTE)) {
			nr_pages = 1;
		} else {
			addr = vmf->address - idx * PAGE_SIZE;
			page = &folio->page;
		}
	}

	vmf->pte = ma_pte_offset_map_lock(vma->vm_mm, vmf->pmd, addr, &vmf->ptl);
	if (!vmf->pte)
		return VM_FAULT_NOPAGE;

	/* re-check under the page-table lock */
	if (nr_pages == 1 && unlikely(ma_vmf_pte_changed(vmf))) {
		update_mmu_tlb(vma, addr, vmf->pte);
		ret = VM_FAULT_NOPAGE;
		goto unlock;
	} else if (nr_pages > 1 && !ma_pte_range_none(vmf->pte, nr_pages)) {
		needs_fallback = true;
		pte_unmap_unlock(vmf->pte, vmf->ptl);
		goto fallback;
	}

	folio_ref_add(folio, nr_pages - 1);
	set_pte_range(vmf, folio, page, nr_pages, addr);
	type = is_cow ? MM_ANONPAGES : mm_counter_file(folio);
	ma_add_mm_counter(vma->vm_mm, type, nr_pages);
	ret = 0;

unlock:
	pte_unmap_unlock(vmf->pte, vmf->ptl);
	if (nr_pages > 1)
		ma_fix_event(MA_EV_FAULT_WHOLE_FOLIO, folio);
	return ret;
}
