// SPDX-License-Identifier: GPL-2.0
/*
 * The addresses of the functions the hooks probe, where the build knows
 * them: each function of src/hook-sites that the kernel's symbols name
 * exactly once (the Makefile's tools/ksym-check --sites, audit-sites) is
 * reached here through a livepatch relocation, as the fixes module reaches
 * its functions, resolved when the audit loads. A hook then points ftrace
 * at that address (src/hook.c) instead of at a name, for which ftrace
 * looks up the symbol of every traceable function of the kernel and of
 * every module.
 *
 * The build lists only functions the map shows present and unique, so
 * none of these relocations can refuse the audit on the kernel the map
 * belongs to; without a map (Debian's stand-in System.map, a DKMS build
 * for a kernel that is not running) the list is empty and every hook finds
 * its function by name. The addresses are only ftrace filter keys: nothing
 * calls through them, so indirect branch tracking does not concern them.
 */
#include <linux/compiler.h>
#include <linux/string.h>

#include "hook.h"
#include "symbols.h"

/*
 * The generated header declares each function (weak, under its kernel
 * name, which for a clone holds dots) and gives the table's entries.
 */
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
