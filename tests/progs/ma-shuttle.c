// SPDX-License-Identifier: GPL-2.0
/*
 * ma-shuttle: a locked file mapping that mremap() keeps moving between two
 * ends of a process whose many small VMAs lie between them
 * (tests/guest/91-fix-mlock-undo-mremap.sh). A walk of the process in
 * address order that lets mmap_lock go between its parts can then see the
 * mapping at neither end.
 *
 *   ma-shuttle PATH MB VMAS
 *
 * Maps MB MiB of PATH (MAP_SHARED | MAP_LOCKED, 2 MiB-aligned) at the low
 * end of a reserved range, VMAS one-page anonymous VMAs after it
 * (alternately readable and not, so that none merge), and a 2 MiB-aligned
 * slot at the high end. Prints "ready pid=N low=0xA high=0xB", then reads
 * stdin: after "go" a thread moves the mapping to the other end and back,
 * resting 100 us between moves; "stop" stops it and prints
 * "stopped moves=N" (N: moves so far). Exits at the end of stdin.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE (2UL << 20)

static int going, idle = 1;
static long moves;
static char *low, *high;
static size_t len;

static void die(const char *what)
{
	fprintf(stderr, "ma-shuttle: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Move the mapping from end to end while "going". */
static void *mover(void *arg)
{
	char *at = low;

	(void)arg;
	for (;;) {
		char *to = at == low ? high : low;

		/* busy before looking, so that "stop" waits for this move */
		__atomic_store_n(&idle, 0, __ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&going, __ATOMIC_SEQ_CST)) {
			__atomic_store_n(&idle, 1, __ATOMIC_SEQ_CST);
			usleep(1000);
			continue;
		}
		if (mremap(at, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, to) == MAP_FAILED)
			die("mremap");
		at = to;
		__atomic_add_fetch(&moves, 1, __ATOMIC_SEQ_CST);
		/*
		 * A breath between moves: under single-threaded TCG a vCPU
		 * that never sleeps delays the other vCPU's IPIs, and 6.12's
		 * livepatch transition syncs every CPU (75 s without this).
		 */
		usleep(100);
	}
	return NULL;
}

static long num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || v <= 0) {
		fprintf(stderr, "usage: ma-shuttle PATH MB VMAS\n");
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), mb, vmas, i;
	char line[32], *res;
	size_t span;
	pthread_t t;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: ma-shuttle PATH MB VMAS\n");
		return 2;
	}
	mb = num(argv[2]);
	vmas = num(argv[3]);
	len = (size_t)mb << 20;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		die(argv[1]);
	/* low slot, the small VMAs (rounded up to 2 MiB), high slot */
	span = len + ((vmas * page + HUGE - 1) & ~(HUGE - 1)) + len;
	res = mmap(NULL, span + HUGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (res == MAP_FAILED)
		die("mmap reserve");
	low = (char *)(((unsigned long)res + HUGE - 1) & ~(HUGE - 1));
	high = low + span - len;
	for (i = 0; i < vmas; i++) {
		char *p = low + len + i * page;

		if (mmap(p, page, i % 2 ? PROT_READ : PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			die("mmap small");
	}
	if (mmap(low, len, PROT_READ, MAP_SHARED | MAP_LOCKED | MAP_FIXED, fd, 0) == MAP_FAILED)
		die("mmap MAP_LOCKED");
	if (pthread_create(&t, NULL, mover, NULL))
		die("pthread_create");
	printf("ready pid=%d low=%p high=%p\n", getpid(), (void *)low, (void *)high);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		if (!strcmp(line, "go\n")) {
			__atomic_store_n(&going, 1, __ATOMIC_SEQ_CST);
		} else if (!strcmp(line, "stop\n")) {
			__atomic_store_n(&going, 0, __ATOMIC_SEQ_CST);
			while (!__atomic_load_n(&idle, __ATOMIC_SEQ_CST))
				usleep(1000);
			printf("stopped moves=%ld\n", __atomic_load_n(&moves, __ATOMIC_SEQ_CST));
			fflush(stdout);
		}
	}
	return 0;
}
