// SPDX-License-Identifier: GPL-2.0
/*
 * The module's debugfs files: read whole, check "format N", parse strictly.
 * A line the parser does not know, or a file that ends mid-line or lacks a
 * line every format-1 file has, is an error (MA_EXIT_ERROR) rather than a
 * wrong figure.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "exit-codes.h"
#include "out.h"
#include "parse.h"

const struct ma_field ma_fields[] = {
#define MA_SIZE(k, j, p, cause, r, x, h) \
	{ #k, j, p, cause, r, x, h, MA_FIELD_SIZE, \
	  offsetof(struct ma_summary, k) },
#define MA_COUNT(k, p, h) \
	{ #k, #k, p, NULL, NULL, MA_CROSS_NONE, h, MA_FIELD_COUNT, \
	  offsetof(struct ma_summary, k) },
#define MA_EVENT(name) \
	{ "unevictable_pgs_" #name, "unevictable_pgs_" #name, MA_EVENT_PROM, \
	  #name, NULL, MA_CROSS_NONE, MA_EVENT_HELP, MA_FIELD_EVENT, \
	  offsetof(struct ma_summary, events[MA_EVENT_##name]) },
#include "../src/summary_fields.h"
#undef MA_SIZE
#undef MA_COUNT
#undef MA_EVENT
};
const size_t ma_nfields = sizeof(ma_fields) / sizeof(ma_fields[0]);

const char *const ma_event_names[MA_NR_EVENTS] = {
#define MA_SIZE(...)
#define MA_COUNT(...)
#define MA_EVENT(name) #name,
#include "../src/summary_fields.h"
#undef MA_SIZE
#undef MA_COUNT
#undef MA_EVENT
};

unsigned long long ma_field_raw(const struct ma_summary *s, const struct ma_field *f)
{
	unsigned long long v;

	memcpy(&v, (const char *)s + f->off, sizeof(v));
	return v;
}

unsigned long long ma_field_out(const struct ma_summary *s, const struct ma_field *f)
{
	return ma_field_raw(s, f) * (f->kind == MA_FIELD_SIZE ? 1024 : 1);
}

static char cur_path[PATH_MAX + 64];	/* the file being parsed, for messages */

static int fail(char *msg, const char *fmt, const char *arg)
{
	char what[MA_MSG_LEN / 2];

	snprintf(what, sizeof(what), fmt, arg);
	ma_msgf(msg, MA_MSG_LEN, "%s: %s", cur_path, what);
	return MA_EXIT_ERROR;
}

