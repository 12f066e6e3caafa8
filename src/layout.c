// SPDX-License-Identifier: GPL-2.0
/*
 * The load-time check of the private kernel structs and enums that the
 * live fixes mirror by hand (khugepaged_internal.h, mm_internal.h), against
 * the running kernel's BTF (/sys/kernel/btf/vmlinux, CONFIG_DEBUG_INFO_BTF).
 *
 * Each mirrored member must be in the kernel's struct of the same name, at
 * the same byte offset and with the same size; the mirror may not reach
 * past the kernel's struct, and a struct the module itself allocates and
 * hands to the kernel must have the kernel's size. Each mirrored enumerator
 * must have the kernel's value. Each function a fix replaces, and each it
 * calls with a prototype written by hand, must take as many parameters of
 * the same sizes, and return a value of the same size, as in the kernel
 * (what the calling convention depends on). A fix whose mirrors differ reports
 * "unsupported" and names the first difference; the others are not
 * affected. BTF also tells whether seed 004 is merged (the scan cursor's
 * address moved into struct khugepaged_mm_slot): then "scanresume" is
 * upstream.
 *
 * The kernel's BTF functions are reached through livepatch relocations
 * (symbols.h); btf_type_by_id() is exported.
 */
#include <linux/btf.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/stringify.h>

#include "fixes.h"
#include "layout.h"
#include "symbols.h"

struct ma_layout_member {
	const char *name;	/* the kernel's member name */
	u32 offset, size;	/* where the mirror has it */
};

struct ma_layout_struct {
	const char *fixes;	/* the fixes that rely on it, " a b " */
	const char *name;	/* the kernel's struct name */
	u32 size;		/* the mirror's */
	bool whole;		/* allocated by the module: same size */
	const struct ma_layout_member *members;
	unsigned int nr;
};

struct ma_layout_enumerator {
	const char *name;
	s64 value;
};

#define MA_ENUMERATOR(e) { #e, e }

/*
 * A kernel function that a fix replaces, or calls with a prototype written
 * here by hand (a static function: no kernel header declares it; those a
 * header declares are taken from it with typeof(), symbols.h). What the
 * calling convention depends on is compared: the number of parameters and
 * the size of each, and of the return value (0: void).
 */
#define MA_PROTO_MAX_ARGS	6
struct ma_layout_proto {
	const char *fixes;	/* the fixes that rely on it, " a b " */
	const char *name;	/* the kernel's function */
	u32 ret, nr;
	u32 args[MA_PROTO_MAX_ARGS];
};

/* COUNT_ARGS(), CONCATENATE(): linux/kernel.h (6.1), linux/args.h (6.7) */
#define MA_NARGS(...)		COUNT_ARGS(__VA_ARGS__)
#define MA_SIZES(...)		CONCATENATE(MA_SIZES_, COUNT_ARGS(__VA_ARGS__))(__VA_ARGS__)
#define MA_SIZES_1(a)		{ sizeof(a) }
#define MA_SIZES_2(a, b)	{ sizeof(a), sizeof(b) }
#define MA_SIZES_3(a, b, c)	{ sizeof(a), sizeof(b), sizeof(c) }
#define MA_SIZES_4(a, b, c, d)	{ sizeof(a), sizeof(b), sizeof(c), sizeof(d) }
#define MA_SIZES_5(a, b, c, d, e) \
	{ sizeof(a), sizeof(b), sizeof(c), sizeof(d), sizeof(e) }
#define MA_SIZES_6(a, b, c, d, e, f) \
	{ sizeof(a), sizeof(b), sizeof(c), sizeof(d), sizeof(e), sizeof(f) }

/*
 * MA_PROTO(FIXES, FN, TYPE, ARGS...): FN returns TYPE and takes ARGS; the
 * build fails unless that is how the module declares FN. MA_REPLACED(FIXES,
 * FN, NEW, TYPE, ARGS...): NEW replaces the kernel's FN. The _VOID forms
 * return nothing, the _NOARGS forms take nothing.
 */
#define MA_PROTO(fix_list, fn, type, ...) {				\
	.fixes = " " fix_list " ", .name = #fn, .ret = sizeof(type),	\
	.nr = MA_NARGS(__VA_ARGS__) +					\
	      BUILD_BUG_ON_ZERO(!__same_type(&(fn), type(*)(__VA_ARGS__))), \
	.args = MA_SIZES(__VA_ARGS__) }
