// SPDX-License-Identifier: GPL-2.0
/*
 * Global options and option values.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exit-codes.h"

bool ma_parse_bytes(const char *s, unsigned long long *out)
{
	static const struct {
		const char *suffix;
		unsigned int shift;
	} units[] = {
		{ "", 0 }, { "B", 0 },
		{ "K", 10 }, { "KiB", 10 }, { "k", 10 },
		{ "M", 20 }, { "MiB", 20 },
		{ "G", 30 }, { "GiB", 30 },
		{ "T", 40 }, { "TiB", 40 },
	};
	unsigned long long v;
	char *end;
	size_t i;

	if (!isdigit((unsigned char)*s))	/* no sign, no blank */
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return false;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		if (units[i].shift && v > (~0ULL >> units[i].shift))
			return false;
		*out = v << units[i].shift;
		return true;
	}
	return false;
}

bool ma_parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v <= 0 || v > 86400 * 365)
		return false;
	*out = v;
	return true;
}

bool ma_parse_posint(const char *s, int *out)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0 || v > INT_MAX)
		return false;
	*out = (int)v;
	return true;
}

static bool set_path(char *dst, const char *val, const char *what)
{
	if (!*val || strlen(val) >= PATH_MAX) {
		fprintf(stderr, "%s: %s: %s\n", MA_NAME, what,
			*val ? "path too long" : "empty path");
		return false;
	}
	strcpy(dst, val);
	return true;
}

/*
 * Match argv[*i] against --NAME VALUE or --NAME=VALUE; on a match set *val
 * and step *i past the value. Returns 1 on a match, 0 if not this option,
 * -1 if the value is missing.
 */
static int opt_value(int argc, char **argv, int *i, const char *name,
		     const char **val)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return 0;
	if (argv[*i][n] == '=') {
		*val = argv[*i] + n + 1;
		return 1;
	}
	if (argv[*i][n])
		return 0;
	if (*i + 1 >= argc) {
		fprintf(stderr, "%s: %s needs a value\n", MA_NAME, name);
		return -1;
	}
	*val = argv[++*i];
	return 1;
}

int ma_parse_global(int *argc, char **argv, struct ma_opts *opts, bool *help)
{
	const char *env, *val;
	int i, out = 1, r;

	opts->fmt = MA_FMT_TABLE;
	env = getenv("MLOCK_AUDIT_ROOT");
	if (!set_path(opts->root, env && *env ? env : "/", "MLOCK_AUDIT_ROOT"))
		return MA_EXIT_USAGE;
	opts->proc[0] = 0;
	env = getenv("MLOCK_AUDIT_PROC");
	if (env && *env && !set_path(opts->proc, env, "MLOCK_AUDIT_PROC"))
		return MA_EXIT_USAGE;
	opts->dir[0] = 0;
	env = getenv("MLOCK_AUDIT_DIR");
	if (env && *env) {
		if (!set_path(opts->dir, env, "MLOCK_AUDIT_DIR"))
			return MA_EXIT_USAGE;
		opts->dir_given = true;
	}

	for (i = 1; i < *argc; i++) {
		char *a = argv[i];

		if (!strcmp(a, "trace") && out == 1) {
			/* main() runs a leading trace: nothing may come before it */
			fprintf(stderr, "%s: trace has its own options: put them after 'trace' (see %s trace --help)\n",
				MA_NAME, MA_NAME);
			return MA_EXIT_USAGE;
		}
		if (!strcmp(a, "--json")) {
			opts->fmt = MA_FMT_JSON;
			continue;
		}
		if (!strcmp(a, "--prometheus")) {
			opts->fmt = MA_FMT_PROM;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			*help = true;
			continue;
		}
		if ((r = opt_value(*argc, argv, &i, "--dir", &val))) {
			if (r < 0 || !set_path(opts->dir, val, "--dir"))
				return MA_EXIT_USAGE;
			opts->dir_given = true;
			continue;
		}
		if ((r = opt_value(*argc, argv, &i, "--root", &val))) {
			if (r < 0 || !set_path(opts->root, val, "--root"))
				return MA_EXIT_USAGE;
			continue;
		}
		if ((r = opt_value(*argc, argv, &i, "--proc", &val))) {
			if (r < 0 || !set_path(opts->proc, val, "--proc"))
				return MA_EXIT_USAGE;
			continue;
		}
		if ((r = opt_value(*argc, argv, &i, "--fail-over", &val))) {
			if (r < 0)
				return MA_EXIT_USAGE;
			if (!ma_parse_bytes(val, &opts->fail_over)) {
				fprintf(stderr, "%s: --fail-over '%s': want a number of bytes, optionally with K, M, G, T (or KiB, MiB, GiB, TiB; powers of 1024)\n",
					MA_NAME, val);
				return MA_EXIT_USAGE;
			}
			opts->fail_over_set = true;
			continue;
		}
		argv[out++] = a;	/* a command or a command's option */
	}
	argv[out] = NULL;
	*argc = out;

	/* strip trailing slashes of the root so that root + "/sys/..." is clean */
	for (i = (int)strlen(opts->root); i > 0 && opts->root[i - 1] == '/'; i--)
		opts->root[i - 1] = 0;
	if ((!opts->proc[0] &&
	     snprintf(opts->proc, sizeof(opts->proc), "%s/proc", opts->root) >=
	     (int)sizeof(opts->proc)) ||
	    (!opts->dir_given &&
	     snprintf(opts->dir, sizeof(opts->dir), "%s/sys/kernel/debug/mlock_audit",
		      opts->root) >= (int)sizeof(opts->dir))) {
		fprintf(stderr, "%s: --root: path too long\n", MA_NAME);
		return MA_EXIT_USAGE;
	}
	return -1;
}
