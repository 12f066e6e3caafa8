// SPDX-License-Identifier: GPL-2.0
/*
 * ma-stranded: the kernel's stranded-munlock race, played step by step with
 * the test module ma_lruhold (tests/modules/ma_lruhold), on a large folio
 * of FILE mapped whole into a locked VMA.
 *
 *   ma-stranded FILE MB large|small
 *
 * 1. Maps the first MB MiB of FILE shared and read-only, touches every
 *    page (so that each folio is mapped whole) and mlock()s the range.
 * 2. Picks the first large folio (or with "small", the first order-0 one)
 *    that lies wholly in the range, is mlocked and is on the unevictable
 *    list (by pagemap + kpageflags), or, if there is none, prints
 *    "target none" and exits 0.
 * 3. Has ma_lruhold take that folio off the LRU, munlock()s the range
 *    (the munlock finds the folio off the LRU: "stranded"), and prints
 *    ma_lruhold's view of the folio; then has ma_lruhold put it back.
 * 4. mlock()s and munlock()s the range once more, and prints the folio's
 *    flags: a folio still mlocked here has no locked mapping left.
 * Output lines: "target addr=0x... pages=N", "stranded <ma_lruhold state>",
 * "after mlocked=0|1 unevictable=0|1". Exits 1 on an error. Needs root.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE			4096UL
#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16
#define KPF_UNEVICTABLE		18
#define KPF_MLOCKED		33
#define PM_PRESENT		(1ULL << 63)
#define PM_PFN_MASK		((1ULL << 55) - 1)
#define HOLD			"/proc/ma_lruhold"

static int pm, kf;

/* the kpageflags of the page mapped at P, or 0 with *ok cleared */
static uint64_t flags_at(const char *p, int *ok)
{
	uint64_t ent, flags;

	*ok = pread(pm, &ent, sizeof(ent), (off_t)((uintptr_t)p / PAGE * sizeof(ent))) ==
	      sizeof(ent) && (ent & PM_PRESENT) &&
	      pread(kf, &flags, sizeof(flags), (off_t)((ent & PM_PFN_MASK) * sizeof(flags))) ==
	      sizeof(flags);
	return *ok ? flags : 0;
}

static int hold(const char *cmd)
{
	int fd = open(HOLD, O_WRONLY);
	ssize_t n = fd < 0 ? -1 : write(fd, cmd, strlen(cmd));

	if (n != (ssize_t)strlen(cmd)) {
		perror(HOLD);
		return -1;
	}
	close(fd);
	return 0;
}

static void show_held(void)
{
	char buf[160] = "";
	int fd = open(HOLD, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	printf("stranded %s", n > 0 ? buf : "(unreadable)\n");
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	size_t len, i, pages = 0;
	char *p, *target = NULL, cmd[48];
	volatile char sum = 0;
	uint64_t f;
	int fd, ok, small;

	if (argc != 4 || atoi(argv[2]) <= 0 ||
	    (strcmp(argv[3], "large") && strcmp(argv[3], "small"))) {
		fprintf(stderr, "usage: ma-stranded FILE MB large|small\n");
		return 2;
	}
	small = !strcmp(argv[3], "small");
	len = (size_t)atoi(argv[2]) << 20;
	fd = open(argv[1], O_RDONLY);
	pm = open("/proc/self/pagemap", O_RDONLY);
	kf = open("/proc/kpageflags", O_RDONLY);
	if (fd < 0 || pm < 0 || kf < 0) {
		perror("open");
		return 1;
	}
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (i = 0; i < len; i += PAGE)
		sum += p[i];
	if (mlock(p, len)) {
		perror("mlock");
		return 1;
	}
	for (i = 0; i < len && !target; i += PAGE) {
		size_t n = 1;

		f = flags_at(p + i, &ok);
		if (!ok || !(f & (1ULL << KPF_MLOCKED)) || !(f & (1ULL << KPF_UNEVICTABLE)))
			continue;
		if (small) {
			if (!(f & (1ULL << KPF_COMPOUND_HEAD)) && !(f & (1ULL << KPF_COMPOUND_TAIL))) {
				target = p + i;
				pages = 1;
			}
			continue;
		}
		if (!(f & (1ULL << KPF_COMPOUND_HEAD)))
			continue;
		while (i + n * PAGE < len &&
		       (flags_at(p + i + n * PAGE, &ok) & (1ULL << KPF_COMPOUND_TAIL)) && ok)
			n++;
		if (n >= 4 && i + n * PAGE < len) {
			target = p + i;
			pages = n;
		}
	}
	if (!target) {
		printf("target none\n");
		return 0;
	}
	printf("target addr=%p pages=%zu\n", (void *)target, pages);
	snprintf(cmd, sizeof(cmd), "hold %lx", (unsigned long)target);
	if (hold(cmd))
		return 1;
	if (munlock(p, len)) {
		perror("munlock");
		return 1;
	}
	show_held();
	if (hold("release"))
		return 1;
	if (mlock(p, len) || munlock(p, len)) {
		perror("mlock/munlock");
		return 1;
	}
	f = flags_at(target, &ok);
	if (!ok) {
		fprintf(stderr, "ma-stranded: the target is no longer mapped\n");
		return 1;
	}
	printf("after mlocked=%d unevictable=%d\n", !!(f & (1ULL << KPF_MLOCKED)),
	       !!(f & (1ULL << KPF_UNEVICTABLE)));
	munmap(p, len);
	return 0;
}
