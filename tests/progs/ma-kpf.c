// SPDX-License-Identifier: GPL-2.0
/*
 * ma-kpf: an mlock oracle from userspace, independent of the module. For
 * each VM_LOCKED VMA of each PID it reads /proc/PID/pagemap and
 * /proc/kpageflags, groups the mapped pages by folio and classifies them:
 *
 *   mlocked         the folio has PG_mlocked
 *   missed          a large folio, not mlocked, all of its pages mapped in
 *                   this VMA (missed_crossed: the subset whose mapping
 *                   crosses a 2 MiB page-table boundary)
 *   partial         a large folio, not mlocked, only partly mapped here
 *   small_unmlocked an order-0 folio that is not mlocked
 *   large           any large folio, mlocked or not (a count across the
 *                   classes above)
 *
 * The zero page is not counted (nor by the module).
 *
 * PG_mlocked lives on the folio head: on 6.1 /proc/kpageflags reports it
 * on the head page only, on 6.12 and later on every page, so the head's
 * flags decide. Folio extent: the head (KPF_COMPOUND_HEAD) and the
 * KPF_COMPOUND_TAIL pages after it.
 *
 *   ma-kpf PID...
 * Prints one "vma" line per locked VMA and a final "system" line counting
 * distinct physical pages mapped by the locked VMAs of all PIDs. Units are
 * 4 KiB pages. Needs root.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16
#define KPF_ZERO_PAGE		24
#define KPF_MLOCKED		33
#define PM_PRESENT		(1ULL << 63)
#define PM_PFN_MASK		((1ULL << 55) - 1)
#define PAGE			4096UL

struct mapped {
	uint64_t pfn;
	unsigned long addr;
};

static int kpf_fd;
static uint64_t *sys_pfns;
static size_t sys_n, sys_cap;

static void die(const char *what)
{
	fprintf(stderr, "ma-kpf: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t kpf(uint64_t pfn)
{
	uint64_t v;

	if (pread(kpf_fd, &v, sizeof(v), pfn * 8) != sizeof(v))
		die("/proc/kpageflags");
	return v;
}

/* a folio, from its head page's flags */
struct folio_span {
	uint64_t head;		/* first pfn */
	uint64_t nr;		/* pages; 0: none yet */
	uint64_t flags;		/* the head's kpageflags */
};

/*
 * folio_of(): the folio holding PFN, whose own flags are F: the head is
 * the first page before it that is not a compound tail, and the folio
 * ends before the next page that is not a tail of it.
 */
static struct folio_span folio_of(uint64_t pfn, uint64_t f)
{
	struct folio_span s = { .head = pfn, .nr = 1 };

	while (f & (1ULL << KPF_COMPOUND_TAIL))
		f = kpf(--s.head);
	s.flags = f;
	if (f & (1ULL << KPF_COMPOUND_HEAD))
		while (kpf(s.head + s.nr) & (1ULL << KPF_COMPOUND_TAIL))
			s.nr++;
	return s;
}

static int in_span(const struct folio_span *s, uint64_t pfn)
{
	return s->nr && pfn >= s->head && pfn - s->head < s->nr;
}

