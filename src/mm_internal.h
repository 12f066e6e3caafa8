/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unexported mm functions that more than one live fix calls (each
 * fix's fix.mk names them in ma-needs, which Kbuild turns into
 * MA_NEEDS_SYMBOL), and the helpers built on them. What one fix alone
 * needs of the kernel is in its own src/fixes/FIX/kernel.h.
 */
#ifndef _MLOCK_AUDIT_MM_INTERNAL_H
#define _MLOCK_AUDIT_MM_INTERNAL_H

#include <linux/mm.h>

#include "symbols.h"

#ifdef MA_NEEDS_MM_TRACE_RSS_STAT
/* mm/memory.c (declared in linux/mm.h): add_mm_counter()'s trace hook */
extern typeof(mm_trace_rss_stat) mm_trace_rss_stat MA_KSYM;

/*
 * include/linux/mm.h: add_mm_counter(), whose rss_stat trace hook is not
 * exported. mm's RSS counters became percpu_counters and the hook lost
 * its count argument in v6.2 (f1a7941243c1 "mm: convert mm's rss stats
 * into percpu_counter").
 */
static inline void ma_add_mm_counter(struct mm_struct *mm, int member, long value)
{
#ifdef COMPAT_CANNOT_PERCPU_RSS_STAT
	long count = atomic_long_add_return(value, &mm->rss_stat.count[member]);

	mm_trace_rss_stat(mm, member, count);
#else
	percpu_counter_add(&mm->rss_stat[member], value);
	mm_trace_rss_stat(mm, member);
#endif
}
#endif

#ifdef MA_NEEDS_VM_NORMAL_PAGE
/* mm/memory.c, through one wrapper (mm_internal.c; symbols.h says why) */
extern typeof(vm_normal_page) vm_normal_page MA_KSYM;
extern typeof(vm_normal_page) ma_call_vm_normal_page;
#define vm_normal_page(...)		ma_call_vm_normal_page(__VA_ARGS__)
#endif

#endif /* _MLOCK_AUDIT_MM_INTERNAL_H */