#define MA_PROTO_VOID(fix_list, fn, ...) {				\
	.fixes = " " fix_list " ", .name = #fn, .ret = 0,		\
	.nr = MA_NARGS(__VA_ARGS__) +					\
	      BUILD_BUG_ON_ZERO(!__same_type(&(fn), void (*)(__VA_ARGS__))), \
	.args = MA_SIZES(__VA_ARGS__) }
#define MA_PROTO_NOARGS(fix_list, fn, type) {				\
	.fixes = " " fix_list " ", .name = #fn,				\
	.ret = sizeof(type) +						\
	       BUILD_BUG_ON_ZERO(!__same_type(&(fn), type(*)(void))) }
#define MA_PROTO_VOID_NOARGS(fix_list, fn) {				\
	.fixes = " " fix_list " ", .name = #fn,				\
	.ret = BUILD_BUG_ON_ZERO(!__same_type(&(fn), void (*)(void))) }
#define MA_REPLACED(fix_list, fn, new, type, ...) {			\
	.fixes = " " fix_list " ", .name = #fn, .ret = sizeof(type),	\
	.nr = MA_NARGS(__VA_ARGS__) +					\
	      BUILD_BUG_ON_ZERO(!__same_type(&(new), type(*)(__VA_ARGS__))), \
	.args = MA_SIZES(__VA_ARGS__) }
#define MA_REPLACED_VOID(fix_list, fn, new, ...) {			\
	.fixes = " " fix_list " ", .name = #fn, .ret = 0,		\
	.nr = MA_NARGS(__VA_ARGS__) +					\
	      BUILD_BUG_ON_ZERO(!__same_type(&(new), void (*)(__VA_ARGS__))), \
	.args = MA_SIZES(__VA_ARGS__) }

#if defined(MA_CARRY_SCANRESUME) || defined(MA_CARRY_LAZYFREE)
#include "khugepaged_internal.h"
#define MA_CHECK_KHUGEPAGED	1

/* mm/khugepaged.c */
static const struct ma_layout_member ma_collapse_control[] = {
	{ "is_khugepaged", offsetof(struct collapse_control, is_khugepaged),
	  sizeof_field(struct collapse_control, is_khugepaged) },
	{ "node_load", offsetof(struct collapse_control, node_load),
	  sizeof_field(struct collapse_control, node_load) },
#ifdef COMPAT_SCANRESUME_FIX_MTHP
	{ "progress", offsetof(struct collapse_control, progress),
	  sizeof_field(struct collapse_control, progress) },
#endif
	{ "alloc_nmask", offsetof(struct collapse_control, alloc_nmask),
	  sizeof_field(struct collapse_control, alloc_nmask) },
};

static const struct ma_layout_enumerator ma_scan_result[] = {
	MA_ENUMERATOR(SCAN_FAIL),
	MA_ENUMERATOR(SCAN_SUCCEED),
#ifndef COMPAT_SCANRESUME_FIX_MTHP
	MA_ENUMERATOR(SCAN_PMD_NULL),
	MA_ENUMERATOR(SCAN_PMD_NONE),
	MA_ENUMERATOR(SCAN_PMD_MAPPED),
	MA_ENUMERATOR(SCAN_EXCEED_NONE_PTE),
	MA_ENUMERATOR(SCAN_EXCEED_SWAP_PTE),
	MA_ENUMERATOR(SCAN_EXCEED_SHARED_PTE),
	MA_ENUMERATOR(SCAN_PTE_NON_PRESENT),
	MA_ENUMERATOR(SCAN_PTE_UFFD_WP),
	MA_ENUMERATOR(SCAN_PTE_MAPPED_HUGEPAGE),
	MA_ENUMERATOR(SCAN_PAGE_RO),
	MA_ENUMERATOR(SCAN_LACK_REFERENCED_PAGE),
	MA_ENUMERATOR(SCAN_PAGE_NULL),
	MA_ENUMERATOR(SCAN_SCAN_ABORT),
	MA_ENUMERATOR(SCAN_PAGE_COUNT),
	MA_ENUMERATOR(SCAN_PAGE_LRU),
	MA_ENUMERATOR(SCAN_PAGE_LOCK),
	MA_ENUMERATOR(SCAN_PAGE_ANON),
	MA_ENUMERATOR(SCAN_PAGE_COMPOUND),
	MA_ENUMERATOR(SCAN_ANY_PROCESS),
	MA_ENUMERATOR(SCAN_VMA_NULL),
	MA_ENUMERATOR(SCAN_VMA_CHECK),
	MA_ENUMERATOR(SCAN_ADDRESS_RANGE),
	MA_ENUMERATOR(SCAN_DEL_PAGE_LRU),
#endif
	MA_ENUMERATOR(SCAN_ALLOC_HUGE_PAGE_FAIL),
};

