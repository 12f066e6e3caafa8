// SPDX-License-Identifier: GPL-2.0
/*
 * `mlock-audit summary`: the module's figures beside the /proc cross-checks,
 * and the live fixes, as a table, JSON or Prometheus text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "exit-codes.h"
#include "out.h"
#include "report.h"

#define KIB 1024ULL

int ma_report_load(const struct ma_opts *o, struct ma_report *r)
{
	memset(r, 0, sizeof(*r));
	ma_crosscheck(o, &r->cross);
	r->status = ma_env_check(o, r->msg, sizeof(r->msg));
	r->loaded = ma_module_loaded(o);
	if (r->status)
		return r->status;
	/* version first: the cheapest file tells a lockdown or root refusal */
	r->status = ma_parse_version(o, &r->ver, r->msg);
	if (!r->status)
		r->status = ma_parse_summary(o, &r->sum, r->msg);
	if (!r->status)
		r->status = ma_parse_fixes(o, &r->fixes, r->msg);
	return r->status;
}

void ma_report_free(struct ma_report *r)
{
	ma_fixes_free(&r->fixes);
}

bool ma_report_printable(const struct ma_report *r)
{
	switch (r->status) {
	case MA_EXIT_OK:
	case MA_EXIT_NOT_LOADED:
	case MA_EXIT_NO_DEBUGFS:
	case MA_EXIT_NOT_ROOT:
	case MA_EXIT_LOCKDOWN:
		return true;
	default:
		return false;
	}
}

bool ma_fail_over_exceeded(const struct ma_opts *o, const struct ma_report *r)
{
	/* undercount_kb * 1024 > limit, without overflow */
	return o->fail_over_set && !r->status &&
	       r->sum.undercount_kb > o->fail_over / KIB;
}

/* ---- table ---- */

static void row(FILE *f, const char *label, unsigned long long kb,
		const char *cross)
{
	char h[64];

	if (cross)
		fprintf(f, "%-22s %-28s%s\n", label, ma_human_kb(kb, h, sizeof(h)), cross);
	else
		fprintf(f, "%-22s %s\n", label, ma_human_kb(kb, h, sizeof(h)));
}

static const char *cross_kb(char *buf, size_t len, bool ok, unsigned long long kb,
			    const char *what)
{
	char h[64];

	if (!ok)
		snprintf(buf, len, "? (%s unreadable)", what);
	else
		snprintf(buf, len, "%s (%s)", ma_human_kb(kb, h, sizeof(h)), what);
	return buf;
}

/* What the table shows beside a field: a /proc figure, or NULL */
static const char *cross_text(char *buf, size_t len, const struct ma_cross *c,
			      enum ma_cross_kind kind)
{
	char h[64];

	switch (kind) {
	case MA_CROSS_MEMINFO_MLOCKED:
		return cross_kb(buf, len, c->meminfo_ok, c->meminfo_mlocked_kb,
				"/proc/meminfo Mlocked");
	case MA_CROSS_SMAPS_LOCKED:
		if (c->smaps_ok)
			snprintf(buf, len, "%s (smaps_rollup Locked, %lu processes; %lu skipped)",
				 ma_human_kb(c->smaps_locked_kb, h, sizeof(h)), c->smaps_read,
				 c->smaps_skipped);
		else
			snprintf(buf, len, "? (no smaps_rollup readable)");
		return buf;
	case MA_CROSS_MEMINFO_UNEVICTABLE:
		return cross_kb(buf, len, c->meminfo_ok, c->meminfo_unevictable_kb,
				"/proc/meminfo Unevictable");
	case MA_CROSS_NONE:
		break;
	}
	return NULL;
}

static void print_fixes_table(FILE *f, const struct ma_fixes *fx)
{
	size_t i, j;

	fprintf(f, "%-22s %s", "Livepatch", ma_kv_get(fx->lp, fx->nlp, "state"));
	for (i = 0; i < fx->nlp; i++)
		if (strcmp(fx->lp[i].key, "state"))
			fprintf(f, " %s=%s", fx->lp[i].key, fx->lp[i].val);
	putc('\n', f);
	for (i = 0; i < fx->n; i++) {
		char label[48];

		snprintf(label, sizeof(label), "Fix %s", fx->v[i].name);
		fprintf(f, "%-22s %-11s", label, fx->v[i].state);
		for (j = 0; j < fx->v[i].nf; j++)
			fprintf(f, " %s=%s", fx->v[i].f[j].key, fx->v[i].f[j].val);
		fprintf(f, "%s%s\n", fx->v[i].nf ? "; " : " ", fx->v[i].detail);
	}
}

