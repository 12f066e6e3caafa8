// SPDX-License-Identifier: GPL-2.0
/*
 * The scenario of seed 004 ("mm/khugepaged: scan mm's more efficiently
 * under mmap_lock contention"): one mm with many small VMAs that khugepaged
 * cannot collapse, the collapsible memory at high addresses, and threads
 * that keep taking mmap_lock for writing.
 *
 *   ma-scanresume [--hold] NVMAS NRANGES THREADS SECONDS [SHARED]
 *
 * Maps NVMAS anonymous VMAs of 8 KiB (MADV_NOHUGEPAGE, one page apart so
 * they never merge) from 4 GiB up; at 128 GiB, SHARED PMD ranges that
 * khugepaged may collapse but cannot, because a forked child shares every
 * page (more than max_ptes_shared); and at 256 GiB, NRANGES PMD ranges of
 * small pages; then advises MADV_HUGEPAGE on both. THREADS
 * threads each flip the protection of their own populated 8 MiB region
 * (mprotect() holds mmap_lock for writing while it walks the page table),
 * sleeping 1 ms between flips, so that khugepaged's mmap_read_trylock()
 * often fails. Prints "ready", then "collapsed_ms=N" once every range is a
 * huge page (AnonHugePages of the process), or "timeout_ms=N huge_kb=N"
 * after SECONDS. With --hold it keeps everything for SECONDS whatever is
 * collapsed (NRANGES may then be 0), for a test that watches khugepaged
 * scan the same ranges again and again, then prints "held_ms=N huge_kb=N".
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE		4096UL
#define HUGE		(2UL << 20)
#define SMALL_BASE	(4UL << 30)
#define SHARED_BASE	(128UL << 30)
#define HIGH_BASE	(256UL << 30)
#define FLIP_SIZE	(8UL << 20)

static volatile int stop;

static void die(const char *what)
{
	fprintf(stderr, "ma-scanresume: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long number(const char *s, const char *what, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min) {
		fprintf(stderr, "ma-scanresume: %s must be a number >= %ld, not '%s'\n",
			what, min, s);
		exit(2);
	}
	return v;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static long anon_huge_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/smaps_rollup", "r");

	if (!f)
		die("/proc/self/smaps_rollup");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static void *flipper(void *arg)
{
	char *p = mmap(NULL, FLIP_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct timespec ms = { 0, 1000000 };
	unsigned long off;
	int ro = 0;

	(void)arg;
	if (p == MAP_FAILED)
		die("mmap");
	if (madvise(p, FLIP_SIZE, MADV_NOHUGEPAGE))
		die("madvise(MADV_NOHUGEPAGE)");
	for (off = 0; off < FLIP_SIZE; off += PAGE)
		p[off] = 1;
	while (!stop) {
		ro = !ro;
		if (mprotect(p, FLIP_SIZE, ro ? PROT_READ : PROT_READ | PROT_WRITE))
			die("mprotect");
		nanosleep(&ms, NULL);
	}
	return NULL;
}

/* LEN bytes of small pages at AT, written; MADV_NOHUGEPAGE for now. */
static char *map_small_pages(unsigned long at, unsigned long len)
{
	char *p = mmap((void *)at, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	unsigned long off;

	if (p != (void *)at)
		die("mmap of the PMD ranges");
	if (madvise(p, len, MADV_NOHUGEPAGE))
		die("madvise(MADV_NOHUGEPAGE)");
	for (off = 0; off < len; off += PAGE)
		p[off] = 1;
	return p;
}

int main(int argc, char **argv)
{
	long nvmas, nranges, threads, seconds, shared = 0, i, want, kb = 0;
	pthread_t tids[16];
	char *high = NULL, *sh = NULL;
	pid_t child = 0;
	long long t0;
	int hold = 0;

	if (argc > 1 && !strcmp(argv[1], "--hold")) {
		hold = 1;
		argv++;
		argc--;
	}
	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: ma-scanresume [--hold] NVMAS NRANGES THREADS SECONDS [SHARED]\n");
		return 2;
	}
	nvmas = number(argv[1], "NVMAS", 0);
	nranges = number(argv[2], "NRANGES", hold ? 0 : 1);
	threads = number(argv[3], "THREADS", 0);
	seconds = number(argv[4], "SECONDS", 1);
	if (argc == 6)
		shared = number(argv[5], "SHARED", 0);
	if (threads > 16 || nvmas > 60000 || nranges > 1024 || shared > 1024) {
		fprintf(stderr, "ma-scanresume: at most 60000 VMAs, 1024 ranges, 1024 shared ranges, 16 threads\n");
		return 2;
	}

	for (i = 0; i < nvmas; i++) {
		void *want_at = (void *)(SMALL_BASE + i * 3 * PAGE);
		void *p = mmap(want_at, 2 * PAGE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

		if (p != want_at)
			die("mmap of a small VMA");
		if (madvise(p, 2 * PAGE, MADV_NOHUGEPAGE))
			die("madvise(MADV_NOHUGEPAGE)");
	}
	if (shared) {
		sh = map_small_pages(SHARED_BASE, shared * HUGE);
		child = fork();
		if (child < 0)
			die("fork");
		if (!child) {	/* keep the pages shared, nothing else */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() == 1)
				_exit(0);
			if (nvmas)
				munmap((void *)SMALL_BASE, nvmas * 3 * PAGE);
			pause();
			_exit(0);
		}
	}
	if (nranges)
		high = map_small_pages(HIGH_BASE, nranges * HUGE);

	for (i = 0; i < threads; i++)
		if (pthread_create(&tids[i], NULL, flipper, NULL))
			die("pthread_create");
	if (sh && madvise(sh, shared * HUGE, MADV_HUGEPAGE))
		die("madvise(MADV_HUGEPAGE)");
	if (high && madvise(high, nranges * HUGE, MADV_HUGEPAGE))
		die("madvise(MADV_HUGEPAGE)");
	t0 = now_ms();
	printf("ready\n");
	fflush(stdout);

	want = nranges * (HUGE >> 10);
	while (now_ms() - t0 < seconds * 1000LL) {
		kb = anon_huge_kb();
		if (kb >= want && !hold)
			break;
		usleep(50000);
	}
	if (hold)
		printf("held_ms=%lld huge_kb=%ld\n", now_ms() - t0, kb);
	else if (kb >= want)
		printf("collapsed_ms=%lld\n", now_ms() - t0);
	else
		printf("timeout_ms=%lld huge_kb=%ld\n", now_ms() - t0, kb);
	stop = 1;
	for (i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);
	if (child) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	return 0;
}