/* mm/mm_slot.h */
static const struct ma_layout_member ma_mm_slot[] = {
	{ "hash", offsetof(struct ma_mm_slot, hash),
	  sizeof_field(struct ma_mm_slot, hash) },
	{ "mm_node", offsetof(struct ma_mm_slot, mm_node),
	  sizeof_field(struct ma_mm_slot, mm_node) },
	{ "mm", offsetof(struct ma_mm_slot, mm),
	  sizeof_field(struct ma_mm_slot, mm) },
};

/* mm/khugepaged.c; 7.3 has none (its scan cursor points to a mm_slot) */
#ifndef COMPAT_SCANRESUME_FIX_MTHP
static const struct ma_layout_member ma_khugepaged_mm_slot[] = {
	{ "slot", offsetof(struct ma_khugepaged_mm_slot, slot),
	  sizeof_field(struct ma_khugepaged_mm_slot, slot) },
#ifdef COMPAT_SCANRESUME_FIX_VMA_CHECK
	{ "nr_pte_mapped_thp", offsetof(struct ma_khugepaged_mm_slot, nr_pte_mapped_thp),
	  sizeof_field(struct ma_khugepaged_mm_slot, nr_pte_mapped_thp) },
	{ "pte_mapped_thp", offsetof(struct ma_khugepaged_mm_slot, pte_mapped_thp),
	  sizeof_field(struct ma_khugepaged_mm_slot, pte_mapped_thp) },
#endif
};
#endif

static const struct ma_layout_member ma_khugepaged_scan[] = {
	{ "mm_head", offsetof(struct ma_khugepaged_scan, mm_head),
	  sizeof_field(struct ma_khugepaged_scan, mm_head) },
	{ "mm_slot", offsetof(struct ma_khugepaged_scan, mm_slot),
	  sizeof_field(struct ma_khugepaged_scan, mm_slot) },
	{ "address", offsetof(struct ma_khugepaged_scan, address),
	  sizeof_field(struct ma_khugepaged_scan, address) },
};
#endif

#ifdef MA_CARRY_MLOCK
#include "mm_internal.h"
#define MA_CHECK_MLOCK		1

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
#endif

static const struct ma_layout_struct ma_layout_structs[] = {
#ifdef MA_CHECK_KHUGEPAGED
	{ .fixes = " lazyfree scanresume ", .name = "collapse_control",
	  .size = sizeof(struct collapse_control), .whole = false,
	  .members = ma_collapse_control, .nr = ARRAY_SIZE(ma_collapse_control) },
	{ .fixes = " scanresume ", .name = "mm_slot",
	  .size = sizeof(struct ma_mm_slot), .whole = false,
	  .members = ma_mm_slot, .nr = ARRAY_SIZE(ma_mm_slot) },
#ifndef COMPAT_SCANRESUME_FIX_MTHP
	{ .fixes = " scanresume ", .name = "khugepaged_mm_slot",
	  .size = sizeof(struct ma_khugepaged_mm_slot), .whole = false,
	  .members = ma_khugepaged_mm_slot, .nr = ARRAY_SIZE(ma_khugepaged_mm_slot) },
#endif
	{ .fixes = " scanresume ", .name = "khugepaged_scan",
	  .size = sizeof(struct ma_khugepaged_scan), .whole = false,
	  .members = ma_khugepaged_scan, .nr = ARRAY_SIZE(ma_khugepaged_scan) },
#endif
#ifdef MA_CHECK_MLOCK
	{ .fixes = " mlock ", .name = "folio_referenced_arg",
	  .size = sizeof(struct folio_referenced_arg), .whole = true,
	  .members = ma_folio_referenced_arg, .nr = ARRAY_SIZE(ma_folio_referenced_arg) },
	/* mlock_fbatch, 6.1's mlock_pvec (mm_internal.h) */
	{ .fixes = " mlock ", .name = __stringify(MA_MLOCK_BATCH),
	  .size = sizeof(struct ma_mlock_batch_pcpu), .whole = false,
	  .members = ma_mlock_batch_pcpu, .nr = ARRAY_SIZE(ma_mlock_batch_pcpu) },
#endif
};

