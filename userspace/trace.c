// SPDX-License-Identifier: GPL-2.0
/*
 * mlock-audit trace: stream what the kernel does with large folios in locked
 * VMAs, and what khugepaged scans and collapses, through BPF. It needs no
 * kernel module: the programs (trace.bpf.c) are CO-RE, relocated by libbpf
 * against the running kernel's BTF.
 *
 * Hooks, newest kernel first, each by fexit where the function has BTF and
 * else by a kprobe/kretprobe pair (or always with --kprobes):
 *   rmap:       folio_add_file_rmap_ptes + _pmd (6.8+),
 *               folio_add_file_rmap_range (6.4-6.7), page_add_file_rmap (6.1)
 *   fault:      finish_fault
 *   khugepaged: tracepoints huge_memory/mm_khugepaged_scan_pmd, _scan_file,
 *               mm_collapse_huge_page, mm_khugepaged_collapse_file
 */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "cli.h"
#include "exit-codes.h"
#include "trace.h"
#include "trace-event.h"
#include "trace.skel.h"

#define BTF_PATH "/sys/kernel/btf/vmlinux"

/* Function hooks come in groups; the functions of a group are alternatives. */
enum hook_group { G_RMAP, G_FAULT, G_NR };
static const char *const group_name[G_NR] = { "rmap", "fault" };

struct fn_hook {
	const char *sym;
	enum hook_group group;
	/* fexit, or else the kprobe and the kretprobe, are attached */
	struct bpf_program *(*fexit)(struct trace_bpf *skel);
	struct bpf_program *(*kprobe)(struct trace_bpf *skel);
	struct bpf_program *(*kretprobe)(struct trace_bpf *skel);
	const char *how;	/* "fexit", "kprobe" or NULL: not found */
	int attach_err;		/* errno of a failed attach (how stays set) */
};

#define PROG(name) \
	static struct bpf_program *prog_##name(struct trace_bpf *s) { return s->progs.name; }
PROG(fx_rmap_ptes)
PROG(fx_rmap_pmd)
PROG(fx_rmap_range)
PROG(fx_page_rmap)
PROG(kp_folio_nr_vma)
PROG(kp_folio_vma)
PROG(kp_page_vma)
PROG(krp_rmap)
PROG(fx_finish_fault)
PROG(kp_finish_fault)
PROG(krp_finish_fault)

/*
 * The hooked functions: the rmap hooks first, in enum ma_ev_hook order
 * (the index is the cookie and the slot of the counts map), then
 * finish_fault (the fault_counts map).
 */
enum { FN_FINISH_FAULT = MA_HOOK_NR, N_FN };

/*
 * The programs of each rmap-add function (trace.bpf.c): its fexit one and
 * the kprobe one of its argument layout. A function that src/hook-sites
 * adds to the module's rmap_add hook has none here until trace.bpf.c has
 * them: the build stops at its RMAP_PROGS_ name.
 */
