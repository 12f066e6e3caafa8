// SPDX-License-Identifier: GPL-2.0
/*
 * Output helpers: human sizes, JSON strings, Prometheus label values.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "out.h"

const char *ma_human_kb(unsigned long long kb, char *buf, size_t len)
{
	static const char *const units[] = { "MiB", "GiB", "TiB", "PiB" };
	double v = (double)kb / 1024;
	unsigned int u = 0;

	if (kb < 1024) {
		snprintf(buf, len, "%llu kB", kb);
		return buf;
	}
	while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%.1f %s (%llu kB)", v, units[u], kb);
	return buf;
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t need, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < need)
		return 0;
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((need == 3 && cp < 0x800) || (need == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return need;
}

/*
 * Copy s to f as UTF-8, calling esc() for each ASCII byte; esc() prints the
 * byte (escaped or not).
 */
static void put_utf8(FILE *f, const char *s, size_t len,
		     void (*esc)(FILE *f, unsigned char c))
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		if (p[i] < 0x80) {
			esc(f, p[i]);
			i++;
			continue;
		}
		n = utf8_len(p + i, len - i);
		if (n) {
			fwrite(p + i, 1, n, f);
			i += n;
		} else {
			fputs("\xef\xbf\xbd", f);	/* U+FFFD */
			i++;
		}
	}
}

/*
 * The backslash escapes that JSON strings and Prometheus label values
 * share: JSON takes all five, a label value the first three. Prints @c
 * escaped and returns true when it is one of the first @n.
 */
static bool put_esc(FILE *f, unsigned char c, size_t n)
{
	static const char plain[] = "\\\"\n\t\r", esc[] = "\\\"ntr";
	const char *p = memchr(plain, c, n);

	if (!p)
		return false;
	putc('\\', f);
	putc(esc[p - plain], f);
	return true;
}

static void json_esc(FILE *f, unsigned char c)
{
	if (put_esc(f, c, 5))
		return;
	if (c < 0x20 || c == 0x7f)
		fprintf(f, "\\u%04x", c);
	else
		putc(c, f);
}

void ma_json_str(FILE *f, const char *s, size_t len)
{
	putc('"', f);
	put_utf8(f, s, len, json_esc);
	putc('"', f);
}

void ma_json_cstr(FILE *f, const char *s)
{
	ma_json_str(f, s, strlen(s));
}

static void prom_esc(FILE *f, unsigned char c)
{
	if (!put_esc(f, c, 3))
		putc(c, f);
}

void ma_prom_label(FILE *f, const char *s, size_t len)
{
	put_utf8(f, s, len, prom_esc);
}

void ma_prom_family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

size_t ma_table_str(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i, cols = 0;

	for (i = 0; i < len; i++) {
		if (p[i] < 0x20 || p[i] == 0x7f || p[i] == '\\') {
			fprintf(f, "\\%03o", p[i]);
			cols += 4;
		} else {
			putc(p[i], f);
			cols += (p[i] & 0xc0) != 0x80;	/* UTF-8 continuations */
		}
	}
	return cols;
}

void ma_msgf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}
