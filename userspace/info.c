// SPDX-License-Identifier: GPL-2.0
/*
 * `mlock-audit version` and `mlock-audit probes`: the module's version and
 * probes files, as a table, JSON or (probes) Prometheus counters.
 */
#include <stdio.h>
#include <string.h>

#include "env.h"
#include "exit-codes.h"
#include "info.h"
#include "out.h"

static int no_args(int argc, char **argv)
{
	if (argc <= 1)
		return MA_EXIT_OK;
	fprintf(stderr, "%s: %s: unexpected argument '%s' (see %s --help)\n",
		MA_NAME, argv[0], argv[1], MA_NAME);
	return MA_EXIT_USAGE;
}

static int load_err(int ret, const char *msg)
{
	fprintf(stderr, "%s: %s\n", MA_NAME, msg);
	return ret;
}

int ma_cmd_version(const struct ma_opts *o, int argc, char **argv)
{
	char msg[MA_MSG_LEN];
	struct ma_version v;
	int ret = no_args(argc, argv);

	if (ret)
		return ret;
	if (o->fmt == MA_FMT_PROM) {
		fprintf(stderr, "%s: version: no Prometheus output (the summary has mlock_audit_build_info)\n",
			MA_NAME);
		return MA_EXIT_USAGE;
	}
	ret = ma_env_check(o, msg, sizeof(msg));
	if (!ret)
		ret = ma_parse_version(o, &v, msg);
	if (ret)
		return load_err(ret, msg);
	if (o->fmt == MA_FMT_JSON) {
		printf("{\"format_version\": %d, \"module\": ", MA_FORMAT_SUPPORTED);
		ma_json_cstr(stdout, v.module);
		printf(", \"kernel\": ");
		ma_json_cstr(stdout, v.kernel);
		printf(", \"built_for\": ");
		ma_json_cstr(stdout, v.built_for);
		printf("}\n");
	} else {
		printf("%-10s %s\n%-10s %s\n%-10s %s\n", "module", v.module,
		       "kernel", v.kernel, "built_for", v.built_for);
	}
	return fflush(stdout) ? MA_EXIT_ERROR : MA_EXIT_OK;
}

void ma_probes_table(const struct ma_probes *p, const struct ma_probes *prev,
		     double secs, FILE *f)
{
	size_t i;

	fprintf(f, "%-16s %-32s %12s %8s", "HOOK", "SYMBOL", "HITS", "MISSED");
	if (prev)
		fprintf(f, " %10s %10s", "DELTA", "PER-SEC");
	putc('\n', f);
	for (i = 0; i < p->n; i++) {
		const struct ma_probe *e = &p->v[i];

		if (!e->symbol[0]) {
			fprintf(f, "%-16s %s: %s\n", e->hook, e->off ? "off" : "not found",
				e->why);
			continue;
		}
		fprintf(f, "%-16s %-32s %12llu %8llu", e->hook, e->symbol, e->hits,
			e->missed);
		if (prev && i < prev->n && !strcmp(prev->v[i].symbol, e->symbol) &&
		    e->hits >= prev->v[i].hits) {
			unsigned long long d = e->hits - prev->v[i].hits;

			fprintf(f, " %+10lld %10.1f", (long long)d, secs > 0 ? d / secs : 0.0);
		} else if (prev) {
			fprintf(f, " %10s %10s", "-", "-");
		}
		if (e->by_fix)
			fputs("  counted by the live fix", f);
		putc('\n', f);
	}
}

static void probes_json(const struct ma_probes *p, FILE *f)
{
	size_t i;

	fprintf(f, "{\n  \"format_version\": %d,\n  \"probes\": [", MA_FORMAT_SUPPORTED);
	for (i = 0; i < p->n; i++) {
		const struct ma_probe *e = &p->v[i];

		fprintf(f, "%s\n    {\"hook\": ", i ? "," : "");
		ma_json_cstr(f, e->hook);
		if (e->symbol[0]) {
			fprintf(f, ", \"symbol\": ");
			ma_json_cstr(f, e->symbol);
			fprintf(f, ", \"found\": true, \"hits\": %llu, \"missed\": %llu"
				", \"counted_by\": \"%s\"}", e->hits, e->missed,
				e->by_fix ? "live fix" : "hook");
		} else if (e->off) {
			fprintf(f, ", \"symbol\": null, \"found\": false, \"off\": ");
			ma_json_cstr(f, e->why);
			putc('}', f);
		} else {
			fprintf(f, ", \"symbol\": null, \"found\": false, \"not_found\": ");
			ma_json_cstr(f, e->why);
			putc('}', f);
		}
	}
	fprintf(f, "%s]\n}\n", p->n ? "\n  " : "");
}

static void probes_prom(const struct ma_probes *p, FILE *f)
{
	size_t i;
	int k;

	for (k = 0; k < 2; k++) {
		ma_prom_family(f, k ? "mlock_audit_probe_missed_total" : "mlock_audit_probe_hits_total",
			       "counter", k ? "Hits dropped (0: the hooks are ftrace callbacks, which drop none)." :
			       "Calls of the probed kernel symbol since the module was loaded.");
		for (i = 0; i < p->n; i++) {
			const struct ma_probe *e = &p->v[i];

			if (!e->symbol[0])
				continue;
			fprintf(f, "%s{hook=\"", k ? "mlock_audit_probe_missed_total" :
				"mlock_audit_probe_hits_total");
			ma_prom_label(f, e->hook, strlen(e->hook));
			fprintf(f, "\",symbol=\"");
			ma_prom_label(f, e->symbol, strlen(e->symbol));
			fprintf(f, "\"} %llu\n", k ? e->missed : e->hits);
		}
	}
}

int ma_cmd_probes(const struct ma_opts *o, int argc, char **argv)
{
	char msg[MA_MSG_LEN];
	struct ma_probes p = { NULL, 0 };
	int ret = no_args(argc, argv);

	if (ret)
		return ret;
	ret = ma_env_check(o, msg, sizeof(msg));
	if (!ret)
		ret = ma_parse_probes(o, &p, msg);
	if (ret) {
		ma_probes_free(&p);
		return load_err(ret, msg);
	}
	if (o->fmt == MA_FMT_JSON)
		probes_json(&p, stdout);
	else if (o->fmt == MA_FMT_PROM)
		probes_prom(&p, stdout);
	else
		ma_probes_table(&p, NULL, 0, stdout);
	ma_probes_free(&p);
	return fflush(stdout) ? MA_EXIT_ERROR : MA_EXIT_OK;
}