#define RMAP_PROGS_folio_add_file_rmap_ptes	prog_fx_rmap_ptes, prog_kp_folio_nr_vma
#define RMAP_PROGS_folio_add_file_rmap_pmd	prog_fx_rmap_pmd, prog_kp_folio_vma
#define RMAP_PROGS_folio_add_file_rmap_range	prog_fx_rmap_range, prog_kp_folio_nr_vma
#define RMAP_PROGS_page_add_file_rmap		prog_fx_page_rmap, prog_kp_page_vma
#define RMAP_HOOK(fn) \
	[MA_HOOK_##fn] = { #fn, G_RMAP, RMAP_PROGS_##fn, prog_krp_rmap, NULL, 0 },

static struct fn_hook fn_hooks[N_FN] = {
	MA_HOOK_FUNCS_rmap_add(RMAP_HOOK)
	[FN_FINISH_FAULT] = { "finish_fault", G_FAULT, prog_fx_finish_fault,
			      prog_kp_finish_fault, prog_krp_finish_fault, NULL, 0 },
};


struct tp_hook {
	const char *name;	/* huge_memory/<name> */
	struct bpf_program *(*prog)(struct trace_bpf *skel);
	bool found;
	int attach_err;		/* errno of a failed attach (found stays set) */
};

PROG(tp_scan_pmd)
PROG(tp_scan_file)
PROG(tp_collapse)
PROG(tp_collapse_file)

static struct tp_hook tp_hooks[] = {
	{ "mm_khugepaged_scan_pmd", prog_tp_scan_pmd, false, 0 },
	{ "mm_khugepaged_scan_file", prog_tp_scan_file, false, 0 },
	{ "mm_collapse_huge_page", prog_tp_collapse, false, 0 },
	{ "mm_khugepaged_collapse_file", prog_tp_collapse_file, false, 0 },
};

#define N_TP (sizeof(tp_hooks) / sizeof(tp_hooks[0]))

static struct {
	double duration;	/* seconds, 0: until interrupted */
	long pid;		/* 0: all */
	bool all;		/* also mlocked folios */
	bool kprobes;		/* never fexit */
	bool verbose;
} opt;

static volatile sig_atomic_t stop;
static struct timespec t_start;
static const struct btf *vmlinux_btf;
static unsigned long long n_events[MA_EV_FAULT_SIGBUS + 1];

void trace_usage(FILE *f)
{
	fprintf(f,
		"  trace [-d SEC] [-p PID] [-a] [--kprobes] [-v]\n"
		"            stream events through BPF; works without the module.\n"
		"            rmap: a large folio mapped into a locked VMA and left\n"
		"            without PG_mlocked (with -a, mlocked ones too);\n"
		"            fault: finish_fault() returning VM_FAULT_SIGBUS;\n"
		"            khugepaged: each PMD range scanned and each collapse,\n"
		"            with its result. -d stops after SEC seconds, -p keeps\n"
		"            one process (filtered in BPF: its totals too),\n"
		"            --kprobes skips fexit, -v shows libbpf's messages.\n"
		"            Prints per-hook totals and lost events at the end.\n"
		"            Needs CAP_BPF and CAP_PERFMON (or root).\n");
}

static double since_start(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t_start.tv_sec) + (now.tv_nsec - t_start.tv_nsec) / 1e9;
}

/* libbpf's own messages only with -v: the failures are reported anyway. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (!opt.verbose || level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The name of a scan_result value, from the running kernel's BTF. */
static const char *scan_result_name(int value, char *buf, size_t len)
{
	static const struct btf_type *t;	/* looked up once: BTF is large */
	static bool looked_up;
	const struct btf_enum *e;
	int id, i;

	snprintf(buf, len, "%d", value);
	if (!looked_up && vmlinux_btf) {
		id = btf__find_by_name_kind(vmlinux_btf, "scan_result", BTF_KIND_ENUM);
		t = id < 0 ? NULL : btf__type_by_id(vmlinux_btf, id);
		looked_up = true;
	}
	if (!t)
		return buf;
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, e++)
		if (e->val == value)
			return btf__name_by_offset(vmlinux_btf, e->name_off);
	return buf;
}

/* The tracepoints report pfn -1 when there was no page (7.3 does often). */
static const char *pfn_str(unsigned long long pfn, char *buf, size_t len)
{
	if (pfn == -1ULL)
		return "-";
	snprintf(buf, len, "%#llx", pfn);
	return buf;
}

