// SPDX-License-Identifier: GPL-2.0
/*
 * ma-sigbus: SIGBUS semantics of a shared file mapping that reaches past
 * the end of the file, in the style of fstests generic/749. Writes MAPLEN
 * bytes to FILE (replacing it; the page cache then holds large folios on
 * filesystems that make them) and truncates it to SIZE, so that EOF falls
 * inside what was a large folio; maps MAPLEN bytes MAP_SHARED, reads one
 * byte of every page, then, in a new mapping, writes one byte of every
 * page, noting which accesses raise SIGBUS.
 *
 *   ma-sigbus [--huge-extent] [--exact] FILE SIZE MAPLEN
 * Prints "read  ...BBB" and "write ...BBB" ('.' no signal, 'B' SIGBUS, one
 * character per page) and exits 0 when POSIX holds: no SIGBUS on a page
 * holding data (the page with EOF included), SIGBUS on every page wholly
 * past EOF; 1 when it does not; 2 on usage or setup errors. With
 * --huge-extent (tmpfs huge=always, which maps a huge page across i_size
 * by design), pages past EOF within the 2 MiB extent holding EOF may also
 * be mapped; every page past that extent must still raise SIGBUS. With
 * --exact, FILE is written SIZE bytes long, not truncated to it.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static sigjmp_buf jump;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(jump, 1);
}

static void die(const char *what)
{
	fprintf(stderr, "ma-sigbus: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* One pass over a fresh mapping; returns the per-page outcome string. */
static char *pass(int fd, size_t maplen, size_t page, int write)
{
	size_t n = maplen / page, i;
	char *res = calloc(n + 1, 1);
	volatile char *map;

	if (!res)
		die("calloc");
	map = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap");
	for (i = 0; i < n; i++) {
		if (sigsetjmp(jump, 1)) {
			res[i] = 'B';
			continue;
		}
		if (write)
			map[i * page] = 'w';
		else
			(void)map[i * page];
		res[i] = '.';
	}
	munmap((void *)map, maplen);
	return res;
}

int main(int argc, char **argv)
{
	size_t size, maplen, page = (size_t)sysconf(_SC_PAGESIZE), i, left;
	char *rd, *wr, buf[65536];
	int fd, ok = 1, extent = 0, exact = 0;
	size_t lax_end;

	for (; argc > 4 && argv[1][0] == '-'; argc--, argv++) {
		if (!strcmp(argv[1], "--huge-extent"))
			extent = 1;
		else if (!strcmp(argv[1], "--exact"))
			exact = 1;
		else
			break;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: ma-sigbus [--huge-extent] [--exact] FILE SIZE MAPLEN\n");
		return 2;
	}
	size = strtoul(argv[2], NULL, 0);
	maplen = strtoul(argv[3], NULL, 0);
	if (!size || maplen % page || maplen <= size) {
		fprintf(stderr, "ma-sigbus: want 0 < SIZE < MAPLEN, MAPLEN page-aligned\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(argv[1]);
	memset(buf, 'x', sizeof(buf));
	for (left = exact ? size : maplen; left; ) {
		ssize_t w = write(fd, buf, left < sizeof(buf) ? left : sizeof(buf));

		if (w <= 0)
			die("write");
		left -= (size_t)w;
	}
	if (ftruncate(fd, (off_t)size))
		die("ftruncate");
	if (signal(SIGBUS, on_sigbus) == SIG_ERR)
		die("signal");
	rd = pass(fd, maplen, page, 0);
	wr = pass(fd, maplen, page, 1);
	printf("read  %s\nwrite %s\n", rd, wr);
	/* with --huge-extent, pages before lax_end may go either way */
	lax_end = extent ? (size + (2UL << 20) - 1) & ~((2UL << 20) - 1) : 0;
	for (i = 0; i < maplen / page; i++) {
		char want = i * page < size ? '.' : 'B';

		if (want == 'B' && i * page < lax_end)
			continue;
		if (rd[i] != want || wr[i] != want)
			ok = 0;
	}
	if (ftruncate(fd, 0))
		die("ftruncate");
	close(fd);
	return ok ? 0 : 1;
}
