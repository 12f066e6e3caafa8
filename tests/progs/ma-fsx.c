// SPDX-License-Identifier: GPL-2.0
/*
 * ma-fsx: a data integrity exerciser in the spirit of fstests' fsx. For
 * SECONDS it does random operations on NFILES files in DIR and checks every
 * byte it reads against a shadow copy of each file kept in memory.
 *
 *   ma-fsx [-s SEED] [-l MAXLEN] [-n NFILES] DIR SECONDS
 *
 * Files are DIR/ma-fsx.PID.I, 0 to MAXLEN bytes long (default 16 MiB,
 * 2 files). The operations, all chosen by a PRNG seeded with SEED (random
 * by default, printed at start; the same SEED, MAXLEN and NFILES replay the
 * same operations and data):
 *   read      pread at a random offset and length, possibly crossing or
 *             starting past EOF: no byte past EOF may be returned, a hole
 *             reads as zeros
 *   write     pwrite random bytes, possibly extending the file past a hole
 *   truncate  ftruncate to a random size, growing or shrinking
 *   mapread   mmap MAP_SHARED a range (its length may reach past EOF) and
 *             compare it with the shadow up to EOF rounded up to a page:
 *             the tail of the EOF page must read as zeros; pages wholly
 *             past EOF are never touched (they would raise SIGBUS)
 *   mapwrite  mmap MAP_SHARED, write random bytes below EOF only (first
 *             extending the file with ftruncate when the range reaches
 *             past it), sometimes msync(MS_SYNC), munmap
 *   fsync, and a check that re-reads each whole file with pread
 * Lengths favour small (1..4096), page-multiple and large (up to 2 MiB)
 * sizes; offsets favour page-aligned, 2 MiB-aligned +-1 page and EOF +-1
 * page positions, so that large folios and their boundaries get exercised.
 * At the end every file is checked once more and removed.
 *
 * Exits 0 after printing "fsx seed=S seconds=T ops=N reads=R writes=W
 * truncates=T mapreads=MR mapwrites=MW bytes=B" (N counts every operation,
 * fsyncs and checks too; B the bytes read and written, checks included).
 * Exits 1 on the first mismatch, failed system call (EIO, ENOSPC...) or
 * SIGBUS/SIGSEGV during a mapping access, after printing to stdout the last
 * 32 operations, what failed (for a mismatch the first bad offset, 16 bytes
 * of expected and actual data around it) and the command to replay the
 * run; the files stay in DIR, their expected contents in FILE.good.
 * Exits 2 on usage or setup errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HUGE	(2UL << 20)	/* PMD size with 4 KiB pages */
#define MAXIO	HUGE		/* longest single operation */
#define NLOG	32

enum op { OP_READ, OP_WRITE, OP_TRUNC, OP_MAPREAD, OP_MAPWRITE, OP_FSYNC,
	  OP_CHECK };

static const char *const op_names[] = {
	"read", "write", "truncate", "mapread", "mapwrite", "fsync", "check",
};

struct file {
	int fd;
	size_t size;		/* what the file's size must be */
	unsigned char *shadow;	/* its contents; zeros from size on */
	char path[4096];
};

struct logent {
	unsigned long nr;
	enum op op;
	int file;
	size_t off, len, before, after;
	const char *note;
};

static struct file *files;
static int nfiles = 2;
static size_t maxlen = 16UL << 20, shadow_len, page;
static unsigned long seed, seconds;
static const char *dir;
static unsigned char *buf;	/* MAXIO bytes */
static uint64_t rng;

static struct logent oplog[NLOG];
static unsigned long ops, nreads, nwrites, ntruncs, nmapreads, nmapwrites;
static unsigned long long nbytes;

/* The mapping being accessed, for the SIGBUS/SIGSEGV handler. */
static volatile sig_atomic_t armed;
static struct {
	int file;
	unsigned char *map;
	size_t pg_off, map_len, size;
} cur;

static void die(const char *what)
{
	fprintf(stderr, "ma-fsx: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void usage(void)
{
	fprintf(stderr, "usage: ma-fsx [-s SEED] [-l MAXLEN] [-n NFILES] DIR SECONDS\n");
	exit(2);
}

static unsigned long long number(const char *s, unsigned long long min,
				 unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v < min || v > max)
		usage();
	return v;
}

/* splitmix64: tiny, fast, and any seed (0 too) is good. */
static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n); 0 when n is 0. */
static size_t rnd(size_t n)
{
	return n ? (size_t)(next() % n) : 0;
}

