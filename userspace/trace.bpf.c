// SPDX-License-Identifier: GPL-2.0
/*
 * BPF side of `mlock-audit trace` (CO-RE; the types come from vmlinux.h,
 * which bpftool generates from kernel BTF, and libbpf relocates every field
 * access to the running kernel's layout).
 *
 * Two kinds of event:
 *  - rmap: a large folio was mapped by page-table entries into a VM_LOCKED
 *    VMA. The folio's PG_mlocked is read after the rmap-add function
 *    returned (fexit, or a kprobe/kretprobe pair as the fallback), so the
 *    event says whether the kernel mlocked it. Stock 6.12 does not for
 *    PTE-mapped large folios: that is what makes Mlocked undercount.
 *  - fault: finish_fault() returning VM_FAULT_SIGBUS (the regression the
 *    upstream fault-path fix once caused), with counts of calls and of
 *    calls in VM_LOCKED VMAs.
 *  - khugepaged: the huge_memory tracepoints for each PMD range scanned and
 *    each collapse attempt, with the scan_result code.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "trace-event.h"

char LICENSE[] SEC("license") = "GPL";

#define MA_VM_LOCKED 0x00002000UL	/* include/linux/mm.h, all versions */
#define MA_VM_FAULT_SIGBUS 0x0002	/* include/linux/mm_types.h, all versions */

/* Set by userspace before load: also report folios that are mlocked. */
const volatile int report_mlocked;
/* Set by userspace before load (-p): only this process (thread group). */
const volatile __u32 target_pid;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, MA_HOOK_NR);
	__type(key, u32);
	__type(value, struct ma_trace_counts);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct ma_fault_counts);
} fault_counts SEC(".maps");

/* Events the ring buffer had no room for (index 0), summed by userspace. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
} lost SEC(".maps");

/*
 * Room for one event, or NULL after counting it as lost. Inlined, as
 * task_event() and mm_event() are: 6.1's verifier loses a ring-buffer reference that a
 * subprogram returns after its own NULL check ("Unreleased reference").
 */
static __always_inline struct ma_trace_event *reserve_event(void)
{
	struct ma_trace_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	u32 zero = 0;
	u64 *n;

	if (!e) {
		n = bpf_map_lookup_elem(&lost, &zero);
		if (n)
			(*n)++;
	}
	return e;
}

/* An event of KIND for the current task, or NULL (counted as lost). */
static __always_inline struct ma_trace_event *task_event(unsigned int kind)
{
	struct ma_trace_event *e = reserve_event();

	if (!e)
		return NULL;
	__builtin_memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	return e;
}

/* Is the current task outside the process that -p asked for? */
static __always_inline bool other_process(void)
{
	return target_pid && (u32)(bpf_get_current_pid_tgid() >> 32) != target_pid;
}

/* (folio, VMA) pairs already reported: one event per folio per mapping. */
struct seen_key {
	u64 folio;
	u64 vma;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, struct seen_key);
	__type(value, u8);
} seen SEC(".maps");

/* kprobe fallback: the entry's arguments, until the kretprobe. */
struct rmap_call {
	u64 folio;
	u64 vma;
	u32 nr;
	u32 hook;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, u64);
	__type(value, struct rmap_call);
} inflight SEC(".maps");

/* 6.1 spells the folio order as a field of its own (mm_types.h). */
struct folio___v61 {
	unsigned char _folio_order;
} __attribute__((preserve_access_index));

/* flags is the first word of struct page and struct folio on every kernel. */
static unsigned long folio_flags(const void *folio)
{
	unsigned long flags = 0;

	bpf_probe_read_kernel(&flags, sizeof(flags), folio);
	return flags;
}

static unsigned int folio_order(struct folio *folio, unsigned long flags)
{
	if (!(flags & (1UL << bpf_core_enum_value(enum pageflags, PG_head))))
		return 0;
	if (bpf_core_field_exists(struct folio___v61, _folio_order))
		return BPF_CORE_READ((struct folio___v61 *)folio, _folio_order);
	return BPF_CORE_READ(folio, _flags_1) & 0xff;
}

/*
 * page_add_file_rmap() (up to 6.2) takes a page: its folio is the compound
 * head. 7.3 renamed the field (compound_info), but has no such function.
 */
struct page___v61 {
	unsigned long compound_head;
} __attribute__((preserve_access_index));

static struct folio *page_folio_of(struct page *page)
{
	unsigned long head = 0;

	if (bpf_core_field_exists(struct page___v61, compound_head))
		head = BPF_CORE_READ((struct page___v61 *)page, compound_head);

	return (struct folio *)(head & 1 ? head - 1 : (unsigned long)page);
}

static void vma_file_name(struct vm_area_struct *vma, char *buf)
{
	struct file *file = BPF_CORE_READ(vma, vm_file);
	const unsigned char *name;

	if (!file)
		return;
	name = BPF_CORE_READ(file, f_path.dentry, d_name.name);
	bpf_probe_read_kernel_str(buf, MA_EV_NAME_LEN, name);
}

