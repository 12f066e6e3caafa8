// SPDX-License-Identifier: GPL-2.0
/*
 * rmap-add hook: counts file folios (page cache, shmem) mapped into a page
 * table. This is where the kernel decides whether a newly mapped folio in a
 * VM_LOCKED VMA gets mlocked, and so where large folios were left out of
 * Mlocked before 6.18 (seed 000, patch 6/6).
 */
#include "hook.h"

/*
 * v6.8, David Hildenbrand's rmap interface overhaul ("mm/rmap: convert
 * folio_add_file_rmap_range() into folio_add_file_rmap_[pte|ptes|pmd]()")
 */
static const char *const rmap_folio_ptes[] = {
	"folio_add_file_rmap_ptes", "folio_add_file_rmap_pmd", NULL
};

/* v6.6: page_add_file_rmap() became a wrapper of folio_add_file_rmap_range() */
static const char *const rmap_folio_range[] = {
	"folio_add_file_rmap_range", NULL
};

/* 6.1: one function for PTE and PMD (compound) mappings */
static const char *const rmap_page[] = { "page_add_file_rmap", NULL };

static const char *const *const rmap_variants[] = {
	rmap_folio_ptes, rmap_folio_range, rmap_page, NULL
};

struct ma_hook ma_rmap_hook = {
	.name = "rmap_add",
	.variants = rmap_variants,
};
