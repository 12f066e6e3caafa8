// SPDX-License-Identifier: GPL-2.0
/*
 * mlock-audit: the operator's reporter of the mlock_audit kernel module.
 *
 * main() only dispatches: global options (cli.c), then one command:
 * summary.c, vmas.c, watch.c, info.c (version, probes), trace.c.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "exit-codes.h"
#include "info.h"
#include "report.h"
#include "trace.h"
#include "usage.h"
#include "vmas.h"
#include "watch.h"

static const struct {
	const char *name;
	int (*run)(const struct ma_opts *o, int argc, char **argv);
} commands[] = {
	{ "summary", ma_cmd_summary },
	{ "vmas", ma_cmd_vmas },
	{ "watch", ma_cmd_watch },
	{ "version", ma_cmd_version },
	{ "probes", ma_cmd_probes },
};

#ifndef MA_VERSION
#define MA_VERSION "unknown"
#endif

int main(int argc, char **argv)
{
	static char *dflt[] = { "summary", NULL };
	struct ma_opts opts = { 0 };
	size_t i;
	int ret;

	if (argc > 1 && !strcmp(argv[1], "trace"))
		return trace_main(argc - 1, argv + 1);
	ret = ma_parse_args(&argc, argv, &opts);
	if (ret >= 0)
		return ret;
	if (opts.help) {
		ma_usage(stdout);
		return MA_EXIT_OK;
	}
	if (opts.version) {
		printf("%s %s\n", MA_NAME, MA_VERSION);
		return fflush(stdout) ? MA_EXIT_ERROR : MA_EXIT_OK;
	}
	if (argc < 2)
		return ma_cmd_summary(&opts, 1, dflt);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(&opts, argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown command '%s' (%s --help lists them)\n", MA_NAME,
		argv[1], MA_NAME);
	return MA_EXIT_USAGE;
}
