// SPDX-License-Identifier: GPL-2.0
/*
 * ma-posreuse CYCLES: can a new mm pick up the khugepaged scan position
 * that an exited mm left behind ("saved positions")?
 *
 * Run as root, with THP "enabled" at "madvise" (the areas must fault in
 * small pages); it writes khugepaged's pages_to_scan and
 * scan_sleep_millisecs and toggles THP "enabled" (the caller keeps and
 * restores all three). Pinned to one CPU, so that the mm_struct and the
 * khugepaged mm slot an exiting child frees are the next ones a new child
 * gets (the slab allocators reuse the last object freed on a CPU first).
 * The parent registers with khugepaged (a 2 MiB MADV_HUGEPAGE area with one
 * page written: khugepaged takes only an area with an anon_vma), so that
 * each child is registered at fork, the list of mms is never empty
 * (registering does not wake khugepaged), and a write of
 * scan_sleep_millisecs (a "kick") starts exactly one scan.
 *
 * Each cycle:
 *  1. child A maps four populated anonymous areas, MADV_HUGEPAGE, at the
 *     same fixed addresses in every child, in this order of address: L
 *     (one PMD range), M1 (4 ranges), M2 (28 ranges), H (one range);
 *  2. with pages_to_scan at 4096 (8 ranges), kicks until khugepaged has
 *     collapsed some of M2; each scan stops after 8 ranges, so A's
 *     position is inside M2 (checked: M2 not all collapsed, H not at all;
 *     else another A, up to 3 times);
 *  3. THP "never" stops the khugepaged thread (checked: it is gone),
 *     which leaves A's position saved (the scanresume fix keeps it for the
 *     next visit);
 *  4. A is killed and reaped; its slot is freed while not the current one;
 *  5. THP back on starts a new thread, whose first scan ends a pass; once
 *     it is idle, the parent forks child B, which maps the same areas;
 *  6. with pages_to_scan at 262144 (all of B in one visit), one kick: B's
 *     first visit must start at address 0, so it reaches L and M1 before
 *     H. When H is collapsed, some of L and M1 must be (all of them, but
 *     for a collapse that fails for reasons of its own). A first visit that
 *     started at A's position collapses H and none of L and M1, which wait
 *     for the next scan, scan_sleep_millisecs (120 s) away.
 *
 * The facts are the children's AnonHugePages per area (/proc/PID/smaps),
 * not anything the module reports. Nothing here shows that B did get A's
 * addresses (a kernel that delays frees, KASAN's quarantine, may not
 * reuse them): a build that keys the positions by those addresses
 * (tests/breaks/scanresume_by_slot.patch) failing each cycle shows it.
 * Prints a line per cycle and, last, "cycles=N started_past=K"; exits 0
 * when the scenario ran (K may be non-zero: the caller judges it), 1 when
 * it could not be set up.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HUGE		(2UL << 20)
#define PAGE		4096UL
#define L_AT		(64UL << 30)
#define P_AT		(L_AT + (1UL << 30))
#define THP		"/sys/kernel/mm/transparent_hugepage/"
#define KH		THP "khugepaged/"
#define SLEEP_MS	"120000"

/* The areas of a child, in order of address, 2 MiB apart. */
enum { L, M1, M2, H, AREAS };
static const char *const area_name[AREAS] = { "L", "M1", "M2", "H" };
static const unsigned long area_ranges[AREAS] = { 1, 4, 28, 1 };
static unsigned long area_at[AREAS];

static char thp_on[32];		/* the THP "enabled" value to go back to */

static void die(const char *what)
{
	fprintf(stderr, "ma-posreuse: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void bad(const char *what)
{
	fprintf(stderr, "ma-posreuse: %s\n", what);
	exit(1);
}

static void put(const char *file, const char *value)
{
	FILE *f = fopen(file, "w");

	if (!f)
		die(file);
	if (fputs(value, f) < 0 || fclose(f))
		die(file);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The value of a THP setting: of "a [b] c", the selected b. */
static void selected(const char *file, char *out, size_t len)
{
	char buf[128], *b, *e;
	FILE *f = fopen(file, "r");

	if (!f || !fgets(buf, sizeof(buf), f))
		die(file);
	fclose(f);
	b = strchr(buf, '[');
	e = b ? strchr(b, ']') : NULL;
	if (!e)
		bad("no selected value in the THP enabled file");
	*e = '\0';
	snprintf(out, len, "%s", b + 1);
}

/* The PID of the khugepaged thread, 0 when there is none. */
static pid_t khugepaged_pid(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char path[300], comm[32];
	pid_t pid = 0;

	if (!d)
		die("/proc");
	while (!pid && (e = readdir(d))) {
		FILE *f;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, "khugepaged\n"))
			pid = atoi(e->d_name);
		fclose(f);
	}
	closedir(d);
	return pid;
}

/* khugepaged's state letter and CPU ticks; 0 when it cannot be read. */
static char kh_state(pid_t pid, unsigned long long *ticks)
{
	char path[64], buf[512], *p;
	unsigned long long ut, st;
	char state;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;
	if (!p || sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &state, &ut, &st) != 3)
		return 0;
	*ticks = ut + st;
	return state;
}

