// SPDX-License-Identifier: GPL-2.0
/*
 * mlock-audit: read the mlock_audit module's debugfs files and print them.
 *
 * This first version shows the module and kernel versions and the
 * observation hooks. See --help and README.md for the file formats.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FORMAT_SUPPORTED 1

enum exit_code {
	EXIT_OK = 0,
	EXIT_ERROR = 1,		/* a file could not be read */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_NOT_LOADED = 3,	/* module not loaded or debugfs not mounted */
	EXIT_FORMAT = 4,	/* a file has a format this tool does not know */
};

static const char *dir = "/sys/kernel/debug/mlock_audit";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: mlock-audit [--dir DIR] [version|probes]...\n"
		"\n"
		"Show what the mlock_audit kernel module reports in debugfs.\n"
		"With no command, shows both.\n"
		"\n"
		"  version   module version, running kernel, kernel built for\n"
		"  probes    each observation hook: the kernel symbol it resolved\n"
		"            to (or why none was found), hits and missed hits\n"
		"\n"
		"  --dir DIR read DIR instead of %s\n"
		"  -h, --help\n"
		"\n"
		"Exit status: 0 ok, 1 a file could not be read, 2 usage,\n"
		"3 module not loaded or debugfs not mounted, 4 unknown format.\n",
		dir);
}

/* Open DIR/NAME and check its "format N" line. */
static FILE *open_report(const char *name, int *err)
{
	char path[4096], line[256];
	int fmt;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT) {
			fprintf(stderr,
				"mlock-audit: %s not found: is the module loaded (modprobe mlock_audit) and debugfs mounted?\n",
				path);
			*err = EXIT_NOT_LOADED;
		} else {
			fprintf(stderr, "mlock-audit: %s: %s%s\n", path,
				strerror(errno),
				errno == EACCES || errno == EPERM ?
				" (needs root; kernel lockdown also restricts debugfs)" : "");
			*err = EXIT_ERROR;
		}
		return NULL;
	}
	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, "format %d", &fmt) != 1 || fmt != FORMAT_SUPPORTED) {
		fprintf(stderr, "mlock-audit: %s: unknown format (want \"format %d\")\n",
			path, FORMAT_SUPPORTED);
		fclose(f);
		*err = EXIT_FORMAT;
		return NULL;
	}
	return f;
}

static int show_version(void)
{
	char line[512], key[64], val[448];
	int err = EXIT_OK;
	FILE *f = open_report("version", &err);

	if (!f)
		return err;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %447[^\n]", key, val) == 2)
			printf("%-10s %s\n", key, val);
	fclose(f);
	return EXIT_OK;
}

static int show_probes(void)
{
	char line[1024], hook[64], sym[128], rest[832];
	unsigned long hits, missed;
	int err = EXIT_OK;
	FILE *f = open_report("probes", &err);

	if (!f)
		return err;
	printf("%-16s %-32s %12s %8s\n", "HOOK", "SYMBOL", "HITS", "MISSED");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %127s hits=%lu missed=%lu", hook, sym,
			   &hits, &missed) == 4)
			printf("%-16s %-32s %12lu %8lu\n", hook, sym, hits, missed);
		else if (sscanf(line, "%63s not found: %831[^\n]", hook, rest) == 2)
			printf("%-16s not found: %s\n", hook, rest);
		else
			fprintf(stderr, "mlock-audit: probes: unparsed line: %s", line);
	}
	fclose(f);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	int i, ret = EXIT_OK, shown = 0;

	for (i = 1; i < argc; i++) {
		int r;

		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--dir") && i + 1 < argc) {
			dir = argv[++i];
			continue;
		} else if (!strcmp(argv[i], "version")) {
			r = show_version();
		} else if (!strcmp(argv[i], "probes")) {
			r = show_probes();
		} else {
			fprintf(stderr, "mlock-audit: unknown argument '%s'\n", argv[i]);
			usage(stderr);
			return EXIT_USAGE;
		}
		shown = 1;
		if (r)
			return r;
	}
	if (!shown) {
		ret = show_version();
		if (!ret) {
			putchar('\n');
			ret = show_probes();
		}
	}
	return ret;
}
