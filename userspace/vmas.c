// SPDX-License-Identifier: GPL-2.0
/*
 * `mlock-audit vmas [-p PID] [-s KEY]`: one row per locked VMA, from
 * the module's vmas file. The pid filter is applied here: the module's pid
 * parameter is global and left alone. Page counts of the file are 4 KiB
 * pages; the table shows kB, JSON and Prometheus bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "exit-codes.h"
#include "out.h"
#include "parse.h"
#include "vmas.h"

#define PAGE_KB 4ULL
#define PAGE_BYTES 4096ULL

enum sort_key { SORT_MISSED, SORT_RESIDENT, SORT_MLOCKED, SORT_PARTIAL,
		SORT_SIZE, SORT_PID, SORT_START };

static const char *const sort_names[] = {
	"missed", "resident", "mlocked", "partial", "size", "pid", "start",
};

static enum sort_key sort_by;

static unsigned long long sort_value(const struct ma_vma *v)
{
	switch (sort_by) {
	case SORT_MISSED:
		return v->missed;
	case SORT_RESIDENT:
		return v->resident;
	case SORT_MLOCKED:
		return v->mlocked;
	case SORT_PARTIAL:
		return v->partial;
	case SORT_SIZE:
		return v->end - v->start;
	default:
		return 0;
	}
}

static int cmp_vma(const void *pa, const void *pb)
{
	const struct ma_vma *a = pa, *b = pb;
	unsigned long long x = sort_value(a), y = sort_value(b);

	if (x != y)	/* the figures sort largest first */
		return x < y ? 1 : -1;
	if (sort_by != SORT_START && a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

static void orders_str(const struct ma_vma *v, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = 0;
	for (i = MA_ORDERS - 1; i > 0; i--)
		if (v->orders[i] && off < len)
			off += snprintf(buf + off, len - off, "%s%d:%llu", off ? "," : "",
					i, v->orders[i]);
	if (!off)
		snprintf(buf, len, "-");
}

static void print_table(const struct ma_vmas *vm, FILE *f)
{
	char range[40], ord[256];
	size_t i, n;

	fprintf(f, "%7s %-16s %-33s %10s %-7s %-7s %10s %10s %10s %10s %10s %8s %-10s %s\n",
		"PID", "COMM", "START-END", "SIZE", "FLAGS", "BACKING", "RESIDENT",
		"MLOCKED", "MISSED", "CROSSED", "PARTIAL", "SMALL", "ORDERS", "PATH");
	for (i = 0; i < vm->n; i++) {
		const struct ma_vma *v = &vm->v[i];

		fprintf(f, "%7d ", v->pid);
		n = ma_table_str(f, v->comm, strlen(v->comm));
		fprintf(f, "%*s ", n < 16 ? (int)(16 - n) : 0, "");
		snprintf(range, sizeof(range), "%llx-%llx", v->start, v->end);
		orders_str(v, ord, sizeof(ord));
		fprintf(f, "%-33s %10llu %-7s %-7s %10llu %10llu %10llu %10llu %10llu %8llu %-10s ",
			range, (v->end - v->start) >> 10, v->flags, v->backing,
			v->resident * PAGE_KB, v->mlocked * PAGE_KB,
			v->missed * PAGE_KB, v->missed_crossed * PAGE_KB,
			v->partial * PAGE_KB, v->small_unmlocked * PAGE_KB, ord);
		if (v->path)
			ma_table_str(f, v->path, v->pathlen);
		else
			putc('-', f);
		putc('\n', f);
	}
	fprintf(f, "(%zu locked VMAs; sizes in kB; sorted by %s)\n", vm->n,
		sort_names[sort_by]);
}

static void print_json(const struct ma_vmas *vm, int pid, FILE *f)
{
	size_t i;
	int k;

	fprintf(f, "{\n  \"format_version\": %d,\n  \"module_loaded\": true,\n",
		MA_FORMAT_SUPPORTED);
	if (pid)
		fprintf(f, "  \"pid_filter\": %d,\n", pid);
	else
		fprintf(f, "  \"pid_filter\": null,\n");
	fprintf(f, "  \"sort\": \"%s\",\n  \"vmas\": [", sort_names[sort_by]);
	for (i = 0; i < vm->n; i++) {
		const struct ma_vma *v = &vm->v[i];
		bool first = true;

		fprintf(f, "%s\n    {\"pid\": %d, \"comm\": ", i ? "," : "", v->pid);
		ma_json_str(f, v->comm, strlen(v->comm));
		fprintf(f, ", \"start\": \"%llx\", \"end\": \"%llx\", \"size_bytes\": %llu",
			v->start, v->end, v->end - v->start);
		fprintf(f, ", \"flags\": \"%s\", \"backing\": \"%s\"", v->flags, v->backing);
		fprintf(f, ", \"resident_bytes\": %llu, \"mlocked_bytes\": %llu",
			v->resident * PAGE_BYTES, v->mlocked * PAGE_BYTES);
		fprintf(f, ", \"missed_bytes\": %llu, \"missed_crossed_bytes\": %llu",
			v->missed * PAGE_BYTES, v->missed_crossed * PAGE_BYTES);
		fprintf(f, ", \"partial_bytes\": %llu, \"small_unmlocked_bytes\": %llu",
			v->partial * PAGE_BYTES, v->small_unmlocked * PAGE_BYTES);
		fprintf(f, ", \"orders\": [");
		for (k = MA_ORDERS - 1; k > 0; k--) {
			if (!v->orders[k])
				continue;
			fprintf(f, "%s{\"order\": %d, \"folios\": %llu}", first ? "" : ", ",
				k, v->orders[k]);
			first = false;
		}
		fprintf(f, "], \"path\": ");
		if (v->path)
			ma_json_str(f, v->path, v->pathlen);
		else
			fputs("null", f);
		putc('}', f);
	}
	fprintf(f, "%s]\n}\n", vm->n ? "\n  " : "");
}

struct proc_agg {
	int pid;
	const char *comm;
	unsigned long long vmas, resident, mlocked, missed, crossed, partial, small;
};

static int cmp_pid(const void *pa, const void *pb)
{
	const struct ma_vma *a = pa, *b = pb;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

static void prom_labels(FILE *f, const struct proc_agg *p)
{
	fprintf(f, "{pid=\"%d\",comm=\"", p->pid);
	ma_prom_label(f, p->comm, strlen(p->comm));
	putc('"', f);
}

/* Per-process sums; the rows sorted by pid. */
static void print_prom(struct ma_vmas *vm, FILE *f)
{
	static const struct {
		const char *name, *help;
	} fam[] = {
		{ "mlock_audit_process_locked_vmas", "Locked VMAs of the process." },
		{ "mlock_audit_process_resident_bytes",
		  "Memory mapped in the process's locked VMAs (pages shared between VMAs count in each)." },
		{ "mlock_audit_process_mlocked_bytes",
		  "The part of mlock_audit_process_resident_bytes in mlocked folios." },
		{ "mlock_audit_process_undercount_bytes",
		  "Locked memory of the process that Mlocked leaves out." },
		{ "mlock_audit_process_undercount_missed_crossed_bytes",
		  "The part of the process's missed cause in folios whose mapping crosses a page-table boundary." },
		{ "mlock_audit_process_undercount_cause_bytes",
		  "The process's undercount by cause; the causes add up to mlock_audit_process_undercount_bytes." },
	};
	static const char *const causes[] = {
		"missed", "partial", "small_unmlocked",
	};
	struct proc_agg *agg = calloc(vm->n ? vm->n : 1, sizeof(*agg));
	size_t i, n = 0, k;
	int c;

	if (!agg) {
		fprintf(stderr, "%s: out of memory\n", MA_NAME);
		return;
	}
	qsort(vm->v, vm->n, sizeof(*vm->v), cmp_pid);
	for (i = 0; i < vm->n; i++) {
		const struct ma_vma *v = &vm->v[i];
		struct proc_agg *p;

		if (!n || agg[n - 1].pid != v->pid) {
			agg[n].pid = v->pid;
			agg[n].comm = v->comm;
			n++;
		}
		p = &agg[n - 1];
		p->vmas++;
		p->resident += v->resident;
		p->mlocked += v->mlocked;
		p->missed += v->missed;
		p->crossed += v->missed_crossed;
		p->partial += v->partial;
		p->small += v->small_unmlocked;
	}
	for (k = 0; k < sizeof(fam) / sizeof(fam[0]); k++) {
		ma_prom_family(f, fam[k].name, "gauge", fam[k].help);
		for (i = 0; i < n; i++) {
			const struct proc_agg *p = &agg[i];
			unsigned long long val[] = {
				p->vmas, p->resident * PAGE_BYTES, p->mlocked * PAGE_BYTES,
				(p->missed + p->partial + p->small) * PAGE_BYTES,
				p->crossed * PAGE_BYTES,
			};
			unsigned long long cause[] = {
				p->missed, p->partial, p->small,
			};

			if (k < 5) {
				fputs(fam[k].name, f);
				prom_labels(f, p);
				fprintf(f, "} %llu\n", val[k]);
				continue;
			}
			for (c = 0; c < 3; c++) {
				fputs(fam[k].name, f);
				prom_labels(f, p);
				fprintf(f, ",cause=\"%s\"} %llu\n", causes[c],
					cause[c] * PAGE_BYTES);
			}
		}
	}
	free(agg);
}

static int usage_err(const char *what, const char *arg)
{
	fprintf(stderr, "%s: vmas: %s '%s' (usage: %s vmas [-p PID] [-s KEY]; keys: %s)\n",
		MA_NAME, what, arg, MA_NAME, MA_VMAS_SORT_KEYS);
	return MA_EXIT_USAGE;
}

int ma_cmd_vmas(const struct ma_opts *o, int argc, char **argv)
{
	char msg[MA_MSG_LEN];
	struct ma_vmas vm;
	size_t i, n;
	int pid = o->pid, ret;

	if (argc > 1)
		return usage_err("unexpected argument", argv[1]);
	sort_by = SORT_MISSED;
	if (o->sort) {
		for (n = 0; n < sizeof(sort_names) / sizeof(sort_names[0]); n++)
			if (!strcmp(o->sort, sort_names[n]))
				break;
		if (n == sizeof(sort_names) / sizeof(sort_names[0]))
			return usage_err("unknown sort key", o->sort);
		sort_by = (enum sort_key)n;
	}
	if (o->fail_over_set) {
		fprintf(stderr, "%s: --fail-over applies to summary and watch, not vmas\n",
			MA_NAME);
		return MA_EXIT_USAGE;
	}

	ret = ma_env_check(o, msg, sizeof(msg));
	if (!ret)
		ret = ma_parse_vmas(o, &vm, msg);
	if (ret) {
		fprintf(stderr, "%s: %s\n", MA_NAME, msg);
		return ret;
	}
	for (i = 0, n = 0; i < vm.n; i++) {
		if (pid && vm.v[i].pid != pid) {
			free(vm.v[i].path);
			continue;
		}
		vm.v[n++] = vm.v[i];
	}
	vm.n = n;
	qsort(vm.v, vm.n, sizeof(*vm.v), cmp_vma);

	if (o->fmt == MA_FMT_JSON)
		print_json(&vm, pid, stdout);
	else if (o->fmt == MA_FMT_PROM)
		print_prom(&vm, stdout);
	else
		print_table(&vm, stdout);
	ma_vmas_free(&vm);
	return fflush(stdout) ? MA_EXIT_ERROR : MA_EXIT_OK;
}
