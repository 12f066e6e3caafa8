/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cross-checks from /proc, which need neither the module nor root:
 * /proc/meminfo Mlocked and Unevictable, /proc/vmstat unevictable_pgs_*,
 * and the sum of Locked over /proc/PID/smaps_rollup.
 */
#ifndef MLOCK_AUDIT_CROSSCHECK_H
#define MLOCK_AUDIT_CROSSCHECK_H

#include <stdbool.h>

#include "cli.h"
#include "parse.h"

struct ma_cross {
	bool meminfo_ok;
	unsigned long long meminfo_mlocked_kb, meminfo_unevictable_kb;
	bool vmstat_ok;
	unsigned long long events[MA_NR_EVENTS];	/* ma_event_names order */
	bool smaps_ok;	/* at least one smaps_rollup was read */
	unsigned long long smaps_locked_kb;
	unsigned long smaps_read, smaps_skipped;
};

void ma_crosscheck(const struct ma_opts *o, struct ma_cross *c);

#endif
