/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What several test programs share: dying with the reason, reading
 * numbers from the command line, opening a file that must be there.
 * Header-only, so that the Makefile keeps building one program per .c.
 * A program that includes it defines usage(), which prints how to call
 * it and exits 2: a bad number on the command line is a usage error.
 * Messages begin with the program's name as it was called (ma-lock...).
 */
#ifndef MA_UTIL_H
#define MA_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void);

/* Print "PROGRAM: WHAT: <errno's text>" and exit 1. */
static inline void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what, strerror(errno));
	exit(1);
}

/* S as a whole decimal number >= 0; anything else is a usage error. */
static inline long num(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0)
		usage();
	return v;
}

/* S, a whole number of MiB above 0, in bytes; 0 is a usage error too. */
static inline size_t mb_bytes(const char *s)
{
	long mb = num(s);

	if (!mb)
		usage();
	return (size_t)mb << 20;
}

/* open(PATH, FLAGS), or die naming PATH. */
static inline int xopen(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		die(path);
	return fd;
}

#endif
