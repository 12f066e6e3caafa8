/* SPDX-License-Identifier: GPL-2.0 */
/* `mlock-audit version` and `mlock-audit probes`. */
#ifndef MLOCK_AUDIT_INFO_H
#define MLOCK_AUDIT_INFO_H

#include <stdio.h>

#include "cli.h"
#include "parse.h"

int ma_cmd_version(const struct ma_opts *o, int argc, char **argv);
int ma_cmd_probes(const struct ma_opts *o, int argc, char **argv);

/*
 * The probes table; with prev (same hooks, earlier read) a DELTA column
 * and hits per second over secs.
 */
void ma_probes_table(const struct ma_probes *p, const struct ma_probes *prev,
		     double secs, FILE *f);

#endif