static void on_rmap(u32 hook, struct folio *folio, struct vm_area_struct *vma,
		    u32 nr)
{
	struct seen_key key = { (u64)folio, (u64)vma };
	struct ma_trace_counts *c;
	struct ma_trace_event *e;
	unsigned long flags;
	unsigned int order;
	u8 one = 1;
	int mlocked;

	if (other_process())
		return;
	c = bpf_map_lookup_elem(&counts, &hook);
	if (!c)
		return;
	c->calls++;
	if (!(BPF_CORE_READ(vma, vm_flags) & MA_VM_LOCKED))
		return;
	flags = folio_flags(folio);
	order = folio_order(folio, flags);
	if (!order)
		return;
	c->locked_large++;
	mlocked = !!(flags & (1UL << bpf_core_enum_value(enum pageflags, PG_mlocked)));
	if (!mlocked)
		c->missed_pages += nr;
	if (mlocked && !report_mlocked)
		return;
	if (bpf_map_update_elem(&seen, &key, &one, BPF_NOEXIST))
		return;

	e = task_event(MA_EV_RMAP);
	if (!e)
		return;
	e->hook = hook;
	e->order = order;
	e->nr = nr;
	e->mlocked = mlocked;
	e->vm_start = BPF_CORE_READ(vma, vm_start);
	e->vm_end = BPF_CORE_READ(vma, vm_end);
	e->pfn = -1ULL;
	vma_file_name(vma, e->name);
	bpf_ringbuf_submit(e, 0);
}

/*
 * kprobe fallback, attached by trace.c with the enum ma_ev_hook as the
 * attach cookie: one entry program per argument layout, one return program.
 */
static void stash(struct pt_regs *ctx, u64 folio, u64 vma, u32 nr)
{
	struct rmap_call call = { folio, vma, nr, bpf_get_attach_cookie(ctx) };
	u64 id = bpf_get_current_pid_tgid();

	bpf_map_update_elem(&inflight, &id, &call, BPF_ANY);
}

/* page_add_file_rmap()'s pages: the whole folio when compound, else one. */
static __always_inline u32 page_nr(struct folio *folio, bool compound)
{
	return compound ? 1U << folio_order(folio, folio_flags(folio)) : 1;
}

/*
 * The rmap-add functions' programs: the fexit one of each function, which
 * reads the arguments as the function got them after it returned, and the
 * kprobe entry one of each argument layout. The function's parameters
 * (ARGS, vma among them) give FOLIO_OF, the folio, and NR_OF, its pages
 * mapped (NR_OF may name the folio f).
 */
