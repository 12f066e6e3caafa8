// SPDX-License-Identifier: GPL-2.0
/*
 * The addresses of the probed functions, where the build knows them: each
 * function of src/hook-sites that System.map names exactly once is reached
 * through a livepatch relocation, so that ftrace is pointed at an address
 * rather than a name, whose lookup walks every traceable symbol.
 *
 * The build lists only functions the map shows present and unique, so no
 * relocation can refuse the audit; without a real map the list is empty
 * and hooks find functions by name. Nothing calls through these
 * addresses, so IBT does not concern them.
 */
#include <linux/compiler.h>
#include <linux/string.h>

#include "hook_sites.h"
#include "symbols.h"

/* weak declarations under the kernel name (a clone's holds dots) */
#include "hook_sites_found.h"
#ifndef MA_HOOK_SITE_ENTRIES
#define MA_HOOK_SITE_ENTRIES
#endif

static const struct {
	const char *sym;
	const void *start;
} ma_hook_sites[] = {
	MA_HOOK_SITE_ENTRIES
	{ }
};

/**
 * ma_hook_site_start() - the address of a probed function, if the build knew it.
 * @sym: the function's symbol name (a clone's with its suffix)
 *
 * Return: the function's address, or 0 when the hook must find it by name.
 */
unsigned long ma_hook_site_start(const char *sym)
{
	unsigned int i;

	for (i = 0; ma_hook_sites[i].sym; i++)
		if (!strcmp(ma_hook_sites[i].sym, sym))
			return (unsigned long)ma_hook_sites[i].start;
	return 0;
}