static int on_event(void *ctx, void *data, size_t size)
{
	const struct ma_trace_event *e = data;
	char res[32], pfn[24];

	(void)ctx;
	if (size < sizeof(*e) || e->kind > MA_EV_FAULT_SIGBUS)
		return 0;
	n_events[e->kind]++;
	printf("%10.3f ", since_start());
	switch (e->kind) {
	case MA_EV_RMAP:
		printf("rmap pid=%u comm=%.16s fn=%s order=%u nr=%u vma=%llx-%llx file=%s %s\n",
		       e->pid, e->comm, e->hook < MA_HOOK_NR ? fn_hooks[e->hook].sym : "?",
		       e->order, e->nr, e->vm_start, e->vm_end,
		       e->name[0] ? e->name : "-",
		       e->mlocked ? "mlocked" : "NOT-MLOCKED");
		break;
	case MA_EV_FAULT_SIGBUS:
		printf("fault SIGBUS pid=%u comm=%.16s address=%#llx vma=%llx-%llx file=%s\n",
		       e->pid, e->comm, e->address, e->vm_start, e->vm_end,
		       e->name[0] ? e->name : "-");
		break;
	case MA_EV_SCAN_PMD:
		printf("khugepaged scan_pmd pid=%u comm=%.16s pfn=%s referenced=%d none_or_zero=%d unmapped=%d result=%s\n",
		       e->pid, e->comm, pfn_str(e->pfn, pfn, sizeof(pfn)),
		       e->referenced, e->none_or_zero,
		       e->unmapped, scan_result_name(e->status, res, sizeof(res)));
		break;
	case MA_EV_SCAN_FILE:
		printf("khugepaged scan_file pid=%u comm=%.16s file=%s present=%d swap=%d result=%s\n",
		       e->pid, e->comm, e->name, e->present, e->swap,
		       scan_result_name(e->status, res, sizeof(res)));
		break;
	case MA_EV_COLLAPSE:
		printf("khugepaged collapse pid=%u comm=%.16s isolated=%d result=%s\n",
		       e->pid, e->comm, e->isolated,
		       scan_result_name(e->status, res, sizeof(res)));
		break;
	case MA_EV_COLLAPSE_FILE:
		printf("khugepaged collapse_file pid=%u comm=%.16s file=%s nr=%d result=%s\n",
		       e->pid, e->comm, e->name, e->file_nr,
		       scan_result_name(e->status, res, sizeof(res)));
		break;
	}
	return 0;
}

static int trace_opt(void *ctx, int c, const char *val, const char *name)
{
	int pid;

	(void)ctx;
	(void)name;
	switch (c) {
	case 'h':
		printf("usage: mlock-audit\n");
		trace_usage(stdout);
		exit(MA_EXIT_OK);
	case 'a':
		opt.all = true;
		break;
	case 'K':
		opt.kprobes = true;
		break;
	case 'v':
		opt.verbose = true;
		break;
	case 'd':
		if (!ma_parse_seconds(val, &opt.duration)) {
			fprintf(stderr, "mlock-audit trace: -d wants seconds > 0, not '%s'\n", val);
			return MA_EXIT_USAGE;
		}
		break;
	case 'p':
		if (!ma_parse_posint(val, &pid)) {
			fprintf(stderr, "mlock-audit trace: -p wants a process id, not '%s'\n", val);
			return MA_EXIT_USAGE;
		}
		opt.pid = pid;
		break;
	}
	return 0;
}

static int parse_args(int argc, char **argv)
{
	int ret, first;

	ret = ma_getopt("mlock-audit trace", MA_OPTS_TRACE, argc, argv, trace_opt, NULL,
			&first);
	if (ret)
		return ret;
	if (first < argc) {
		fprintf(stderr, "mlock-audit trace: unexpected argument '%s' (see mlock-audit trace --help)\n",
			argv[first]);
		return MA_EXIT_USAGE;
	}
	return MA_EXIT_OK;
}

/* Is kernel lockdown in confidentiality mode (securityfs may not be mounted)? */
static bool lockdown_confidentiality(void)
{
	char buf[256] = "";
	FILE *f = fopen("/sys/kernel/security/lockdown", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	return strstr(buf, "[confidentiality]");
}

/* Capability numbers of <linux/capability.h> (CAP_BPF, CAP_PERFMON: 5.8). */
#define MA_CAP_SYS_ADMIN	21
#define MA_CAP_PERFMON		38
#define MA_CAP_BPF		39

/*
 * May this process load and attach the programs? CAP_BPF with CAP_PERFMON
 * (tracing programs, kprobes), or CAP_SYS_ADMIN, which stands for both;
 * root has them all. Read from the effective set of capget(2).
 */
static bool has_bpf_caps(void)
{
	struct { __u32 version; int pid; } hdr = { 0x20080522, 0 };	/* _LINUX_CAPABILITY_VERSION_3 */
	struct { __u32 effective, permitted, inheritable; } data[2] = { { 0 } };
	unsigned long long eff;

	if (syscall(SYS_capget, &hdr, data))
		return geteuid() == 0;
	eff = data[0].effective | (unsigned long long)data[1].effective << 32;
	return (eff >> MA_CAP_SYS_ADMIN & 1) ||
	       ((eff >> MA_CAP_BPF & 1) && (eff >> MA_CAP_PERFMON & 1));
}

/* Why BPF cannot work here, or MA_EXIT_OK. */
static int preflight(void)
{
	int r;

	if (!has_bpf_caps()) {
		fprintf(stderr, "mlock-audit trace: needs CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN, or root)\n");
		return MA_EXIT_NOT_ROOT;
	}
	if (access(BTF_PATH, R_OK)) {
		fprintf(stderr, "mlock-audit trace: BPF unavailable: %s: %s (the kernel needs CONFIG_DEBUG_INFO_BTF)\n",
			BTF_PATH, strerror(errno));
		return MA_EXIT_NO_BPF;
	}
	/* the smallest bpf(2) call: an array map of one int */
	r = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, sizeof(int), sizeof(int), 1, NULL);
	if (r >= 0) {
		close(r);
	} else {
		r = errno;
		fprintf(stderr, "mlock-audit trace: BPF unavailable: bpf(BPF_MAP_CREATE): %s%s\n",
			strerror(r),
			r == ENOSYS ? " (kernel built without CONFIG_BPF_SYSCALL)" :
			r == EPERM || r == EACCES ? " (not permitted here: CAP_BPF, a seccomp policy or an LSM)" : "");
		return MA_EXIT_NO_BPF;
	}
	return MA_EXIT_OK;
}

