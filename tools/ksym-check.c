// SPDX-License-Identifier: GPL-2.0
/*
 * ksym-check: which live fixes reach a kernel symbol that the kernel being
 * built for lacks, or has more than once.
 *
 *   ksym-check --system-map FILE [--out FILE] [--sympos FILE] MODULE.ko
 *   ksym-check --system-map FILE --sites LIST [--symvers FILE] [--out FILE]
 *
 * Run by the Makefile on the linked, not yet converted fixes module
 * (mlock_audit_fixes.ko), whose weak undefined symbols are the unexported
 * kernel symbols it reaches (src/symbols.h). Each one is looked up by name
 * in the kernel's System.map, whose order is kallsyms' order:
 *   - absent: the kernel would refuse the whole module at load;
 *   - more than once: its livepatch relocation would need the position of
 *     the right one, which the name alone does not tell.
 * For each such symbol, the fixes that reach it are found by following
 * the module's relocations backwards (a reference from inside a function
 * or variable to the symbol, to a function or variable that refers to
 * that one, and so on) up to a fix's registration, the variable
 * ma_fix_FIX (src/fixes/FIX/fix.c). Each fix found is written to --out
 * (default stdout) as one line, "FIX reason"; Kbuild then builds that fix
 * out (it reports "unsupported" with the reason) and the others stay. A
 * symbol that no fix reaches is named on stderr, with exit status 2.
 *
 * With --sympos, each symbol the map names exactly once is written there
 * as "NAME 1", the input of tools/klp-relocs --sympos: its livepatch
 * relocation then names position 1 instead of 0. The kernel resolves both
 * to the same address, that of the one symbol of the name; for position 0
 * it reads all of kallsyms to make sure there is no second one, and
 * Debian's 6.1 does so once per relocation (klp_find_object_symbol(),
 * which stops at the position asked for, if one is): its 69 relocations
 * took 6.4 s of a 6.8 s load of the fixes module (function_graph, TCG,
 * other guests running). The map has made sure already, for the kernel
 * being built for.
 *
 * With --sites, it looks up instead the kernel functions the audit's hooks
 * may probe (LIST: src/hook-sites, a name first on each line, "#"
 * comments), each also with the clone suffixes src/hook.c tries, and
 * writes "SYMBOL 1" for each one the map names exactly once and --symvers
 * does not export (an export needs no livepatch relocation): the audit's
 * src/hook_sites.c takes their addresses through livepatch relocations,
 * and klp-relocs --sympos gives them position 1. A name the map lacks, or has twice, is left out, and
 * the hook finds it by name at load, as without a map.
 *
 * It needs only the C library's <elf.h>, like tools/klp-relocs.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROOT_PREFIX	"ma_fix_"
#define MAP_MIN_LINES	10000
#define USAGE		"usage: ksym-check --system-map FILE [--out FILE] [--sympos FILE] MODULE.ko\n" \
			"       ksym-check --system-map FILE --sites LIST [--symvers FILE] [--out FILE]"

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ksym-check: error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		die("out of memory");
	return p;
}

static unsigned char *file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		die("%s: %s", path, strerror(errno));
	p = xcalloc((size_t)n + 1, 1);
	if (fread(p, 1, (size_t)n, f) != (size_t)n)
		die("%s: read failed", path);
	fclose(f);
	*len = (size_t)n;
	return p;
}

/*
 * How many times @text has @name between the characters @before and
 * @after, or, with @at_end, between @before and the end of @text.
 */
static unsigned int occurrences(const char *text, const char *name, char before,
				char after, int at_end)
{
	size_t n = strlen(name);
	unsigned int count = 0;
	const char *p = text;

	while ((p = strstr(p, name))) {
		if (p > text && p[-1] == before && (p[n] == after || (at_end && !p[n])))
			count++;
		p += n;
	}
	return count;
}

/* How many times System.map names @name ("ADDR TYPE NAME" lines). */
static unsigned int map_count(const char *map, const char *name)
{
	return occurrences(map, name, ' ', '\n', 1);
}

/* The suffixes GCC gives a clone, as src/hook.c tries them. */
static const char *const clone_suffixes[] = { "", ".constprop.0", ".isra.0" };

/* Whether Module.symvers (@symvers, may be NULL) exports @name. */
static int exported(const char *symvers, const char *name)
{
	return symvers && occurrences(symvers, name, '\t', '\t', 0);
}

