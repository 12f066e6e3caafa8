// SPDX-License-Identifier: GPL-2.0
/*
 * What the "fault" fix relies on in the kernel, checked against its BTF at
 * load (layout.c): the prototypes of the functions it replaces or calls by
 * a hand-written declaration (fault.h, kernel.h).
 */
#include "fault.h"
#include "layout.h"
#include "symbols.h"

/* mm/memory.c, mm/filemap.c */
static const struct ma_layout_proto ma_fault_protos[] = {
	MA_REPLACED(finish_fault, ma_finish_fault, vm_fault_t,
		    struct vm_fault *),
	MA_REPLACED(filemap_map_pages, ma_filemap_map_pages, vm_fault_t,
		    struct vm_fault *, pgoff_t, pgoff_t),
	MA_PROTO_VOID(pmd_install, struct mm_struct *, pmd_t *, pgtable_t *),
};

const struct ma_layout ma_fault_layout = {
	.protos = ma_fault_protos, .nr_protos = ARRAY_SIZE(ma_fault_protos),
};
