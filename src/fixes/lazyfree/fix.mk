# SPDX-License-Identifier: GPL-2.0
#
# The "lazyfree" live fix (seed 003, "mm: khugepaged: skip lazy-free
# folios"): what each kernel form gets. Included by the top Kbuild after
# compat/Kbuild.include.
#
# Upstream with the rest of that series, which added folio_test_lazyfree()
# (v7.2). Carried where khugepaged's PMD scanner is
# hpage_collapse_scan_pmd(), in the 6.12 form (folio_likely_mapped_shared(),
# v6.9) or the 6.1 form (page_mapcount() of each page).
ma-fix-objs += src/fixes/lazyfree/fix.o

# folio_test_lazyfree() came in v7.2 with seed 003; before, kernel.h
# defines it. Probed apart from the forms below: a kernel without THP
# builds no form but may have the helper (7.3 rt), and fix.c sees
# kernel.h.
compat-folio-test-lazyfree := $(call compat-grep,'bool folio_test_lazyfree\b',include/linux/page-flags.h)
ifneq ($(compat-folio-test-lazyfree),y)
ccflags-y += -DCOMPAT_CANNOT_FOLIO_TEST_LAZYFREE
endif
# VM_DROPPABLE (MAP_DROPPABLE) came in v6.11.
ccflags-y += $(call compat-cannot,'define VM_DROPPABLE\b',include/linux/mm.h,VM_DROPPABLE)

ifneq ($(CONFIG_TRANSPARENT_HUGEPAGE),y)
# COMPAT_NO_THP: not built
else ifeq ($(compat-folio-test-lazyfree),y)
ccflags-y += -DCOMPAT_LAZYFREE_FIX_IS_UPSTREAM
else ifeq ($(call compat-grep,'static inline bool folio_likely_mapped_shared\b',include/linux/mm.h),y)
ccflags-y += -DCOMPAT_LAZYFREE_FIX_FOLIO -DMA_CARRY_LAZYFREE
ma-fix-objs += src/fixes/lazyfree/mirrors.o
ma-fix-objs += src/fixes/lazyfree/lp_hpage_collapse_scan_pmd.o
ma-needs += vm_normal_page find_pmd_or_thp_or_none
else ifeq ($(call compat-grep,'^static inline int page_mapcount\b',include/linux/mm.h),y)
ccflags-y += -DCOMPAT_LAZYFREE_FIX_PAGE -DMA_CARRY_LAZYFREE
ma-fix-objs += src/fixes/lazyfree/mirrors.o
ma-fix-objs += src/fixes/lazyfree/lp_hpage_collapse_scan_pmd.o
ma-needs += vm_normal_page find_pmd_or_thp_or_none
endif
