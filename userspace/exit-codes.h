/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exit codes of mlock-audit, shared by every command. They are documented in
 * --help and in mlock-audit.8; scripts depend on them, so never renumber.
 */
#ifndef MLOCK_AUDIT_EXIT_CODES_H
#define MLOCK_AUDIT_EXIT_CODES_H

enum ma_exit {
	MA_EXIT_OK = 0,
	MA_EXIT_ERROR = 1,	   /* any other failure (I/O error, ...) */
	MA_EXIT_USAGE = 2,	   /* bad command line */
	MA_EXIT_NOT_LOADED = 3,    /* module not loaded */
	MA_EXIT_FORMAT = 4,	   /* a file has a format version we don't know */
	MA_EXIT_FAIL_OVER = 5,	   /* --fail-over: undercount above the limit */
	MA_EXIT_NOT_ROOT = 6,	   /* needs root (debugfs, BPF) */
	MA_EXIT_NO_DEBUGFS = 7,    /* debugfs not mounted */
	MA_EXIT_LOCKDOWN = 8,	   /* kernel lockdown refuses the access */
	MA_EXIT_NO_BPF = 9,	   /* trace: BPF or BTF not available */
};

#endif
