/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `mlock-audit trace`: the libbpf event stream, which works without the
 * kernel module. Implemented in trace.c (+ trace.bpf.c).
 */
#ifndef MLOCK_AUDIT_TRACE_H
#define MLOCK_AUDIT_TRACE_H

#include <stdio.h>

/*
 * argv[0] is "trace"; returns an enum ma_exit code. Prints its own errors
 * and its own --help.
 */
int trace_main(int argc, char **argv);

/* The "trace" paragraph of the top-level --help. */
void trace_usage(FILE *f);

#endif
