// SPDX-License-Identifier: GPL-2.0
/*
 * ma-stuck FILE MB: a process whose mmap_lock is held for writing by a
 * thread stuck in D state, until a line (or EOF) arrives on stdin.
 * ma-stuck --thaw FILE: thaw FILE's file system (cleanup after a failure).
 *
 * Maps MB MiB of FILE (on a file system that can be frozen: XFS) shared
 * and locked (MAP_LOCKED, populated: the large folios the "mlock" fix
 * mlocks), and its first two pages again, shared and writable, the first
 * read once, and prints "mapped". On a line (or EOF) on stdin, freezes the
 * file system (FIFREEZE), and:
 *   - thread "writer" writes to the first page: the write fault waits in
 *     page_mkwrite() for the thaw (sb_start_pagefault(), D state), holding
 *     the mmap_lock for reading (6.1) or the VMA's lock (per-VMA locks);
 *   - thread "unmapper" unmaps the second page, splitting that VMA: it
 *     takes or waits for the mmap_lock for writing, then waits for the
 *     writer (D state). The first page stays: the write fault may retry.
 * From then on, every mmap_read_lock() of this mm waits for the thaw.
 * Prints "stuck writer=S unmapper=S" with both threads' states, then, on
 * a line or EOF on stdin, thaws, joins both and prints "thawed"; exits at
 * the next EOF on stdin (keeping the locked mapping until then).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile char *page;
static pid_t tids[2];
static int go[2][2];		/* a pipe per thread: a byte says "go" */
static char buf[4096];		/* all output and /proc reads: no allocation */

/*
 * Once the file system is frozen, on 6.1 (no per-VMA locks) every fault
 * and every mmap of this process waits behind the queued writer: the main
 * thread then only uses memory it touched before (static buffers, a stack
 * touched in advance) and system calls that do not take the mmap_lock.
 */
static void die(const char *what)
{
	fprintf(stderr, "ma-stuck: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void await_go(int i)
{
	char c;

	tids[i] = (pid_t)syscall(SYS_gettid);
	if (read(go[i][0], &c, 1) != 1)
		die("read");
}

static void *writer(void *arg)
{
	(void)arg;
	await_go(0);
	page[0] = 1;
	return NULL;
}

static void *unmapper(void *arg)
{
	(void)arg;
	await_go(1);
	if (munmap((void *)(page + 4096), 4096))
		die("munmap");
	return NULL;
}

/* the state letter of thread @tid (/proc/self/task/TID/stat), or '?' */
static char state_of(pid_t tid)
{
	char path[64], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

static void nap_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static void say(const char *text)
{
	if (write(1, text, strlen(text)) < 0)
		exit(1);
}

/* a line on stdin, or EOF */
static void wait_line(void)
{
	char c;

	while (read(0, &c, 1) == 1 && c != '\n')
		;
}

/* touch 64 KiB of stack below this frame, for the calls made later */
static void touch_stack(void)
{
	volatile char pad[65536];

	memset((char *)pad, 0, sizeof(pad));
}

int main(int argc, char **argv)
{
	pthread_t w, u;
	char line[128];
	size_t len;
	char c = 0;
	int fd, i;

	if (argc == 3 && !strcmp(argv[1], "--thaw")) {
		fd = open(argv[2], O_RDONLY);
		if (fd < 0)
			die(argv[2]);
		if (ioctl(fd, FITHAW, 0) && errno != EINVAL)
			die("FITHAW");
		return 0;
	}
	if (argc != 3 || atoi(argv[2]) <= 0) {
		fprintf(stderr, "usage: ma-stuck FILE MB | ma-stuck --thaw FILE\n");
		return 2;
	}
	len = (size_t)atoi(argv[2]) << 20;
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		die(argv[1]);
	if (mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_LOCKED | MAP_POPULATE, fd, 0) == MAP_FAILED)
		die("mmap locked");
	page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED)
		die("mmap");
	c = page[0];
	say("mapped\n");
	wait_line();
	for (i = 0; i < 2; i++)
		if (pipe(go[i]))
			die("pipe");
	if (pthread_create(&w, NULL, writer, NULL) || pthread_create(&u, NULL, unmapper, NULL))
		die("pthread_create");
	while (!tids[0] || !tids[1])
		nap_ms(10);
	state_of(tids[0]);
	touch_stack();
	if (ioctl(fd, FIFREEZE, 0))
		die("FIFREEZE");
	if (write(go[0][1], "w", 1) != 1)
		die("write");
	nap_ms(500);
	if (write(go[1][1], "u", 1) != 1)
		die("write");
	for (i = 0; i < 100 && state_of(tids[1]) != 'D'; i++)
		nap_ms(100);
	snprintf(line, sizeof(line), "stuck writer=%c unmapper=%c\n",
		 state_of(tids[0]), state_of(tids[1]));
	say(line);
	wait_line();
	if (ioctl(fd, FITHAW, 0))
		die("FITHAW");
	pthread_join(w, NULL);
	pthread_join(u, NULL);
	snprintf(line, sizeof(line), "thawed (read %d)\n", c);
	say(line);
	while (read(0, &c, 1) == 1)
		;
	return 0;
}