static int by_pfn(const void *a, const void *b)
{
	uint64_t x = ((const struct mapped *)a)->pfn;
	uint64_t y = ((const struct mapped *)b)->pfn;

	return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static struct mapped *find(struct mapped *m, size_t n, uint64_t pfn)
{
	struct mapped key = { .pfn = pfn };

	return bsearch(&key, m, n, sizeof(*m), by_pfn);
}

static void audit_vma(int pm_fd, int pid, unsigned long start, unsigned long end,
		      const char *flags)
{
	size_t npages = (end - start) / PAGE, n = 0, i, resident;
	unsigned long mlocked = 0, missed = 0, crossed = 0, partial = 0, small = 0, large = 0;
	enum { C_MLOCKED, C_SMALL, C_PARTIAL, C_MISSED, C_CROSSED } cls = C_SMALL;
	struct folio_span fs = { .nr = 0 };
	uint64_t *ent = malloc(npages * sizeof(*ent));
	struct mapped *m = malloc(npages * sizeof(*m));

	if (!ent || !m)
		die("malloc");
	if (pread(pm_fd, ent, npages * 8, start / PAGE * 8) != (ssize_t)(npages * 8))
		die("pagemap");
	for (i = 0; i < npages; i++) {
		if (!(ent[i] & PM_PRESENT) || !(ent[i] & PM_PFN_MASK))
			continue;
		m[n].pfn = ent[i] & PM_PFN_MASK;
		m[n].addr = start + i * PAGE;
		n++;
	}
	qsort(m, n, sizeof(*m), by_pfn);
	resident = n;
	/*
	 * The class of a page is that of its folio: the entries are sorted
	 * by pfn, so the pages of one folio come together and the folio is
	 * looked at once, at its first page (one kpageflags read per page
	 * of it, not per page squared).
	 */
	for (i = 0; i < n; i++) {
		uint64_t pfn = m[i].pfn, f = kpf(pfn), j;

		if (f & (1ULL << KPF_ZERO_PAGE)) {
			resident--;
			continue;
		}

		if (sys_n == sys_cap) {
			sys_cap = sys_cap ? 2 * sys_cap : 4096;
			sys_pfns = realloc(sys_pfns, sys_cap * sizeof(*sys_pfns));
			if (!sys_pfns)
				die("realloc");
		}
		sys_pfns[sys_n++] = pfn;

		if (!in_span(&fs, pfn)) {
			unsigned long lo = m[i].addr, hi = m[i].addr;

			fs = folio_of(pfn, f);
			if (fs.flags & (1ULL << KPF_MLOCKED)) {
				cls = C_MLOCKED;
			} else if (fs.nr == 1) {
				cls = C_SMALL;
			} else {
				cls = C_MISSED;
				for (j = 0; j < fs.nr; j++) {
					struct mapped *x = find(m, n, fs.head + j);

					if (!x) {
						cls = C_PARTIAL;
						break;
					}
					if (x->addr < lo)
						lo = x->addr;
					if (x->addr > hi)
						hi = x->addr;
				}
				if (cls == C_MISSED && lo >> 21 != hi >> 21)
					cls = C_CROSSED;
			}
		}
		if (fs.nr > 1)
			large++;
		switch (cls) {
		case C_MLOCKED:
			mlocked++;
			break;
		case C_SMALL:
			small++;
			break;
		case C_PARTIAL:
			partial++;
			break;
		case C_CROSSED:
			crossed++;
			missed++;
			break;
		case C_MISSED:
			missed++;
			break;
		}
	}
	printf("vma pid=%d start=%lx end=%lx flags=%s resident=%zu mlocked=%lu missed=%lu missed_crossed=%lu partial=%lu small_unmlocked=%lu large=%lu\n",
	       pid, start, end, flags, resident, mlocked, missed, crossed, partial, small, large);
	free(ent);
	free(m);
}

/* the size of the locked VMAs of all PIDs, resident or not */
static unsigned long long locked_vma_bytes;

static void audit_pid(int pid)
{
	char path[64], line[1024];
	unsigned long start = 0, end = 0;
	int have = 0, pm_fd;
	FILE *f;

	/* a process that exited meanwhile has nothing locked */
	snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	f = fopen(path, "r");
	if (!f && (errno == ENOENT || errno == ESRCH))
		return;
	if (!f)
		die(path);
	snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
	pm_fd = open(path, O_RDONLY);
	if (pm_fd < 0 && (errno == ENOENT || errno == ESRCH)) {
		fclose(f);
		return;
	}
	if (pm_fd < 0)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		unsigned long s, e;

		if (sscanf(line, "%lx-%lx ", &s, &e) == 2 && strchr(line, ' ')) {
			start = s;
			end = e;
			have = 1;
		} else if (have && !strncmp(line, "VmFlags:", 8)) {
			have = 0;
			if (strstr(line, " lo")) {
				locked_vma_bytes += end - start;
				audit_vma(pm_fd, pid, start, end,
					  strstr(line, " lf") ? "onfault" : "locked");
			}
		}
	}
	close(pm_fd);
	fclose(f);
}

int main(int argc, char **argv)
{
	size_t i, distinct = 0, in_mlocked = 0;
	struct folio_span fs = { .nr = 0 };
	int a;

	if (argc < 2) {
		fprintf(stderr, "usage: ma-kpf PID...\n");
		return 2;
	}
	kpf_fd = open("/proc/kpageflags", O_RDONLY);
	if (kpf_fd < 0)
		die("/proc/kpageflags");
	for (a = 1; a < argc; a++)
		audit_pid(atoi(argv[a]));
	qsort(sys_pfns, sys_n, sizeof(*sys_pfns), cmp_u64);
	for (i = 0; i < sys_n; i++) {
		if (i && sys_pfns[i] == sys_pfns[i - 1])
			continue;
		distinct++;
		if (!in_span(&fs, sys_pfns[i]))
			fs = folio_of(sys_pfns[i], kpf(sys_pfns[i]));
		if (fs.flags & (1ULL << KPF_MLOCKED))
			in_mlocked++;
	}
	printf("system locked_pages=%zu in_mlocked_folios=%zu undercount=%zu locked_vma_kb=%llu\n",
	       distinct, in_mlocked, distinct - in_mlocked, locked_vma_bytes >> 10);
	return 0;
}
