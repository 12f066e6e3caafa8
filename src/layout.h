/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The load-time BTF check of what a live fix mirrors from private kernel
 * headers and of the prototypes it relies on (layout.c); each fix lists
 * its own in src/fixes/FIX/mirrors.c.
 */
#ifndef _MLOCK_AUDIT_LAYOUT_H
#define _MLOCK_AUDIT_LAYOUT_H

#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/types.h>

struct ma_layout_member {
	const char *name;	/* the kernel's member name */
	u32 offset, size;	/* where the mirror has it */
};

struct ma_layout_struct {
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

struct ma_layout_enum {
	const char *name;	/* the kernel's enum name */
	const struct ma_layout_enumerator *values;
	unsigned int nr;
};

/*
 * A function a fix replaces, or calls with a hand-written prototype. What
 * the calling convention depends on is compared: parameter count and
 * sizes, and the return size (0: void).
 */
#define MA_PROTO_MAX_ARGS	6
struct ma_layout_proto {
	const char *name;	/* the kernel's function */
	u32 ret, nr;
	u32 args[MA_PROTO_MAX_ARGS];
};

/*
 * A kernel function called through a pointer (rmap walk callback, thread
 * function, tracepoint iterator via .tp): under IBT it must begin with
 * ENDBR64 (ibt.c).
 */
struct ma_ibt_target {
	const char *name;
	const void *func;
	struct tracepoint *tp;
};

/*
 * A mirrored struct of type @type whose members are the table ma_@table;
 * @whole_size: its size must be the kernel's too.
 */
#define MA_STRUCT(sname, type, whole_size, table) {			\
	.name = sname, .size = sizeof(type), .whole = whole_size,	\
	.members = ma_##table, .nr = ARRAY_SIZE(ma_##table) }

#define MA_IBT_FUNC(fn)		{ .name = #fn, .func = (const void *)(fn) }
#define MA_IBT_ITERATOR(event)	{ .name = "__traceiter_" #event, .tp = &__tracepoint_##event }

struct ma_layout {
	const struct ma_layout_struct *structs;
	unsigned int nr_structs;
	const struct ma_layout_proto *protos;
	unsigned int nr_protos;
	const struct ma_layout_enum *enums;
	unsigned int nr_enums;
	const struct ma_ibt_target *ibt;
	unsigned int nr_ibt;
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
 * MA_PROTO(FN, TYPE, ARGS...): FN returns TYPE and takes ARGS; the build
 * fails unless that is how the module declares FN. MA_REPLACED(FN, NEW,
 * TYPE, ARGS...): NEW replaces the kernel's FN. The _VOID forms return
 * nothing, the _NOARGS forms take nothing.
 */
#define MA_PROTO(fn, type, ...) {					\
	.name = #fn, .ret = sizeof(type),				\
	.nr = MA_NARGS(__VA_ARGS__) +					\
	      BUILD_BUG_ON_ZERO(!__same_type(&(fn), type(*)(__VA_ARGS__))), \
	.args = MA_SIZES(__VA_ARGS__) }
#define MA_PROTO_VOID(fn, ...) {					\
	.name = #fn, .ret = 0,						\
	.nr = MA_NARGS(__VA_ARGS__) +					\
	      BUILD_BUG_ON_ZERO(!__same_type(&(fn), void (*)(__VA_ARGS__))), \
	.args = MA_SIZES(__VA_ARGS__) }
#define MA_PROTO_NOARGS(fn, type) {					\
	.name = #fn,							\
	.ret = sizeof(type) +						\
	       BUILD_BUG_ON_ZERO(!__same_type(&(fn), type(*)(void))) }
#define MA_PROTO_VOID_NOARGS(fn) {					\
	.name = #fn,							\
	.ret = BUILD_BUG_ON_ZERO(!__same_type(&(fn), void (*)(void))) }
#define MA_REPLACED(fn, new, type, ...) {				\
	.name = #fn, .ret = sizeof(type),				\
	.nr = MA_NARGS(__VA_ARGS__) +					\
	      BUILD_BUG_ON_ZERO(!__same_type(&(new), type(*)(__VA_ARGS__))), \
	.args = MA_SIZES(__VA_ARGS__) }
#define MA_REPLACED_VOID(fn, new, ...) {				\
	.name = #fn, .ret = 0,						\
	.nr = MA_NARGS(__VA_ARGS__) +					\
	      BUILD_BUG_ON_ZERO(!__same_type(&(new), void (*)(__VA_ARGS__))), \
	.args = MA_SIZES(__VA_ARGS__) }

int ma_layout_check(const struct ma_layout *l, char *why, size_t len);
const char *ma_ibt_check(const struct ma_layout *l, char *why, size_t len);
bool ma_layout_has_member(const char *type, const char *member);

#endif /* _MLOCK_AUDIT_LAYOUT_H */
