# SPDX-License-Identifier: GPL-2.0
#
# The "fault" live fix (seed 000 patches 4-5): what each kernel form gets.
# Included by the top Kbuild after compat/Kbuild.include.
#
# Upstream with the rest of the series (v6.18). Carried where
# finish_fault() installs PTEs in batches with set_pte_range() (since
# v6.6); 6.1 maps one page at a time with do_set_pte(), and fix.c says so.
ma-fix-objs += src/fixes/fault/fix.o
ifneq ($(CONFIG_TRANSPARENT_HUGEPAGE),y)
# COMPAT_NO_THP: not built
else ifeq ($(compat-seed000-merged),y)
ccflags-y += -DCOMPAT_FAULT_FIX_IS_UPSTREAM
else ifeq ($(call compat-grep,'^void set_pte_range\b',include/linux/mm.h),y)
ccflags-y += -DCOMPAT_FAULT_FIX_SET_PTE_RANGE -DMA_CARRY_FAULT
ma-fix-objs += src/fixes/fault/mirrors.o
ma-fix-objs += src/fixes/fault/lp_finish_fault.o \
	       src/fixes/fault/lp_filemap_map_pages.o
ma-needs += mm_trace_rss_stat
endif
