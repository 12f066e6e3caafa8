// SPDX-License-Identifier: GPL-2.0
/*
 * ma-tracewin: open or close a window in which the kernel's function
 * tracer and the module's probes count the same calls, and print the
 * module's "probes" file at its edge. "on" starts the tracer and then reads
 * the file; "off" reads the file and then stops the tracer. Between the two
 * steps this process makes only open(2), read(2), write(2) and close(2)
 * calls, which map no file page; and it first maps every page of its own
 * (mlockall(MCL_CURRENT)), so that no page of its code faults in between
 * either. No call of a probed function then falls in one count and not in
 * the other (the guest runs nothing else at the edges).
 *
 *   ma-tracewin on|off PROBES_FILE TRACING_ON_FILE
 * Prints PROBES_FILE; exits 0 on success, 1 with a message otherwise.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char buf[16384];

static int set_tracing(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, 1) != 1) {
		perror(path);
		return 1;
	}
	return close(fd);
}

static ssize_t read_all(const char *path)
{
	ssize_t n, len = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		perror(path);
		return -1;
	}
	while ((n = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += n;
	close(fd);
	if (n < 0 || len == (ssize_t)sizeof(buf)) {
		fprintf(stderr, "ma-tracewin: %s: read failed or too long\n", path);
		return -1;
	}
	return len;
}

int main(int argc, char **argv)
{
	ssize_t len;
	int on;

	if (argc != 4 || (strcmp(argv[1], "on") && strcmp(argv[1], "off"))) {
		fprintf(stderr, "usage: ma-tracewin on|off PROBES_FILE TRACING_ON_FILE\n");
		return 1;
	}
	on = !strcmp(argv[1], "on");
	if (mlockall(MCL_CURRENT)) {
		perror("ma-tracewin: mlockall");
		return 1;
	}
	if (on && set_tracing(argv[3], "1"))
		return 1;
	len = read_all(argv[2]);
	if (len < 0)
		return 1;
	if (!on && set_tracing(argv[3], "0"))
		return 1;
	return fwrite(buf, 1, len, stdout) == (size_t)len && !fflush(stdout) ? 0 : 1;
}
