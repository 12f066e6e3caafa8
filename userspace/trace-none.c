// SPDX-License-Identifier: GPL-2.0
/*
 * `mlock-audit trace` in a reporter built without BPF (make found no
 * clang, bpftool, libbpf headers or kernel BTF; see the Makefile): every
 * other command works, trace says what the build lacked and how to get it.
 */
#include <stdio.h>

#include "exit-codes.h"
#include "trace.h"

#ifndef MA_NO_BPF_WHY
#define MA_NO_BPF_WHY "unknown"
#endif

void trace_usage(FILE *f)
{
	fprintf(f,
		"  trace     not in this build (built without BPF: " MA_NO_BPF_WHY ");\n"
		"            rebuild with clang, llvm, bpftool, libbpf-dev and kernel BTF\n");
}

int trace_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr,
		"mlock-audit: trace: this mlock-audit was built without BPF (%s); install clang, llvm, bpftool and libbpf-dev, libelf-dev, zlib1g-dev, libzstd-dev, then rebuild with 'make reporter' (VMLINUX_BTF=FILE if the build host has no /sys/kernel/btf/vmlinux)\n",
		MA_NO_BPF_WHY);
	return MA_EXIT_NO_BPF;
}
