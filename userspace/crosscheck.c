// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-checks from /proc (or --proc DIR).
 *
 * smaps_rollup's Locked is the proportional (Pss) share of locked pages, so
 * its sum over processes counts a page shared by several locking processes
 * once, like the module's locked_kb, unless some mapper does not lock it.
 * Processes that exit during the scan or deny access are skipped and
 * counted.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "crosscheck.h"

/* Read "Key:   N kB" lines of PATH into the listed keys; number found. */
static int read_kb_keys(const char *path, const char *const *keys,
			unsigned long long *vals, int n)
{
	char line[256], key[64];
	unsigned long long v;
	int i, found = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63[^:]: %llu", key, &v) != 2)
			continue;
		for (i = 0; i < n; i++) {
			if (!strcmp(key, keys[i])) {
				vals[i] = v;
				found++;
			}
		}
	}
	if (ferror(f))
		found = -1;	/* e.g. ESRCH: a kernel thread, or gone */
	fclose(f);
	return found;
}

static void meminfo(const struct ma_opts *o, struct ma_cross *c)
{
	static const char *const keys[] = { "Mlocked", "Unevictable" };
	unsigned long long v[2] = { 0, 0 };
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/meminfo", o->proc);
	if (read_kb_keys(path, keys, v, 2) == 2) {
		c->meminfo_ok = true;
		c->meminfo_mlocked_kb = v[0];
		c->meminfo_unevictable_kb = v[1];
	}
}

static void vmstat(const struct ma_opts *o, struct ma_cross *c)
{
	char path[PATH_MAX + 16], line[256], key[64];
	unsigned long long v;
	int i, found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/vmstat", o->proc);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "unevictable_pgs_%63s %llu", key, &v) != 2)
			continue;
		for (i = 0; i < MA_NR_EVENTS; i++) {
			if (!strcmp(key, ma_event_names[i])) {
				c->events[i] = v;
				found++;
			}
		}
	}
	fclose(f);
	c->vmstat_ok = found == MA_NR_EVENTS;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static void smaps(const struct ma_opts *o, struct ma_cross *c)
{
	static const char *const keys[] = { "Locked" };
	char path[PATH_MAX + 300];
	unsigned long long v;
	struct dirent *de;
	DIR *d = opendir(o->proc);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!all_digits(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/smaps_rollup", o->proc, de->d_name);
		v = 0;
		/* vanished (ENOENT, ESRCH), no mm (kernel thread) or denied: skipped */
		if (read_kb_keys(path, keys, &v, 1) < 0) {
			c->smaps_skipped++;
			continue;
		}
		c->smaps_read++;
		c->smaps_locked_kb += v;
	}
	closedir(d);
	c->smaps_ok = c->smaps_read > 0;
}

void ma_crosscheck(const struct ma_opts *o, struct ma_cross *c)
{
	memset(c, 0, sizeof(*c));
	meminfo(o, c);
	vmstat(o, c);
	smaps(o, c);
}
