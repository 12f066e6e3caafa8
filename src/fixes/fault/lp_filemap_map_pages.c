// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "fault", fault-around (seed 000 patch 5/6, mainline
 * 357b92761d94): when fault-around meets a large folio, it maps the whole
 * folio, not only the part inside its window, if the folio lies within the
 * VMA and within one page table, and (the i_size clamp of "mm/memory: Do
 * not populate page table entries beyond i_size") has no page wholly
 * beyond i_size.
 *
 * Upstream (7.3 mm/filemap.c) tests "file_end >= folio_next_index(folio)",
 * which also refuses a folio ending exactly at i_size, so a file's last
 * folio is never mlocked by the rmap. Here the test is "no page wholly
 * beyond i_size": still no PTE past i_size, so SIGBUS semantics hold.
 * Upstream also widens a shmem folio that reaches past i_size; not here:
 * on 6.12 truncation can leave such a folio on tmpfs, and widening would
 * map pages past EOF that the stock kernel leaves to SIGBUS.
 *
 * 6.12 inlines filemap_map_folio_range() into filemap_map_pages(), so the
 * exported filemap_map_pages() is replaced. ma_filemap_map_pages() and its
 * helpers match filemap_map_pages(), next_uptodate_folio(),
 * filemap_map_pmd(), filemap_map_folio_range() and
 * filemap_map_order0_folio() of Debian 6.12.118 mm/filemap.c except for
 * that widening, and the mm_filemap_map_pages trace event, which a module
 * cannot fire.
 */
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/shmem_fs.h>
#include <linux/xarray.h>

#include "fault.h"
#include "mm_internal.h"

/* next_uptodate_folio(): the next folio to map, locked and referenced */
static struct folio *ma_next_uptodate_folio(struct xa_state *xas,
					    struct address_space *mapping,
					    pgoff_t end_pgoff)
{
	struct folio *folio = xas_next_entry(xas, end_pgoff);
	unsigned long max_idx;

	do {
		if (!folio)
			return NULL;
		if (xas_retry(xas, folio))
			continue;
		if (xa_is_value(folio))
			continue;
		if (folio_test_locked(folio))
			continue;
		if (!folio_try_get(folio))
			continue;
		/* has the page moved or been split? */
		if (unlikely(folio != xas_reload(xas)))
			goto skip;
		if (!folio_test_uptodate(folio) || folio_test_readahead(folio))
			goto skip;
		if (!folio_trylock(folio))
			goto skip;
		if (folio->mapping != mapping)
			goto unlock;
		if (!folio_test_uptodate(folio))
			goto unlock;
		max_idx = DIV_ROUND_UP(i_size_read(mapping->host), PAGE_SIZE);
		if (xas->xa_index >= max_idx)
			goto unlock;
		return folio;
unlock:
		folio_unlock(folio);
skip:
		folio_put(folio);
	} while ((folio = xas_next_entry(xas, end_pgoff)) != NULL);

	return NULL;
}

/* filemap_map_pmd(): true when the PMD maps the folio (or a THP already) */
static bool ma_filemap_map_pmd(struct vm_fault *vmf, struct folio *folio,
			       pgoff_t start)
{
	struct mm_struct *mm = vmf->vma->vm_mm;

	/* a huge page is mapped: nothing to do */
	if (pmd_trans_huge(*vmf->pmd)) {
		folio_unlock(folio);
		folio_put(folio);
		return true;
	}

	if (pmd_none(*vmf->pmd) && folio_test_pmd_mappable(folio)) {
		struct page *page = folio_file_page(folio, start);
		vm_fault_t ret = do_set_pmd(vmf, page);

		if (!ret) {
			/* mapped; the reference is consumed */
			folio_unlock(folio);
			return true;
		}
	}

	if (pmd_none(*vmf->pmd) && vmf->prealloc_pte)
		pmd_install(mm, vmf->pmd, &vmf->prealloc_pte);

	return false;
}

/* filemap_map_folio_range(): map pages of a large folio, from @start on */
static vm_fault_t ma_filemap_map_folio_range(struct vm_fault *vmf,
					     struct folio *folio,
					     unsigned long start,
					     unsigned long addr,
					     unsigned int nr_pages,
					     unsigned long *rss,
					     unsigned int *mmap_miss,
					     pgoff_t file_end)
{
	vm_fault_t ret = 0;
	struct page *page = folio_page(folio, start);
	unsigned int count = 0;
	pte_t *old_ptep = vmf->pte;
	unsigned long addr0;

	/*
	 * The fix: map the whole folio where it lies within i_size (or is
	 * shmem), within the VMA and within this page table.
	 */
	addr0 = addr - start * PAGE_SIZE;
	if (folio_next_index(folio) <= file_end + 1 &&
	    addr0 >= vmf->vma->vm_start &&
	    addr0 + folio_size(folio) <= vmf->vma->vm_end &&
	    (addr0 & PMD_MASK) == ((addr0 + folio_size(folio) - 1) & PMD_MASK)) {
		vmf->pte -= start;
		page -= start;
		addr = addr0;
		nr_pages = folio_nr_pages(folio);
		ma_fix_event(MA_EV_FAULTAROUND_WHOLE_FOLIO, folio);
	}

	do {
		if (PageHWPoison(page + count))
			goto skip;

		/* do not count workingset folios against mmap_miss */
		if (!folio_test_workingset(folio))
			(*mmap_miss)++;

		/* PTE markers are left to the specific fault path */
		if (!pte_none(ptep_get(&vmf->pte[count])))
			goto skip;

		count++;
		continue;
skip:
		if (count) {
			set_pte_range(vmf, folio, page, count, addr);
			*rss += count;
			folio_ref_add(folio, count);
			if (in_range(vmf->address, addr, count * PAGE_SIZE))
				ret = VM_FAULT_NOPAGE;
		}

		count++;
		page += count;
		vmf->pte += count;
		addr += count * PAGE_SIZE;
		count = 0;
	} while (--nr_pages > 0);

	if (count) {
		set_pte_range(vmf, folio, page, count, addr);
		*rss += count;
		folio_ref_add(folio, count);
		if (in_range(vmf->address, addr, count * PAGE_SIZE))
			ret = VM_FAULT_NOPAGE;
	}

	vmf->pte = old_ptep;

	return ret;
}

/* filemap_map_order0_folio() */
static vm_fault_t ma_filemap_map_order0_folio(struct vm_fault *vmf,
					      struct folio *folio,
					      unsigned long addr,
					      unsigned long *rss,
					      unsigned int *mmap_miss)
{
	vm_fault_t ret = 0;
	struct page *page = &folio->page;

	if (PageHWPoison(page))
		return ret;

	if (!folio_test_workingset(folio))
		(*mmap_miss)++;

	if (!pte_none(ptep_get(vmf->pte)))
		return ret;

	if (vmf->address == addr)
		ret = VM_FAULT_NOPAGE;

	set_pte_range(vmf, folio, page, 1, addr);
	(*rss)++;
	folio_ref_inc(folio);

	return ret;
}

vm_fault_t ma_filemap_map_pages(struct vm_fault *vmf, pgoff_t start_pgoff,
				pgoff_t end_pgoff)
{
	struct vm_area_struct *vma = vmf->vma;
	struct file *file = vma->vm_file;
	struct address_space *mapping = file->f_mapping;
	pgoff_t file_end, last_pgoff = start_pgoff;
	unsigned long addr;
	XA_STATE(xas, &mapping->i_pages, start_pgoff);
	struct folio *folio;
	vm_fault_t ret = 0;
	unsigned long rss = 0;
	unsigned int nr_pages = 0, mmap_miss = 0, mmap_miss_saved, folio_type;
	bool can_map_large;

	/* clamp end_pgoff to i_size first: truncation may race with us */
	file_end = DIV_ROUND_UP(i_size_read(mapping->host), PAGE_SIZE) - 1;
	end_pgoff = min(end_pgoff, file_end);

	rcu_read_lock();
	folio = ma_next_uptodate_folio(&xas, mapping, end_pgoff);
	if (!folio)
		goto out;

	/* no PMD across i_size (SIGBUS), except on shmem */
	can_map_large = shmem_mapping(mapping) ||
		file_end >= folio_next_index(folio);

	if (can_map_large && ma_filemap_map_pmd(vmf, folio, start_pgoff)) {
		ret = VM_FAULT_NOPAGE;
		goto out;
	}

	addr = vma->vm_start + ((start_pgoff - vma->vm_pgoff) << PAGE_SHIFT);
	vmf->pte = ma_pte_offset_map_lock(vma->vm_mm, vmf->pmd, addr, &vmf->ptl);
	if (!vmf->pte) {
		folio_unlock(folio);
		folio_put(folio);
		goto out;
	}

	folio_type = mm_counter_file(folio);
	do {
		unsigned long end;

		addr += (xas.xa_index - last_pgoff) << PAGE_SHIFT;
		vmf->pte += xas.xa_index - last_pgoff;
		last_pgoff = xas.xa_index;
		end = folio_next_index(folio) - 1;
		nr_pages = min(end, end_pgoff) - xas.xa_index + 1;

		if (!folio_test_large(folio))
			ret |= ma_filemap_map_order0_folio(vmf, folio, addr,
							   &rss, &mmap_miss);
		else
			ret |= ma_filemap_map_folio_range(vmf, folio,
					xas.xa_index - folio->index, addr,
					nr_pages, &rss, &mmap_miss, file_end);

		folio_unlock(folio);
		folio_put(folio);
	} while ((folio = ma_next_uptodate_folio(&xas, mapping, end_pgoff)) != NULL);
	ma_add_mm_counter(vma->vm_mm, folio_type, rss);
	pte_unmap_unlock(vmf->pte, vmf->ptl);
out:
	rcu_read_unlock();

	mmap_miss_saved = READ_ONCE(file->f_ra.mmap_miss);
	if (mmap_miss >= mmap_miss_saved)
		WRITE_ONCE(file->f_ra.mmap_miss, 0);
	else
		WRITE_ONCE(file->f_ra.mmap_miss, mmap_miss_saved - mmap_miss);

	return ret;
}
