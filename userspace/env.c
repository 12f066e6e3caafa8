// SPDX-License-Identifier: GPL-2.0
/*
 * Environment checks, in the order that gives the right diagnosis: module
 * loaded, debugfs mounted, then (when a file will not open) root, lockdown.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
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

/* The first line of @path into @buf, without its newline; false if none. */
static bool first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = 0;
	return ok;
}

const char *ma_lockdown(const struct ma_opts *o)
{
	char path[PATH_MAX + 40], line[256];

	snprintf(path, sizeof(path), "%s/sys/kernel/security/lockdown", o->root);
	if (!first_line(path, line, sizeof(line)))
		return NULL;
	if (strstr(line, "[integrity]"))
		return "integrity";
	if (strstr(line, "[confidentiality]"))
		return "confidentiality";
	return NULL;
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

/* The running kernel's release: PROC/sys/kernel/osrelease, else uname(). */
static void kernel_release(const struct ma_opts *o, char *rel, size_t len)
{
	char path[PATH_MAX + 32];
	struct utsname u;

	snprintf(path, sizeof(path), "%s/sys/kernel/osrelease", o->proc);
	if (first_line(path, rel, len) && rel[0])
		return;
	if (!uname(&u))
		snprintf(rel, len, "%s", u.release);
	else
		rel[0] = 0;
}

/*
 * The installed mlock_audit module of kernel @rel as modules.dep lists it
 * (ROOT/lib/modules/REL/...), into @mod; false when none is.
 */
static bool installed_module(const struct ma_opts *o, const char *rel, char *mod,
			     size_t len)
{
	char path[PATH_MAX + 64], line[4096];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/lib/modules/%s/modules.dep", o->root, rel);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *base;

		if (!colon)
			continue;
		*colon = 0;
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		if (strncmp(base, "mlock_audit.ko", 14) || (base[14] && base[14] != '.'))
			continue;
		/* relative to the kernel's module directory, or absolute */
		if (line[0] == '/')
			found = snprintf(mod, len, "%s%s", o->root, line) < (int)len;
		else
			found = snprintf(mod, len, "%s/lib/modules/%s/%s", o->root, rel,
					 line) < (int)len;
	}
	fclose(f);
	return found;
}

enum ma_sig { MA_SIG_UNKNOWN, MA_SIG_SIGNED, MA_SIG_UNSIGNED };

/*
 * Is the module file signed? Known only for an uncompressed .ko, which ends
 * with the kernel's signature marker when signed.
 */
static enum ma_sig module_signature(const char *mod)
{
	static const char magic[] = "~Module signature appended~\n";
	char tail[sizeof(magic) - 1];
	size_t n = strlen(mod);
	enum ma_sig ret = MA_SIG_UNKNOWN;
	FILE *f;

	if (n < 3 || strcmp(mod + n - 3, ".ko"))
		return MA_SIG_UNKNOWN;
	f = fopen(mod, "rb");
	if (!f)
		return MA_SIG_UNKNOWN;
	if (!fseek(f, -(long)sizeof(tail), SEEK_END) &&
	    fread(tail, 1, sizeof(tail), f) == sizeof(tail))
		ret = memcmp(tail, magic, sizeof(tail)) ? MA_SIG_UNSIGNED : MA_SIG_SIGNED;
	fclose(f);
	return ret;
}

/*
 * The module is not loaded: why, and what to do. Lockdown is blamed (exit
 * 8) only when it certainly refuses the module, an installed unsigned .ko;
 * otherwise the advice is modprobe (a module DKMS signed loads under
 * lockdown), or installing it first.
 */
static int not_loaded(const struct ma_opts *o, const char *sysmod, char *msg, size_t len)
{
	const char *lock = ma_lockdown(o);
	char rel[256], mod[PATH_MAX + 320], how[PATH_MAX + 512];

	kernel_release(o, rel, sizeof(rel));
	if (!installed_module(o, rel, mod, sizeof(mod))) {
		ma_msgf(msg, len,
			"the mlock_audit module is not loaded (%s absent), nor installed for kernel %s (not in %s/lib/modules/%s/modules.dep): make dkms-install, then modprobe mlock_audit%s; %s",
			sysmod, rel, o->root, rel,
			lock ? " (kernel lockdown is on: the module must be signed, as DKMS does with its MOK key)" : "",
			lock ? still_works(lock) : MA_STILL_WORKS);
		return MA_EXIT_NOT_LOADED;
	}
	switch (lock ? module_signature(mod) : MA_SIG_UNKNOWN) {
	case MA_SIG_UNSIGNED:
		ma_msgf(msg, len,
			"the mlock_audit module is not loaded (%s absent) and kernel lockdown is '%s': it refuses the installed %s, which is not signed; sign it (DKMS with a MOK key enrolled by mokutil) or boot without lockdown; %s",
			sysmod, lock, mod, still_works(lock));
		return MA_EXIT_LOCKDOWN;
	case MA_SIG_SIGNED:
		snprintf(how, sizeof(how), "%s, signed", mod);
		break;
	default:
		snprintf(how, sizeof(how),
			 lock ? "%s; if modprobe says 'Key was rejected by service', enroll the key it was signed with (mokutil --import /var/lib/dkms/mok.pub)" : "%s",
			 mod);
	}
	ma_msgf(msg, len,
		"the mlock_audit module is not loaded (%s absent): modprobe mlock_audit (installed: %s); %s",
		sysmod, how, lock ? still_works(lock) : MA_STILL_WORKS);
	return MA_EXIT_NOT_LOADED;
}

int ma_env_check(const struct ma_opts *o, char *msg, size_t len)
{
	char path[PATH_MAX + 32];
	struct stat st;

	if (o->dir_given)
		return MA_EXIT_OK;
	snprintf(path, sizeof(path), "%s/sys/module/mlock_audit", o->root);
	if (stat(path, &st) && errno == ENOENT)
		return not_loaded(o, path, msg, len);
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