static void fill(unsigned char *p, size_t len)
{
	uint64_t v;

	for (; len >= 8; p += 8, len -= 8) {
		v = next();
		memcpy(p, &v, 8);
	}
	v = next();
	memcpy(p, &v, len);
}

static size_t min_sz(size_t a, size_t b)
{
	return a < b ? a : b;
}

static size_t round_up(size_t v)
{
	return (v + page - 1) & ~(page - 1);
}

/* An offset in [0, limit): anywhere, page-aligned, 2 MiB +-1 page, EOF +-1 page. */
static size_t pick_off(size_t limit, size_t size)
{
	long long off, delta = rnd(2) ? (long long)rnd(3) - 1 : 0;

	switch (rnd(4)) {
	case 0:
		return rnd(limit);
	case 1:
		return rnd(limit) & ~(page - 1);
	case 2:
		off = (long long)(rnd(limit / HUGE + 1) * HUGE);
		off += rnd(2) ? delta * (long long)page :
				(long long)rnd(2 * page + 1) - (long long)page;
		break;
	default:
		off = (long long)(rnd(2) ? size : round_up(size));
		off += rnd(2) ? delta * (long long)page :
				(long long)rnd(2 * page + 1) - (long long)page;
		break;
	}
	if (off < 0)
		return 0;
	return (size_t)off < limit ? (size_t)off : limit - 1;
}

/* A length in [1, max]: small, page multiples, large, or exactly 2 MiB. */
static size_t pick_len(size_t max)
{
	size_t len;

	switch (rnd(10)) {
	case 0: case 1: case 2: case 3:
		len = 1 + rnd(4096);
		break;
	case 4: case 5:
		len = (1 + rnd(16)) * page;
		break;
	case 6:
		len = (1 + rnd(MAXIO / page)) * page;
		break;
	case 7: case 8:
		len = 1 + rnd(MAXIO);
		break;
	default:
		len = MAXIO;
		break;
	}
	return min_sz(len, max);
}

static struct logent *log_op(enum op op, int fi, size_t off, size_t len)
{
	struct logent *e = &oplog[ops % NLOG];

	e->nr = ++ops;
	e->op = op;
	e->file = fi;
	e->off = off;
	e->len = len;
	e->before = e->after = files[fi].size;
	e->note = "";
	return e;
}

/* Failure reports go to stdout: the operation log first, then the details. */
static void report_begin(void)
{
	unsigned long i, first = ops > NLOG ? ops - NLOG + 1 : 1;

	armed = 0;
	printf("ma-fsx: FAILED in op %lu; the last %lu operations:\n", ops,
	       ops - first + 1);
	for (i = first; i <= ops; i++) {
		struct logent *e = &oplog[(i - 1) % NLOG];

		printf("  %8lu %-8s file %d off 0x%08zx len 0x%06zx size 0x%08zx -> 0x%08zx %s\n",
		       e->nr, op_names[e->op], e->file, e->off, e->len,
		       e->before, e->after, e->note);
	}
}

static void __attribute__((noreturn)) report_end(void)
{
	int i, fd;

	for (i = 0; i < nfiles; i++) {
		char path[4200];
		size_t done;
		ssize_t w;

		snprintf(path, sizeof(path), "%s.good", files[i].path);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		for (done = 0; fd >= 0 && done < files[i].size; done += w) {
			w = write(fd, files[i].shadow + done, files[i].size - done);
			if (w <= 0)
				break;	/* best effort */
		}
		if (fd >= 0)
			close(fd);
		printf("file %d: %s size 0x%zx (expected contents: %s)\n", i,
		       files[i].path, files[i].size, path);
	}
	printf("replay: ma-fsx -s %lu -l %zu -n %d %s %lu\n", seed, maxlen,
	       nfiles, dir, seconds);
	fflush(stdout);
	_exit(1);
}

static void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	report_begin();
	va_start(ap, fmt);
	printf("ma-fsx: ");
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	report_end();
}

static void hex_row(const char *label, const unsigned char *p, size_t n)
{
	size_t i;

	printf("  %-9s", label);
	for (i = 0; i < n; i++)
		printf(" %02x", p[i]);
	putchar('\n');
}