/*
 * Mark which function hooks that fexit cannot take are functions in
 * /proc/kallsyms (exact name: a .constprop/.isra clone has another ABI).
 * One pass over the file, and only when some hook needs it.
 */
static void kallsyms_lookup(const bool want[N_FN], bool found[N_FN])
{
	char line[512], name[256], type;
	unsigned long long addr;
	unsigned int i;
	FILE *f = NULL;

	for (i = 0; i < N_FN; i++)
		if (want[i] && !f)
			f = fopen("/proc/kallsyms", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 ||
		    (type != 't' && type != 'T'))
			continue;
		for (i = 0; i < N_FN; i++)
			if (want[i] && !strcmp(name, fn_hooks[i].sym))
				found[i] = true;
	}
	fclose(f);
}

/* Why no tracefs events directory was usable: 0 (not mounted) or errno. */
static int events_dir_err;

static const char *events_dir(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing/events/huge_memory",
		"/sys/kernel/debug/tracing/events/huge_memory",
	};
	unsigned int i;

	events_dir_err = 0;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (!access(dirs[i], F_OK))
			return dirs[i];
		if (errno == EACCES)
			events_dir_err = EACCES;
	}
	return NULL;
}

/* Choose each program's hook; returns how many will be attached. */
static int plan(struct trace_bpf *skel, bool use_fexit)
{
	bool want[N_FN], found[N_FN] = { false }, group_fexit[G_NR] = { false };
	const char *dir = events_dir();
	char path[512];
	unsigned int i;
	int n = 0;

	for (i = 0; i < N_FN; i++) {
		struct fn_hook *h = &fn_hooks[i];

		h->how = NULL;
		if (use_fexit && vmlinux_btf &&
		    btf__find_by_name_kind(vmlinux_btf, h->sym, BTF_KIND_FUNC) > 0)
			h->how = "fexit";
		group_fexit[h->group] |= !!h->how;
	}
	/*
	 * The functions of a group are one kernel generation each: look in
	 * kallsyms only for groups of which BTF had none.
	 */
	for (i = 0; i < N_FN; i++)
		want[i] = !group_fexit[fn_hooks[i].group];
	kallsyms_lookup(want, found);
	for (i = 0; i < N_FN; i++) {
		struct fn_hook *h = &fn_hooks[i];

		bpf_program__set_autoload(h->fexit(skel), false);
		bpf_program__set_autoload(h->kprobe(skel), false);
		bpf_program__set_autoload(h->kretprobe(skel), false);
		if (found[i])
			h->how = "kprobe";
		n += !!h->how;
	}
	/* the kprobe programs are attached by hand, per symbol */
	for (i = 0; i < N_FN; i++) {
		struct fn_hook *h = &fn_hooks[i];

		if (!h->how)
			continue;
		if (!strcmp(h->how, "fexit")) {
			bpf_program__set_autoload(h->fexit(skel), true);
			continue;
		}
		bpf_program__set_autoload(h->kprobe(skel), true);
		bpf_program__set_autoload(h->kretprobe(skel), true);
	}

	for (i = 0; i < N_TP; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir ? dir : "", tp_hooks[i].name);
		tp_hooks[i].found = dir && !access(path, F_OK);
		bpf_program__set_autoload(tp_hooks[i].prog(skel), tp_hooks[i].found);
		n += tp_hooks[i].found;
	}
	return n;
}

