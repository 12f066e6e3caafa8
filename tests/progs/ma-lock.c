// SPDX-License-Identifier: GPL-2.0
/*
 * ma-lock: create one locked mapping the way a test scenario asks, report
 * it, and hold it until stdin reaches end of file (or SIGTERM).
 *
 *   ma-lock [--file PATH | --anon | --shm] --mb MB [--offset-kb KB]
 *           --lock fault|maplocked|populate|onfault|mlockall|none [--touch-pct P]
 *           [--munlock-kb OFF:LEN] [--fork] [--hugetlb] [--readonly]
 *           [--mprotect-kb OFF:LEN] [--onfault-kb OFF:LEN] [--mremap-kb OFF:LEN]
 *           [--munmap-kb OFF:LEN] [--punch-kb OFF:LEN] [--truncate-kb KB]
 *           [--leader-exit] [--fork-first] [--split-pmd]
 *
 * The mapping starts OFFSET KB past a 2 MiB-aligned address. --file maps
 * PATH MAP_SHARED (writing it first if it is shorter than MB); --anon maps
 * private anonymous memory, --shm shared anonymous memory (shmem's
 * internal mount, whose large folios hugepages-*kB/shmem_enabled set),
 * both MADV_HUGEPAGE'd.
 *   fault      touch every page, then mlock()
 *   maplocked  mmap(MAP_LOCKED)
 *   populate   mlock() the untouched mapping
 *   onfault    mlock2(MLOCK_ONFAULT), then touch P% (default 50) of pages
 *   mlockall   mlockall(MCL_CURRENT | MCL_FUTURE), then map and touch
 *   none       lock nothing, write the first page only (with --anon, the
 *              fault registers the process with khugepaged: see
 *              khugepaged_asleep in tests/guest/lib.sh)
 * --munlock-kb then munlocks LEN KB at OFF KB into the mapping (splitting
 * the VMA); --fork forks a child that holds the mapping too (a child does
 * not inherit VM_LOCKED) and prints "child=N". --hugetlb maps anonymous
 * hugetlb pages (MAP_HUGETLB); --readonly maps PROT_READ (an untouched
 * private anonymous mapping then maps the zero page).
 * After locking, each of these changes LEN KB at OFF KB into the mapping,
 * splitting the VMA there (inside large folios when OFF is not a multiple
 * of their size): --mprotect-kb makes it read-only, --onfault-kb
 * mlock2(MLOCK_ONFAULT)s it, --mremap-kb moves it elsewhere, --munmap-kb
 * unmaps it; --punch-kb punches a hole there in the file
 * (FALLOC_FL_PUNCH_HOLE) and --truncate-kb cuts the file to KB. With
 * --leader-exit the main thread exits once the mapping is ready and
 * another thread holds it (the thread-group leader is then a zombie).
 * --fork-first forks the child right after locking, before the changes
 * above, and the child touches nothing: it keeps the mappings the fork
 * copied (a PMD-mapped anonymous THP stays PMD-mapped there). --split-pmd
 * then makes the first page executable and back: the VMA splits
 * and merges back, and a PMD-mapped anonymous THP at the start is left
 * mapped by PTEs.
 * Prints "ready pid=N addr=0xA len=L" and waits.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ma-util.h"

#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 0x01
#endif

#define HUGE (2UL << 20)

static void usage(void)
{
	fprintf(stderr,
		"usage: ma-lock [--file PATH | --anon | --shm] --mb MB [--offset-kb KB]\n"
		"               --lock fault|maplocked|populate|onfault|mlockall|none [--touch-pct P]\n"
		"               [--munlock-kb OFF:LEN] [--fork] [--hugetlb] [--readonly]\n"
		"               [--mprotect-kb OFF:LEN] [--onfault-kb OFF:LEN] [--mremap-kb OFF:LEN]\n"
		"               [--munmap-kb OFF:LEN] [--punch-kb OFF:LEN] [--truncate-kb KB]\n"
		"               [--leader-exit] [--fork-first] [--split-pmd]\n");
	exit(2);
}

static int readonly;

/* "OFF:LEN" in KB, page-aligned, into *off and *len */
static void range(const char *s, long *off, long *len)
{
	if (sscanf(s, "%ld:%ld", off, len) != 2 || *off < 0 || *len <= 0 ||
	    (*off | *len) % 4)
		usage();
}

