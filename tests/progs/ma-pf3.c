// SPDX-License-Identifier: GPL-2.0
/*
 * ma-pf3: a will-it-scale page_fault3 equivalent (process mode). Each of
 * TASKS processes creates a 128 MiB file in DIR (mkstemp, ftruncate,
 * unlink), then until SECONDS have passed: maps it MAP_SHARED, writes one
 * byte to every page (one "op" per page, as in tests/page_fault3.c) and
 * unmaps it.
 *
 *   ma-pf3 DIR TASKS SECONDS
 * Prints "ops=N seconds=S ops_per_s=R minflt=F faults_per_op=P" summed
 * over the tasks (minor faults from getrusage of the children); exits 1
 * if a task failed.
 *
 *   ma-pf3 --touch FILE
 * Maps the existing FILE MAP_SHARED once, writes one byte to every page
 * and prints "pages=N minflt=F".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MEMSIZE (128UL << 20)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One task: write its op count to @out. */
static int task(const char *dir, double end, int out)
{
	unsigned long ops = 0, pg = (unsigned long)sysconf(_SC_PAGESIZE), i;
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/willitscale.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, MEMSIZE) || unlink(path)) {
		perror("ma-pf3: file");
		return 1;
	}
	while (now() < end) {
		char *c = mmap(NULL, MEMSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		if (c == MAP_FAILED) {
			perror("ma-pf3: mmap");
			return 1;
		}
		for (i = 0; i < MEMSIZE; i += pg) {
			c[i] = 0;
			ops++;
		}
		munmap(c, MEMSIZE);
	}
	if (write(out, &ops, sizeof(ops)) != sizeof(ops))
		return 1;
	return 0;
}

static int touch(const char *file)
{
	unsigned long pg = (unsigned long)sysconf(_SC_PAGESIZE), i;
	struct rusage r0, r1;
	off_t len;
	char *c;
	int fd;

	fd = open(file, O_RDWR);
	len = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
	if (len <= 0) {
		perror("ma-pf3: touch file");
		return 1;
	}
	c = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (c == MAP_FAILED) {
		perror("ma-pf3: mmap");
		return 1;
	}
	getrusage(RUSAGE_SELF, &r0);
	for (i = 0; i < (unsigned long)len; i += pg)
		c[i] = 1;
	getrusage(RUSAGE_SELF, &r1);
	printf("pages=%lu minflt=%ld\n", (unsigned long)len / pg,
	       r1.ru_minflt - r0.ru_minflt);
	munmap(c, (size_t)len);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long total = 0, ops;
	int tasks, seconds, i, status, fail = 0, pipefd[2];
	double start, end;
	struct rusage ru;

	if (argc == 3 && !strcmp(argv[1], "--touch"))
		return touch(argv[2]);
	if (argc != 4 || (tasks = atoi(argv[2])) < 1 || (seconds = atoi(argv[3])) < 1) {
		fprintf(stderr, "usage: ma-pf3 DIR TASKS SECONDS\n");
		return 2;
	}
	if (pipe(pipefd)) {
		perror("ma-pf3: pipe");
		return 1;
	}
	start = now();
	end = start + seconds;
	for (i = 0; i < tasks; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("ma-pf3: fork");
			return 1;
		}
		if (!pid)
			_exit(task(argv[1], end, pipefd[1]));
	}
	for (i = 0; i < tasks; i++) {
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			fail = 1;
	}
	end = now();
	close(pipefd[1]);
	while (read(pipefd[0], &ops, sizeof(ops)) == sizeof(ops))
		total += ops;
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("ops=%lu seconds=%.2f ops_per_s=%.0f minflt=%ld faults_per_op=%.5f\n",
	       total, end - start, total / (end - start), ru.ru_minflt,
	       total ? (double)ru.ru_minflt / total : 0);
	return fail;
}
