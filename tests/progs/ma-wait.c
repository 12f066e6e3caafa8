// SPDX-License-Identifier: GPL-2.0
/*
 * ma-wait: wait for a file's state without a process per look. A shell
 * loop of "sleep 0.1" and "$(cat FILE)" forks and execs twice a look,
 * some 50 ms of CPU each under TCG emulation: a third of a CPU while a
 * test only waits for a livepatch transition. This looks every 20 ms with
 * open and read alone.
 *
 *   ma-wait SECONDS not FILE VALUE   until FILE's first line is not VALUE
 *                                    (a missing FILE is not VALUE)
 *   ma-wait SECONDS is FILE VALUE    until FILE's first line is VALUE
 *   ma-wait SECONDS gone PATH        until PATH does not exist
 * Exits 0 once it holds, 1 after SECONDS (decimals allowed) without it, 2
 * on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* FILE's first line into buf; false when it cannot be read */
static bool first_line(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return false;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return true;
}

static bool holds(const char *mode, const char *path, const char *value)
{
	char buf[256];

	if (!strcmp(mode, "gone"))
		return access(path, F_OK) && errno == ENOENT;
	if (!strcmp(mode, "is"))
		return first_line(path, buf, sizeof(buf)) && !strcmp(buf, value);
	return !first_line(path, buf, sizeof(buf)) || strcmp(buf, value);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const struct timespec look = { 0, 20 * 1000 * 1000 };
	double secs, end;
	char *rest;
	bool gone;

	gone = argc == 4 && !strcmp(argv[2], "gone");
	if (!gone && (argc != 5 || (strcmp(argv[2], "not") && strcmp(argv[2], "is")))) {
		fprintf(stderr, "usage: ma-wait SECONDS not|is FILE VALUE | ma-wait SECONDS gone PATH\n");
		return 2;
	}
	secs = strtod(argv[1], &rest);
	if (*rest || rest == argv[1] || secs < 0) {
		fprintf(stderr, "ma-wait: bad SECONDS '%s'\n", argv[1]);
		return 2;
	}
	end = now() + secs;
	while (!holds(argv[2], argv[3], gone ? NULL : argv[4])) {
		if (now() >= end)
			return 1;
		nanosleep(&look, NULL);
	}
	return 0;
}