static const struct ma_layout_proto ma_layout_protos[] = {
#ifdef COMPAT_MLOCK_FIX_FOLIO_RMAP
	/* mm/rmap.c, mm/mlock.c (6.12) */
	MA_REPLACED_VOID("mlock", folio_add_file_rmap_ptes, ma_folio_add_file_rmap_ptes,
			 struct folio *, struct page *, int, struct vm_area_struct *),
	MA_REPLACED_VOID("mlock", folio_add_file_rmap_pmd, ma_folio_add_file_rmap_pmd,
			 struct folio *, struct page *, struct vm_area_struct *),
	MA_REPLACED_VOID("mlock", folio_add_anon_rmap_ptes, ma_folio_add_anon_rmap_ptes,
			 struct folio *, struct page *, int, struct vm_area_struct *,
			 unsigned long, rmap_t),
	MA_REPLACED_VOID("mlock", folio_add_anon_rmap_pmd, ma_folio_add_anon_rmap_pmd,
			 struct folio *, struct page *, struct vm_area_struct *,
			 unsigned long, rmap_t),
#ifndef COMPAT_MLOCK_BATCH_PAGEVEC
	MA_PROTO_VOID("mlock", mlock_folio_batch, struct folio_batch *),
#endif
#endif
#ifdef COMPAT_MLOCK_FIX_PAGE_RMAP
	/* mm/memory.c, mm/mlock.c, mm/rmap.c (6.1) */
	MA_REPLACED_VOID("mlock", do_set_pte, ma_do_set_pte,
			 struct vm_fault *, struct page *, unsigned long),
	MA_REPLACED_VOID("mlock", page_remove_rmap, ma_page_remove_rmap,
			 struct page *, struct vm_area_struct *, bool),
	MA_REPLACED("mlock", mlock_pte_range, ma_mlock_pte_range, int,
		    pmd_t *, unsigned long, unsigned long, struct mm_walk *),
	MA_PROTO_VOID("mlock", munlock_page, struct page *),
	MA_PROTO_VOID_NOARGS("mlock", mlock_page_drain_local),
#endif
#ifdef MA_CHECK_MLOCK
#ifdef COMPAT_MLOCK_BATCH_PAGEVEC
	MA_PROTO_VOID("mlock", mlock_pagevec, struct pagevec *),
#endif
	MA_REPLACED("mlock", folio_referenced, ma_folio_referenced, int,
		    struct folio *, int, struct mem_cgroup *, unsigned long *),
	MA_REPLACED_VOID("mlock", try_to_unmap, ma_try_to_unmap,
			 struct folio *, enum ttu_flags),
	MA_REPLACED_VOID("mlock", mlock_folio, ma_mlock_folio, struct folio *),
	MA_PROTO_VOID("mlock", mlock_folio, struct folio *),
	MA_PROTO("mlock", folio_referenced_one, bool, struct folio *,
		 struct vm_area_struct *, unsigned long, void *),
	MA_PROTO("mlock", invalid_folio_referenced_vma, bool,
		 struct vm_area_struct *, void *),
	MA_PROTO("mlock", try_to_unmap_one, bool, struct folio *,
		 struct vm_area_struct *, unsigned long, void *),
#endif
#ifdef COMPAT_FAULT_FIX_SET_PTE_RANGE
	/* mm/memory.c, mm/filemap.c */
	MA_REPLACED("fault", finish_fault, ma_finish_fault, vm_fault_t,
		    struct vm_fault *),
	MA_REPLACED("fault", filemap_map_pages, ma_filemap_map_pages, vm_fault_t,
		    struct vm_fault *, pgoff_t, pgoff_t),
	MA_PROTO_VOID("fault", pmd_install, struct mm_struct *, pmd_t *, pgtable_t *),
#endif
	/* mm/khugepaged.c */
#ifdef MA_CARRY_LAZYFREE
	MA_REPLACED("lazyfree", hpage_collapse_scan_pmd, ma_hpage_collapse_scan_pmd,
		    int, struct mm_struct *, struct vm_area_struct *, unsigned long,
		    bool *, struct collapse_control *),
	MA_PROTO("lazyfree", hpage_collapse_scan_abort, bool, int,
		 struct collapse_control *),
#ifdef COMPAT_LAZYFREE_FIX_PAGE
	MA_PROTO("lazyfree", is_refcount_suitable, bool, struct page *),
#else
	MA_PROTO("lazyfree", is_refcount_suitable, bool, struct folio *),
#endif
	MA_PROTO("lazyfree", collapse_huge_page, int, struct mm_struct *,
		 unsigned long, int, int, struct collapse_control *),
#endif
#ifdef MA_NEEDS_FIND_PMD_OR_THP_OR_NONE
	MA_PROTO("lazyfree scanresume", find_pmd_or_thp_or_none, int,
		 struct mm_struct *, unsigned long, pmd_t **),
#endif
#ifdef MA_CARRY_SCANRESUME
	MA_REPLACED("scanresume", khugepaged, ma_khugepaged, int, void *),
	MA_PROTO("scanresume", khugepaged, int, void *),
	MA_PROTO_VOID("scanresume", collect_mm_slot, struct ma_khugepaged_mm_slot *),
#endif
#if defined(COMPAT_SCANRESUME_FIX_ORDERS) || defined(COMPAT_SCANRESUME_FIX_VMA_CHECK)
	MA_PROTO("scanresume", hpage_collapse_scan_pmd, int, struct mm_struct *,
		 struct vm_area_struct *, unsigned long, bool *,
		 struct collapse_control *),
	MA_PROTO("scanresume", hpage_collapse_scan_file, int, struct mm_struct *,
		 unsigned long, struct file *, pgoff_t, struct collapse_control *),
#endif
#ifdef COMPAT_SCANRESUME_FIX_ORDERS
	MA_PROTO_NOARGS("scanresume", hugepage_pmd_enabled, bool),
#endif
#ifdef COMPAT_SCANRESUME_FIX_MTHP
	MA_PROTO_NOARGS("scanresume", hugepage_enabled, bool),
	MA_PROTO("scanresume", collapse_single_pmd, int, unsigned long,
		 struct vm_area_struct *, bool *, struct collapse_control *),
#endif
#ifdef COMPAT_SCANRESUME_FIX_VMA_CHECK
	MA_PROTO("scanresume", khugepaged_add_pte_mapped_thp, bool,
		 struct mm_struct *, unsigned long),
#endif
};