/*
 * Wait until khugepaged sleeps and used no CPU time for 0.3 s: its scan
 * is over (the next one is 120 s away). False after about 60 s.
 */
static int khugepaged_idle(void)
{
	unsigned long long t0, t1;
	int i;

	for (i = 0; i < 200; i++) {
		pid_t pid = khugepaged_pid();
		char s0 = pid ? kh_state(pid, &t0) : 0;

		sleep_ms(300);
		if (s0 == 'S' && kh_state(pid, &t1) == 'S' && t0 == t1)
			return 1;
	}
	return 0;
}

/* AnonHugePages of the area at @at in @pid, in kB; -1 when not found. */
static long huge_kb(pid_t pid, unsigned long at)
{
	char path[64], line[256];
	unsigned long start, end;
	int in = 0;
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	f = fopen(path, "r");
	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2) {
			in = start == at;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/* Maps LEN bytes at AT, writes the first FILLED of them, MADV_HUGEPAGE. */
static void map_area(unsigned long at, unsigned long len, unsigned long filled)
{
	char *p = mmap((void *)at, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	unsigned long off;

	if (p != (void *)at)
		die("mmap");
	for (off = 0; off < filled; off += PAGE)
		p[off] = 1;
	if (madvise(p, len, MADV_HUGEPAGE))
		die("madvise(MADV_HUGEPAGE)");
}

/*
 * A child: maps and fills its areas with small pages (they are advised
 * MADV_HUGEPAGE only once filled), says so on @fd, and waits to be killed.
 */
static pid_t child(int fd[2])
{
	pid_t pid = fork();
	int i;

	if (pid < 0)
		die("fork");
	if (pid)
		return pid;
	close(fd[0]);
	/* a parent that fails half-way leaves no child behind */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1)
		_exit(1);
	for (i = 0; i < AREAS; i++)
		map_area(area_at[i], area_ranges[i] * HUGE, area_ranges[i] * HUGE);
	if (write(fd[1], "r", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static pid_t start_child(void)
{
	int fd[2];
	char c;
	pid_t pid;

	if (pipe(fd))
		die("pipe");
	fflush(stdout);		/* the child must not print it again */
	pid = child(fd);
	close(fd[1]);
	if (read(fd[0], &c, 1) != 1)
		bad("a child died before its areas were mapped");
	close(fd[0]);
	return pid;
}

/* AnonHugePages of each area of @pid, in kB; "L=.. M1=.. M2=.. H=.." in @text. */
static void areas_kb(pid_t pid, long kb[AREAS], char *text, size_t len)
{
	size_t used = 0;
	int i;

	for (i = 0; i < AREAS; i++) {
		kb[i] = huge_kb(pid, area_at[i]);
		used += snprintf(text + used, len - used, "%s%s=%ld", i ? " " : "",
				 area_name[i], kb[i]);
		if (used >= len)
			bad("areas_kb: text too short");
	}
}

/* The areas of a new child are all small pages (THP on fault is off). */
static void all_small(pid_t pid)
{
	char text[128];
	long kb[AREAS];

	areas_kb(pid, kb, text, sizeof(text));
	if (kb[L] || kb[M1] || kb[M2] || kb[H]) {
		fprintf(stderr, "ma-posreuse: a new child's areas are not all small pages: AnonHugePages %s kB (-1: no such area)\n",
			text);
		exit(1);
	}
}

static void end_child(pid_t pid)
{
	kill(pid, SIGKILL);
	if (waitpid(pid, NULL, 0) != pid)
		die("waitpid");
}

/*
 * Wait up to 5 s for the khugepaged thread to be gone (@running 0) or to
 * be a thread other than @old (@running 1); a stopped thread can still be
 * listed for a moment after THP "never" returns.
 */
static int wait_thread(int running, pid_t old)
{
	int i;

	for (i = 0; i < 50; i++) {
		pid_t pid = khugepaged_pid();

		if (running ? pid && pid != old : !pid)
			return 1;
		sleep_ms(100);
	}
	return 0;
}

static void kick(void)
{
	put(KH "scan_sleep_millisecs", SLEEP_MS);
}

/*
 * Child A, scanned until khugepaged's position in it is inside M2: past
 * L and M1, short of H. Another try with a new A when the scans ended
 * elsewhere (a collapse can fail for reasons of its own).
 */
static pid_t positioned_a(int n, char *text, size_t len)
{
	long kb[AREAS];
	int try, i;
	pid_t a;

	put(KH "pages_to_scan", "4096");
	for (try = 1; try <= 3; try++) {
		a = start_child();
		all_small(a);
		for (i = 0; i < 5; i++) {
			kick();
			if (!khugepaged_idle())
				bad("khugepaged did not go idle within 60 s of a kick");
			if (huge_kb(a, area_at[M2]) > 0)
				break;
		}
		areas_kb(a, kb, text, len);
		if (kb[M2] > 0 && kb[M2] < (long)(area_ranges[M2] * 2048) &&
		    kb[H] == 0)
			return a;
		printf("cycle %d: try %d: A's scans did not stop inside M2: AnonHugePages %s kB\n",
		       n, try, text);
		end_child(a);
	}
	bad("three children A in a row: the scans did not stop inside M2");
	return 0;
}

/* One cycle; 1 when B's first visit started past L and M1. */
static int cycle(int n)
{
	char atext[128], btext[128], etext[128];
	long kb[AREAS], end[AREAS];
	int i, past;
	pid_t a, b, old;

	/* 1-2: A's position ends up inside M2 */
	a = positioned_a(n, atext, sizeof(atext));
	/* 3-4: A's position saved by the thread's stop; A gone */
	old = khugepaged_pid();
	put(THP "enabled", "never");
	if (!wait_thread(0, 0))
		bad("THP \"never\" did not stop khugepaged (another THP size or shmem keeps it?)");
	end_child(a);
	/* 5: a new thread, whose first scan ends a pass; then B */
	put(THP "enabled", thp_on);
	if (!wait_thread(1, old))
		bad("THP back on did not start a new khugepaged");
	if (!khugepaged_idle())
		bad("the new khugepaged did not go idle within 60 s");
	b = start_child();
	all_small(b);
	/* 6: one scan, all of B */
	put(KH "pages_to_scan", "262144");
	kick();
	for (i = 0; i < 600 && huge_kb(b, area_at[H]) != 2048; i++)
		sleep_ms(100);
	areas_kb(b, kb, btext, sizeof(btext));
	if (!khugepaged_idle())
		bad("khugepaged did not go idle within 60 s of B's scan");
	areas_kb(b, end, etext, sizeof(etext));
	end_child(b);
	if (kb[H] != 2048) {
		fprintf(stderr, "ma-posreuse: cycle %d: B's H was not collapsed within 60 s: AnonHugePages %s kB\n",
			n, btext);
		exit(1);
	}
	/* a visit from 0 reached L and M1 before H: some of them collapsed */
	past = kb[L] + kb[M1] == 0;
	printf("cycle %d: A at the stop: %s kB; B when H was collapsed: %s kB, when the scan was over: %s kB%s\n",
	       n, atext, btext, etext,
	       past ? ": B's first visit started past L and M1" : "");
	fflush(stdout);
	return past;
}

int main(int argc, char **argv)
{
	int n, past = 0;
	long cycles = 0;
	cpu_set_t cpus;
	char *end = NULL;

	if (argc == 2)
		cycles = strtol(argv[1], &end, 10);
	if (argc != 2 || cycles < 1 || *end || cycles > 1000) {
		fprintf(stderr, "usage: ma-posreuse CYCLES (1 to 1000)\n");
		return 2;
	}
	area_at[L] = L_AT;
	for (n = 1; n < AREAS; n++)
		area_at[n] = area_at[n - 1] + (area_ranges[n - 1] + 1) * HUGE;
	selected(THP "enabled", thp_on, sizeof(thp_on));
	if (strcmp(thp_on, "madvise"))
		bad("THP \"enabled\" must be \"madvise\"");
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		die("sched_setaffinity");
	/* registers the parent: khugepaged needs the area's anon_vma */
	map_area(P_AT, HUGE, PAGE);
	kick();
	if (!khugepaged_idle())
		bad("khugepaged did not go idle within 60 s");
	for (n = 1; n <= cycles; n++)
		past += cycle(n);
	printf("cycles=%ld started_past=%d\n", cycles, past);
	return 0;
}