/* --sites: see the header comment; the map is already read. */
static int sites(const char *map, const char *list_path, const char *symvers_path,
		 const char *out_path)
{
	char *list, *symvers = NULL, *line, *save = NULL;
	size_t len, i;
	FILE *out;

	list = (char *)file_read(list_path, &len);
	if (symvers_path)
		symvers = (char *)file_read(symvers_path, &len);
	out = out_path ? fopen(out_path, "w") : stdout;
	if (!out)
		die("%s: %s", out_path, strerror(errno));
	for (line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char sym[256];
		size_t n;

		if (line[0] == '#' || line[0] == '\0')
			continue;
		/* the function is the first field; the hook and set follow */
		n = strspn(line, "abcdefghijklmnopqrstuvwxyz0123456789_");
		if (!n || (line[n] != '\0' && line[n] != ' ' && line[n] != '\t'))
			die("%s: '%s' does not begin with a function name", list_path, line);
		line[n] = '\0';
		for (i = 0; i < sizeof(clone_suffixes) / sizeof(clone_suffixes[0]); i++) {
			if ((size_t)snprintf(sym, sizeof(sym), "%s%s", line, clone_suffixes[i]) >=
			    sizeof(sym))
				die("%s: '%s' is too long", list_path, line);
			if (map_count(map, sym) == 1 && !exported(symvers, sym))
				fprintf(out, "%s 1\n", sym);
		}
	}
	if (out != stdout && fclose(out))
		die("%s: write failed", out_path);
	return 0;
}

struct edge {
	size_t from, to;	/* symbol indexes: @from refers to @to */
};

static Elf64_Sym *syms;
static size_t nsyms;

/* The function or variable of section @sec that holds offset @off, or 0. */
static size_t holder(size_t sec, Elf64_Addr off)
{
	size_t i;

	for (i = 1; i < nsyms; i++) {
		unsigned int t = ELF64_ST_TYPE(syms[i].st_info);

		if (syms[i].st_shndx == sec && (t == STT_FUNC || t == STT_OBJECT) &&
		    off >= syms[i].st_value && off < syms[i].st_value + syms[i].st_size)
			return i;
	}
	return 0;
}

/*
 * A fix's registration: the walk stops there, for what refers to it (the
 * list of all fixes, the livepatch built from them) reaches every fix.
 */
static int is_root(const char *strtab, size_t sym)
{
	return ELF64_ST_TYPE(syms[sym].st_info) == STT_OBJECT &&
	       !strncmp(strtab + syms[sym].st_name, ROOT_PREFIX, strlen(ROOT_PREFIX));
}

