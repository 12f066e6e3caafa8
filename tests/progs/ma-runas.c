// SPDX-License-Identifier: GPL-2.0
/*
 * ma-runas: run a command as another user, with no supplementary groups
 * and so without root's capabilities (busybox has no sudo or setpriv
 * --reuid; the kernel's on-fault-limit selftest must not run as root).
 * With --caps bpf-perfmon the command keeps CAP_BPF and CAP_PERFMON, and
 * only those (ambient capabilities), as a tracing user would have them.
 *
 *   ma-runas [--caps bpf-perfmon] UID CMD [ARGS...]
 * Exits 127 if CMD cannot be run, 126 if the user or the capabilities
 * cannot be switched.
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

/* Effective, permitted and inheritable: exactly @caps; then ambient too. */
static int keep_caps(const int *caps, int n)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	int i;

	memset(data, 0, sizeof(data));
	for (i = 0; i < n; i++) {
		data[caps[i] / 32].effective |= 1U << (caps[i] % 32);
		data[caps[i] / 32].permitted |= 1U << (caps[i] % 32);
		data[caps[i] / 32].inheritable |= 1U << (caps[i] % 32);
	}
	if (syscall(SYS_capset, &hdr, data))
		return -1;
	for (i = 0; i < n; i++)
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, caps[i], 0, 0))
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static const int bpf_perfmon[] = { CAP_BPF, CAP_PERFMON };
	int with_caps = 0;
	char *end;
	long uid;

	if (argc > 2 && !strcmp(argv[1], "--caps")) {
		if (strcmp(argv[2], "bpf-perfmon")) {
			fprintf(stderr, "ma-runas: --caps knows only bpf-perfmon\n");
			return 2;
		}
		with_caps = 1;
		argc -= 2;
		argv += 2;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: ma-runas [--caps bpf-perfmon] UID CMD [ARGS...]\n");
		return 2;
	}
	uid = strtol(argv[1], &end, 10);
	if (*end || uid <= 0) {
		fprintf(stderr, "ma-runas: bad uid '%s'\n", argv[1]);
		return 2;
	}
	if (with_caps && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0)) {
		fprintf(stderr, "ma-runas: PR_SET_KEEPCAPS: %s\n", strerror(errno));
		return 126;
	}
	if (setgroups(0, NULL) || setgid((gid_t)uid) || setuid((uid_t)uid)) {
		fprintf(stderr, "ma-runas: cannot become uid %ld: %s\n", uid,
			strerror(errno));
		return 126;
	}
	if (with_caps && keep_caps(bpf_perfmon, 2)) {
		fprintf(stderr, "ma-runas: cannot keep CAP_BPF and CAP_PERFMON: %s\n",
			strerror(errno));
		return 126;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "ma-runas: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