static void print_cross_table(FILE *f, const struct ma_cross *c)
{
	char b[128], h[64];
	int i;

	fprintf(f, "%-22s %s\n", "/proc/meminfo Mlocked",
		c->meminfo_ok ? ma_human_kb(c->meminfo_mlocked_kb, h, sizeof(h)) : "? (unreadable)");
	fprintf(f, "%-22s %s\n", "smaps_rollup Locked",
		c->smaps_ok ? ma_human_kb(c->smaps_locked_kb, h, sizeof(h)) : "? (none readable)");
	fprintf(f, "%-22s %lu processes read, %lu skipped\n", "", c->smaps_read,
		c->smaps_skipped);
	fprintf(f, "%-22s %s\n", "/proc/meminfo Unevict.",
		c->meminfo_ok ? ma_human_kb(c->meminfo_unevictable_kb, h, sizeof(h)) : "? (unreadable)");
	for (i = 0; i < MA_NR_EVENTS; i++) {
		snprintf(b, sizeof(b), "unevictable_pgs_%s", ma_event_names[i]);
		if (c->vmstat_ok)
			fprintf(f, "%-26s %14llu\n", b, c->events[i]);
		else
			fprintf(f, "%-26s %14s\n", b, "?");
	}
}

static void print_table(const struct ma_opts *o, const struct ma_report *r, FILE *f)
{
	const struct ma_summary *s = &r->sum;
	const struct ma_cross *c = &r->cross;
	char b[160], h[64], h2[64];
	const char *lock;
	size_t j;
	int i;

	if (r->status) {
		fprintf(f, "Module: %s\n", r->loaded ? "unavailable" : "not loaded");
		fprintf(f, "  %s\n", r->msg);
		lock = ma_lockdown(o);
		if (lock && !strcmp(lock, "confidentiality"))
			fprintf(f, "Still works: the cross-checks below.\n\n");
		else
			fprintf(f, "Still works: the cross-checks below, and 'mlock-audit trace'.\n\n");
		fprintf(f, "Cross-checks\n");
		print_cross_table(f, c);
		return;
	}
	fprintf(f, "mlock_audit %s on kernel %s (built for %s)\n\n", r->ver.module,
		r->ver.kernel, r->ver.built_for);
	fprintf(f, "%-22s %-28s%s\n", "", "module", "cross-check");
	for (j = 0; j < ma_nfields; j++)
		if (ma_fields[j].row)
			row(f, ma_fields[j].row, ma_field_raw(s, &ma_fields[j]),
			    cross_text(b, sizeof(b), c, ma_fields[j].cross));
	fprintf(f, "\n%-26s %14s %14s\n", "vmstat event", "module", "/proc/vmstat");
	for (i = 0; i < MA_NR_EVENTS; i++) {
		snprintf(b, sizeof(b), "unevictable_pgs_%s", ma_event_names[i]);
		snprintf(h, sizeof(h), "%llu", c->events[i]);
		fprintf(f, "%-26s %14llu %14s\n", b, s->events[i], c->vmstat_ok ? h : "?");
	}
	fprintf(f, "\n%-22s %llu processes, %llu locked VMAs (%llu changed during the walk), bitmap %s\n",
		"Walked", s->processes, s->locked_vmas, s->changed_vmas,
		ma_human_kb(s->bitmap_kb, h, sizeof(h)));
	fprintf(f, "%-22s %llu locked VM_PFNMAP/VM_IO VMAs (no struct pages)\n",
		"Not walked", s->pfnmap_vmas);
	fprintf(f, "%-22s %llu VMAs, %s (never VM_LOCKED, never on the LRU: not in the figures)\n",
		"hugetlb", s->hugetlb_vmas, ma_human_kb(s->hugetlb_vma_kb, h2, sizeof(h2)));
	putc('\n', f);
	print_fixes_table(f, &r->fixes);
	if (o->fail_over_set)
		fprintf(f, "\n%-22s undercount %llu bytes %s limit %llu bytes\n",
			"Fail-over", s->undercount_kb * KIB,
			ma_fail_over_exceeded(o, r) ? ">" : "<=", o->fail_over);
}

/* ---- JSON ---- */

/* @sep, then "KEY": VALUE; a value that is a number stays one. */
static void json_kv(FILE *f, const char *sep, const struct ma_kv *kv)
{
	fputs(sep, f);
	ma_json_cstr(f, kv->key);
	fputs(": ", f);
	if (ma_is_int(kv->val))
		fputs(kv->val, f);
	else
		ma_json_cstr(f, kv->val);
}

