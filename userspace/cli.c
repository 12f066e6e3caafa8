// SPDX-License-Identifier: GPL-2.0
/*
 * Global options and option values.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
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

static int usage_err(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", MA_NAME);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see %s --help)\n", MA_NAME);
	return MA_EXIT_USAGE;
}

/* What an option is like, beside the commands that take it. */
enum {
	OPT_SHORT = 1 << 8,	/* -c as well as --name */
	OPT_VALUE = 1 << 9,	/* takes a value */
};

/*
 * Every option of mlock-audit and of mlock-audit trace: getopt_long()'s
 * tables of each are made from this one, so that an option that both take
 * has one name. A long-only option has a val that is no short option.
 */
static const struct {
	const char *name;
	int val;		/* the short option, or what stands for it */
	unsigned int flags;	/* MA_OPTS_* that take it, OPT_* */
} options[] = {
	{ "json", 'j', MA_OPTS_GLOBAL | OPT_SHORT },
	{ "prometheus", 'P', MA_OPTS_GLOBAL },
	{ "fail-over", 'F', MA_OPTS_GLOBAL | OPT_VALUE },
	{ "dir", 'D', MA_OPTS_GLOBAL | OPT_VALUE },
	{ "root", 'R', MA_OPTS_GLOBAL | OPT_VALUE },
	{ "proc", 'X', MA_OPTS_GLOBAL | OPT_VALUE },
	{ "help", 'h', MA_OPTS_GLOBAL | MA_OPTS_TRACE | OPT_SHORT },
	{ "version", 'V', MA_OPTS_GLOBAL | OPT_SHORT },
	{ "all", 'a', MA_OPTS_TRACE | OPT_SHORT },
	{ "kprobes", 'K', MA_OPTS_TRACE },
	{ "verbose", 'v', MA_OPTS_TRACE | OPT_SHORT },
	{ "duration", 'd', MA_OPTS_TRACE | OPT_SHORT | OPT_VALUE },
	{ "pid", 'p', MA_OPTS_GLOBAL | MA_OPTS_TRACE | OPT_SHORT | OPT_VALUE },
	{ "sort", 's', MA_OPTS_GLOBAL | OPT_SHORT | OPT_VALUE },
	{ "interval", 'i', MA_OPTS_GLOBAL | OPT_SHORT | OPT_VALUE },
	{ "count", 'n', MA_OPTS_GLOBAL | OPT_SHORT | OPT_VALUE },
};

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

/* Does @arg, an option before the command, take the next argument as its value? */
static bool takes_value(const char *arg)
{
	size_t i;

	for (i = 0; i < N_OPTIONS; i++) {
		if ((options[i].flags & (MA_OPTS_GLOBAL | OPT_VALUE)) !=
		    (MA_OPTS_GLOBAL | OPT_VALUE))
			continue;
		if ((options[i].flags & OPT_SHORT) && arg[0] == '-' &&
		    arg[1] == options[i].val && !arg[2])
			return true;
		if (!strncmp(arg, "--", 2) && !strcmp(arg + 2, options[i].name))
			return true;
	}
	return false;
}

/* The option that getopt_long() just saw, as the user wrote it. */
static const char *opt_name(const struct option *longs, char **argv, int longind,
			    int c)
{
	static char buf[64];

	if (longind >= 0) {
		snprintf(buf, sizeof(buf), "--%s", longs[longind].name);
		return buf;
	}
	if (c > 0 && c < 128) {
		snprintf(buf, sizeof(buf), "-%c", c);
		return buf;
	}
	return argv[optind - 1];
}

/*
 * Did getopt_long() refuse @arg, the word before optind, as a long option?
 * An unknown one has optopt 0; one given a value it does not take has its
 * val. Otherwise the refused option is a short one in the cluster at
 * optind, which getopt_long() has not passed yet ("--json -xj").
 */
static bool long_refused(const char *arg, const struct option *longs)
{
	const struct option *o;
	size_t n;

	if (strncmp(arg, "--", 2))
		return false;
	if (!optopt)
		return true;
	n = strcspn(arg + 2, "=");
	for (o = longs; o->name; o++)
		if (o->val == optopt && !strncmp(arg + 2, o->name, n))
			return true;
	return false;
}

/* A getopt_long() failure: @c is ':' (a value missing) or '?'. */
static int opt_error(const char *cmd, int c, char **argv,
		     const struct option *longs)
{
	const char *arg = argv[optind - 1];
	char shortname[3] = "-?";

	if (c == ':') {
		/* a short one may sit in a cluster ("-ad"): name it alone */
		if (strncmp(arg, "--", 2) && optopt > 0 && optopt < 128) {
			shortname[1] = (char)optopt;
			arg = shortname;
		}
		fprintf(stderr, "%s: %s needs a value", cmd, arg);
	} else if (long_refused(arg, longs)) {
		/* as written ("--json=1", "--p" when ambiguous) */
		fprintf(stderr, strchr(arg, '=') ?
			"%s: option '%s': unknown, or it takes no value" :
			"%s: unknown or ambiguous option '%s'", cmd, arg);
	} else if (isgraph(optopt)) {
		/* a short one, maybe in a cluster whose word optind has not passed */
		shortname[1] = (char)optopt;
		fprintf(stderr, "%s: unknown option '%s'", cmd, shortname);
	} else {
		fprintf(stderr, "%s: unknown option (byte 0x%02x)", cmd, optopt & 0xff);
	}
	fprintf(stderr, " (see %s --help)\n", cmd);
	return MA_EXIT_USAGE;
}