#if IS_ENABLED(CONFIG_DEBUG_INFO_BTF) && IS_ENABLED(CONFIG_BPF_SYSCALL) && \
	(defined(MA_CHECK_KHUGEPAGED) || defined(MA_CHECK_MLOCK))
/* The size of type @id, through typedefs, qualifiers and arrays; 0: none. */
static u64 ma_btf_size(const struct btf *btf, u32 id)
{
	u64 mult = 1;
	int depth;

	for (depth = 0; depth < 32; depth++) {
		const struct btf_type *t = btf_type_by_id(btf, id);
		const struct btf_array *a;

		if (!t)
			return 0;
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_INT:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_FLOAT:
			return mult * t->size;
		case BTF_KIND_PTR:
			return mult * sizeof(void *);
		case BTF_KIND_ARRAY:
			a = (const struct btf_array *)(t + 1);
			mult *= a->nelems;
			id = a->type;
			break;
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		default:
			return 0;
		}
	}
	return 0;
}

/*
 * The BTF functions are called from one place each, out of line: one
 * livepatch relocation each (symbols.h).
 */
static noinline const struct btf *ma_btf(void)
{
	struct btf *btf = bpf_get_btf_vmlinux();

	return IS_ERR_OR_NULL(btf) ? NULL : btf;
}

static noinline const char *ma_btf_name(const struct btf *btf, u32 offset)
{
	return btf_name_by_offset(btf, offset);
}

static noinline const struct btf_type *ma_btf_find(const struct btf *btf,
						   const char *name, u8 kind)
{
	s32 id = btf_find_by_name_kind(btf, name, kind);

	return id < 0 ? NULL : btf_type_by_id(btf, id);
}

