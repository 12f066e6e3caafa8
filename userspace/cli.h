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
 * Remove the global options from argv (they may stand anywhere before the
 * `trace` command) and fill opts. Returns -1 when all is well, else an
 * enum ma_exit to exit with (usage printed). *help is set for -h/--help.
 */
int ma_parse_global(int *argc, char **argv, struct ma_opts *opts, bool *help);

#endif