int ma_getopt(const char *cmd, unsigned int set, int argc, char **argv,
	      ma_opt_fn on_opt, void *ctx, int *first)
{
	/* ':' first: a missing value is told from an unknown option */
	char shorts[1 + 2 * N_OPTIONS + 1] = ":";
	struct option longs[N_OPTIONS + 1] = { { 0 } };
	int c, longind, ret;
	size_t i, n = 0, ns = 1;

	for (i = 0; i < N_OPTIONS; i++) {
		if (!(options[i].flags & set))
			continue;
		longs[n++] = (struct option){
			options[i].name,
			options[i].flags & OPT_VALUE ? required_argument : no_argument,
			NULL, options[i].val,
		};
		if (options[i].flags & OPT_SHORT) {
			shorts[ns++] = (char)options[i].val;
			if (options[i].flags & OPT_VALUE)
				shorts[ns++] = ':';
		}
	}
	opterr = 0;
	optind = 1;
	for (;;) {
		longind = -1;
		c = getopt_long(argc, argv, shorts, longs, &longind);
		if (c == -1)
			break;
		if (c == ':' || c == '?')
			return opt_error(cmd, c, argv, longs);
		ret = on_opt(ctx, c, optarg, opt_name(longs, argv, longind, c));
		if (ret)
			return ret;
	}
	*first = optind;
	return 0;
}

/* What ma_parse_args() gathers beside struct ma_opts. */
struct global_ctx {
	struct ma_opts *opts;
	/* the option of each command last seen, for "applies to ... only" */
	char vmas_opt[32], watch_opt[32];
};

/* Where the value of --dir, --root or --proc goes. */
static char *path_opt(struct ma_opts *opts, int c)
{
	if (c == 'D')
		return opts->dir;
	return c == 'R' ? opts->root : opts->proc;
}

static int global_opt(void *ctx, int c, const char *val, const char *name)
{
	struct global_ctx *g = ctx;
	struct ma_opts *opts = g->opts;

	switch (c) {
	case 'j':
	case 'P':
		opts->fmt = c == 'j' ? MA_FMT_JSON : MA_FMT_PROM;
		break;
	case 'h':
		opts->help = true;
		break;
	case 'V':
		opts->version = true;
		break;
	case 'D':
	case 'R':
	case 'X':
		/* long-only: @name is "--dir", "--root" or "--proc" */
		if (!set_path(path_opt(opts, c), val, name))
			return MA_EXIT_USAGE;
		opts->dir_given |= c == 'D';
		break;
	case 'F':
		if (!ma_parse_bytes(val, &opts->fail_over))
			return usage_err("--fail-over '%s': want a number of bytes, optionally with K, M, G, T (or KiB, MiB, GiB, TiB; powers of 1024)",
					 val);
		opts->fail_over_set = true;
		break;
	case 'p':
		if (!ma_parse_posint(val, &opts->pid))
			return usage_err("-p/--pid wants a process id (a positive number), not '%s'", val);
		break;
	case 's':
		opts->sort = val;
		break;
	case 'i':
		if (!ma_parse_seconds(val, &opts->interval))
			return usage_err("-i/--interval wants seconds > 0 (decimals allowed), not '%s'", val);
		opts->interval_set = true;
		break;
	case 'n':
		if (!ma_parse_posint(val, &opts->count))
			return usage_err("-n/--count wants a positive number, not '%s'", val);
		opts->count_set = true;
		break;
	}
	if (strchr("ps", c))
		snprintf(g->vmas_opt, sizeof(g->vmas_opt), "%s", name);
	else if (strchr("in", c))
		snprintf(g->watch_opt, sizeof(g->watch_opt), "%s", name);
	return 0;
}

int ma_parse_args(int *argc, char **argv, struct ma_opts *opts)
{
	struct global_ctx g = { .opts = opts };
	const char *env;
	int i, first, ret;

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
	opts->interval = 2;

	/* trace is its own program (main() runs a leading one) */
	for (i = 2; i < *argc; i++)
		if (!strcmp(argv[i], "trace") && !takes_value(argv[i - 1]))
			return usage_err("%s has its own options: put them after it, as in 'mlock-audit trace --help'",
					 "trace");
	ret = ma_getopt(MA_NAME, MA_OPTS_GLOBAL, *argc, argv, global_opt, &g, &first);
	if (ret)
		return ret;
	/* what is left: the command and its arguments, in order */
	for (i = first; i < *argc; i++)
		argv[1 + i - first] = argv[i];
	*argc = 1 + *argc - first;
	argv[*argc] = NULL;
	opts->cmd = *argc > 1 ? argv[1] : "summary";

	if ((opts->pid || opts->sort) && strcmp(opts->cmd, "vmas"))
		return usage_err("%s applies to vmas only", g.vmas_opt);
	if ((opts->interval_set || opts->count_set) && strcmp(opts->cmd, "watch"))
		return usage_err("%s applies to watch only", g.watch_opt);

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