int ma_read(const struct ma_opts *o, const char *name, char **buf, char **text,
	    char *msg)
{
	size_t len = 0, cap = 65536;
	char *b, *nl, *end;
	ssize_t r;
	long fmt;
	int fd, err;

	snprintf(cur_path, sizeof(cur_path), "%s/%s", o->dir, name);
	fd = open(cur_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ma_env_open_error(o, cur_path, errno, msg, MA_MSG_LEN);
	b = malloc(cap);
	if (!b) {
		close(fd);
		return fail(msg, "%s", "out of memory");
	}
	for (;;) {
		if (len + 1 >= cap) {
			char *nb = realloc(b, cap * 2);

			if (!nb) {
				free(b);
				close(fd);
				return fail(msg, "%s", "out of memory");
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errno;
			free(b);
			close(fd);
			return ma_env_open_error(o, cur_path, err, msg, MA_MSG_LEN);
		}
		if (!r)
			break;
		len += r;
	}
	close(fd);
	b[len] = 0;
	*buf = b;
	if (!len)
		return fail(msg, "%s", "empty file (no 'format N' line)");
	if (strlen(b) != len)
		return fail(msg, "%s", "contains a NUL byte");
	if (b[len - 1] != '\n')
		return fail(msg, "%s", "truncated: the last line is incomplete");
	nl = strchr(b, '\n');
	*nl = 0;
	if (strncmp(b, "format ", 7) || !isdigit((unsigned char)b[7]))
		return fail(msg, "%s", "does not start with a 'format N' line");
	errno = 0;
	fmt = strtol(b + 7, &end, 10);
	if (*end || errno)
		return fail(msg, "%s", "does not start with a 'format N' line");
	if (fmt != MA_FORMAT_SUPPORTED) {
		ma_msgf(msg, MA_MSG_LEN,
			 "%s: format %s, but this mlock-audit reads format %d: use the mlock-audit built with the module",
			 cur_path, b + 7, MA_FORMAT_SUPPORTED);
		return MA_EXIT_FORMAT;
	}
	*text = nl + 1;
	return MA_EXIT_OK;
}

/* Next line of *p (NUL-terminated in place), or NULL at the end. */
static char *next_line(char **p)
{
	char *l = *p, *nl;

	if (!*l)
		return NULL;
	nl = strchr(l, '\n');
	*nl = 0;	/* ma_read() checked that the text ends with '\n' */
	*p = nl + 1;
	return l;
}

static bool to_ull(const char *s, int base, unsigned long long *v)
{
	char *end;

	if (!isxdigit((unsigned char)*s) || (base == 10 && !isdigit((unsigned char)*s)))
		return false;
	errno = 0;
	*v = strtoull(s, &end, base);
	return !errno && !*end;
}

bool ma_is_int(const char *s)
{
	if (*s == '-')
		s++;
	if (!*s || strlen(s) > 18)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

const char *ma_kv_get(const struct ma_kv *kv, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].val;
	return NULL;
}

static bool copy(char *dst, size_t len, const char *src)
{
	if (strlen(src) >= len)
		return false;
	strcpy(dst, src);
	return true;
}

/*
 * Grow the array *ARR of N elements of SIZE bytes by one zeroed element and
 * return it, or NULL (the array unchanged) when out of memory.
 */
static void *append(void *arr, size_t n, size_t size)
{
	char *p = realloc(*(void **)arr, (n + 1) * size);

	if (!p)
		return NULL;
	*(void **)arr = p;
	memset(p + n * size, 0, size);
	return p + n * size;
}

/* append() for a parser: NULL, with msg set, when out of memory. */
static void *append_or_fail(void *arr, size_t n, size_t size, char *msg)
{
	void *e = append(arr, n, size);

	if (!e)
		fail(msg, "%s", "out of memory");
	return e;
}

/*
 * Read the debugfs file @name (ma_read: "format N" checked) and hand each
 * of its lines to @line, with @ctx, until one fails: the status of the
 * read or of the failing line, else 0. A line is not kept: @line copies
 * what it keeps. A file with no line fails as short, saying it has
 * @none, unless @none is NULL.
 */
static int each_line(const struct ma_opts *o, const char *name,
		     int (*line)(char *l, void *ctx, char *msg), void *ctx,
		     const char *none, char *msg)
{
	char *buf = NULL, *p, *l;
	bool any = false;
	int ret;

	ret = ma_read(o, name, &buf, &p, msg);
	while (!ret && (l = next_line(&p))) {
		ret = line(l, ctx, msg);
		any = true;
	}
	free(buf);
	if (!ret && !any && none)
		ret = fail(msg, "short file: %s", none);
	return ret;
}

/* "KEY VALUE": cut LINE after KEY and return VALUE, or NULL. */
static char *split_key(char *line)
{
	char *val = strchr(line, ' ');

	if (val)
		*val++ = 0;
	return val;
}

struct version_ctx {
	struct ma_version *v;
	int seen;
};

static int version_line(char *l, void *ctx, char *msg)
{
	struct version_ctx *c = ctx;
	char *val = split_key(l);

	if (!val)
		return fail(msg, "unparsed line '%.200s'", l);
	if (!strcmp(l, "module"))
		c->seen |= copy(c->v->module, sizeof(c->v->module), val) << 0;
	else if (!strcmp(l, "kernel"))
		c->seen |= copy(c->v->kernel, sizeof(c->v->kernel), val) << 1;
	else if (!strcmp(l, "built_for"))
		c->seen |= copy(c->v->built_for, sizeof(c->v->built_for), val) << 2;
	return 0;
}

int ma_parse_version(const struct ma_opts *o, struct ma_version *v, char *msg)
{
	struct version_ctx c = { v, 0 };
	int ret;

	memset(v, 0, sizeof(*v));
	ret = each_line(o, "version", version_line, &c, NULL, msg);
	if (!ret && c.seen != 7)
		ret = fail(msg, "%s", "short file: want module, kernel and built_for lines");
	return ret;
}

static int probe_line(char *l, void *ctx, char *msg)
{
	struct ma_probes *pr = ctx;
	char hook[32], sym[128], rest[512];
	struct ma_probe *e;
	int n = 0;

	e = append_or_fail(&pr->v, pr->n, sizeof(*e), msg);
	if (!e)
		return MA_EXIT_ERROR;
	if (sscanf(l, "%31s %127s hits=%llu missed=%llu%n", hook, sym,
		   &e->hits, &e->missed, &n) == 4 &&
	    (!l[n] || !strcmp(l + n, " counted by the live fix"))) {
		strcpy(e->hook, hook);
		strcpy(e->symbol, sym);
		e->by_fix = l[n];
	} else if (sscanf(l, "%31s not found: %511[^\n]", hook, rest) == 2) {
		strcpy(e->hook, hook);
		strcpy(e->why, rest);
	} else if (sscanf(l, "%31s off: %511[^\n]", hook, rest) == 2) {
		strcpy(e->hook, hook);
		strcpy(e->why, rest);
		e->off = true;
	} else {
		return fail(msg, "unparsed line '%.200s'", l);
	}
	pr->n++;
	return 0;
}

int ma_parse_probes(const struct ma_opts *o, struct ma_probes *pr, char *msg)
{
	memset(pr, 0, sizeof(*pr));
	return each_line(o, "probes", probe_line, pr, "no probe lines", msg);
}

/* Split "k=v k=v" fields into kv (values without blanks). */
static bool split_kv(char *s, struct ma_kv *kv, size_t *n)
{
	char *tok, *save, *eq;

	for (tok = strtok_r(s, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		eq = strchr(tok, '=');
		if (!eq || *n >= MA_FIX_FIELDS)
			return false;
		*eq = 0;
		if (!copy(kv[*n].key, sizeof(kv[*n].key), tok) ||
		    !copy(kv[*n].val, sizeof(kv[*n].val), eq + 1))
			return false;
		(*n)++;
	}
	return true;
}

/* The first line is the livepatch's ("livepatch state=..."), then a fix a line. */
static int fix_line(char *l, void *ctx, char *msg)
{
	struct ma_fixes *fx = ctx;
	struct ma_fix *f;
	char *d;

	if (!fx->nlp) {
		if (strncmp(l, "livepatch ", 10) || !split_kv(l + 10, fx->lp, &fx->nlp) ||
		    !ma_kv_get(fx->lp, fx->nlp, "state"))
			return fail(msg, "%s", "short file: no 'livepatch state=...' line");
		return 0;
	}
	f = append_or_fail(&fx->v, fx->n, sizeof(*f), msg);
	if (!f)
		return MA_EXIT_ERROR;
	d = strstr(l, " detail=");
	if (strncmp(l, "fix=", 4) || !d)
		return fail(msg, "unparsed line '%.200s'", l);
	*d = 0;
	if (!copy(f->detail, sizeof(f->detail), d + 8) ||
	    !split_kv(l, f->f, &f->nf) || f->nf < 2 ||
	    strcmp(f->f[1].key, "state"))
		return fail(msg, "unparsed fix line '%.200s'", l);
	strcpy(f->name, f->f[0].val);
	strcpy(f->state, f->f[1].val);
	f->nf -= 2;
	memmove(f->f, f->f + 2, f->nf * sizeof(f->f[0]));
	fx->n++;
	return 0;
}

int ma_parse_fixes(const struct ma_opts *o, struct ma_fixes *fx, char *msg)
{
	memset(fx, 0, sizeof(*fx));
	return each_line(o, "fixes", fix_line, fx, "no 'livepatch state=...' line",
			 msg);
}

struct summary_ctx {
	struct ma_summary *s;
	bool seen[sizeof(ma_fields) / sizeof(ma_fields[0])];
};

static int summary_line(char *l, void *ctx, char *msg)
{
	struct summary_ctx *c = ctx;
	char *val = split_key(l);
	unsigned long long v;
	size_t i;

	if (!val)
		return fail(msg, "unparsed line '%.200s'", l);
	for (i = 0; i < ma_nfields; i++)
		if (!strcmp(l, ma_fields[i].key))
			break;
	if (i == ma_nfields)
		return 0;	/* a newer module's extra key */
	if (!to_ull(val, 10, &v))
		return fail(msg, "bad value for %s", l);
	memcpy((char *)c->s + ma_fields[i].off, &v, sizeof(v));
	c->seen[i] = true;
	return 0;
}

int ma_parse_summary(const struct ma_opts *o, struct ma_summary *s, char *msg)
{
	struct summary_ctx c = { .s = s };
	size_t i;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = each_line(o, "summary", summary_line, &c, NULL, msg);
	for (i = 0; !ret && i < ma_nfields; i++)
		if (!c.seen[i])
			ret = fail(msg, "short file: no '%s' line", ma_fields[i].key);
	return ret;
}

/* Decode /proc/mounts-style \NNN escapes; returns a malloc'd copy. */
static char *unescape(const char *s, size_t *len)
{
	char *d = malloc(strlen(s) + 1), *q = d;

	if (!d)
		return NULL;
	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*q++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else {
			*q++ = *s++;
		}
	}
	*q = 0;
	*len = q - d;
	return d;
}

static bool parse_orders(const char *s, unsigned long long *orders)
{
	unsigned long long ord, cnt;
	char *end;

	if (!strcmp(s, "-"))
		return true;
	for (;;) {
		if (!isdigit((unsigned char)*s))
			return false;
		ord = strtoull(s, &end, 10);
		if (*end != ':' || ord >= MA_ORDERS || !isdigit((unsigned char)end[1]))
			return false;
		cnt = strtoull(end + 1, &end, 10);
		orders[ord] = cnt;
		if (!*end)
			return true;
		if (*end != ',')
			return false;
		s = end + 1;
	}
}

/* One row: the fields in the documented order, path= last. */
static bool parse_vma(char *l, struct ma_vma *v)
{
	static const char *const keys[] = {
		"pid", "comm", "start", "end", "flags", "backing", "resident",
		"mlocked", "missed", "missed_crossed", "partial",
		"small_unmlocked", "orders", "path",
	};
	unsigned long long pid, *pages[] = {
		&v->resident, &v->mlocked, &v->missed, &v->missed_crossed,
		&v->partial, &v->small_unmlocked,
	};
	char *val[14], *sp;
	size_t i, n;

	for (i = 0; i < 14; i++) {
		n = strlen(keys[i]);
		if (strncmp(l, keys[i], n) || l[n] != '=')
			return false;
		val[i] = l + n + 1;
		if (i == 13)
			break;	/* path runs to the end of the line */
		sp = strchr(val[i], ' ');
		if (!sp)
			return false;
		*sp = 0;
		l = sp + 1;
	}
	if (!to_ull(val[0], 10, &pid) || pid > 0x7fffffff ||
	    !copy(v->comm, sizeof(v->comm), val[1]) ||
	    !to_ull(val[2], 16, &v->start) || !to_ull(val[3], 16, &v->end) ||
	    v->end < v->start ||
	    !copy(v->flags, sizeof(v->flags), val[4]) ||
	    !copy(v->backing, sizeof(v->backing), val[5]) ||
	    !parse_orders(val[12], v->orders) || !*val[13])
		return false;
	v->pid = (int)pid;
	for (i = 0; i < 6; i++)
		if (!to_ull(val[6 + i], 10, pages[i]))
			return false;
	if (strcmp(val[13], "-")) {
		v->path = unescape(val[13], &v->pathlen);
		if (!v->path)
			return false;
	}
	return true;
}

static int vma_line(char *l, void *ctx, char *msg)
{
	struct ma_vmas *vm = ctx;
	struct ma_vma *v = append_or_fail(&vm->v, vm->n, sizeof(*v), msg);

	if (!v)
		return MA_EXIT_ERROR;
	if (!parse_vma(l, v)) {
		free(v->path);
		return fail(msg, "unparsed row '%.200s'", l);
	}
	vm->n++;
	return 0;
}

int ma_parse_vmas(const struct ma_opts *o, struct ma_vmas *vm, char *msg)
{
	memset(vm, 0, sizeof(*vm));
	return each_line(o, "vmas", vma_line, vm, NULL, msg);
}

void ma_probes_free(struct ma_probes *p)
{
	free(p->v);
	p->v = NULL;
	p->n = 0;
}

void ma_fixes_free(struct ma_fixes *fx)
{
	free(fx->v);
	fx->v = NULL;
	fx->n = 0;
}

void ma_vmas_free(struct ma_vmas *vm)
{
	size_t i;

	for (i = 0; i < vm->n; i++)
		free(vm->v[i].path);
	free(vm->v);
	vm->v = NULL;
	vm->n = 0;
}
