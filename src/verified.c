// SPDX-License-Identifier: GPL-2.0
/*
 * Which live fixes were verified for the running kernel build.
 *
 * The replacements copy kernel functions of exact builds, so a fix is
 * applied only on a Debian release for which scripts/verify-kernel found
 * its kernel source items identical (compat/verified/builds, compiled in
 * as verified_builds.h), unless allow_unverified=1. The release is read
 * from the version string ("... Debian 6.12.118-1 (date)").
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/utsname.h>

#include "verified.h"

struct ma_verified_build {
	const char *version;	/* Debian source version */
	const char *fixes;	/* the fixes, space separated and enclosed */
};

static const struct ma_verified_build ma_verified_builds[] = {
#define MA_VERIFIED(version, fixes) { version, " " fixes " " },
#include "verified_builds.h"
#undef MA_VERIFIED
};

static char ma_version[64];

/**
 * ma_build_version() - the Debian source version of the running kernel.
 *
 * Return: it ("6.12.118-1"), or "" when the version string names none
 * (a kernel not built by Debian).
 */
const char *ma_build_version(void)
{
	const char *v = strstr(init_utsname()->version, " Debian ");
	size_t n;

	if (ma_version[0] || !v)
		return ma_version;
	v += strlen(" Debian ");
	n = strcspn(v, " ");
	if (n < sizeof(ma_version))
		strscpy(ma_version, v, n + 1);
	return ma_version;
}

/* Whether @list (names each with a space before and after) holds @fix. */
static bool ma_fix_listed(const char *list, const char *fix)
{
	char name[24];

	snprintf(name, sizeof(name), " %s ", fix);
	return strstr(list, name);
}

static const struct ma_verified_build *ma_verified_find(const char *version)
{
	unsigned int i;

	if (!version[0])
		return NULL;
	for (i = 0; i < ARRAY_SIZE(ma_verified_builds); i++)
		if (!strcmp(ma_verified_builds[i].version, version))
			return &ma_verified_builds[i];
	return NULL;
}

/**
 * ma_unverified_why() - whether a fix was verified for the running build.
 * @fix: the fix's name
 * @buf: where to write the reason
 * @len: its size
 *
 * Return: NULL when the record lists @fix for this build, else @buf with
 * the reason.
 */
const char *ma_unverified_why(const char *fix, char *buf, size_t len)
{
	const char *version = ma_build_version();
	const struct ma_verified_build *b = ma_verified_find(version);

	if (b && ma_fix_listed(b->fixes, fix))
		return NULL;
	if (!version[0])
		snprintf(buf, len,
			 "kernel '%s' is not a Debian build: not in the record of verified builds (allow_unverified=1 applies it)",
			 init_utsname()->release);
	else if (!b)
		snprintf(buf, len,
			 "build %s is not in the record of verified builds (allow_unverified=1 applies it)",
			 version);
	else
		snprintf(buf, len,
			 "the kernel code it replaces differs on build %s from the verified build (allow_unverified=1 applies it)",
			 version);
	return buf;
}
