# SPDX-License-Identifier: GPL-2.0
#
# The "mlock" live fix (seed 000, "mm: Improve mlock tracking for large
# folios"): what each kernel form gets. Included by the top Kbuild after
# compat/Kbuild.include (compat-grep, compat-seed000-merged, COMPAT_NO_THP).
#
# Upstream since v6.18, whose page_vma_mapped_walk() reports
# PVMW_PGTABLE_CROSSED (2db579838296). Before, it is carried where the rmap
# takes folio ranges (v6.8 and later: folio_add_file_rmap_ptes(), the 6.12
# form) or maps page by page (page_add_file_rmap(), the 6.1 form).
# fix.c says which of these the build took, or why none.
ma-fix-objs += src/fixes/mlock/fix.o

# The kernel differences that only this fix meets (shimmed in kernel.h).
# mlock_folio()'s per-CPU batch (lp_mlock_folio.c): a folio_batch since
# "mm: remove struct pagevec" (v6.5), a pagevec of page pointers before
# (6.1). The kernels in between (v6.2 to v6.4, never in Debian) are not
# told apart.
ifeq ($(call compat-grep,'^struct pagevec \{',include/linux/pagevec.h),y)
ccflags-y += -DCOMPAT_MLOCK_BATCH_PAGEVEC
endif
# folio_may_be_lru_cached(): which folios mlock_folio() may leave in its
# per-CPU batch (lp_mlock_folio.c); a stable backport (6.1.y, 6.12.y)
# that older point releases lack.
ccflags-y += $(call compat-cannot,'static inline bool folio_may_be_lru_cached\b',include/linux/swap.h,FOLIO_MAY_BE_LRU_CACHED)
# folio_referenced() hands invalid_folio_referenced_vma() to every rmap
# walk since v6.3 (8788f6781486 "mm: support POSIX_FADV_NOREUSE", which
# added vma_has_recency()); before, only to memcg reclaim's.
ccflags-y += $(call compat-cannot,'vma_has_recency\b',include/linux/mm_inline.h,REFERENCED_ALWAYS_FILTERS)

ifneq ($(CONFIG_TRANSPARENT_HUGEPAGE),y)
# COMPAT_NO_THP: not built
else ifeq ($(compat-seed000-merged),y)
ccflags-y += -DCOMPAT_MLOCK_FIX_IS_UPSTREAM
else ifeq ($(call compat-grep,'^void folio_add_file_rmap_ptes\b',include/linux/rmap.h),y)
ccflags-y += -DCOMPAT_MLOCK_FIX_FOLIO_RMAP -DMA_CARRY_MLOCK
ma-fix-objs += src/fixes/mlock/mirrors.o src/fixes/mlock/repair.o \
	       src/fixes/mlock/symbols.o
ma-fix-objs += $(addprefix src/fixes/mlock/,lp_rmap_add.o lp_referenced.o \
	       lp_unmap.o lp_mlock_folio.o)
else ifeq ($(call compat-grep,'^void page_add_file_rmap\b',include/linux/rmap.h),y)
ccflags-y += -DCOMPAT_MLOCK_FIX_PAGE_RMAP -DMA_CARRY_MLOCK
ma-fix-objs += src/fixes/mlock/mirrors.o src/fixes/mlock/repair.o \
	       src/fixes/mlock/symbols.o
ma-fix-objs += $(addprefix src/fixes/mlock/,lp_do_set_pte.o \
	       lp_mlock_pte_range.o lp_page_remove_rmap.o lp_referenced.o \
	       lp_unmap.o lp_mlock_folio.o sweep.o)
ma-needs += vm_normal_page mm_trace_rss_stat
endif
