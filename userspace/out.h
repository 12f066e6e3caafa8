/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output helpers shared by the table, JSON and Prometheus renderers: human
 * sizes, string escaping, and UTF-8 clean-up of bytes from the kernel.
 */
#ifndef MLOCK_AUDIT_OUT_H
#define MLOCK_AUDIT_OUT_H

#include <stddef.h>
#include <stdio.h>

/* "64.0 MiB (65536 kB)", or "512 kB" below 1 MiB. */
const char *ma_human_kb(unsigned long long kb, char *buf, size_t len);

/*
 * A JSON string literal, quotes included. Valid UTF-8 is copied, each byte
 * of an invalid sequence becomes U+FFFD, control characters \uXXXX.
 */
void ma_json_str(FILE *f, const char *s, size_t len);
void ma_json_cstr(FILE *f, const char *s);

/*
 * A Prometheus label value without its quotes: backslash, double quote and
 * newline escaped as the text format 0.0.4 says; invalid UTF-8 as in
 * ma_json_str().
 */
void ma_prom_label(FILE *f, const char *s, size_t len);

/* HELP and TYPE lines of a metric family. */
void ma_prom_family(FILE *f, const char *name, const char *type, const char *help);

/*
 * For a table: bytes below 0x20, 0x7f and backslash as \NNN octal, so a
 * value stays on one line; other bytes as they are. Returns the columns
 * used (a UTF-8 character counts one).
 */
size_t ma_table_str(FILE *f, const char *s, size_t len);

/* snprintf() for messages, which may be cut at len without harm. */
void ma_msgf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