static void print_json_cross(FILE *f, const struct ma_cross *c)
{
	int i;

	fprintf(f, "  \"crosscheck\": {\n");
	if (c->meminfo_ok)
		fprintf(f, "    \"meminfo\": {\"mlocked_bytes\": %llu, \"unevictable_bytes\": %llu},\n",
			c->meminfo_mlocked_kb * KIB, c->meminfo_unevictable_kb * KIB);
	else
		fprintf(f, "    \"meminfo\": null,\n");
	if (c->vmstat_ok) {
		fprintf(f, "    \"vmstat\": {");
		for (i = 0; i < MA_NR_EVENTS; i++)
			fprintf(f, "%s\"unevictable_pgs_%s\": %llu", i ? ", " : "",
				ma_event_names[i], c->events[i]);
		fprintf(f, "},\n");
	} else {
		fprintf(f, "    \"vmstat\": null,\n");
	}
	fprintf(f, "    \"smaps_rollup\": {\"locked_bytes\": ");
	if (c->smaps_ok)
		fprintf(f, "%llu", c->smaps_locked_kb * KIB);
	else
		fprintf(f, "null");
	fprintf(f, ", \"processes_read\": %lu, \"processes_skipped\": %lu}\n  }",
		c->smaps_read, c->smaps_skipped);
}

static void print_json(const struct ma_opts *o, const struct ma_report *r, FILE *f)
{
	const struct ma_summary *s = &r->sum;
	const struct ma_fixes *fx = &r->fixes;
	size_t i, j;

	fprintf(f, "{\n  \"format_version\": %d,\n", MA_FORMAT_SUPPORTED);
	fprintf(f, "  \"module_loaded\": %s,\n", r->loaded ? "true" : "false");
	fprintf(f, "  \"error\": ");
	if (r->status) {
		ma_json_cstr(f, r->msg);
		fprintf(f, ",\n  \"exit_code\": %d,\n", r->status);
	} else {
		fprintf(f, "null,\n");
	}
	if (!r->status) {
		fprintf(f, "  \"version\": {\"module\": ");
		ma_json_cstr(f, r->ver.module);
		fprintf(f, ", \"kernel\": ");
		ma_json_cstr(f, r->ver.kernel);
		fprintf(f, ", \"built_for\": ");
		ma_json_cstr(f, r->ver.built_for);
		fprintf(f, "},\n  \"summary\": {\n");
		for (i = 0; i < ma_nfields; i++)
			fprintf(f, "    \"%s\": %llu%s\n", ma_fields[i].json,
				ma_field_out(s, &ma_fields[i]), i + 1 < ma_nfields ? "," : "");
		fprintf(f, "  },\n");
		fprintf(f, "  \"livepatch\": {");
		for (i = 0; i < fx->nlp; i++)
			json_kv(f, i ? ", " : "", &fx->lp[i]);
		fprintf(f, "},\n  \"fixes\": [");
		for (i = 0; i < fx->n; i++) {
			fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
			ma_json_cstr(f, fx->v[i].name);
			fprintf(f, ", \"state\": ");
			ma_json_cstr(f, fx->v[i].state);
			for (j = 0; j < fx->v[i].nf; j++)
				json_kv(f, ", ", &fx->v[i].f[j]);
			fprintf(f, ", \"detail\": ");
			ma_json_cstr(f, fx->v[i].detail);
			putc('}', f);
		}
		fprintf(f, "%s],\n", fx->n ? "\n  " : "");
	}
	print_json_cross(f, &r->cross);
	if (o->fail_over_set)
		fprintf(f, ",\n  \"fail_over\": {\"limit_bytes\": %llu, \"exceeded\": %s}",
			o->fail_over, ma_fail_over_exceeded(o, r) ? "true" : "false");
	fprintf(f, "\n}\n");
}

/* ---- Prometheus ---- */

static void prom1(FILE *f, const char *name, const char *type, const char *help,
		  unsigned long long v)
{
	ma_prom_family(f, name, type, help);
	fprintf(f, "%s %llu\n", name, v);
}