/* The member @name of struct @t, or NULL; *@bits: its bit offset. */
static const struct btf_member *ma_btf_member(const struct btf *btf,
					      const struct btf_type *t,
					      const char *name, u32 *bits)
{
	const struct btf_member *m;
	u32 i;

	for_each_member(i, t, m) {
		const char *n = ma_btf_name(btf, m->name_off);

		if (n && !strcmp(n, name)) {
			*bits = btf_type_kflag(t) ? BTF_MEMBER_BIT_OFFSET(m->offset) :
				m->offset;
			return m;
		}
	}
	return NULL;
}

static int ma_layout_struct_check(const struct btf *btf,
				  const struct ma_layout_struct *s,
				  char *why, size_t len)
{
	const struct btf_type *t = ma_btf_find(btf, s->name, BTF_KIND_STRUCT);
	unsigned int i;

	if (!t) {
		snprintf(why, len, "the kernel's BTF has no struct %s, which it mirrors",
			 s->name);
		return -ENOENT;
	}
	for (i = 0; i < s->nr; i++) {
		const struct ma_layout_member *lm = &s->members[i];
		const struct btf_member *m;
		u32 bits = 0;
		u64 size;

		m = ma_btf_member(btf, t, lm->name, &bits);
		if (!m) {
			snprintf(why, len, "struct %s has no member %s in the kernel",
				 s->name, lm->name);
			return -ENOENT;
		}
		size = ma_btf_size(btf, m->type);
		if (bits % 8 || bits / 8 != lm->offset || size != lm->size) {
			snprintf(why, len,
				 "%s.%s is at byte %u (%llu bytes) in the kernel, at byte %u (%u bytes) in the module's mirror",
				 s->name, lm->name, bits / 8, (unsigned long long)size,
				 lm->offset, lm->size);
			return -EINVAL;
		}
	}
	if (s->whole ? t->size != s->size : t->size < s->size) {
		snprintf(why, len,
			 "struct %s is %u bytes in the kernel, %u in the module's mirror",
			 s->name, t->size, s->size);
		return -EINVAL;
	}
	return 0;
}

static int ma_layout_proto_check(const struct btf *btf,
				 const struct ma_layout_proto *p,
				 char *why, size_t len)
{
	const struct btf_type *f = ma_btf_find(btf, p->name, BTF_KIND_FUNC);
	const struct btf_type *proto = f ? btf_type_by_id(btf, f->type) : NULL;
	const struct btf_param *args;
	u64 size;
	u32 i;

	if (!proto || BTF_INFO_KIND(proto->info) != BTF_KIND_FUNC_PROTO) {
		snprintf(why, len,
			 "the kernel's BTF has no prototype of %s(), which it replaces or calls",
			 p->name);
		return -ENOENT;
	}
	size = proto->type ? ma_btf_size(btf, proto->type) : 0;
	if (size != p->ret) {
		snprintf(why, len,
			 "%s() returns %llu bytes in the kernel, %u in the module",
			 p->name, (unsigned long long)size, p->ret);
		return -EINVAL;
	}
	if (btf_type_vlen(proto) != p->nr) {
		snprintf(why, len,
			 "%s() takes %u parameters in the kernel, %u in the module",
			 p->name, btf_type_vlen(proto), p->nr);
		return -EINVAL;
	}
	args = (const struct btf_param *)(proto + 1);
	for (i = 0; i < p->nr; i++) {
		size = ma_btf_size(btf, args[i].type);
		if (size != p->args[i]) {
			snprintf(why, len,
				 "parameter %u of %s() is %llu bytes in the kernel, %u in the module",
				 i + 1, p->name, (unsigned long long)size, p->args[i]);
			return -EINVAL;
		}
	}
	return 0;
}

#ifdef MA_CHECK_KHUGEPAGED
static int ma_layout_enum_check(const struct btf *btf, char *why, size_t len)
{
	const struct btf_type *t = ma_btf_find(btf, "scan_result", BTF_KIND_ENUM);
	const struct btf_enum *e;
	unsigned int i, j;

	if (!t) {
		snprintf(why, len, "the kernel's BTF has no enum scan_result, which it mirrors");
		return -ENOENT;
	}
	e = (const struct btf_enum *)(t + 1);
	for (i = 0; i < ARRAY_SIZE(ma_scan_result); i++) {
		for (j = 0; j < btf_type_vlen(t); j++) {
			const char *n = ma_btf_name(btf, e[j].name_off);

			if (n && !strcmp(n, ma_scan_result[i].name))
				break;
		}
		if (j == btf_type_vlen(t)) {
			snprintf(why, len, "enum scan_result has no %s in the kernel",
				 ma_scan_result[i].name);
			return -ENOENT;
		}
		if (e[j].val != ma_scan_result[i].value) {
			snprintf(why, len, "%s is %d in the kernel, %lld in the module's mirror",
				 ma_scan_result[i].name, e[j].val,
				 ma_scan_result[i].value);
			return -EINVAL;
		}
	}
	return 0;
}
#endif