static int attach(struct trace_bpf *skel, struct bpf_link **links, int *nlinks)
{
	LIBBPF_OPTS(bpf_kprobe_opts, kopts);
	struct bpf_link *l;
	unsigned int i;
	int err;

	for (i = 0; i < N_FN; i++) {
		struct fn_hook *h = &fn_hooks[i];

		if (!h->how)
			continue;
		if (!strcmp(h->how, "fexit")) {
			l = bpf_program__attach(h->fexit(skel));
			if (!l)
				goto fail;
			links[(*nlinks)++] = l;
			continue;
		}
		kopts.bpf_cookie = i;
		kopts.retprobe = false;
		l = bpf_program__attach_kprobe_opts(h->kprobe(skel), h->sym, &kopts);
		if (!l)
			goto fail;
		links[(*nlinks)++] = l;
		kopts.retprobe = true;
		l = bpf_program__attach_kprobe_opts(h->kretprobe(skel), h->sym, &kopts);
		if (!l) {
			/* no entry probe without its return probe */
			err = errno;
			bpf_link__destroy(links[--(*nlinks)]);
			errno = err;
			goto fail;
		}
		links[(*nlinks)++] = l;
		continue;
fail:
		/* reported by report_hooks(): the symbol exists, the attach failed */
		h->attach_err = errno ? errno : EINVAL;
	}
	for (i = 0; i < N_TP; i++) {
		if (!tp_hooks[i].found)
			continue;
		l = bpf_program__attach(tp_hooks[i].prog(skel));
		if (!l) {
			tp_hooks[i].attach_err = errno ? errno : EINVAL;
			continue;
		}
		links[(*nlinks)++] = l;
	}
	/* attached: the links made */
	return *nlinks;
}

/*
 * What is hooked, one line per group: each function with how it is hooked,
 * a function that exists but failed to attach with the error, and "not
 * found" only for a group none of whose functions this kernel has.
 */
static void report_hooks(FILE *f)
{
	unsigned int g, i;
	int found, tps = 0, tp_failed = 0;

	for (g = 0; g < G_NR; g++) {
		found = 0;
		for (i = 0; i < N_FN; i++) {
			const struct fn_hook *h = &fn_hooks[i];

			if (h->group != g || !h->how)
				continue;
			if (!found++)
				fprintf(f, "mlock-audit trace: %s:", group_name[g]);
			if (h->attach_err)
				fprintf(f, "%s %s(%s: attach failed: %s)", found > 1 ? "," : "",
					h->sym, h->how, strerror(h->attach_err));
			else
				fprintf(f, "%s %s(%s)", found > 1 ? "," : "", h->sym, h->how);
		}
		if (found) {
			fputc('\n', f);
			continue;
		}
		fprintf(f, "mlock-audit trace: %s: not found: tried", group_name[g]);
		for (i = 0; i < N_FN; i++)
			if (fn_hooks[i].group == g)
				fprintf(f, " %s", fn_hooks[i].sym);
		fputc('\n', f);
	}
	for (i = 0; i < N_TP; i++) {
		if (!tp_hooks[i].found)
			continue;
		if (tp_hooks[i].attach_err) {
			tp_failed++;
			continue;
		}
		fprintf(f, "%s %s", tps++ ? "," : "mlock-audit trace: khugepaged: tracepoints",
			tp_hooks[i].name);
	}
	if (!tps && !tp_failed && events_dir_err)
		fprintf(f, "mlock-audit trace: khugepaged: the huge_memory tracepoints are not reachable in tracefs (%s: tracefs is root's; run as root for khugepaged events)",
			strerror(events_dir_err));
	else if (!tps && !tp_failed)
		fprintf(f, "mlock-audit trace: khugepaged: no huge_memory tracepoints (is tracefs mounted at /sys/kernel/tracing?)");
	if (tps || !tp_failed)
		fputc('\n', f);
	for (i = 0; i < N_TP; i++) {
		if (tp_hooks[i].found && tp_hooks[i].attach_err)
			fprintf(f, "mlock-audit trace: khugepaged: tracepoint %s: attach failed: %s\n",
				tp_hooks[i].name, strerror(tp_hooks[i].attach_err));
		else if (!tp_hooks[i].found && (tps || tp_failed))
			fprintf(f, "mlock-audit trace: khugepaged: tracepoint %s not on this kernel\n",
				tp_hooks[i].name);
	}
}