int main(int argc, char **argv)
{
	const char *path = NULL, *map_path = NULL, *out_path = NULL, *pos_path = NULL;
	const char *sites_path = NULL, *symvers_path = NULL;
	const char *strtab, *base;
	size_t len, maplen, i, j, nedges = 0, cap = 0;
	unsigned char *img, *reach;
	struct edge *edges = NULL;
	unsigned int symidx = 0;
	int status = 0, changed;
	Elf64_Shdr *sh;
	Elf64_Ehdr *eh;
	char *map;
	FILE *out, *pos = NULL;

	for (i = 1; i < (size_t)argc; i++) {
		if (!strcmp(argv[i], "--system-map") && i + 1 < (size_t)argc)
			map_path = argv[++i];
		else if (!strcmp(argv[i], "--out") && i + 1 < (size_t)argc)
			out_path = argv[++i];
		else if (!strcmp(argv[i], "--sympos") && i + 1 < (size_t)argc)
			pos_path = argv[++i];
		else if (!strcmp(argv[i], "--sites") && i + 1 < (size_t)argc)
			sites_path = argv[++i];
		else if (!strcmp(argv[i], "--symvers") && i + 1 < (size_t)argc)
			symvers_path = argv[++i];
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return printf("%s\n", USAGE) < 0;
		else if (argv[i][0] == '-' || path)
			die("%s", USAGE);
		else
			path = argv[i];
	}
	if (!map_path || (sites_path ? path || pos_path : !path || symvers_path))
		die("%s", USAGE);
	map = (char *)file_read(map_path, &maplen);
	base = strrchr(map_path, '/') ? strrchr(map_path, '/') + 1 : map_path;
	for (i = 0, j = 0; i < maplen; i++)
		j += map[i] == '\n';
	if (j < MAP_MIN_LINES) {
		/* Debian's /boot/System.map-* says "The real System.map is in the linux-image-<version>-dbg package" */
		fprintf(stderr, "ksym-check: %s has %zu lines: a stand-in, not the kernel's symbols\n",
			map_path, j);
		return 3;
	}
	if (sites_path)
		return sites(map, sites_path, symvers_path, out_path);

	img = file_read(path, &len);
	eh = (Elf64_Ehdr *)img;
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_type != ET_REL ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > len)
		die("%s: not a relocatable ELF64 file", path);
	sh = (Elf64_Shdr *)(img + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type == SHT_SYMTAB)
			symidx = (unsigned int)i;
	if (!symidx || sh[symidx].sh_link >= eh->e_shnum)
		die("%s: no symbol table", path);
	syms = (Elf64_Sym *)(img + sh[symidx].sh_offset);
	nsyms = sh[symidx].sh_size / sizeof(Elf64_Sym);
	strtab = (const char *)img + sh[sh[symidx].sh_link].sh_offset;

	/* every reference from a function or variable to a symbol */
	for (i = 0; i < eh->e_shnum; i++) {
		Elf64_Rela *r = (Elf64_Rela *)(img + sh[i].sh_offset);
		size_t n = sh[i].sh_size / sizeof(*r);

		if (sh[i].sh_type != SHT_RELA || sh[i].sh_link != symidx ||
		    sh[i].sh_offset + sh[i].sh_size > len)
			continue;
		for (j = 0; j < n; j++) {
			size_t from = holder(sh[i].sh_info, r[j].r_offset);
			size_t to = ELF64_R_SYM(r[j].r_info);

			if (!from || !to || to >= nsyms)
				continue;
			/* a section symbol: the function or variable at the addend */
			if (ELF64_ST_TYPE(syms[to].st_info) == STT_SECTION) {
				size_t sec = syms[to].st_shndx;

				to = holder(sec, (Elf64_Addr)r[j].r_addend);
				if (!to)
					to = holder(sec, (Elf64_Addr)(r[j].r_addend + 4));
				if (!to)
					continue;
			}
			if (nedges == cap) {
				cap = cap ? cap * 2 : 4096;
				edges = realloc(edges, cap * sizeof(*edges));
				if (!edges)
					die("out of memory");
			}
			edges[nedges].from = from;
			edges[nedges++].to = to;
		}
	}

	out = out_path ? fopen(out_path, "w") : stdout;
	if (!out)
		die("%s: %s", out_path, strerror(errno));
	if (pos_path) {
		pos = fopen(pos_path, "w");
		if (!pos)
			die("%s: %s", pos_path, strerror(errno));
	}
	reach = xcalloc(nsyms, 1);
	for (i = 1; i < nsyms; i++) {
		const char *name = strtab + syms[i].st_name;
		unsigned int count, fixes = 0;
		char why[512];
		size_t k;

		if (syms[i].st_shndx != SHN_UNDEF || ELF64_ST_BIND(syms[i].st_info) != STB_WEAK)
			continue;
		count = map_count(map, name);
		if (count == 1) {
			if (pos)
				fprintf(pos, "%s 1\n", name);
			continue;
		}
		if (!count)
			snprintf(why, sizeof(why), "kernel symbol %s is not in %s: built out", name,
				 base);
		else
			snprintf(why, sizeof(why),
				 "kernel symbol %s is in %s %u times, which one is not known: built out",
				 name, base, count);
		/* everything that reaches it, backwards to the fixes */
		memset(reach, 0, nsyms);
		reach[i] = 1;
		do {
			changed = 0;
			for (k = 0; k < nedges; k++) {
				if (!reach[edges[k].to] || reach[edges[k].from] ||
				    is_root(strtab, edges[k].to))
					continue;
				reach[edges[k].from] = 1;
				changed = 1;
			}
		} while (changed);
		for (k = 1; k < nsyms; k++) {
			const char *s = strtab + syms[k].st_name;

			if (!reach[k] || !is_root(strtab, k))
				continue;
			fprintf(out, "%s %s\n", s + strlen(ROOT_PREFIX), why);
			fixes++;
		}
		if (!fixes) {
			fprintf(stderr, "ksym-check: %s: %s, and no fix reaches it: the kernel will refuse the fixes module\n",
				path, why);
			status = 2;
		}
	}
	if (out != stdout && fclose(out))
		die("%s: write failed", out_path);
	if (pos && fclose(pos))
		die("%s: write failed", pos_path);
	return status;
}