/* Compare len bytes at file offset off, as read by what, with the shadow. */
static void compare(int fi, size_t off, const unsigned char *got, size_t len,
		    const char *what)
{
	const unsigned char *want = files[fi].shadow + off;
	size_t size = files[fi].size, i, bad, last, ndiff = 0, start, n;

	if (!memcmp(got, want, len))
		return;
	armed = 0;
	for (bad = 0; got[bad] == want[bad]; bad++)
		;
	for (i = bad, last = bad; i < len; i++)
		if (got[i] != want[i]) {
			ndiff++;
			last = i;
		}
	report_begin();
	printf("ma-fsx: data mismatch by %s of file %d [0x%zx, 0x%zx), size 0x%zx\n",
	       what, fi, off, off + len, size);
	printf("first bad byte at offset 0x%zx (page 0x%zx, 2 MiB block %zu +0x%zx)%s: expected 0x%02x, got 0x%02x; %zu bytes differ up to 0x%zx\n",
	       off + bad, (off + bad) / page, (off + bad) / HUGE,
	       (off + bad) % HUGE,
	       off + bad >= size ? " past EOF in the EOF page, must be zero" : "",
	       want[bad], got[bad], ndiff, off + last);
	start = bad > 8 ? bad - 8 : 0;
	n = min_sz(16, len - start);
	if (n < 16 && start) {
		start = len > 16 ? len - 16 : 0;
		n = len - start;
	}
	printf("  offset    0x%zx\n", off + start);
	hex_row("expected", want + start, n);
	hex_row("actual", got + start, n);
	printf("  %-9s", "");
	for (i = start; i < start + n; i++)
		printf(" %s", got[i] != want[i] ? "^^" : "  ");
	putchar('\n');
	report_end();
}

/* A fault while a mapping is armed: report it (nothing else runs then). */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
	long long at;

	(void)uc;
	if (!armed) {
		signal(sig, SIG_DFL);
		return;
	}
	at = (long long)((uintptr_t)si->si_addr - (uintptr_t)cur.map);
	report_begin();
	printf("ma-fsx: %s at %p, file %d offset 0x%llx, in a mapping of [0x%zx, 0x%zx) with size 0x%zx\n",
	       strsignal(sig), si->si_addr, cur.file,
	       (long long)cur.pg_off + at, cur.pg_off, cur.pg_off + cur.map_len,
	       cur.size);
	report_end();
}

static void arm(int fi, unsigned char *map, size_t pg_off, size_t map_len)
{
	cur.file = fi;
	cur.map = map;
	cur.pg_off = pg_off;
	cur.map_len = map_len;
	cur.size = files[fi].size;
	atomic_signal_fence(memory_order_seq_cst);
	armed = 1;
	atomic_signal_fence(memory_order_seq_cst);
}

static void disarm(void)
{
	atomic_signal_fence(memory_order_seq_cst);
	armed = 0;
	atomic_signal_fence(memory_order_seq_cst);
}

/*
 * pwrite (wr) or pread len bytes of file fi at off, again after EINTR and
 * short transfers; returns the bytes moved. A read stops at EOF; a write
 * of 0 bytes fails.
 */
static size_t xfer(int fi, bool wr, unsigned char *p, size_t len, size_t off)
{
	const char *op = wr ? "pwrite" : "pread";
	size_t done = 0;
	ssize_t r;

	while (done < len) {
		if (wr)
			r = pwrite(files[fi].fd, p + done, len - done, (off_t)(off + done));
		else
			r = pread(files[fi].fd, p + done, len - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || (!r && wr))
			fail("%s file %d off 0x%zx len 0x%zx: %s", op, fi,
			     off + done, len - done, r ? strerror(errno) : "wrote 0 bytes");
		if (!r)
			break;
		done += (size_t)r;
	}
	return done;
}

static void xftruncate(int fi, size_t size)
{
	struct file *f = &files[fi];
	int r;

	while ((r = ftruncate(f->fd, (off_t)size)) && errno == EINTR)
		;
	if (r)
		fail("ftruncate file %d to 0x%zx: %s", fi, size, strerror(errno));
	if (size < f->size)
		memset(f->shadow + size, 0, f->size - size);
	f->size = size;
}

