// SPDX-License-Identifier: GPL-2.0
/*
 * ma-scale: the many-process scenario of the audit-scale benchmark, and a
 * timer of file reads that forks nothing (a cat per file would cost more
 * under emulation than the read itself).
 *
 *   ma-scale procs --procs N [--anon-mb A] [--file PATH --file-mb F]
 *                  [--shmem PATH --shmem-mb S]
 *                  [--lock-anon-mb L] [--lock-shmem PATH --lock-shmem-mb L]
 *	Fork N processes that share between them A MiB of private anonymous
 *	memory (MADV_HUGEPAGE'd), F MiB of the regular file PATH (mapped
 *	MAP_SHARED and read: page cache) and S MiB of the file PATH on a
 *	tmpfs (mapped MAP_SHARED and written), each process a 1/N part of
 *	each, at an address congruent to its file offset modulo 2 MiB so that
 *	huge folios can be mapped by PMDs; every page is touched and none is
 *	locked. A file shorter than its share is extended (ftruncate) first.
 *	A kind not given is 0 MiB.
 *	With --lock-anon-mb, process 0 also maps and writes L MiB of anonymous
 *	THP memory; with --lock-shmem, process 1 maps L MiB of that tmpfs
 *	file 4 KiB past a 2 MiB boundary (its huge folios mapped by PTEs) and
 *	writes it. Those two mlock() that memory on SIGUSR1 and print
 *	"locked pid=N kb=K", and munlock() it on SIGUSR2 and print
 *	"unlocked pid=N kb=K". Prints "ready pids=P0 P1 ..." once every process
 *	has touched its memory, and holds it until stdin reaches end of file.
 *   ma-scale read [--repeat R] FILE...
 *	Open and read each FILE to its end (a file that cannot be opened,
 *	such as the smaps_rollup of a process that has exited, is skipped),
 *	R times (default 1), and print "ns=N min_ns=N max_ns=N mean_ns=N
 *	files=N skipped=N bytes=N": the median, least, greatest and mean
 *	time of reading them all, and what the last time read.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ma-util.h"

#define HUGE (2UL << 20)
#define PAGE 4096UL

static void usage(void)
{
	fprintf(stderr,
		"usage: ma-scale procs --procs N [--anon-mb A] [--file PATH --file-mb F]\n"
		"                      [--shmem PATH --shmem-mb S]\n"
		"                      [--lock-anon-mb L] [--lock-shmem PATH --lock-shmem-mb L]\n"
		"       ma-scale read [--repeat R] FILE...\n");
	exit(2);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int read_files(int repeat, int n, char **files)
{
	static char buf[65536];
	long files_read = 0, skipped = 0, bytes = 0;
	uint64_t *ns = calloc(repeat, sizeof(*ns)), t0, sum = 0;
	ssize_t r;
	int i, k, fd;

	if (!ns)
		die("calloc");
	for (k = 0; k < repeat; k++) {
		files_read = skipped = bytes = 0;
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			fd = open(files[i], O_RDONLY);
			if (fd < 0) {
				skipped++;
				continue;
			}
			while ((r = read(fd, buf, sizeof(buf))) > 0)
				bytes += r;
			close(fd);
			files_read++;
		}
		ns[k] = now_ns() - t0;
		sum += ns[k];
	}
	qsort(ns, repeat, sizeof(*ns), cmp_u64);
	printf("ns=%llu min_ns=%llu max_ns=%llu mean_ns=%llu files=%ld skipped=%ld bytes=%ld\n",
	       (unsigned long long)ns[repeat / 2], (unsigned long long)ns[0],
	       (unsigned long long)ns[repeat - 1], (unsigned long long)(sum / repeat),
	       files_read, skipped, bytes);
	return 0;
}

/*
 * Map @len bytes of @fd at @off (anonymous memory when @fd < 0) at an
 * address @shift bytes past one congruent to @off modulo 2 MiB.
 */
static char *map_at(int fd, size_t off, size_t len, size_t shift)
{
	size_t span = len + 2 * HUGE;
	char *r, *a, *p;

	r = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED)
		die("mmap reserve");
	a = (char *)(((uintptr_t)r + HUGE - 1) & ~(HUGE - 1)) + off % HUGE + shift;
	if (fd < 0)
		p = mmap(a, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	else
		p = mmap(a, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, off);
	if (p == MAP_FAILED)
		die("mmap");
	/* the rest of the reservation would be one more VMA each side */
	if (a > r && munmap(r, a - r))
		die("munmap");
	if (r + span > a + len && munmap(a + len, r + span - (a + len)))
		die("munmap");
	if (fd < 0 && madvise(p, len, MADV_HUGEPAGE))
		die("madvise");
	return p;
}

/*
 * Read or write one byte of every page. A write stores without reading
 * first: a read fault maps anonymous memory to the huge zero page, and a
 * write to that falls back to small pages.
 */
static void touch(char *p, size_t len, int write)
{
	size_t i;

	for (i = 0; i < len; i += PAGE) {
		if (write)
			*(volatile char *)(p + i) = 1;
		else
			(void)*(volatile char *)(p + i);
	}
}

/* Open @path and make it at least @size bytes long. */
static int open_sized(const char *path, size_t size)
{
	struct stat st;
	int fd = open(path, O_RDWR | O_CREAT, 0644);

	if (fd < 0 || fstat(fd, &st))
		die(path);
	if ((size_t)st.st_size < size && ftruncate(fd, size))
		die("ftruncate");
	return fd;
}

/* An option NAME and where its value goes: a number to *num, or *path. */
struct opt {
	const char *name;
	long *num;
	const char **path;
};

