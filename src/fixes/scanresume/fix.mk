# SPDX-License-Identifier: GPL-2.0
#
# The "scanresume" live fix (seed 004, "mm/khugepaged: scan mm's more
# efficiently under mmap_lock contention"; in no released kernel): what
# each kernel form gets. Included by the top Kbuild after
# compat/Kbuild.include.
#
# It replaces khugepaged(), into which the mm-slot scanner is inlined, in
# one of three forms, told apart by how khugepaged judges a VMA: with an
# enum tva_type and TVA_KHUGEPAGED (v6.18 and later, the 7.3 form), with
# thp_vma_allowable_order() and TVA_ENFORCE_SYSFS (v6.8 to v6.17, the 6.12
# form) or with hugepage_vma_check() (v6.0 to v6.7, the 6.1 form).
# Whether a kernel has seed 004 is read from its BTF at load (layout.c).
ma-fix-objs += src/fixes/scanresume/fix.o
ifneq ($(CONFIG_TRANSPARENT_HUGEPAGE),y)
# COMPAT_NO_THP: not built
else ifeq ($(compat-khugepaged-tva-type),y)
ccflags-y += -DCOMPAT_SCANRESUME_FIX_MTHP -DMA_CARRY_SCANRESUME
ma-fix-objs += src/fixes/scanresume/mirrors.o src/fixes/scanresume/symbols.o
ma-fix-objs += src/fixes/scanresume/lp_khugepaged.o
else ifeq ($(call compat-grep,'define TVA_ENFORCE_SYSFS\b',include/linux/huge_mm.h),y)
ccflags-y += -DCOMPAT_SCANRESUME_FIX_ORDERS -DMA_CARRY_SCANRESUME
ma-fix-objs += src/fixes/scanresume/mirrors.o src/fixes/scanresume/symbols.o
ma-fix-objs += src/fixes/scanresume/lp_khugepaged.o
else ifeq ($(call compat-grep,'^bool hugepage_vma_check\b',include/linux/huge_mm.h),y)
ccflags-y += -DCOMPAT_SCANRESUME_FIX_VMA_CHECK -DMA_CARRY_SCANRESUME
ma-fix-objs += src/fixes/scanresume/mirrors.o src/fixes/scanresume/symbols.o
ma-fix-objs += src/fixes/scanresume/lp_khugepaged.o
ma-needs += find_pmd_or_thp_or_none
endif
