// SPDX-License-Identifier: GPL-2.0
/*
 * ma-churn: N worker processes that, for SECONDS, continuously mmap,
 * mlock, touch, munlock, munmap and exit (each worker is replaced by a new
 * one when it exits), over anonymous THP memory and a file in DIR.
 *
 *   ma-churn N SECONDS DIR
 * Prints "churn workers=N cycles=C" at the end; exits 1 if a worker failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LEN	(4UL << 20)

static int worker(const char *dir, unsigned int seed)
{
	char path[4096];
	int i, fd;

	snprintf(path, sizeof(path), "%s/churn.%d", dir, getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, LEN))
		return 1;
	unlink(path);
	for (i = 0; i < 8; i++) {
		int file = rand_r(&seed) & 1;
		size_t off = (rand_r(&seed) % 4) * 4096;
		char *p = mmap(NULL, LEN, PROT_READ | PROT_WRITE,
			       file ? MAP_SHARED : MAP_PRIVATE | MAP_ANONYMOUS,
			       file ? fd : -1, 0);
		size_t j;

		if (p == MAP_FAILED)
			return 1;
		if (!file)
			madvise(p, LEN, MADV_HUGEPAGE);
		if (rand_r(&seed) & 1) {
			for (j = 0; j < LEN; j += 4096)
				p[j] = 1;
			if (mlock(p + off, LEN - off))
				return 1;
		} else if (mlock(p, LEN)) {
			return 1;
		}
		if (munlock(p + LEN / 2, LEN / 4) || munmap(p, LEN))
			return 1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int n, i, status, failed = 0;
	long cycles = 0;
	time_t end;

	if (argc != 4 || (n = atoi(argv[1])) <= 0 || atoi(argv[2]) <= 0) {
		fprintf(stderr, "usage: ma-churn N SECONDS DIR\n");
		return 2;
	}
	end = time(NULL) + atoi(argv[2]);
	for (i = 0; i < n; i++)
		if (fork() == 0)
			_exit(worker(argv[3], i));
	while (wait(&status) > 0) {
		cycles++;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
		if (time(NULL) < end && fork() == 0)
			_exit(worker(argv[3], (unsigned int)cycles));
	}
	printf("churn workers=%d cycles=%ld failed=%d\n", n, cycles, failed);
	return failed ? 1 : 0;
}
