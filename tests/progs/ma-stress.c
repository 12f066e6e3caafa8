// SPDX-License-Identifier: GPL-2.0
/*
 * ma-stress: N worker processes that, for SECONDS, do in random order every
 * operation that changes mlock state, over anonymous THP memory and a file
 * in each DIR (huge tmpfs, XFS): mmap, mlock, munlock, mlockall and
 * munlockall, MADV_DONTNEED, MADV_FREE, mremap, fork (the child touches,
 * locks and exits), ftruncate of a locked file mapping, a hole punched in
 * it, an mprotect() split of the region and back, MADV_PAGEOUT (reclaim of
 * what is not locked), and exit (each
 * worker runs a bounded number of operations, then is replaced). The
 * files a worker maps are its own; the read-only REFERENCE file in the
 * first DIR is mapped, locked and read by every worker and must never
 * change (its checksum is checked by the caller).
 *
 *   ma-stress N SECONDS REFERENCE DIR...
 *
 * Prints "stress workers=N exits=E ops=O failed=F" at the end (O counts
 * the operations of the workers that exited normally); exits 1 if a worker
 * failed or died of a signal.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define LEN	(4UL << 20)
#define PAGE	4096UL
#define OPS	64

static const char *ref_path;
static char *const *dirs;
static int ndirs;

static void touch(char *p, size_t len, int write)
{
	volatile char sum = 0;
	size_t i;

	for (i = 0; i < len; i += PAGE) {
		if (write)
			p[i] = (char)i;
		else
			sum += p[i];
	}
}

/* One region: anonymous (THP advised) or a shared mapping of FD. */
static char *map(int fd, size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       fd < 0 ? MAP_PRIVATE | MAP_ANONYMOUS : MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (fd < 0)
		madvise(p, len, MADV_HUGEPAGE);
	return p;
}

/* mlock() and mlockall() may fail for want of memory under pressure */
static int lock_failed(int ret)
{
	return ret && errno != ENOMEM && errno != EAGAIN;
}

/*
 * The worker's exit status: 0, or the number of the operation that failed.
 * LEN is the mapping's length, DATA what may be touched (a file mapping
 * grown by mremap() reaches past the end of the file).
 */
static int worker(unsigned int seed)
{
	int fds[8], i, op, ref, anon = 0;
	char *p = NULL, *r;
	size_t len = LEN, data = LEN;
	struct stat st;
	char path[4096];

	for (i = 0; i < ndirs; i++) {
		snprintf(path, sizeof(path), "%s/stress.%d", dirs[i], getpid());
		fds[i] = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fds[i] < 0 || ftruncate(fds[i], LEN))
			return 100;
		unlink(path);
	}
	ref = open(ref_path, O_RDONLY);
	if (ref < 0 || fstat(ref, &st))
		return 101;
	r = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, ref, 0);
	if (r == MAP_FAILED)
		return 102;

	for (i = 0; i < OPS; i++) {
		op = rand_r(&seed) % 14;
		if (!p || op == 0) {	/* a new region */
			int src = rand_r(&seed) % (ndirs + 1);

			if (p)
				munmap(p, len);
			len = data = LEN;
			p = map(src == ndirs ? -1 : fds[src], len);
			if (!p)
				return 1;
			anon = src == ndirs;
			touch(p, data, 1);
			continue;
		}
		switch (op) {
		case 1:
			if (lock_failed(mlock(p + PAGE * (rand_r(&seed) % 4), len / 2)))
				return 2;
			break;
		case 2:
			munlock(p + len / 4, len / 2);
			break;
		case 3:
			if (lock_failed(mlockall(MCL_CURRENT |
						     (rand_r(&seed) & 1 ? MCL_FUTURE : 0))))
				return 3;
			break;
		case 4:
			munlockall();
			break;
		case 5:
			madvise(p, len / 2, MADV_DONTNEED);
			touch(p, data, 1);
			break;
		case 6:	/* only anonymous memory can be MADV_FREE'd */
			if (anon && !madvise(p, len, MADV_FREE))
				touch(p, data / 2, 0);
			break;
		case 7: {	/* grow to twice LEN (moving it), or back */
			size_t to = len == LEN ? 2 * LEN : LEN;
			char *q = mremap(p, len, to, MREMAP_MAYMOVE);

			/*
			 * A partial mlock or munlock split the region into
			 * several VMAs (EFAULT): unlock it whole to merge them.
			 */
			if (q == MAP_FAILED && errno == EFAULT && !munlock(p, len))
				q = mremap(p, len, to, MREMAP_MAYMOVE);
			if (q == MAP_FAILED) {
				if (errno == ENOMEM || errno == EAGAIN || errno == EFAULT)
					break;
				return 7;
			}
			p = q;
			len = to;
			data = anon ? len : LEN;
			break;
		}
		case 8: {
			pid_t c = fork();

			if (c < 0)
				return 8;
			if (c == 0) {
				mlock(p, data);
				touch(p, data, 0);
				_exit(0);
			}
			waitpid(c, NULL, 0);
			break;
		}
		case 9: {	/* truncate a file under a locked mapping, then back */
			int fd = fds[rand_r(&seed) % ndirs];

			if (ftruncate(fd, LEN / 2) || ftruncate(fd, LEN))
				return 9;
			break;
		}
		case 10:	/* the reference file: locked, read, unlocked */
			if (lock_failed(mlock(r, st.st_size)))
				return 10;
			touch(r, st.st_size, 0);
			munlock(r, st.st_size);
			break;
		case 11: {	/* punch a hole in a file, maybe under a locked mapping */
			int fd = fds[rand_r(&seed) % ndirs];
			off_t at = PAGE * (1 + rand_r(&seed) % 64);

			if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, at,
				      LEN / 4) && errno != EOPNOTSUPP)
				return 11;
			break;
		}
		case 12: {	/* split the region inside its folios, then merge it */
			size_t at = PAGE * (1 + rand_r(&seed) % 64);

			if (mprotect(p + at, len / 3, PROT_READ) ||
			    mprotect(p + at, len / 3, PROT_READ | PROT_WRITE))
				return 12;
			break;
		}
		case 13:	/* reclaim what may be reclaimed */
			if (madvise(p, len, MADV_PAGEOUT) && errno != EINVAL)
				return 13;
			break;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n, i, status, failed = 0;
	long exits = 0, ops = 0;
	time_t end;

	if (argc < 5 || (n = atoi(argv[1])) <= 0 || atoi(argv[2]) <= 0 || argc - 4 > 8) {
		fprintf(stderr, "usage: ma-stress N SECONDS REFERENCE DIR... (at most 8 DIRs)\n");
		return 2;
	}
	ref_path = argv[3];
	dirs = argv + 4;
	ndirs = argc - 4;
	end = time(NULL) + atoi(argv[2]);
	for (i = 0; i < n; i++)
		if (fork() == 0)
			_exit(worker(i * 7919u));
	while (wait(&status) > 0) {
		exits++;
		if (WIFEXITED(status) && !WEXITSTATUS(status)) {
			ops += OPS;
		} else if (++failed <= 5) {
			if (WIFEXITED(status))
				fprintf(stderr, "ma-stress: a worker failed at operation %d\n",
					WEXITSTATUS(status));
			else
				fprintf(stderr, "ma-stress: a worker died of signal %d\n",
					WTERMSIG(status));
		}
		if (time(NULL) < end && fork() == 0)
			_exit(worker((unsigned int)exits * 7919u));
	}
	printf("stress workers=%d exits=%ld ops=%ld failed=%d\n", n, exits, ops, failed);
	return failed ? 1 : 0;
}
