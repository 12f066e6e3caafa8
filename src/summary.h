/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The figures of the debugfs file "summary", shared by the module and the
 * reporter: struct ma_summary has one member per field of
 * summary_fields.h, and the vmstat events an index each.
 */
#ifndef MLOCK_AUDIT_SUMMARY_H
#define MLOCK_AUDIT_SUMMARY_H

#define MA_CAUSE_PROM	"mlock_audit_undercount_cause_bytes"
#define MA_CAUSE_HELP	"The undercount by cause; the causes add up to mlock_audit_undercount_bytes."
#define MA_EVENT_PROM	"mlock_audit_unevictable_pgs_total"
#define MA_EVENT_HELP	"unevictable_pgs_* vmstat events, read by the module."

/* What the table form shows beside a field */
enum ma_cross_kind {
	MA_CROSS_NONE,
	MA_CROSS_MEMINFO_MLOCKED,	/* /proc/meminfo Mlocked */
	MA_CROSS_SMAPS_LOCKED,		/* Locked summed over smaps_rollup */
	MA_CROSS_MEMINFO_UNEVICTABLE,	/* /proc/meminfo Unevictable */
};

enum ma_summary_event {
#define MA_SIZE(...)
#define MA_COUNT(...)
#define MA_EVENT(name) MA_EVENT_##name,
#include "summary_fields.h"
#undef MA_SIZE
#undef MA_COUNT
#undef MA_EVENT
	MA_NR_EVENTS
};

struct ma_summary {
	unsigned long long
#define MA_SIZE(key, ...) key,
#define MA_COUNT(key, ...) key,
#define MA_EVENT(name)
#include "summary_fields.h"
#undef MA_SIZE
#undef MA_COUNT
#undef MA_EVENT
		events[MA_NR_EVENTS];
};

#endif
