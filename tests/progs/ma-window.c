// SPDX-License-Identifier: GPL-2.0
/*
 * ma-window: a mapping made and unmapped inside a livepatch transition, by
 * two threads of one process that the transition treats apart
 * (tests/guest/enable-window.sh).
 *
 *   ma-window PATH MB
 *
 * A thread writes "ADDR LEN" to /proc/ma_hold (tests/modules/ma_hold) and
 * waits there, where no transition that starts meanwhile can switch it.
 * The main thread prints "ready pid=N tid=T addr=0xA len=L" and reads
 * stdin: at "map" it maps MB MiB of PATH at ADDR (2 MiB-aligned; MAP_SHARED
 * | MAP_LOCKED | MAP_FIXED, which populates it) and prints "mapped". When
 * ma_hold has let the waiting thread go and unmapped the range in its
 * name, that thread prints "unmapped". The process exits at the end of
 * stdin.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ma-util.h"

#define HUGE (2UL << 20)

static char *addr;
static size_t len;
static pid_t holder_tid;

static void usage(void)
{
	fprintf(stderr, "usage: ma-window PATH MB\n");
	exit(2);
}

/* Wait in ma_hold; it unmaps [addr, addr + len) before letting us go. */
static void *hold(void *arg)
{
	char req[64];
	int fd, n;

	(void)arg;
	__atomic_store_n(&holder_tid, syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	fd = open("/proc/ma_hold", O_WRONLY);
	if (fd < 0)
		die("open /proc/ma_hold");
	n = snprintf(req, sizeof(req), "%lx %zx", (unsigned long)addr, len);
	if (write(fd, req, n) != n)
		die("write /proc/ma_hold");
	close(fd);
	printf("unmapped\n");
	fflush(stdout);
	return NULL;
}

int main(int argc, char **argv)
{
	char line[32], *res;
	pthread_t t;
	int fd;

	if (argc != 3)
		usage();
	len = mb_bytes(argv[2]);
	fd = xopen(argv[1], O_RDONLY);
	/* a 2 MiB-aligned range, reserved until "map" */
	res = mmap(NULL, len + HUGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		die("mmap reserve");
	addr = (char *)(((unsigned long)res + HUGE - 1) & ~(HUGE - 1));
	if (pthread_create(&t, NULL, hold, NULL))
		die("pthread_create");
	while (!__atomic_load_n(&holder_tid, __ATOMIC_SEQ_CST))
		usleep(1000);
	printf("ready pid=%d tid=%d addr=%p len=%zu\n", getpid(), holder_tid,
	       (void *)addr, len);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		if (strcmp(line, "map\n"))
			continue;
		if (mmap(addr, len, PROT_READ, MAP_SHARED | MAP_LOCKED | MAP_FIXED,
			 fd, 0) == MAP_FAILED)
			die("mmap MAP_LOCKED");
		printf("mapped\n");
		fflush(stdout);
	}
	return 0;
}