/* Hold until stdin reaches end of file, then exit. */
static void *holder(void *arg)
{
	char c;

	(void)arg;
	while (read(0, &c, 1) > 0)
		;
	exit(0);
}

/* Touch pct% of the pages: write (read only with --readonly). */
static void touch(char *p, size_t len, long pct)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t n = len / page, i;

	for (i = 0; i < n; i++) {
		if ((i * 100) / n >= (size_t)pct)
			continue;
		if (readonly)
			(void)*(volatile char *)(p + i * page);
		else
			*(volatile char *)(p + i * page) += 0;
	}
}

/*
 * Fork a child that touches the first @touch_len bytes at @p, then holds its
 * mappings until stdin reaches end of file; returns its pid.
 */
static pid_t fork_holder(char *p, size_t touch_len)
{
	pid_t child = fork();
	char c;

	if (child < 0)
		die("fork");
	if (!child) {
		if (touch_len)
			touch(p, touch_len, 100);
		while (read(0, &c, 1) > 0)
			;
		exit(0);
	}
	return child;
}

int main(int argc, char **argv)
{
	const char *file = NULL, *lock = NULL;
	long mb = 0, off_kb = 0, pct = 50, mu_off = -1, mu_len = 0;
	long mp_off = -1, mp_len = 0, of_off = -1, of_len = 0, mr_off = -1, mr_len = 0;
	long mn_off = -1, mn_len = 0, ph_off = -1, ph_len = 0, trunc_kb = -1;
	int shm = 0, anon = 0, fd = -1, flags, i, do_fork = 0, hugetlb = 0, prot, leader_exit = 0;
	int fork_first = 0, split_pmd = 0;
	pid_t child = 0;
	size_t len;
	char *base, *p, c;
	/* the options that take OFF:LEN (range()), and where each goes */
	const struct range_opt {
		const char *name;
		long *off, *len;
	} ranges[] = {
		{ "--munlock-kb", &mu_off, &mu_len },
		{ "--mprotect-kb", &mp_off, &mp_len },
		{ "--onfault-kb", &of_off, &of_len },
		{ "--mremap-kb", &mr_off, &mr_len },
		{ "--munmap-kb", &mn_off, &mn_len },
		{ "--punch-kb", &ph_off, &ph_len },
		{ NULL, NULL, NULL },
	}, *r;

	for (i = 1; i < argc; i++) {
		for (r = ranges; r->name && strcmp(r->name, argv[i]); r++)
			;
		if (r->name && i + 1 < argc)
			range(argv[++i], r->off, r->len);
		else if (!strcmp(argv[i], "--anon"))
			anon = 1;
		else if (!strcmp(argv[i], "--shm"))
			shm = anon = 1;
		else if (i + 1 < argc && !strcmp(argv[i], "--file"))
			file = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--mb"))
			mb = num(argv[++i]);
		else if (i + 1 < argc && !strcmp(argv[i], "--offset-kb"))
			off_kb = num(argv[++i]);
		else if (i + 1 < argc && !strcmp(argv[i], "--lock"))
			lock = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--touch-pct"))
			pct = num(argv[++i]);
		else if (i + 1 < argc && !strcmp(argv[i], "--truncate-kb")) {
			trunc_kb = num(argv[++i]);
			if (trunc_kb % 4)
				usage();
		} else if (!strcmp(argv[i], "--leader-exit"))
			leader_exit = 1;
		else if (!strcmp(argv[i], "--fork"))
			do_fork = 1;
		else if (!strcmp(argv[i], "--fork-first"))
			do_fork = fork_first = 1;
		else if (!strcmp(argv[i], "--split-pmd"))
			split_pmd = 1;
		else if (!strcmp(argv[i], "--hugetlb"))
			hugetlb = anon = 1;
		else if (!strcmp(argv[i], "--readonly"))
			readonly = 1;
		else
			usage();
	}
	if (!mb || !lock || anon == !!file || (off_kb * 1024) % 4096 || pct > 100 ||
	    (hugetlb && off_kb) || (shm && hugetlb) ||
	    ((ph_off >= 0 || trunc_kb >= 0) && !file))
		usage();
	len = (size_t)mb << 20;

	if (file) {
		struct stat st;

		fd = open(file, O_RDWR | O_CREAT, 0600);
		if (fd < 0 || fstat(fd, &st))
			die(file);
		if ((size_t)st.st_size < len) {
			char buf[65536];
			size_t done;

			memset(buf, 0x5a, sizeof(buf));
			for (done = 0; done < len; done += sizeof(buf))
				if (write(fd, buf, sizeof(buf)) != sizeof(buf))
					die("write");
			fsync(fd);
		}
	}

	/* Reserve an aligned window, then map over it at the offset. */
	base = mmap(NULL, len + 2 * HUGE, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		die("mmap reserve");
	p = (char *)(((unsigned long)base + HUGE - 1) & ~(HUGE - 1)) + off_kb * 1024;

	if (!strcmp(lock, "mlockall") && mlockall(MCL_CURRENT | MCL_FUTURE))
		die("mlockall");
	flags = MAP_FIXED | (!anon ? MAP_SHARED : shm ? MAP_SHARED | MAP_ANONYMOUS :
			     MAP_PRIVATE | MAP_ANONYMOUS);
	if (!strcmp(lock, "maplocked"))
		flags |= MAP_LOCKED;
	if (hugetlb)
		flags |= MAP_HUGETLB;
	prot = readonly ? PROT_READ : PROT_READ | PROT_WRITE;
	p = mmap(p, len, prot, flags, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	if (anon && !hugetlb && madvise(p, len, MADV_HUGEPAGE))
		die("madvise");

	if (!strcmp(lock, "fault")) {
		touch(p, len, 100);
		if (mlock(p, len))
			die("mlock");
	} else if (!strcmp(lock, "populate")) {
		if (mlock(p, len))
			die("mlock");
	} else if (!strcmp(lock, "onfault")) {
		if (syscall(SYS_mlock2, p, len, MLOCK_ONFAULT))
			die("mlock2");
		touch(p, len, pct);
	} else if (!strcmp(lock, "mlockall")) {
		touch(p, len, 100);
	} else if (!strcmp(lock, "none")) {
		touch(p, 4096, 100);
	} else if (strcmp(lock, "maplocked")) {
		usage();
	}

	if (fork_first)
		child = fork_holder(p, 0);
	/*
	 * Executable and back, never read-only: a locked private mapping that
	 * becomes writable again is populated for write (mprotect_fixup()),
	 * which would break COW of the page the child shares.
	 */
	if (split_pmd && (mprotect(p, 4096, prot | PROT_EXEC) || mprotect(p, 4096, prot)))
		die("mprotect of the first page");
	if (mu_off >= 0 && munlock(p + mu_off * 1024, mu_len * 1024))
		die("munlock");
	if (mp_off >= 0 && mprotect(p + mp_off * 1024, mp_len * 1024, PROT_READ))
		die("mprotect");
	if (of_off >= 0 && syscall(SYS_mlock2, p + of_off * 1024, of_len * 1024, MLOCK_ONFAULT))
		die("mlock2 of a part");
	if (mr_off >= 0) {
		char *to = mmap(NULL, mr_len * 1024 + 2 * HUGE, PROT_NONE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		if (to == MAP_FAILED)
			die("mmap mremap target");
		/* 4 KB past a 2 MiB boundary: no folio keeps its alignment */
		to = (char *)(((unsigned long)to + HUGE - 1) & ~(HUGE - 1)) + 4096;
		if (mremap(p + mr_off * 1024, mr_len * 1024, mr_len * 1024,
			   MREMAP_MAYMOVE | MREMAP_FIXED, to) == MAP_FAILED)
			die("mremap");
	}
	if (mn_off >= 0 && munmap(p + mn_off * 1024, mn_len * 1024))
		die("munmap");
	if (ph_off >= 0 && fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				     ph_off * 1024, ph_len * 1024))
		die("fallocate(FALLOC_FL_PUNCH_HOLE)");
	if (trunc_kb >= 0 && ftruncate(fd, trunc_kb * 1024))
		die("ftruncate");
	if (do_fork && !fork_first)
		child = fork_holder(p, len);
	if (do_fork)
		printf("child=%d\n", child);
	printf("ready pid=%d addr=%p len=%zu\n", getpid(), (void *)p, len);
	fflush(stdout);
	if (leader_exit) {
		pthread_t t;

		if (pthread_create(&t, NULL, holder, NULL))
			die("pthread_create");
		pthread_exit(NULL);
	}
	while (read(0, &c, 1) > 0)
		;
	if (child > 0)
		waitpid(child, NULL, 0);
	return 0;
}
