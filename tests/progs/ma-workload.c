// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads that drive the paths mlock_audit hooks, for the guest tests and
 * benchmarks.
 *
 *   ma-workload file-touch DIR MB ITERATIONS
 *	Create an MB-sized file in DIR, then ITERATIONS times: mmap it
 *	MAP_SHARED, write one byte per page, munmap (will-it-scale
 *	page_fault3). Prints "ns_per_iter=N minflt_per_iter=N".
 *   ma-workload anon-thp MB SECONDS
 *	Map MB of anonymous memory, advise MADV_HUGEPAGE, touch it one
 *	page at a time and keep it mapped SECONDS so khugepaged scans it.
 *   ma-workload anon-collapse MB SECONDS
 *	The same, but touched as small pages before MADV_HUGEPAGE, so
 *	khugepaged has something to collapse.
 *   ma-workload lazyfree MB SECONDS
 *	Small pages written, MADV_FREE'd, read again (referenced, still
 *	clean and lazy-free), then MADV_HUGEPAGE; prints "ready" and holds.
 *   ma-workload lazyfree-madv-collapse MB SECONDS
 *	The same, then MADV_COLLAPSE; prints "madv_collapse=0" or -errno.
 *   ma-workload hot MB SECONDS
 *	Small pages written, then MADV_HUGEPAGE; prints "ready", then writes
 *	one byte of every page every 100 ms for SECONDS.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "ma-workload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long number(const char *s, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0) {
		fprintf(stderr, "ma-workload: %s must be a positive number, not '%s'\n",
			what, s);
		exit(2);
	}
	return v;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static int file_touch(const char *dir, long mb, long iters)
{
	size_t len = (size_t)mb << 20;
	long page = sysconf(_SC_PAGESIZE), f0, i;
	long long t0;
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/ma-workload.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		die(path);
	unlink(path);
	if (ftruncate(fd, len))
		die("ftruncate");
	t0 = now_ns();
	f0 = minflt();
	for (i = 0; i < iters; i++) {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
			       fd, 0);
		size_t off;

		if (p == MAP_FAILED)
			die("mmap");
		for (off = 0; off < len; off += page)
			p[off] = 1;
		munmap(p, len);
	}
	printf("ns_per_iter=%lld minflt_per_iter=%ld\n",
	       (now_ns() - t0) / iters, (minflt() - f0) / iters);
	close(fd);
	return 0;
}

#define HUGE_SIZE (2UL << 20)

/* LEN bytes of private anonymous memory at a 2 MiB boundary; munmap *RAW. */
static char *map_aligned(size_t len, char **raw)
{
	*raw = mmap(NULL, len + HUGE_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*raw == MAP_FAILED)
		die("mmap");
	return (char *)(((unsigned long)*raw + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1));
}

/*
 * LEN bytes as map_aligned(), faulted in as small pages (MADV_NOHUGEPAGE
 * first, so that only khugepaged or MADV_COLLAPSE can make them huge).
 */
static char *map_small_pages(size_t len, char **raw)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = map_aligned(len, raw);
	size_t off;

	if (madvise(p, len, MADV_NOHUGEPAGE))
		die("madvise(MADV_NOHUGEPAGE)");
	for (off = 0; off < len; off += page)
		p[off] = 1;
	return p;
}

/*
 * COLLAPSE: fault the memory in as small pages first (MADV_NOHUGEPAGE), then
 * advise MADV_HUGEPAGE, so that only khugepaged can make it huge.
 */
static int anon_thp(long mb, long seconds, int collapse)
{
	size_t len = (size_t)mb << 20, off;
	long page = sysconf(_SC_PAGESIZE);
	char *raw, *p;

	p = map_aligned(len, &raw);
	if (collapse && madvise(p, len, MADV_NOHUGEPAGE))
		die("madvise(MADV_NOHUGEPAGE)");
	if (!collapse && madvise(p, len, MADV_HUGEPAGE))
		die("madvise(MADV_HUGEPAGE)");
	for (off = 0; off < len; off += page)
		p[off] = 1;
	if (collapse && madvise(p, len, MADV_HUGEPAGE))
		die("madvise(MADV_HUGEPAGE)");
	sleep(seconds);
	munmap(raw, len + HUGE_SIZE);
	return 0;
}

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

/*
 * LAZYFREE: small pages written, given back with MADV_FREE, then read (so
 * they are referenced but stay clean and lazy-free), then MADV_HUGEPAGE.
 * With COLLAPSE, MADV_COLLAPSE is asked for right away. Prints "ready" and
 * holds the memory SECONDS.
 */
static int lazyfree(long mb, long seconds, int collapse)
{
	size_t len = (size_t)mb << 20, off;
	long page = sysconf(_SC_PAGESIZE);
	volatile char sum = 0;
	char *raw, *p;

	p = map_small_pages(len, &raw);
	if (madvise(p, len, MADV_FREE))
		die("madvise(MADV_FREE)");
	for (off = 0; off < len; off += page)
		sum += p[off];
	if (madvise(p, len, MADV_HUGEPAGE))
		die("madvise(MADV_HUGEPAGE)");
	if (collapse)
		printf("madv_collapse=%d\n", madvise(p, len, MADV_COLLAPSE) ? -errno : 0);
	printf("ready\n");
	fflush(stdout);
	sleep(seconds);
	munmap(raw, len + HUGE_SIZE);
	return 0;
}

static int hot(long mb, long seconds)
{
	size_t len = (size_t)mb << 20, off;
	long page = sysconf(_SC_PAGESIZE);
	struct timespec tick = { 0, 100000000 };
	long long end;
	char *raw, *p;

	p = map_small_pages(len, &raw);
	if (madvise(p, len, MADV_HUGEPAGE))
		die("madvise(MADV_HUGEPAGE)");
	printf("ready\n");
	fflush(stdout);
	end = now_ns() + seconds * 1000000000LL;
	while (now_ns() < end) {
		for (off = 0; off < len; off += page)
			p[off]++;
		nanosleep(&tick, NULL);
	}
	munmap(raw, len + HUGE_SIZE);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "file-touch"))
		return file_touch(argv[2], number(argv[3], "MB"),
				  number(argv[4], "ITERATIONS"));
	if (argc == 4 && !strcmp(argv[1], "anon-thp"))
		return anon_thp(number(argv[2], "MB"), number(argv[3], "SECONDS"), 0);
	if (argc == 4 && !strcmp(argv[1], "anon-collapse"))
		return anon_thp(number(argv[2], "MB"), number(argv[3], "SECONDS"), 1);
	if (argc == 4 && !strcmp(argv[1], "lazyfree"))
		return lazyfree(number(argv[2], "MB"), number(argv[3], "SECONDS"), 0);
	if (argc == 4 && !strcmp(argv[1], "lazyfree-madv-collapse"))
		return lazyfree(number(argv[2], "MB"), number(argv[3], "SECONDS"), 1);
	if (argc == 4 && !strcmp(argv[1], "hot"))
		return hot(number(argv[2], "MB"), number(argv[3], "SECONDS"));
	fprintf(stderr,
		"usage: ma-workload file-touch DIR MB ITERATIONS\n"
		"       ma-workload anon-thp MB SECONDS\n"
		"       ma-workload anon-collapse MB SECONDS\n"
		"       ma-workload lazyfree MB SECONDS\n"
		"       ma-workload lazyfree-madv-collapse MB SECONDS\n"
		"       ma-workload hot MB SECONDS\n");
	return 2;
}
