// SPDX-License-Identifier: GPL-2.0
/*
 * Under indirect branch tracking (X86_FEATURE_IBT, on by default in
 * Debian 6.12 and 7.3) an indirect call must land on ENDBR64, and the
 * kernel seals at boot the ENDBR64 of every function whose address it
 * never takes. Direct calls are not checked, but a function a fix calls
 * through a pointer (struct ma_ibt_target, each fix's mirrors.c) must
 * begin with ENDBR64, or the fix is unsupported: better than a #CP fault
 * in the kernel.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <asm/cpufeature.h>

#include "layout.h"

/* f3 0f 1e fa, as the little-endian word the function starts with */
#define MA_ENDBR64	0xfa1e0ff3U

static bool ma_ibt_enforced(void)
{
	return cpu_feature_enabled(X86_FEATURE_IBT);
}

static bool ma_ibt_callable(const struct ma_ibt_target *t, const void *fn)
{
	u32 insn = 0;

	return fn && !copy_from_kernel_nofault(&insn, fn, sizeof(insn)) &&
	       insn == MA_ENDBR64;
}

/**
 * ma_ibt_check() - can the kernel functions a fix reaches through a
 * pointer be called so on this CPU?
 * @l:   what the fix relies on (its mirrors.c), or NULL
 * @why: where to say which function cannot
 * @len: its size
 *
 * Return: NULL when IBT is not enforced or every function begins with
 * ENDBR64; else @why.
 */
const char *ma_ibt_check(const struct ma_layout *l, char *why, size_t len)
{
	unsigned int i;

	if (!l || !ma_ibt_enforced())
		return NULL;
	for (i = 0; i < l->nr_ibt; i++) {
		const struct ma_ibt_target *t = &l->ibt[i];
		const void *fn = t->func ? t->func : READ_ONCE(t->tp->iterator);

		if (ma_ibt_callable(t, fn))
			continue;
		snprintf(why, len,
			 "%s does not begin with ENDBR64 (sealed at boot): this CPU enforces IBT, and an indirect call to it would fault",
			 t->name);
		return why;
	}
	return NULL;
}