/* Read [off, off + len) with pread and compare, EOF included. */
static void check_range(int fi, size_t off, size_t len, const char *what)
{
	size_t size = files[fi].size;
	size_t want = off < size ? min_sz(len, size - off) : 0;
	size_t got = xfer(fi, false, buf, len, off);

	nbytes += got;
	compare(fi, off, buf, min_sz(got, want), what);
	if (got != want)
		fail("%s of file %d at 0x%zx len 0x%zx with size 0x%zx returned 0x%zx bytes, expected 0x%zx%s",
		     what, fi, off, len, size, got, want,
		     got > want ? " (bytes past EOF)" : " (short read)");
}

/* Mostly within the file, sometimes anywhere up to MAXLEN. */
static void do_read(int fi)
{
	size_t size = files[fi].size, len = pick_len(MAXIO);
	size_t off = pick_off(size && rnd(4) ? size : maxlen, size);

	log_op(OP_READ, fi, off, len);
	check_range(fi, off, len, "pread");
	nreads++;
}

static void do_write(int fi)
{
	struct file *f = &files[fi];
	size_t off = pick_off(maxlen, f->size), len = pick_len(maxlen - off);
	struct logent *e = log_op(OP_WRITE, fi, off, len);

	if (off > f->size)
		e->note = "hole";
	else if (off + len > f->size)
		e->note = "extend";
	fill(buf, len);
	xfer(fi, true, buf, len, off);
	memcpy(f->shadow + off, buf, len);
	if (off + len > f->size)
		f->size = off + len;
	e->after = f->size;
	nbytes += len;
	nwrites++;
}

static void do_truncate(int fi)
{
	size_t size = pick_off(maxlen + 1, files[fi].size);
	struct logent *e = log_op(OP_TRUNC, fi, size, 0);

	e->note = size < e->before ? "shrink" : size > e->before ? "grow" : "";
	xftruncate(fi, size);
	e->after = size;
	ntruncs++;
}

static unsigned char *map(int fi, size_t pg_off, size_t map_len, int prot)
{
	unsigned char *p = mmap(NULL, map_len, prot, MAP_SHARED, files[fi].fd,
				(off_t)pg_off);

	if (p == MAP_FAILED)
		fail("mmap file %d [0x%zx, 0x%zx): %s", fi, pg_off,
		     pg_off + map_len, strerror(errno));
	if (rnd(2))
		madvise(p, map_len, MADV_HUGEPAGE);	/* a hint; may fail */
	return p;
}

static void unmap(int fi, unsigned char *p, size_t map_len)
{
	if (munmap(p, map_len))
		fail("munmap file %d: %s", fi, strerror(errno));
}

/*
 * Map from off's page over len bytes (possibly past EOF); touch only up to
 * EOF rounded up to a page, the tail of the EOF page reading as zeros.
 */
static void do_mapread(int fi)
{
	size_t size = files[fi].size, off, len, pg_off, map_len, end;
	unsigned char *p;

	if (!size) {
		do_read(fi);
		return;
	}
	off = pick_off(size, size);
	len = pick_len(MAXIO);
	pg_off = off & ~(page - 1);
	map_len = off + len - pg_off;
	end = min_sz(off + len, round_up(size));
	log_op(OP_MAPREAD, fi, off, len)->note = off + len > size ? "past EOF" : "";
	p = map(fi, pg_off, map_len, PROT_READ);
	arm(fi, p, pg_off, map_len);
	compare(fi, off, p + (off - pg_off), end - off, "mapread");
	disarm();
	unmap(fi, p, map_len);
	nbytes += end - off;
	nmapreads++;
}

/* Write below EOF only: past it the EOF page's bytes are not file data. */
static void do_mapwrite(int fi)
{
	struct file *f = &files[fi];
	size_t off = pick_off(maxlen, f->size), len = pick_len(maxlen - off);
	size_t pg_off = off & ~(page - 1), map_len;
	struct logent *e = log_op(OP_MAPWRITE, fi, off, len);
	int sync = !rnd(4);
	unsigned char *p;

	if (off + len > f->size) {
		if (off < f->size && rnd(2)) {
			len = e->len = f->size - off;
		} else {
			e->note = "extend";
			xftruncate(fi, off + len);
			e->after = f->size;
		}
	}
	if (sync)
		e->note = *e->note ? "extend msync" : "msync";
	map_len = off + len - pg_off;
	if (rnd(2))	/* the mapping may reach past EOF */
		map_len += rnd(HUGE);
	p = map(fi, pg_off, map_len, PROT_READ | PROT_WRITE);
	fill(buf, len);
	arm(fi, p, pg_off, map_len);
	memcpy(p + (off - pg_off), buf, len);
	disarm();
	memcpy(f->shadow + off, buf, len);
	if (sync && msync(p, map_len, MS_SYNC))
		fail("msync file %d: %s", fi, strerror(errno));
	unmap(fi, p, map_len);
	nbytes += len;
	nmapwrites++;
}

