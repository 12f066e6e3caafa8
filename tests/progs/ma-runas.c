// SPDX-License-Identifier: GPL-2.0
/*
 * ma-runas: run a command as another user, with no supplementary groups
 * and so without root's capabilities (busybox has no sudo or setpriv
 * --reuid; the kernel's on-fault-limit selftest must not run as root).
 *
 *   ma-runas UID CMD [ARGS...]
 * Exits 127 if CMD cannot be run, 126 if the user cannot be switched.
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end;
	long uid;

	if (argc < 3) {
		fprintf(stderr, "usage: ma-runas UID CMD [ARGS...]\n");
		return 2;
	}
	uid = strtol(argv[1], &end, 10);
	if (*end || uid <= 0) {
		fprintf(stderr, "ma-runas: bad uid '%s'\n", argv[1]);
		return 2;
	}
	if (setgroups(0, NULL) || setgid((gid_t)uid) || setuid((uid_t)uid)) {
		fprintf(stderr, "ma-runas: cannot become uid %ld: %s\n", uid,
			strerror(errno));
		return 126;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "ma-runas: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
