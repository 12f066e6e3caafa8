/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment the module's files need: the module loaded, debugfs
 * mounted, root, no lockdown refusal. Diagnoses why a file cannot be read.
 */
#ifndef MLOCK_AUDIT_ENV_H
#define MLOCK_AUDIT_ENV_H

#include <stdbool.h>

#include "cli.h"

/*
 * Before reading the module's files from the default directory: is the
 * module loaded (ROOT/sys/module/mlock_audit), is debugfs mounted at
 * /sys/kernel/debug (PROC/self/mounts)? Returns MA_EXIT_OK, or with the
 * reason in msg MA_EXIT_NOT_LOADED, MA_EXIT_LOCKDOWN (not loaded, and
 * lockdown on: it refuses unsigned modules) or MA_EXIT_NO_DEBUGFS. Skipped
 * (MA_EXIT_OK) when --dir named the directory.
 */
int ma_env_check(const struct ma_opts *o, char *msg, size_t len);

/* ROOT/sys/module/mlock_audit exists (true with --dir). */
bool ma_module_loaded(const struct ma_opts *o);

/*
 * An open() or read() of a module file failed with err: the exit code and a
 * one-line reason (not root, lockdown, I/O error).
 */
int ma_env_open_error(const struct ma_opts *o, const char *path, int err,
		      char *msg, size_t len);

/* "integrity" or "confidentiality" when lockdown is on, else NULL. */
const char *ma_lockdown(const struct ma_opts *o);

/* What still works, for error messages about the module's files. */
#define MA_STILL_WORKS \
	"the cross-checks (/proc/meminfo, /proc/vmstat, smaps_rollup) and 'mlock-audit trace' still work"

#endif
