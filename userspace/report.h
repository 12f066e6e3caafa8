/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The summary report: the module's summary, version and fixes files with
 * the /proc cross-checks, loaded once and printed as a table, JSON or
 * Prometheus text (summary.c).
 */
#ifndef MLOCK_AUDIT_REPORT_H
#define MLOCK_AUDIT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "crosscheck.h"
#include "parse.h"

struct ma_report {
	int status;		/* enum ma_exit of loading the module's files */
	char msg[MA_MSG_LEN];	/* why, when status is not MA_EXIT_OK */
	bool loaded;		/* module loaded (assumed with --dir) */
	struct ma_version ver;
	struct ma_summary sum;
	struct ma_fixes fixes;
	struct ma_cross cross;
};

/*
 * Load the report. The cross-checks are always read. Returns r->status;
 * the report can be printed when it is MA_EXIT_OK or an environment error
 * (ma_report_printable()).
 */
int ma_report_load(const struct ma_opts *o, struct ma_report *r);
void ma_report_free(struct ma_report *r);
bool ma_report_printable(const struct ma_report *r);
void ma_report_print(const struct ma_opts *o, const struct ma_report *r, FILE *f);

/* --fail-over: MA_EXIT_FAIL_OVER when the undercount exceeds the limit. */
bool ma_fail_over_exceeded(const struct ma_opts *o, const struct ma_report *r);

/* `mlock-audit [summary]` */
int ma_cmd_summary(const struct ma_opts *o, int argc, char **argv);

#endif