#define RMAP_FEXIT(prog, fn, folio_of, nr_of, args...)			\
SEC("fexit/" #fn)							\
int BPF_PROG(prog, args)						\
{									\
	struct folio *f = folio_of;					\
									\
	on_rmap(MA_HOOK_##fn, f, vma, nr_of);				\
	return 0;							\
}

#define RMAP_KPROBE(prog, folio_of, nr_of, args...)			\
SEC("kprobe")								\
int BPF_KPROBE(prog, args)						\
{									\
	struct folio *f = folio_of;					\
									\
	stash(ctx, (u64)f, (u64)vma, nr_of);				\
	return 0;							\
}

/* The argument layouts. */
#define FOLIO_NR_VMA(nr_type) \
	struct folio *folio, struct page *page, nr_type nr, struct vm_area_struct *vma
#define FOLIO_VMA	struct folio *folio, struct page *page, struct vm_area_struct *vma
#define PAGE_VMA	struct page *page, struct vm_area_struct *vma, bool compound

RMAP_FEXIT(fx_rmap_ptes, folio_add_file_rmap_ptes, folio, nr, FOLIO_NR_VMA(int))
RMAP_FEXIT(fx_rmap_pmd, folio_add_file_rmap_pmd, folio, 512, FOLIO_VMA)
RMAP_FEXIT(fx_rmap_range, folio_add_file_rmap_range, folio, nr,
	   FOLIO_NR_VMA(unsigned int))
RMAP_FEXIT(fx_page_rmap, page_add_file_rmap, page_folio_of(page),
	   page_nr(f, compound), PAGE_VMA)

RMAP_KPROBE(kp_folio_nr_vma, folio, nr, FOLIO_NR_VMA(unsigned int))
RMAP_KPROBE(kp_folio_vma, folio, 512, FOLIO_VMA)
RMAP_KPROBE(kp_page_vma, page_folio_of(page), page_nr(f, compound), PAGE_VMA)

SEC("kretprobe")
int BPF_KRETPROBE(krp_rmap)
{
	u64 id = bpf_get_current_pid_tgid();
	struct rmap_call *call = bpf_map_lookup_elem(&inflight, &id);

	if (!call)
		return 0;
	on_rmap(call->hook, (struct folio *)call->folio,
		(struct vm_area_struct *)call->vma, call->nr);
	bpf_map_delete_elem(&inflight, &id);
	return 0;
}

static void on_fault(struct vm_fault *vmf, unsigned int ret)
{
	struct vm_area_struct *vma = BPF_CORE_READ(vmf, vma);
	struct ma_fault_counts *c;
	struct ma_trace_event *e;
	u32 zero = 0;

	if (other_process())
		return;
	c = bpf_map_lookup_elem(&fault_counts, &zero);
	if (!c)
		return;
	c->calls++;
	if (BPF_CORE_READ(vma, vm_flags) & MA_VM_LOCKED)
		c->locked++;
	if (!(ret & MA_VM_FAULT_SIGBUS))
		return;
	c->sigbus++;
	e = task_event(MA_EV_FAULT_SIGBUS);
	if (!e)
		return;
	e->vm_start = BPF_CORE_READ(vma, vm_start);
	e->vm_end = BPF_CORE_READ(vma, vm_end);
	e->pfn = -1ULL;
	e->address = BPF_CORE_READ(vmf, address);
	vma_file_name(vma, e->name);
	bpf_ringbuf_submit(e, 0);
}

SEC("fexit/finish_fault")
int BPF_PROG(fx_finish_fault, struct vm_fault *vmf, vm_fault_t ret)
{
	on_fault(vmf, ret);
	return 0;
}

/* kprobe fallback of finish_fault: the vm_fault, until the return. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, u64);
	__type(value, u64);
} fault_inflight SEC(".maps");

SEC("kprobe")
int BPF_KPROBE(kp_finish_fault, struct vm_fault *vmf)
{
	u64 id = bpf_get_current_pid_tgid(), v = (u64)vmf;

	bpf_map_update_elem(&fault_inflight, &id, &v, BPF_ANY);
	return 0;
}

SEC("kretprobe")
int BPF_KRETPROBE(krp_finish_fault, unsigned int ret)
{
	u64 id = bpf_get_current_pid_tgid();
	u64 *vmf = bpf_map_lookup_elem(&fault_inflight, &id);

	if (!vmf)
		return 0;
	on_fault((struct vm_fault *)*vmf, ret);
	bpf_map_delete_elem(&fault_inflight, &id);
	return 0;
}

/* khugepaged: the process is the mm's owner, not the current task. */
static __always_inline struct ma_trace_event *mm_event(unsigned int kind,
						       struct mm_struct *mm)
{
	struct task_struct *owner = NULL;
	struct ma_trace_event *e;
	u32 pid = 0;

	if (bpf_core_field_exists(mm->owner)) {
		owner = BPF_CORE_READ(mm, owner);
		if (owner)
			pid = BPF_CORE_READ(owner, tgid);
	}
	if (target_pid && pid != target_pid)
		return NULL;
	e = reserve_event();
	if (!e)
		return NULL;
	__builtin_memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->pfn = -1ULL;
	e->pid = pid;
	if (owner)
		BPF_CORE_READ_STR_INTO(&e->comm, owner, comm);
	return e;
}

/* A tracepoint's string field: __data_loc has its offset in the low 16 bits. */
static __always_inline void tp_str(char *buf, void *ctx, u32 loc)
{
	bpf_probe_read_kernel_str(buf, MA_EV_NAME_LEN, ctx + (loc & 0xffff));
}

/*
 * The program PROG of tracepoint huge_memory/TP: an event of KIND for the
 * mm's owner, which the statements FILL complete from the record ctx
 * before it is sent.
 */
#define KHUGEPAGED_TP(prog, tp, kind, fill...)				\
SEC("tracepoint/huge_memory/" #tp)					\
int prog(struct trace_event_raw_##tp *ctx)				\
{									\
	struct ma_trace_event *e = mm_event(kind, ctx->mm);		\
									\
	if (!e)								\
		return 0;						\
	fill								\
	bpf_ringbuf_submit(e, 0);					\
	return 0;							\
}

/* 7.3 dropped the writable field; nothing here reads it. */
KHUGEPAGED_TP(tp_scan_pmd, mm_khugepaged_scan_pmd, MA_EV_SCAN_PMD,
	e->pfn = ctx->pfn;
	e->status = ctx->status;
	e->referenced = ctx->referenced;
	e->none_or_zero = ctx->none_or_zero;
	e->unmapped = ctx->unmapped;
)

KHUGEPAGED_TP(tp_scan_file, mm_khugepaged_scan_file, MA_EV_SCAN_FILE,
	e->pfn = ctx->pfn;
	e->status = ctx->result;
	e->present = ctx->present;
	e->swap = ctx->swap;
	tp_str(e->name, ctx, ctx->__data_loc_filename);
)

KHUGEPAGED_TP(tp_collapse, mm_collapse_huge_page, MA_EV_COLLAPSE,
	e->status = ctx->status;
	e->isolated = ctx->isolated;
)

KHUGEPAGED_TP(tp_collapse_file, mm_khugepaged_collapse_file, MA_EV_COLLAPSE_FILE,
	e->pfn = ctx->hpfn;
	e->status = ctx->result;
	e->file_nr = ctx->nr;
	tp_str(e->name, ctx, ctx->__data_loc_filename);
)
