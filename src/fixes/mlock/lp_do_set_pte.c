// SPDX-License-Identifier: GPL-2.0
/*
 * Live fix "mlock" on a kernel whose rmap maps page by page (6.1), fault
 * side: the equivalent of seed 000 patch 6/6 (mainline ab521b4142aa). 6.1
 * never mlocks a large folio mapped by PTEs, and its faults install one PTE
 * per do_set_pte() call under the page-table lock: the call that completes
 * the folio in this one page table of a VM_LOCKED VMA mlocks it, which is
 * upstream's rule (all entries under the one lock held).
 *
 * ma_do_set_pte() matches do_set_pte() of Debian 6.1.192 mm/memory.c
 * (with SPLIT_RSS_COUNTING, as Debian builds it) plus that last step.
 * lp_page_remove_rmap.c undoes such an mlock when the folio is unmapped.
 */
#include <linux/mm.h>
#include <linux/rmap.h>
#include <linux/swap.h>
#include <linux/userfaultfd_k.h>

#include "mlock.h"
#include "mm_internal.h"

/* mm/memory.c: add_mm_counter_fast(), SPLIT_RSS_COUNTING */
static void ma_inc_mm_counter_fast(struct mm_struct *mm, int member)
{
	struct task_struct *task = current;

	if (likely(task->mm == mm))
		task->rss_stat.count[member] += 1;
	else
		ma_add_mm_counter(mm, member, 1);
}

/* mm/memory.c: x86 keeps the generic arch_wants_old_prefaulted_pte() */
static inline bool ma_arch_wants_old_prefaulted_pte(void)
{
	return false;
}

void ma_do_set_pte(struct vm_fault *vmf, struct page *page, unsigned long addr)
{
	struct vm_area_struct *vma = vmf->vma;
	bool uffd_wp = pte_marker_uffd_wp(vmf->orig_pte);
	bool write = vmf->flags & FAULT_FLAG_WRITE;
	bool prefault = vmf->address != addr;
	pte_t entry;

	flush_icache_page(vma, page);
	entry = mk_pte(page, vma->vm_page_prot);

	if (prefault && ma_arch_wants_old_prefaulted_pte())
		entry = pte_mkold(entry);
	else
		entry = pte_sw_mkyoung(entry);

	if (write)
		entry = maybe_mkwrite(pte_mkdirty(entry), vma);
	if (unlikely(uffd_wp))
		entry = pte_mkuffd_wp(pte_wrprotect(entry));
	/* copy-on-write page */
	if (write && !(vma->vm_flags & VM_SHARED)) {
		ma_inc_mm_counter_fast(vma->vm_mm, MM_ANONPAGES);
		page_add_new_anon_rmap(page, vma, addr);
		lru_cache_add_inactive_or_unevictable(page, vma);
		set_pte_at(vma->vm_mm, addr, vmf->pte, entry);
		return;
	}
	ma_inc_mm_counter_fast(vma->vm_mm, mm_counter_file(page));
	page_add_file_rmap(page, vma, false);
	set_pte_at(vma->vm_mm, addr, vmf->pte, entry);

	/* the fix: mlock the folio this entry completes */
	if (PageTransCompound(page) && ma_mlock_large_allowed() &&
	    (vma->vm_flags & (VM_LOCKED | VM_SPECIAL)) == VM_LOCKED) {
		struct folio *folio = page_folio(page);

		if (ma_folio_pte_full(vma, folio, vmf->pte, addr,
				      folio_page_idx(folio, page), false)) {
			mlock_folio(folio);
			ma_fix_event(MA_EV_RMAP_MLOCK, folio);
		}
	}
}