static void prom_cross(FILE *f, const struct ma_cross *c)
{
	int i;

	if (c->meminfo_ok) {
		prom1(f, "mlock_audit_meminfo_mlocked_bytes", "gauge",
		      "Mlocked of /proc/meminfo.", c->meminfo_mlocked_kb * KIB);
		prom1(f, "mlock_audit_meminfo_unevictable_bytes", "gauge",
		      "Unevictable of /proc/meminfo.", c->meminfo_unevictable_kb * KIB);
	}
	if (c->smaps_ok)
		prom1(f, "mlock_audit_smaps_locked_bytes", "gauge",
		      "Sum of Locked (proportional share) over /proc/PID/smaps_rollup of the processes read.",
		      c->smaps_locked_kb * KIB);
	prom1(f, "mlock_audit_smaps_processes_read", "gauge",
	      "Processes whose smaps_rollup was read for mlock_audit_smaps_locked_bytes.",
	      c->smaps_read);
	prom1(f, "mlock_audit_smaps_processes_skipped", "gauge",
	      "Processes skipped: exited during the scan, kernel threads, or access denied.",
	      c->smaps_skipped);
	if (c->vmstat_ok) {
		ma_prom_family(f, "mlock_audit_vmstat_unevictable_pgs_total", "counter",
			       "unevictable_pgs_* events of /proc/vmstat.");
		for (i = 0; i < MA_NR_EVENTS; i++)
			fprintf(f, "mlock_audit_vmstat_unevictable_pgs_total{event=\"%s\"} %llu\n",
				ma_event_names[i], c->events[i]);
	}
}

/* Is field j a member of the labelled family (causes, events) of field i? */
static bool prom_same_family(size_t j, size_t i)
{
	return ma_fields[j].lval && !strcmp(ma_fields[j].prom, ma_fields[i].prom);
}

/* Is field i the first of its labelled family? */
static bool prom_family_first(size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (prom_same_family(j, i))
			return false;
	return true;
}

/*
 * The summary's fields in file order; a labelled family at its first
 * member, with all of them (a family's samples must be together).
 */
static void prom_summary(FILE *f, const struct ma_summary *s)
{
	const struct ma_field *fl;
	size_t i, j;

	for (i = 0; i < ma_nfields; i++) {
		fl = &ma_fields[i];
		if (!fl->lval) {
			prom1(f, fl->prom, "gauge", fl->help, ma_field_out(s, fl));
			continue;
		}
		if (!prom_family_first(i))
			continue;
		ma_prom_family(f, fl->prom, fl->kind == MA_FIELD_EVENT ? "counter" : "gauge",
			       fl->help);
		for (j = i; j < ma_nfields; j++)
			if (prom_same_family(j, i))
				fprintf(f, "%s{%s=\"%s\"} %llu\n", fl->prom,
					fl->kind == MA_FIELD_EVENT ? "event" : "cause",
					ma_fields[j].lval, ma_field_out(s, &ma_fields[j]));
	}
}

/* The livepatch line: its state, transition time and folio counters */
static void prom_livepatch(FILE *f, const struct ma_fixes *fx)
{
	const char *v;
	size_t i;

	ma_prom_family(f, "mlock_audit_livepatch_info", "gauge",
		       "State of the module's livepatch (none, loading, transition, enabled, disabling, disabled, replaced); always 1.");
	fprintf(f, "mlock_audit_livepatch_info{state=\"");
	v = ma_kv_get(fx->lp, fx->nlp, "state");
	ma_prom_label(f, v, strlen(v));
	fprintf(f, "\"} 1\n");
	v = ma_kv_get(fx->lp, fx->nlp, "transition_ms");
	if (v && ma_is_int(v) && *v != '-') {
		long long ms = strtoll(v, NULL, 10);

		ma_prom_family(f, "mlock_audit_livepatch_transition_seconds", "gauge",
			       "Time from the start of enabling the livepatch to the end of its transition.");
		fprintf(f, "mlock_audit_livepatch_transition_seconds %lld.%03lld\n",
			ms / 1000, ms % 1000);
	}
	ma_prom_family(f, "mlock_audit_livepatch_folios_total", "counter",
		       "Large folios the livepatch's replacements mlocked or mapped whole, by event.");
	for (i = 0; i < fx->nlp; i++) {
		if (!strcmp(fx->lp[i].key, "state") ||
		    !strcmp(fx->lp[i].key, "transition_ms") ||
		    !ma_is_int(fx->lp[i].val) || fx->lp[i].val[0] == '-')
			continue;
		fprintf(f, "mlock_audit_livepatch_folios_total{event=\"");
		ma_prom_label(f, fx->lp[i].key, strlen(fx->lp[i].key));
		fprintf(f, "\"} %s\n", fx->lp[i].val);
	}
}

