/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The global options of mlock-audit and the parsers of option values.
 */
#ifndef MLOCK_AUDIT_CLI_H
#define MLOCK_AUDIT_CLI_H

#include <limits.h>
#include <stdbool.h>

enum ma_fmt {
	MA_FMT_TABLE,
	MA_FMT_JSON,
	MA_FMT_PROM,
};

struct ma_opts {
	enum ma_fmt fmt;
	/* the module's debugfs directory, and whether --dir/MLOCK_AUDIT_DIR set it */
	char dir[PATH_MAX];
	bool dir_given;
	/* prefix of /sys paths ("" = the real ones) and the proc root */
	char root[PATH_MAX];
	char proc[PATH_MAX];
	bool fail_over_set;
	unsigned long long fail_over;	/* bytes */
	bool help;			/* -h, --help */
	bool version;			/* -V, --version: the reporter's own */
	const char *cmd;		/* the command ("summary" when none) */
	int pid;			/* vmas -p/--pid (0: every process) */
	const char *sort;		/* vmas -s/--sort (NULL: the default) */
	double interval;		/* watch: seconds between refreshes */
	bool interval_set;
	int count;			/* watch: refreshes (0: until Ctrl-C) */
	bool count_set;
};

/* Program name for messages. */
#define MA_NAME "mlock-audit"

/* "4096", "64M", "1GiB": bytes; false on junk, negative or overflow. */
bool ma_parse_bytes(const char *s, unsigned long long *out);
/* A positive decimal number of seconds ("2", "0.5"). */
bool ma_parse_seconds(const char *s, double *out);
/* A positive int without sign or junk (pid, count). */
bool ma_parse_posint(const char *s, int *out);

/*
 * An option that ma_getopt() saw: its short letter (or a long option's
 * val), its value (NULL: none) and its name as the user wrote it ("-p",
 * "--pid"). Returns 0, or an enum ma_exit to stop with (the handler
 * printed why).
 */
typedef int (*ma_opt_fn)(void *ctx, int c, const char *val, const char *name);

/* The option sets of ma_getopt(). */
enum {
	MA_OPTS_GLOBAL = 1 << 0,	/* before the command */
	MA_OPTS_TRACE = 1 << 1,		/* after trace */
};

/*
 * The one option parser of mlock-audit and of mlock-audit trace:
 * getopt_long() over argv with the options of @set (an MA_OPTS_*), calling
 * @on_opt for each option in order. An unknown option or a missing value
 * is refused on one line that names it as written, with "see CMD --help".
 * Returns 0 with *@first at the first non-option argument (getopt_long()
 * has moved every option before it), else an enum ma_exit.
 */
int ma_getopt(const char *cmd, unsigned int set, int argc, char **argv,
	      ma_opt_fn on_opt, void *ctx, int *first);

/*
 * The command-line parser of every command but trace, which has its own
 * options after it (both through ma_getopt()): fills opts with the
 * options, which may stand anywhere, and leaves in argv[1..] the command
 * and its positional arguments. An option of another command is refused. Returns
 * -1 when all is well, else an enum ma_exit to exit with (the reason
 * printed on one line).
 */
int ma_parse_args(int *argc, char **argv, struct ma_opts *opts);

#endif
