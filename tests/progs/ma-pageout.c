// SPDX-License-Identifier: GPL-2.0
/*
 * ma-pageout FILE MB ORDER: reclaim through one mapping of a file while
 * another, locked mapping of the same pages maps nothing.
 *
 * Maps MB MiB of FILE twice, shared and read-only: with
 * mlock2(MLOCK_ONFAULT) and never touched (a VM_LOCKED VMA without a
 * single page-table entry), and a plain mapping that is read through;
 * ORDER "locked-first" or "plain-first" says which is mapped first (the
 * rmap walk visits them in an order that depends on it and the kernel).
 * MADV_PAGEOUT on the plain mapping must then unmap and reclaim its pages
 * as if the locked VMA were not there: it maps none of them. Prints the
 * plain mapping's page-table-mapped kB (pagemap "present") before and
 * after, the locked one's, and how many read-throughs it took to map the
 * plain mapping whole (at most 5: the kernel can unmap pages between the
 * read and the count, 7.3 with the multi-gen LRU once 9736 kB of 32 MiB):
 *   "plain_before_kb=N plain_after_kb=N locked_kb=N reads=N"
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ma-util.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1
#endif

static void usage(void)
{
	fprintf(stderr, "usage: ma-pageout FILE MB locked-first|plain-first\n");
	exit(2);
}

/* kB of [p, p + len) that page tables map, from /proc/self/pagemap */
static long mapped_kb(const char *p, size_t len)
{
	long page = sysconf(_SC_PAGESIZE), n = 0;
	size_t i, pages = len / page;
	uint64_t e;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0)
		die("open /proc/self/pagemap");
	for (i = 0; i < pages; i++) {
		off_t off = ((uintptr_t)p / page + i) * sizeof(e);

		if (pread(fd, &e, sizeof(e), off) != sizeof(e))
			die("pread pagemap");
		if (e >> 63)
			n++;
	}
	close(fd);
	return n * (page / 1024);
}

int main(int argc, char **argv)
{
	volatile const char *q;
	char *locked, *plain;
	int fd, reads = 0;
	size_t len, i;
	long before;

	if (argc != 4 || (strcmp(argv[3], "locked-first") && strcmp(argv[3], "plain-first")))
		usage();
	len = mb_bytes(argv[2]);
	fd = xopen(argv[1], O_RDONLY);
	if (!strcmp(argv[3], "plain-first")) {
		plain = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		locked = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	} else {
		locked = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		plain = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	}
	if (locked == MAP_FAILED || plain == MAP_FAILED)
		die("mmap");
	if (syscall(SYS_mlock2, locked, len, MLOCK_ONFAULT))
		die("mlock2(MLOCK_ONFAULT)");
	q = plain;
	do {
		for (i = 0; i < len; i += 4096)
			(void)q[i];
		before = mapped_kb(plain, len);
		reads++;
	} while (before != (long)(len >> 10) && reads < 5);
	if (madvise(plain, len, MADV_PAGEOUT))
		die("madvise(MADV_PAGEOUT)");
	printf("plain_before_kb=%ld plain_after_kb=%ld locked_kb=%ld reads=%d\n", before,
	       mapped_kb(plain, len), mapped_kb(locked, len), reads);
	return 0;
}
