// SPDX-License-Identifier: GPL-2.0
/*
 * What the "mlock" fix relies on in the kernel, checked against its BTF at
 * load (layout.c): the private structs it mirrors (kernel.h) and the
 * prototypes of the functions it replaces or calls by a hand-written
 * declaration (mlock.h, kernel.h).
 */
#include <linux/stringify.h>

#include "mlock.h"
#include "layout.h"
#include "mm_internal.h"
#include "symbols.h"

/* mm/rmap.c: lp_referenced.c hands one to folio_referenced_one() */
static const struct ma_layout_member ma_folio_referenced_arg[] = {
	{ "mapcount", offsetof(struct folio_referenced_arg, mapcount),
	  sizeof_field(struct folio_referenced_arg, mapcount) },
	{ "referenced", offsetof(struct folio_referenced_arg, referenced),
	  sizeof_field(struct folio_referenced_arg, referenced) },
	{ "vm_flags", offsetof(struct folio_referenced_arg, vm_flags),
	  sizeof_field(struct folio_referenced_arg, vm_flags) },
	{ "memcg", offsetof(struct folio_referenced_arg, memcg),
	  sizeof_field(struct folio_referenced_arg, memcg) },
};

/* mm/mlock.c: mlock_folio()'s per-CPU batch */
static const struct ma_layout_member ma_mlock_batch_pcpu[] = {
	{ "lock", offsetof(struct ma_mlock_batch_pcpu, lock),
	  sizeof_field(struct ma_mlock_batch_pcpu, lock) },
#ifndef COMPAT_MLOCK_BATCH_PAGEVEC
	{ "fbatch", offsetof(struct ma_mlock_batch_pcpu, batch),
	  sizeof_field(struct ma_mlock_batch_pcpu, batch) },
#else
	{ "vec", offsetof(struct ma_mlock_batch_pcpu, batch),
	  sizeof_field(struct ma_mlock_batch_pcpu, batch) },
#endif
};

static const struct ma_layout_struct ma_mlock_structs[] = {
	MA_STRUCT("folio_referenced_arg", struct folio_referenced_arg, true,
		  folio_referenced_arg),
	/* mlock_fbatch, 6.1's mlock_pvec (kernel.h) */
	MA_STRUCT(__stringify(MA_MLOCK_BATCH), struct ma_mlock_batch_pcpu, false,
		  mlock_batch_pcpu),
};

static const struct ma_layout_proto ma_mlock_protos[] = {
#ifdef COMPAT_MLOCK_FIX_FOLIO_RMAP
	/* mm/rmap.c, mm/mlock.c (6.12) */
	MA_REPLACED_VOID(folio_add_file_rmap_ptes, ma_folio_add_file_rmap_ptes,
			 struct folio *, struct page *, int, struct vm_area_struct *),
	MA_REPLACED_VOID(folio_add_file_rmap_pmd, ma_folio_add_file_rmap_pmd,
			 struct folio *, struct page *, struct vm_area_struct *),
	MA_REPLACED_VOID(folio_add_anon_rmap_ptes, ma_folio_add_anon_rmap_ptes,
			 struct folio *, struct page *, int, struct vm_area_struct *,
			 unsigned long, rmap_t),
	MA_REPLACED_VOID(folio_add_anon_rmap_pmd, ma_folio_add_anon_rmap_pmd,
			 struct folio *, struct page *, struct vm_area_struct *,
			 unsigned long, rmap_t),
#ifndef COMPAT_MLOCK_BATCH_PAGEVEC
	MA_PROTO_VOID(mlock_folio_batch, struct folio_batch *),
#endif
#endif
#ifdef COMPAT_MLOCK_FIX_PAGE_RMAP
	/* mm/memory.c, mm/mlock.c, mm/rmap.c (6.1) */
	MA_REPLACED_VOID(do_set_pte, ma_do_set_pte,
			 struct vm_fault *, struct page *, unsigned long),
	MA_REPLACED_VOID(page_remove_rmap, ma_page_remove_rmap,
			 struct page *, struct vm_area_struct *, bool),
	MA_REPLACED(mlock_pte_range, ma_mlock_pte_range, int,
		    pmd_t *, unsigned long, unsigned long, struct mm_walk *),
	MA_PROTO_VOID(munlock_page, struct page *),
	MA_PROTO_VOID_NOARGS(mlock_page_drain_local),
#endif
#ifdef COMPAT_MLOCK_BATCH_PAGEVEC
	MA_PROTO_VOID(mlock_pagevec, struct pagevec *),
#endif
	MA_REPLACED(folio_referenced, ma_folio_referenced, int,
		    struct folio *, int, struct mem_cgroup *, unsigned long *),
	MA_REPLACED_VOID(try_to_unmap, ma_try_to_unmap,
			 struct folio *, enum ttu_flags),
	MA_REPLACED_VOID(mlock_folio, ma_mlock_folio, struct folio *),
	MA_PROTO_VOID(mlock_folio, struct folio *),
	MA_PROTO(folio_referenced_one, bool, struct folio *,
		 struct vm_area_struct *, unsigned long, void *),
	MA_PROTO(invalid_folio_referenced_vma, bool,
		 struct vm_area_struct *, void *),
	MA_PROTO(try_to_unmap_one, bool, struct folio *,
		 struct vm_area_struct *, unsigned long, void *),
};

/* the rmap walks' callbacks the replacements hand to the kernel */
static const struct ma_ibt_target ma_mlock_ibt[] = {
	MA_IBT_FUNC(folio_lock_anon_vma_read),
	MA_IBT_FUNC(invalid_folio_referenced_vma),
};

const struct ma_layout ma_mlock_layout = {
	.structs = ma_mlock_structs, .nr_structs = ARRAY_SIZE(ma_mlock_structs),
	.protos = ma_mlock_protos, .nr_protos = ARRAY_SIZE(ma_mlock_protos),
	.ibt = ma_mlock_ibt, .nr_ibt = ARRAY_SIZE(ma_mlock_ibt),
};
