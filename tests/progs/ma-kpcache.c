// SPDX-License-Identifier: GPL-2.0
/*
 * ma-kpcache: the mlocked and unevictable pages in the page cache of FILEs,
 * by /proc/kpageflags, independent of the module. Each FILE is mapped
 * read-only and shared (a mapping that is not VM_LOCKED changes no mlock
 * state) and only the pages already in its page cache (mincore) are
 * touched, so nothing is read in.
 *
 *   ma-kpcache FILE...
 *
 * Prints one line per FILE:
 *   FILE cached=N mlocked=M unevictable=U folios=F
 * in 4 KiB pages; F counts the distinct folios with PG_mlocked. A tail page
 * takes the flags of its folio's head (6.1 reports PG_mlocked and
 * PG_unevictable on the head only).
 * Exits 1 when a FILE cannot be read. Needs root.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE			4096UL
#define KPF_COMPOUND_TAIL	16
#define KPF_UNEVICTABLE		18
#define KPF_MLOCKED		33
#define PM_PRESENT		(1ULL << 63)
#define PM_PFN_MASK		((1ULL << 55) - 1)

static int rd(int fd, uint64_t idx, uint64_t *val)
{
	return pread(fd, val, sizeof(*val), (off_t)(idx * sizeof(*val))) == sizeof(*val) ? 0 : -1;
}

static int one(const char *path, int pm, int kf)
{
	long cached = 0, mlocked = 0, unevictable = 0, folios = 0;
	uint64_t head = 0;
	unsigned char *vec;
	struct stat st;
	size_t n, i;
	char *p;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(path);
		return -1;
	}
	n = (st.st_size + PAGE - 1) / PAGE;
	if (!n) {
		printf("%s cached=0 mlocked=0 unevictable=0 folios=0\n", path);
		close(fd);
		return 0;
	}
	vec = calloc(n, 1);
	p = mmap(NULL, n * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (!vec || p == MAP_FAILED || mincore(p, n * PAGE, vec)) {
		perror(path);
		return -1;
	}
	for (i = 0; i < n; i++) {
		uint64_t ent, flags;
		volatile char c;

		if (!(vec[i] & 1))
			continue;
		c = p[i * PAGE];	/* maps the cached page, reads nothing in */
		(void)c;
		if (rd(pm, (uintptr_t)p / PAGE + i, &ent) || !(ent & PM_PRESENT))
			continue;
		if (rd(kf, ent & PM_PFN_MASK, &flags)) {
			perror("/proc/kpageflags");
			return -1;
		}
		cached++;
		if (flags & (1ULL << KPF_COMPOUND_TAIL)) {
			flags = head;
		} else {
			head = flags;
			if (flags & (1ULL << KPF_MLOCKED))
				folios++;
		}
		if (flags & (1ULL << KPF_MLOCKED))
			mlocked++;
		if (flags & (1ULL << KPF_UNEVICTABLE))
			unevictable++;
	}
	printf("%s cached=%ld mlocked=%ld unevictable=%ld folios=%ld\n",
	       path, cached, mlocked, unevictable, folios);
	munmap(p, n * PAGE);
	free(vec);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int pm, kf, i, ret = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: ma-kpcache FILE...\n");
		return 2;
	}
	pm = open("/proc/self/pagemap", O_RDONLY);
	kf = open("/proc/kpageflags", O_RDONLY);
	if (pm < 0 || kf < 0) {
		perror("/proc/self/pagemap or /proc/kpageflags");
		return 1;
	}
	for (i = 1; i < argc; i++)
		if (one(argv[i], pm, kf))
			ret = 1;
	return ret;
}
