/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading and parsing the module's debugfs files (format 1, README.md "The
 * debugfs files"). Each parser returns an enum ma_exit and, on failure, a
 * one-line reason in msg.
 */
#ifndef MLOCK_AUDIT_PARSE_H
#define MLOCK_AUDIT_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "../src/summary.h"

#define MA_FORMAT_SUPPORTED 1
#define MA_MSG_LEN 1024

struct ma_version {
	char module[64];
	char kernel[128];
	char built_for[128];
};

struct ma_probe {
	char hook[32];
	char symbol[128];	/* empty when not found */
	unsigned long long hits, missed;
	char why[512];		/* "tried ..." when not found; "probes=off" when off */
	bool off;		/* not registered: the module's probes=off */
	bool by_fix;		/* counted by the live fix's replacement */
};

struct ma_probes {
	struct ma_probe *v;
	size_t n;
};

/* A key=value field of the fixes file, in file order. */
struct ma_kv {
	char key[32];
	char val[64];
};

#define MA_FIX_FIELDS 16

struct ma_fix {
	char name[32];
	char state[32];
	struct ma_kv f[MA_FIX_FIELDS];	/* between state= and detail= */
	size_t nf;
	char detail[1024];
};

struct ma_fixes {
	struct ma_kv lp[MA_FIX_FIELDS];	/* the livepatch line: state=, ... */
	size_t nlp;
	struct ma_fix *v;
	size_t n;
};

/*
 * The summary's fields (../src/summary_fields.h), one entry each in file
 * order; struct ma_summary (../src/summary.h) holds their values.
 */
enum ma_field_kind { MA_FIELD_SIZE, MA_FIELD_COUNT, MA_FIELD_EVENT };

struct ma_field {
	const char *key;	/* in the debugfs file */
	const char *json;	/* JSON name; sizes in bytes */
	const char *prom;	/* Prometheus name, or family when lval is set */
	const char *lval;	/* its label's value (cause= for sizes, event=) */
	const char *row;	/* table row, or NULL */
	enum ma_cross_kind cross;	/* what the table row shows beside it */
	const char *help;
	enum ma_field_kind kind;
	size_t off;		/* in struct ma_summary */
};

extern const struct ma_field ma_fields[];
extern const size_t ma_nfields;
/* The vmstat events of the summary, also read from /proc/vmstat. */
extern const char *const ma_event_names[MA_NR_EVENTS];	/* "culled", ... */

/* A field's value as the file gives it (kB or a count) */
unsigned long long ma_field_raw(const struct ma_summary *s, const struct ma_field *f);
/* ... and as JSON and Prometheus give it (bytes or a count) */
unsigned long long ma_field_out(const struct ma_summary *s, const struct ma_field *f);

#define MA_ORDERS 16

struct ma_vma {
	int pid;
	char comm[64];
	unsigned long long start, end;
	char flags[16];		/* locked, onfault */
	char backing[16];	/* anon, shmem, file */
	unsigned long long resident, mlocked, missed, missed_crossed;
	unsigned long long partial, small_unmlocked;	/* pages */
	unsigned long long orders[MA_ORDERS];	/* folios of each order */
	char *path;		/* decoded; NULL for anonymous memory */
	size_t pathlen;
};

struct ma_vmas {
	struct ma_vma *v;
	size_t n;
};

/*
 * Read DIR/name whole (one read of a seq_file is one snapshot) and check
 * its format line. *text points after the format line, NUL-terminated.
 */
int ma_read(const struct ma_opts *o, const char *name, char **buf, char **text,
	    char *msg);

int ma_parse_version(const struct ma_opts *o, struct ma_version *v, char *msg);
int ma_parse_probes(const struct ma_opts *o, struct ma_probes *p, char *msg);
int ma_parse_fixes(const struct ma_opts *o, struct ma_fixes *fx, char *msg);
int ma_parse_summary(const struct ma_opts *o, struct ma_summary *s, char *msg);
int ma_parse_vmas(const struct ma_opts *o, struct ma_vmas *vm, char *msg);

void ma_probes_free(struct ma_probes *p);
void ma_fixes_free(struct ma_fixes *fx);
void ma_vmas_free(struct ma_vmas *vm);

/* Value of a key in a kv list, or NULL. */
const char *ma_kv_get(const struct ma_kv *kv, size_t n, const char *key);
/* Is s a decimal integer, optionally negative (a JSON/Prometheus number)? */
bool ma_is_int(const char *s);

#endif
