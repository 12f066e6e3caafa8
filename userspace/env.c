// SPDX-License-Identifier: GPL-2.0
/*
 * Environment checks, in the order that gives the right diagnosis: module
 * loaded, debugfs mounted, then (when a file will not open) root, lockdown.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env.h"
#include "exit-codes.h"
#include "out.h"

/* Does PROC/self/mounts list a debugfs mount at /sys/kernel/debug? -1: unknown */
static int debugfs_mounted(const struct ma_opts *o)
{
	char path[PATH_MAX + 32], line[4096], dev[256], mnt[1024], type[64];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/self/mounts", o->proc);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %1023s %63s", dev, mnt, type) == 3 &&
		    !strcmp(mnt, "/sys/kernel/debug") && !strcmp(type, "debugfs"))
			found = 1;
	fclose(f);
	return found;
}

const char *ma_lockdown(const struct ma_opts *o)
{
	char path[PATH_MAX + 40], line[256];
	const char *ret = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/kernel/security/lockdown", o->root);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	if (fgets(line, sizeof(line), f)) {
		if (strstr(line, "[integrity]"))
			ret = "integrity";
		else if (strstr(line, "[confidentiality]"))
			ret = "confidentiality";
	}
	fclose(f);
	return ret;
}

/* Under confidentiality lockdown BPF may not read kernel memory either. */
static const char *still_works(const char *lock)
{
	if (!strcmp(lock, "confidentiality"))
		return "the cross-checks (/proc/meminfo, /proc/vmstat, smaps_rollup) still work; 'mlock-audit trace' is refused too";
	return MA_STILL_WORKS;
}

bool ma_module_loaded(const struct ma_opts *o)
{
	char path[PATH_MAX + 32];
	struct stat st;

	if (o->dir_given)
		return true;
	snprintf(path, sizeof(path), "%s/sys/module/mlock_audit", o->root);
	return !(stat(path, &st) && errno == ENOENT);
}

int ma_env_check(const struct ma_opts *o, char *msg, size_t len)
{
	char path[PATH_MAX + 32];
	const char *lock;
	struct stat st;

	if (o->dir_given)
		return MA_EXIT_OK;
	snprintf(path, sizeof(path), "%s/sys/module/mlock_audit", o->root);
	if (stat(path, &st) && errno == ENOENT) {
		lock = ma_lockdown(o);
		if (lock) {
			/* the likely reason it is absent: say lockdown, exit 8 */
			ma_msgf(msg, len,
				"the mlock_audit module is not loaded (%s absent) and kernel lockdown is '%s': it refuses unsigned modules, so sign the module (DKMS with a MOK key) or boot without lockdown; %s",
				path, lock, still_works(lock));
			return MA_EXIT_LOCKDOWN;
		}
		ma_msgf(msg, len,
			"the mlock_audit module is not loaded (%s absent; modprobe mlock_audit); %s",
			path, MA_STILL_WORKS);
		return MA_EXIT_NOT_LOADED;
	}
	if (debugfs_mounted(o) == 0) {
		ma_msgf(msg, len,
			 "debugfs is not mounted at /sys/kernel/debug (mount -t debugfs none /sys/kernel/debug); %s",
			 MA_STILL_WORKS);
		return MA_EXIT_NO_DEBUGFS;
	}
	return MA_EXIT_OK;
}

int ma_env_open_error(const struct ma_opts *o, const char *path, int err,
		      char *msg, size_t len)
{
	const char *lock;

	if (err == EPERM || err == EACCES) {
		lock = ma_lockdown(o);
		if (err == EPERM && lock) {
			ma_msgf(msg, len,
				 "%s: %s: kernel lockdown is '%s': it blocks unsigned modules and restricts debugfs; %s",
				 path, strerror(err), lock, still_works(lock));
			return MA_EXIT_LOCKDOWN;
		}
		ma_msgf(msg, len, "%s: %s: needs root (debugfs is root-only)%s; as a user %s",
			 path, strerror(err), geteuid() ? "" : " or a security module refused",
			 "/proc/meminfo and /proc/vmstat still work");
		return MA_EXIT_NOT_ROOT;
	}
	if (err == ENOENT && !o->dir_given) {
		ma_msgf(msg, len,
			 "%s: %s: the module is loaded but its debugfs file is missing (module too old or failed to create it? see dmesg); %s",
			 path, strerror(err), MA_STILL_WORKS);
		return MA_EXIT_ERROR;
	}
	ma_msgf(msg, len, "%s: %s", path, strerror(err));
	return MA_EXIT_ERROR;
}