/* The option of OPTS (ended by a NULL name) called NAME, or NULL. */
static const struct opt *opt(const struct opt *opts, const char *name)
{
	for (; opts->name; opts++)
		if (!strcmp(opts->name, name))
			return opts;
	return NULL;
}

static volatile sig_atomic_t lock_asked, unlock_asked;

static void on_usr(int sig)
{
	if (sig == SIGUSR1)
		lock_asked = 1;
	else
		unlock_asked = 1;
}

int main(int argc, char **argv)
{
	const char *file = NULL, *shmem = NULL, *lshmem = NULL;
	long nprocs = 0, anon_mb = 0, file_mb = 0, shmem_mb = 0, lanon_mb = 0, lshmem_mb = 0;
	int ffd, sfd, lfd = -1, ready[2], i, ret = 0;
	sigset_t usr, none;
	pid_t *pids;
	char c;
	/* every option of "procs" takes a value: a number or a path */
	const struct opt opts[] = {
		{ "--procs", &nprocs, NULL },
		{ "--anon-mb", &anon_mb, NULL },
		{ "--file", NULL, &file },
		{ "--file-mb", &file_mb, NULL },
		{ "--shmem", NULL, &shmem },
		{ "--shmem-mb", &shmem_mb, NULL },
		{ "--lock-anon-mb", &lanon_mb, NULL },
		{ "--lock-shmem", NULL, &lshmem },
		{ "--lock-shmem-mb", &lshmem_mb, NULL },
		{ NULL, NULL, NULL },
	};

	if (argc >= 4 && !strcmp(argv[1], "read") && !strcmp(argv[2], "--repeat")) {
		if (num(argv[3]) < 1)
			usage();
		return read_files(num(argv[3]), argc - 4, argv + 4);
	}
	if (argc >= 2 && !strcmp(argv[1], "read"))
		return read_files(1, argc - 2, argv + 2);
	if (argc < 2 || strcmp(argv[1], "procs"))
		usage();
	for (i = 2; i < argc; i += 2) {
		const struct opt *o = opt(opts, argv[i]);

		if (i + 1 >= argc || !o)
			usage();
		if (o->num)
			*o->num = num(argv[i + 1]);
		else
			*o->path = argv[i + 1];
	}
	if (nprocs < 2 || !file != !file_mb || !shmem != !shmem_mb || !lshmem != !lshmem_mb)
		usage();
	ffd = file ? open_sized(file, file_mb << 20) : -1;
	sfd = shmem ? open_sized(shmem, shmem_mb << 20) : -1;
	if (lshmem)
		lfd = open_sized(lshmem, lshmem_mb << 20);
	pids = calloc(nprocs, sizeof(*pids));
	if (!pids || pipe(ready))
		die("setup");
	sigemptyset(&none);
	sigemptyset(&usr);
	sigaddset(&usr, SIGUSR1);
	sigaddset(&usr, SIGUSR2);
	/* blocked until a locker waits for them, so that none is lost */
	sigprocmask(SIG_BLOCK, &usr, NULL);
	signal(SIGUSR1, on_usr);
	signal(SIGUSR2, on_usr);
	for (i = 0; i < nprocs; i++) {
		/* this process's part of each: a 1/N share, in pages */
		size_t parts[3] = { anon_mb, file_mb, shmem_mb }, len[3], off[3];
		char *lock_p = NULL;
		size_t lock_len = 0;
		int k;

		for (k = 0; k < 3; k++) {
			size_t pages = parts[k] << 8, q = pages / nprocs, r = pages % nprocs;

			len[k] = (q + ((size_t)i < r)) * PAGE;
			off[k] = (q * i + ((size_t)i < r ? (size_t)i : r)) * PAGE;
		}
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (pids[i])
			continue;
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			exit(1);
		close(ready[0]);
		if (len[0])
			touch(map_at(-1, 0, len[0], 0), len[0], 1);
		if (len[1])
			touch(map_at(ffd, off[1], len[1], 0), len[1], 0);
		if (len[2])
			touch(map_at(sfd, off[2], len[2], 0), len[2], 1);
		if (i == 0 && lanon_mb) {
			lock_len = lanon_mb << 20;
			lock_p = map_at(-1, 0, lock_len, 0);
		} else if (i == 1 && lfd >= 0) {
			lock_len = lshmem_mb << 20;
			lock_p = map_at(lfd, 0, lock_len, PAGE);
		}
		if (lock_p)
			touch(lock_p, lock_len, 1);
		if (ffd >= 0)
			close(ffd);
		if (sfd >= 0)
			close(sfd);
		if (write(ready[1], "r", 1) != 1)
			die("write");
		for (;;) {
			sigsuspend(&none);
			if (!lock_p)
				continue;
			if (unlock_asked) {
				unlock_asked = 0;
				if (munlock(lock_p, lock_len))
					die("munlock");
				printf("unlocked pid=%d kb=%zu\n", getpid(), lock_len >> 10);
			}
			if (lock_asked) {
				lock_asked = 0;
				if (mlock(lock_p, lock_len))
					die("mlock");
				printf("locked pid=%d kb=%zu\n", getpid(), lock_len >> 10);
			}
			fflush(stdout);
		}
	}
	close(ready[1]);
	for (i = 0; i < nprocs; i++)
		if (read(ready[0], &c, 1) != 1) {
			fprintf(stderr, "ma-scale: a process died before it was ready\n");
			ret = 1;
			goto out;
		}
	printf("ready pids=");
	for (i = 0; i < nprocs; i++)
		printf("%d%s", pids[i], i + 1 < nprocs ? " " : "\n");
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
out:
	for (i = 0; i < nprocs; i++)
		kill(pids[i], SIGKILL);
	/* their memory is gone by the time this exits */
	while (wait(NULL) > 0 || errno == EINTR)
		;
	return ret;
}