static void do_fsync(int fi)
{
	int r;

	log_op(OP_FSYNC, fi, 0, 0);
	while ((r = fsync(files[fi].fd)) && errno == EINTR)
		;
	if (r)
		fail("fsync file %d: %s", fi, strerror(errno));
}

/* The whole file with pread, its size with fstat, and nothing past EOF. */
static void do_check(int fi)
{
	size_t size = files[fi].size, off;
	struct stat st;

	log_op(OP_CHECK, fi, 0, size);
	if (fstat(files[fi].fd, &st))
		fail("fstat file %d: %s", fi, strerror(errno));
	if ((size_t)st.st_size != size)
		fail("file %d has size 0x%llx, expected 0x%zx", fi,
		     (unsigned long long)st.st_size, size);
	for (off = 0; off < size; off += MAXIO)
		check_range(fi, off, MAXIO, "check");
	check_range(fi, size, 1, "check");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_sigaction = on_fault, .sa_flags = SA_SIGINFO };
	struct timespec ts;
	double end;
	int c, i, have_seed = 0;

	while ((c = getopt(argc, argv, "s:l:n:")) != -1) {
		switch (c) {
		case 's':
			seed = number(optarg, 0, ~0UL);
			have_seed = 1;
			break;
		case 'l':
			maxlen = number(optarg, 1, 1ULL << 40);
			break;
		case 'n':
			nfiles = (int)number(optarg, 1, 1024);
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2)
		usage();
	dir = argv[optind];
	seconds = number(argv[optind + 1], 1, 1UL << 30);
	if (!have_seed) {
		clock_gettime(CLOCK_REALTIME, &ts);
		seed = ((unsigned long)ts.tv_nsec ^ (unsigned long)ts.tv_sec ^
			((unsigned long)getpid() << 16)) & 0xffffffffUL;
	}
	rng = seed;
	page = (size_t)sysconf(_SC_PAGESIZE);
	shadow_len = round_up(maxlen);

	files = calloc(nfiles, sizeof(*files));
	buf = malloc(MAXIO);
	if (!files || !buf)
		die("malloc");
	for (i = 0; i < nfiles; i++) {
		struct file *f = &files[i];

		snprintf(f->path, sizeof(f->path), "%s/ma-fsx.%d.%d", dir,
			 (int)getpid(), i);
		f->shadow = mmap(NULL, shadow_len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (f->shadow == MAP_FAILED)
			die("mmap shadow");
		f->fd = open(f->path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (f->fd < 0)
			die(f->path);
	}
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, NULL) || sigaction(SIGSEGV, &sa, NULL))
		die("sigaction");

	printf("ma-fsx: seed=%lu maxlen=%zu files=%d dir=%s seconds=%lu\n",
	       seed, maxlen, nfiles, dir, seconds);
	fflush(stdout);

	end = now() + seconds;
	while (now() < end) {
		int fi = (int)rnd(nfiles), r = (int)rnd(100);

		if (r < 29)
			do_read(fi);
		else if (r < 54)
			do_write(fi);
		else if (r < 69)
			do_mapread(fi);
		else if (r < 84)
			do_mapwrite(fi);
		else if (r < 96)
			do_truncate(fi);
		else if (r < 99)
			do_fsync(fi);
		else
			do_check(fi);
	}
	for (i = 0; i < nfiles; i++) {
		do_check(i);
		close(files[i].fd);
		unlink(files[i].path);
	}
	printf("fsx seed=%lu seconds=%lu ops=%lu reads=%lu writes=%lu truncates=%lu mapreads=%lu mapwrites=%lu bytes=%llu\n",
	       seed, seconds, ops, nreads, nwrites, ntruncs, nmapreads,
	       nmapwrites, nbytes);
	return 0;
}
