// SPDX-License-Identifier: GPL-2.0
/*
 * The load-time check of the private kernel structs, enums and prototypes
 * that the live fixes mirror by hand (src/fixes/FIX/kernel.h,
 * khugepaged_internal.h; listed in src/fixes/FIX/mirrors.c) against the
 * running kernel's BTF. A mismatch makes only that fix "unsupported".
 *
 * Prototypes are compared by parameter and return sizes: that is what the
 * calling convention depends on. A struct the module allocates and hands
 * to the kernel (whole) must have the kernel's size.
 */
#include <linux/btf.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "layout.h"
#include "symbols.h"

#if IS_ENABLED(CONFIG_DEBUG_INFO_BTF) && IS_ENABLED(CONFIG_BPF_SYSCALL) && \
	defined(MA_CARRY_ANY)
/* Through typedefs, qualifiers and arrays; 0: none. */
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

/* One call site each, out of line: one livepatch relocation each. */
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

static int ma_layout_enum_check(const struct btf *btf,
				const struct ma_layout_enum *en,
				char *why, size_t len)
{
	const struct btf_type *t = ma_btf_find(btf, en->name, BTF_KIND_ENUM);
	const struct btf_enum *e;
	unsigned int i, j;

	if (!t) {
		snprintf(why, len, "the kernel's BTF has no enum %s, which it mirrors",
			 en->name);
		return -ENOENT;
	}
	e = (const struct btf_enum *)(t + 1);
	for (i = 0; i < en->nr; i++) {
		for (j = 0; j < btf_type_vlen(t); j++) {
			const char *n = ma_btf_name(btf, e[j].name_off);

			if (n && !strcmp(n, en->values[i].name))
				break;
		}
		if (j == btf_type_vlen(t)) {
			snprintf(why, len, "enum %s has no %s in the kernel",
				 en->name, en->values[i].name);
			return -ENOENT;
		}
		if (e[j].val != en->values[i].value) {
			snprintf(why, len, "%s is %d in the kernel, %lld in the module's mirror",
				 en->values[i].name, e[j].val,
				 en->values[i].value);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * ma_layout_check() - compare what a fix relies on with the kernel's BTF.
 * @l: the fix's mirrors and prototypes (NULL: none)
 * @why: where to write the first difference
 * @len: its size
 *
 * Return: 0 when they match (or the fix relies on nothing), else a
 * negative errno with the difference in @why.
 */
int ma_layout_check(const struct ma_layout *l, char *why, size_t len)
{
	const struct btf *btf;
	unsigned int i;
	int ret;

	if (!l || !(l->nr_structs + l->nr_protos + l->nr_enums))
		return 0;
	btf = ma_btf();
	if (!btf)
		goto no_btf;
	for (i = 0; i < l->nr_structs; i++) {
		ret = ma_layout_struct_check(btf, &l->structs[i], why, len);
		if (ret)
			return ret;
	}
	for (i = 0; i < l->nr_protos; i++) {
		ret = ma_layout_proto_check(btf, &l->protos[i], why, len);
		if (ret)
			return ret;
	}
	for (i = 0; i < l->nr_enums; i++) {
		ret = ma_layout_enum_check(btf, &l->enums[i], why, len);
		if (ret)
			return ret;
	}
	return 0;
no_btf:
	snprintf(why, len,
		 "the kernel has no BTF to check what it mirrors against");
	return -ENOENT;
}

/**
 * ma_layout_has_member() - whether the running kernel's struct has a member.
 * @type: the struct's name
 * @member: the member's name
 *
 * Return: true when the kernel's BTF has struct @type with a member
 * @member; false when it has not, or has no BTF.
 */
bool ma_layout_has_member(const char *type, const char *member)
{
	const struct btf *btf = ma_btf();
	const struct btf_type *t;
	u32 bits;

	if (!btf)
		return false;
	t = ma_btf_find(btf, type, BTF_KIND_STRUCT);
	return t && ma_btf_member(btf, t, member, &bits);
}
#else
/* No BTF, or nothing mirrored (no fix carried) */
int ma_layout_check(const struct ma_layout *l, char *why, size_t len)
{
	if (l && l->nr_protos) {
		snprintf(why, len,
			 "the kernel is built without BTF (CONFIG_DEBUG_INFO_BTF): the prototypes it relies on cannot be checked");
		return -ENOENT;
	}
	if (l && (l->nr_structs || l->nr_enums)) {
		snprintf(why, len,
			 "the kernel is built without BTF (CONFIG_DEBUG_INFO_BTF): the structs it mirrors cannot be checked");
		return -ENOENT;
	}
	return 0;
}

bool ma_layout_has_member(const char *type, const char *member)
{
	return false;
}
#endif