static void report_totals(struct trace_bpf *skel)
{
	int ncpu = libbpf_num_possible_cpus();
	struct ma_trace_counts *per_cpu;
	struct ma_fault_counts *fault;
	unsigned int i;
	int c;

	unsigned long long *lost_cpu = NULL, lost = 0;
	char who[32] = "";

	if (ncpu > 0) {
		lost_cpu = calloc(ncpu, sizeof(*lost_cpu));
		i = 0;
		if (lost_cpu && !bpf_map__lookup_elem(skel->maps.lost, &i, sizeof(i), lost_cpu,
						      ncpu * sizeof(*lost_cpu), 0))
			for (c = 0; c < ncpu; c++)
				lost += lost_cpu[c];
		free(lost_cpu);
	}
	if (opt.pid)
		snprintf(who, sizeof(who), " (pid %ld)", opt.pid);
	printf("totals%s after %.1f s: rmap=%llu fault_sigbus=%llu scan_pmd=%llu scan_file=%llu collapse=%llu collapse_file=%llu events, lost=%llu\n",
	       who, since_start(), n_events[MA_EV_RMAP], n_events[MA_EV_FAULT_SIGBUS],
	       n_events[MA_EV_SCAN_PMD], n_events[MA_EV_SCAN_FILE],
	       n_events[MA_EV_COLLAPSE], n_events[MA_EV_COLLAPSE_FILE], lost);
	if (lost)
		fprintf(stderr, "mlock-audit trace: %llu events lost: the ring buffer was full (the totals below still count them)\n",
			lost);
	if (ncpu <= 0)
		return;
	per_cpu = calloc(ncpu, sizeof(*per_cpu));
	fault = calloc(ncpu, sizeof(*fault));
	if (!per_cpu || !fault)
		goto out;
	for (i = 0; i < MA_HOOK_NR; i++) {
		struct ma_trace_counts sum = { 0 };

		if (!fn_hooks[i].how || fn_hooks[i].attach_err)
			continue;
		if (bpf_map__lookup_elem(skel->maps.counts, &i, sizeof(i), per_cpu,
					 ncpu * sizeof(*per_cpu), 0))
			continue;
		for (c = 0; c < ncpu; c++) {
			sum.calls += per_cpu[c].calls;
			sum.locked_large += per_cpu[c].locked_large;
			sum.missed_pages += per_cpu[c].missed_pages;
		}
		printf("totals%s %s: calls=%llu locked_large=%llu not_mlocked_pages=%llu\n",
		       who, fn_hooks[i].sym, sum.calls, sum.locked_large, sum.missed_pages);
	}
	i = 0;
	if (fn_hooks[FN_FINISH_FAULT].how && !fn_hooks[FN_FINISH_FAULT].attach_err &&
	    !bpf_map__lookup_elem(skel->maps.fault_counts, &i, sizeof(i), fault,
				  ncpu * sizeof(*fault), 0)) {
		struct ma_fault_counts sum = { 0 };

		for (c = 0; c < ncpu; c++) {
			sum.calls += fault[c].calls;
			sum.locked += fault[c].locked;
			sum.sigbus += fault[c].sigbus;
		}
		printf("totals%s finish_fault: calls=%llu locked=%llu sigbus=%llu\n",
		       who, sum.calls, sum.locked, sum.sigbus);
	}
out:
	free(fault);
	free(per_cpu);
}

static struct trace_bpf *open_and_load(bool use_fexit, int *planned)
{
	struct trace_bpf *skel = trace_bpf__open();
	int err;