/* Each fix's state, and the memory its repair and undo walks moved */
static void prom_fixes(FILE *f, const struct ma_fixes *fx)
{
	const char *v;
	size_t i;
	int e;

	ma_prom_family(f, "mlock_audit_fix_info", "gauge",
		       "Each live fix and its state (active, pending, off, upstream, unsupported, unverified); always 1.");
	for (i = 0; i < fx->n; i++) {
		fprintf(f, "mlock_audit_fix_info{fix=\"");
		ma_prom_label(f, fx->v[i].name, strlen(fx->v[i].name));
		fprintf(f, "\",state=\"");
		ma_prom_label(f, fx->v[i].state, strlen(fx->v[i].state));
		fprintf(f, "\"} 1\n");
	}
	for (e = 0; e < 2; e++) {
		const char *key = e ? "undone_pages" : "repaired_pages";
		bool head = false;

		for (i = 0; i < fx->n; i++) {
			v = ma_kv_get(fx->v[i].f, fx->v[i].nf, key);
			if (!v || !ma_is_int(v) || *v == '-')
				continue;
			if (!head)
				ma_prom_family(f, e ? "mlock_audit_fix_undone_bytes" :
					       "mlock_audit_fix_repaired_bytes", "gauge",
					       e ? "Memory the fix munlocked when it was disabled." :
					       "Memory the fix mlocked by its repair walk at load.");
			head = true;
			fprintf(f, "mlock_audit_fix_%s_bytes{fix=\"", e ? "undone" : "repaired");
			ma_prom_label(f, fx->v[i].name, strlen(fx->v[i].name));
			fprintf(f, "\"} %llu\n", strtoull(v, NULL, 10) * 4096);
		}
	}
}

static void print_prom(const struct ma_report *r, FILE *f)
{

	prom1(f, "mlock_audit_module_loaded", "gauge",
	      "1 if the mlock_audit kernel module is loaded.", r->loaded);
	prom1(f, "mlock_audit_up", "gauge",
	      "1 if the module's debugfs files were read; 0 leaves only the cross-checks.",
	      !r->status);
	if (!r->status) {
		ma_prom_family(f, "mlock_audit_build_info", "gauge",
			       "Module version, running kernel and kernel built for; always 1.");
		fprintf(f, "mlock_audit_build_info{module=\"");
		ma_prom_label(f, r->ver.module, strlen(r->ver.module));
		fprintf(f, "\",kernel=\"");
		ma_prom_label(f, r->ver.kernel, strlen(r->ver.kernel));
		fprintf(f, "\",built_for=\"");
		ma_prom_label(f, r->ver.built_for, strlen(r->ver.built_for));
		fprintf(f, "\"} 1\n");
		prom_summary(f, &r->sum);
		prom_livepatch(f, &r->fixes);
		prom_fixes(f, &r->fixes);
	}
	prom_cross(f, &r->cross);
}

void ma_report_print(const struct ma_opts *o, const struct ma_report *r, FILE *f)
{
	switch (o->fmt) {
	case MA_FMT_JSON:
		print_json(o, r, f);
		break;
	case MA_FMT_PROM:
		print_prom(r, f);
		break;
	default:
		print_table(o, r, f);
	}
}

int ma_cmd_summary(const struct ma_opts *o, int argc, char **argv)
{
	struct ma_report r;
	int ret;

	if (argc > 1) {
		fprintf(stderr, "%s: summary: unexpected argument '%s' (see %s --help)\n",
			MA_NAME, argv[1], MA_NAME);
		return MA_EXIT_USAGE;
	}
	ret = ma_report_load(o, &r);
	if (ret)
		fprintf(stderr, "%s: %s\n", MA_NAME, r.msg);
	if (ma_report_printable(&r)) {
		ma_report_print(o, &r, stdout);
		/*
		 * --json and --prometheus carry the state in the document
		 * (module_loaded, mlock_audit_up): a complete one exits 0, so
		 * that "... > f.$$ && mv f.$$ f.prom" replaces a stale file.
		 * Not with --fail-over: a gate that could not check must not
		 * pass.
		 */
		if (o->fmt != MA_FMT_TABLE && !o->fail_over_set)
			ret = MA_EXIT_OK;
		if (!ret && ma_fail_over_exceeded(o, &r))
			ret = MA_EXIT_FAIL_OVER;
	}
	ma_report_free(&r);
	if (fflush(stdout) && !ret)
		ret = MA_EXIT_ERROR;
	return ret;
}
