/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The records `mlock-audit trace` passes from its BPF programs
 * (trace.bpf.c) to userspace (trace.c) through a BPF ring buffer.
 */
#ifndef MLOCK_AUDIT_TRACE_EVENT_H
#define MLOCK_AUDIT_TRACE_EVENT_H

/* What happened. */
enum ma_ev_kind {
	MA_EV_RMAP = 1,		/* a large folio was mapped into a VM_LOCKED VMA */
	MA_EV_SCAN_PMD,		/* khugepaged scanned one PMD range of anon memory */
	MA_EV_SCAN_FILE,	/* khugepaged scanned one PMD range of a file */
	MA_EV_COLLAPSE,		/* khugepaged tried to collapse anon memory */
	MA_EV_COLLAPSE_FILE,	/* khugepaged tried to collapse a file range */
	MA_EV_FAULT_SIGBUS,	/* finish_fault() returned VM_FAULT_SIGBUS */
};

/*
 * Which rmap-add function reported a MA_EV_RMAP (index into trace.c's
 * table): MA_HOOK_<function>, one for each function of the module's
 * rmap_add hook, in the order of src/hook-sites (hook_sets.h, generated).
 */
#include "hook_sets.h"

#define MA_HOOK_ENUM(fn)	MA_HOOK_##fn,
enum ma_ev_hook {
	MA_HOOK_FUNCS_rmap_add(MA_HOOK_ENUM)
	MA_HOOK_NR,		/* the rmap hooks (the counts map's size) */
};
#undef MA_HOOK_ENUM

#define MA_EV_NAME_LEN 48

struct ma_trace_event {
	unsigned int kind;		/* enum ma_ev_kind */
	unsigned int pid;		/* thread group of the process (mm owner for khugepaged) */
	char comm[16];
	unsigned int hook;		/* MA_EV_RMAP: enum ma_ev_hook */
	unsigned int order;		/* MA_EV_RMAP: folio order */
	unsigned int nr;		/* MA_EV_RMAP: pages mapped by this call */
	unsigned int mlocked;		/* MA_EV_RMAP: folio is PG_mlocked after the call */
	unsigned long long vm_start;	/* MA_EV_RMAP, MA_EV_FAULT_SIGBUS: the VMA */
	unsigned long long vm_end;
	unsigned long long pfn;		/* scan, collapse_file: first pfn (or -1) */
	unsigned long long address;	/* MA_EV_FAULT_SIGBUS: the faulting address */
	int status;			/* scan/collapse: enum scan_result value */
	int referenced;			/* MA_EV_SCAN_PMD */
	int none_or_zero;		/* MA_EV_SCAN_PMD */
	int unmapped;			/* MA_EV_SCAN_PMD */
	int present;			/* MA_EV_SCAN_FILE */
	int swap;			/* MA_EV_SCAN_FILE */
	int isolated;			/* MA_EV_COLLAPSE */
	int file_nr;			/* MA_EV_COLLAPSE_FILE: the tracepoint's nr */
	char name[MA_EV_NAME_LEN];	/* file name, when there is one */
};

/* Per-hook counters, summed over CPUs by userspace. */
struct ma_trace_counts {
	unsigned long long calls;		/* calls seen */
	unsigned long long locked_large;	/* ... mapping a large folio in a VM_LOCKED VMA */
	unsigned long long missed_pages;	/* ... pages of those left without PG_mlocked */
};

/* finish_fault() counters, summed over CPUs by userspace. */
struct ma_fault_counts {
	unsigned long long calls;		/* calls seen */
	unsigned long long locked;		/* ... in VM_LOCKED VMAs */
	unsigned long long sigbus;		/* ... that returned VM_FAULT_SIGBUS */
};

#endif