	if (!skel)
		return NULL;
	skel->rodata->report_mlocked = opt.all;
	skel->rodata->target_pid = (__u32)opt.pid;
	*planned = plan(skel, use_fexit);
	err = trace_bpf__load(skel);
	if (err) {
		trace_bpf__destroy(skel);
		errno = -err;
		return NULL;
	}
	return skel;
}

/*
 * Load the BPF programs: fexit ones unless -K, kprobe ones if those do not
 * load. NULL on failure, with the reason printed and *@ret set.
 */
static struct trace_bpf *load_programs(int *planned, int *ret)
{
	struct trace_bpf *skel = open_and_load(!opt.kprobes, planned);

	if (opt.verbose)
		fprintf(stderr, "mlock-audit trace: programs loaded at %.0f ms\n", since_start() * 1000);
	if (!skel && !opt.kprobes && !lockdown_confidentiality()) {
		fprintf(stderr, "mlock-audit trace: fexit programs did not load (%s); falling back to kprobes\n",
			strerror(errno));
		skel = open_and_load(false, planned);
	}
	if (!skel && lockdown_confidentiality()) {
		fprintf(stderr, "mlock-audit trace: kernel lockdown (confidentiality) refuses BPF programs that read kernel memory: %s; nothing can be traced on this boot (the module's debugfs files work if it is signed and loaded)\n",
			strerror(errno));
		*ret = MA_EXIT_LOCKDOWN;
	} else if (!skel) {
		fprintf(stderr, "mlock-audit trace: BPF unavailable: loading the programs failed: %s (run with -v for libbpf's log)\n",
			strerror(errno));
		*ret = MA_EXIT_NO_BPF;
	}
	return skel;
}

/* Print the events until -d runs out or a signal comes, then the totals. */
static int poll_events(struct trace_bpf *skel, int nlinks)
{
	struct ring_buffer *rb;
	int ret = MA_EXIT_OK;

	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), on_event, NULL, NULL);
	if (!rb) {
		fprintf(stderr, "mlock-audit trace: ring buffer: %s\n", strerror(errno));
		return MA_EXIT_NO_BPF;
	}
	report_hooks(stderr);
	fprintf(stderr, "mlock-audit trace: %d programs attached in %.0f ms; %s\n",
		nlinks, since_start() * 1000,
		opt.duration > 0 ? "stops after -d seconds or at Ctrl-C" : "Ctrl-C stops");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!stop && (opt.duration <= 0 || since_start() < opt.duration)) {
		ret = ring_buffer__poll(rb, 100);
		if (ret < 0 && ret != -EINTR) {
			fprintf(stderr, "mlock-audit trace: polling: %s\n", strerror(-ret));
			ring_buffer__free(rb);
			return MA_EXIT_ERROR;
		}
	}
	ring_buffer__consume(rb);
	report_totals(skel);
	ring_buffer__free(rb);
	return MA_EXIT_OK;
}

int trace_main(int argc, char **argv)
{
	struct bpf_link *links[2 * N_FN + N_TP];
	struct trace_bpf *skel;
	struct btf *btf;
	int ret, planned, nlinks = 0, i;

	clock_gettime(CLOCK_MONOTONIC, &t_start);
	ret = parse_args(argc, argv);
	if (ret)
		return ret;
	ret = preflight();
	if (ret)
		return ret;
	libbpf_set_print(libbpf_print);
	setvbuf(stdout, NULL, _IOLBF, 0);

	btf = btf__load_vmlinux_btf();
	vmlinux_btf = btf;
	if (opt.verbose)
		fprintf(stderr, "mlock-audit trace: BTF read at %.0f ms\n", since_start() * 1000);
	skel = load_programs(&planned, &ret);
	if (!skel)
		goto out_btf;
	if (!planned || !attach(skel, links, &nlinks)) {
		report_hooks(stderr);
		fprintf(stderr, "mlock-audit trace: nothing to trace on this kernel\n");
		ret = MA_EXIT_NO_BPF;
	} else {
		ret = poll_events(skel, nlinks);
	}
	for (i = 0; i < nlinks; i++)
		bpf_link__destroy(links[i]);
	trace_bpf__destroy(skel);
out_btf:
	btf__free(btf);
	return ret;
}