/**
 * ma_layout_check() - compare a fix's mirrored structs and enums with BTF.
 * @fix: the fix's name
 * @why: where to write the first difference
 * @len: its size
 *
 * Return: 0 when they match (or the fix mirrors nothing), else a negative
 * errno with the difference in @why.
 */
int ma_layout_check(const char *fix, char *why, size_t len)
{
	const struct btf *btf = NULL;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(ma_layout_structs); i++) {
		if (!ma_fix_listed(ma_layout_structs[i].fixes, fix))
			continue;
		btf = btf ?: ma_btf();
		if (!btf)
			goto no_btf;
		ret = ma_layout_struct_check(btf, &ma_layout_structs[i], why, len);
		if (ret)
			return ret;
	}
	for (i = 0; i < ARRAY_SIZE(ma_layout_protos); i++) {
		if (!ma_fix_listed(ma_layout_protos[i].fixes, fix))
			continue;
		btf = btf ?: ma_btf();
		if (!btf)
			goto no_btf;
		ret = ma_layout_proto_check(btf, &ma_layout_protos[i], why, len);
		if (ret)
			return ret;
	}
#ifdef MA_CHECK_KHUGEPAGED
	if (ma_fix_listed(" lazyfree scanresume ", fix) && btf)
		return ma_layout_enum_check(btf, why, len);
#endif
	return 0;
no_btf:
	snprintf(why, len,
		 "the kernel has no BTF to check what it mirrors against");
	return -ENOENT;
}

/*
 * Seed 004's mark in BTF: the scan cursor's address moved from struct
 * khugepaged_scan into struct khugepaged_mm_slot. Test-only
 * (MLOCK_AUDIT_BREAK=upstream_scanresume): a member every supported
 * kernel has stands for it, so that the suite sees the fix go "upstream".
 */
#ifdef MLOCK_AUDIT_BREAK_UPSTREAM_SCANRESUME
#define MA_SEED004_STRUCT	"khugepaged_scan"
#define MA_SEED004_MEMBER	"mm_slot"
#else
#define MA_SEED004_STRUCT	"khugepaged_mm_slot"
#define MA_SEED004_MEMBER	"address"
#endif

/**
 * ma_layout_scanresume_upstream() - whether seed 004 is merged.
 *
 * Return: the evidence, or NULL.
 */
const char *ma_layout_scanresume_upstream(void)
{
	const struct btf *btf = ma_btf();
	const struct btf_type *t;
	u32 bits;

	if (!btf)
		return NULL;
	t = ma_btf_find(btf, MA_SEED004_STRUCT, BTF_KIND_STRUCT);
	if (!t || !ma_btf_member(btf, t, MA_SEED004_MEMBER, &bits))
		return NULL;
	return "struct " MA_SEED004_STRUCT " has the member " MA_SEED004_MEMBER
	       " (BTF): seed 004 is merged";
}
#else
/* No BTF, or nothing mirrored (no fix carried) */
int ma_layout_check(const char *fix, char *why, size_t len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ma_layout_protos); i++) {
		if (ma_fix_listed(ma_layout_protos[i].fixes, fix)) {
			snprintf(why, len,
				 "the kernel is built without BTF (CONFIG_DEBUG_INFO_BTF): the prototypes it relies on cannot be checked");
			return -ENOENT;
		}
	}
	for (i = 0; i < ARRAY_SIZE(ma_layout_structs); i++) {
		if (ma_fix_listed(ma_layout_structs[i].fixes, fix)) {
			snprintf(why, len,
				 "the kernel is built without BTF (CONFIG_DEBUG_INFO_BTF): the structs it mirrors cannot be checked");
			return -ENOENT;
		}
	}
	return 0;
}

const char *ma_layout_scanresume_upstream(void)
{
	return NULL;
}
#endif
