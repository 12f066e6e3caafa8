// SPDX-License-Identifier: GPL-2.0
/*
 * klp-relocs: turn a module's weak undefined symbols into livepatch
 * relocations (Documentation/livepatch/module-elf-format.rst).
 *
 *   klp-relocs [--symvers Module.symvers] [--sympos FILE] [-v] MODULE.ko
 *
 * mlock_audit declares every unexported kernel symbol it uses weak
 * (src/symbols.h), so that modpost lets the module link. This post-link
 * step, run by the Makefile on the linked .ko, rewrites the file in place:
 * - each weak undefined symbol NAME becomes ".klp.sym.vmlinux.NAME,POS",
 *   global, with section index SHN_LIVEPATCH (POS from --sympos, default
 *   0: the name must then be unique in vmlinux);
 * - each relocation against one of them moves out of its ".rela<SEC>"
 *   section into a new ".klp.rela.vmlinux.<SEC>" section (a dot always
 *   ends the object's name, which the kernel reads up to the first dot:
 *   ".klp.rela.vmlinux..text"), SHT_RELA with SHF_ALLOC |
 *   SHF_RELA_LIVEPATCH, which the livepatch core applies when the module
 *   loads, after resolving the symbol through kallsyms;
 * - such a relocation must be of a type the kernel's x86_64
 *   apply_relocate_add() handles the same on every supported kernel
 *   (PLT32, PC32, 32S, 64), in a section of code or data (.text*,
 *   .rodata*, .data*, .init.text, .exit.text): a special section
 *   (alternatives, jump labels, static calls, exception tables) is
 *   processed by the module loader from its own relocations, before or
 *   without the livepatch ones;
 * - the module's flag ma_klp_unconverted is cleared, so the module knows
 *   it went through this step.
 * It also refuses a module with a split-off part of a function (".cold",
 * ".part.N"): the livepatch stack check looks for the replacement
 * functions by their own extent, so a task sleeping in such a part of one
 * would let the module go while its code is still on that task's stack.
 * With --symvers, a weak symbol that the kernel exports is an error: it
 * needs no livepatch relocation. A module with no weak undefined symbol
 * left is already converted and is left alone.
 *
 * Why a tool of our own: kpatch's create-klp-module needs its own
 * intermediate sections from create-diff-object, and the kernel's objtool
 * "klp post-link" exists only from 6.19 on (not in the 6.1 and 6.12
 * headers); this needs only the C library's <elf.h>, on every build host
 * that can build a module.
 *
 * The new strings, section contents and section header table are appended
 * to the file; the old string tables stay behind unreferenced.
 */
#define _POSIX_C_SOURCE 200809L
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SHN_LIVEPATCH
#define SHN_LIVEPATCH		0xff20
#endif
#ifndef SHF_RELA_LIVEPATCH
#define SHF_RELA_LIVEPATCH	0x00100000
#endif

#define MARKER		"ma_klp_unconverted"
#define KLP_SYM		".klp.sym.vmlinux."
#define KLP_RELA	".klp.rela.vmlinux"
#define USAGE		"usage: klp-relocs [--symvers Module.symvers] [--sympos FILE] [-v] MODULE.ko"

static const char *prog = "klp-relocs";
static int verbose;

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* The relocation types a livepatch relocation may have. */
static const char *rela_type_ok(unsigned int type)
{
	switch (type) {
	case R_X86_64_PLT32:
		return "PLT32";
	case R_X86_64_PC32:
		return "PC32";
	case R_X86_64_32S:
		return "32S";
	case R_X86_64_64:
		return "64";
	}
	return NULL;
}

static int prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* The sections a livepatch relocation may apply to: code and data. */
static int klp_target_ok(const char *sec)
{
	return prefix(sec, ".text") || prefix(sec, ".rodata") || prefix(sec, ".data") ||
	       !strcmp(sec, ".init.text") || !strcmp(sec, ".exit.text");
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

/* A growable byte buffer. */
struct buf {
	unsigned char *p;
	size_t len, cap;
};

static size_t buf_add(struct buf *b, const void *data, size_t n)
{
	size_t at = b->len;

	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
	return at;
}

static void buf_align(struct buf *b, size_t a)
{
	static const unsigned char zero[16];

	while (b->len % a)
		buf_add(b, zero, 1);
}

/* Names from a list file: "NAME" or "NAME POS" per line. */
struct namelist {
	char **name;
	unsigned long *pos;
	size_t n;
};

static void list_load(struct namelist *l, const char *path, int symvers)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char name[1024];
		unsigned long pos = 0;
		unsigned long long crc;
		int n;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (symvers)
			n = sscanf(line, "%llx %1023s", &crc, name) == 2;
		else
			n = sscanf(line, "%1023s %lu", name, &pos) >= 1;
		if (!n)
			die("%s: cannot parse line: %s", path, line);
		l->name = xrealloc(l->name, (l->n + 1) * sizeof(*l->name));
		l->pos = xrealloc(l->pos, (l->n + 1) * sizeof(*l->pos));
		l->name[l->n] = strdup(name);
		l->pos[l->n] = pos;
		if (!l->name[l->n])
			die("out of memory");
		l->n++;
	}
	fclose(f);
}

static long list_find(const struct namelist *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->name[i], name))
			return (long)i;
	return -1;
}

static unsigned char *file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p;
	long n;

	if (!f)
		die("%s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END))
		die("%s: cannot seek: %s", path, strerror(errno));
	n = ftell(f);
	if (n < 0 || fseek(f, 0, SEEK_SET))
		die("%s: cannot size: %s", path, strerror(errno));
	p = xrealloc(NULL, (size_t)n);
	if (fread(p, 1, (size_t)n, f) != (size_t)n)
		die("%s: short read", path);
	fclose(f);
	*len = (size_t)n;
	return p;
}

static void file_write(const char *path, const struct buf *b)
{
	char tmp[4096];
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.klp-tmp", path) >= (int)sizeof(tmp))
		die("path too long: %s", path);
	f = fopen(tmp, "wb");
	if (!f)
		die("%s: %s", tmp, strerror(errno));
	if (fwrite(b->p, 1, b->len, f) != b->len || fclose(f))
		die("%s: write failed: %s", tmp, strerror(errno));
	if (rename(tmp, path))
		die("rename %s to %s: %s", tmp, path, strerror(errno));
}

int main(int argc, char **argv)
{
	struct namelist symvers = { 0 }, sympos = { 0 };
	const char *path = NULL, *strtab, *shstrtab;
	size_t len, i, j, nsyms, nnew = 0, nconv = 0, nrel = 0;
	unsigned char *img, *converted;
	Elf64_Shdr *sh, *newsh = NULL;
	Elf64_Ehdr *eh;
	Elf64_Sym *syms;
	Elf64_Word *sym_name;
	struct buf out = { 0 }, str = { 0 }, shstr = { 0 };
	unsigned int symidx = 0, shnum;
	int have_marker = 0;

	for (i = 1; i < (size_t)argc; i++) {
		if (!strcmp(argv[i], "--symvers") && i + 1 < (size_t)argc) {
			list_load(&symvers, argv[++i], 1);
		} else if (!strcmp(argv[i], "--sympos") && i + 1 < (size_t)argc) {
			list_load(&sympos, argv[++i], 0);
		} else if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("%s\n%s\n", USAGE,
			       "Turns MODULE.ko's weak undefined symbols into livepatch relocations.");
			return 0;
		} else if (argv[i][0] == '-' || path) {
			die("%s", USAGE);
		} else {
			path = argv[i];
		}
	}
	if (!path)
		die("%s", USAGE);

	img = file_read(path, &len);
	eh = (Elf64_Ehdr *)img;
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_type != ET_REL || eh->e_machine != EM_X86_64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr))
		die("%s: not an x86_64 relocatable ELF64 file", path);
	shnum = eh->e_shnum;
	if (!shnum || eh->e_shoff + (size_t)shnum * sizeof(Elf64_Shdr) > len ||
	    eh->e_shstrndx >= shnum)
		die("%s: bad section header table", path);
	sh = (Elf64_Shdr *)(img + eh->e_shoff);
	for (i = 0; i < shnum; i++) {
		if (sh[i].sh_type != SHT_NOBITS && sh[i].sh_offset + sh[i].sh_size > len)
			die("%s: section %zu lies outside the file", path, i);
		if (sh[i].sh_type == SHT_SYMTAB) {
			if (symidx)
				die("%s: more than one symbol table", path);
			symidx = (unsigned int)i;
		}
	}
	if (!symidx || sh[symidx].sh_link >= shnum ||
	    sh[symidx].sh_entsize != sizeof(Elf64_Sym))
		die("%s: no usable symbol table", path);
	syms = (Elf64_Sym *)(img + sh[symidx].sh_offset);
	nsyms = sh[symidx].sh_size / sizeof(Elf64_Sym);
	strtab = (const char *)img + sh[sh[symidx].sh_link].sh_offset;
	shstrtab = (const char *)img + sh[eh->e_shstrndx].sh_offset;
	converted = xrealloc(NULL, nsyms);
	memset(converted, 0, nsyms);
	/* the kernel names, for messages once the symbols are renamed */
	sym_name = xrealloc(NULL, nsyms * sizeof(*sym_name));

	/* the new string table: the old one, then the livepatch names */
	buf_add(&str, strtab, sh[sh[symidx].sh_link].sh_size);
	for (i = 1; i < nsyms; i++) {
		const char *name = strtab + syms[i].st_name;
		char klp[1200];
		long k;

		if (syms[i].st_name >= sh[sh[symidx].sh_link].sh_size)
			die("%s: symbol %zu has a bad name", path, i);
		if (!strcmp(name, MARKER) && syms[i].st_shndx != SHN_UNDEF &&
		    syms[i].st_shndx < shnum) {
			Elf64_Shdr *s = &sh[syms[i].st_shndx];
			unsigned char *at = img + s->sh_offset + syms[i].st_value;
			uint32_t zero = 0;

			if (s->sh_type == SHT_NOBITS || syms[i].st_size != sizeof(zero) ||
			    syms[i].st_value + sizeof(zero) > s->sh_size)
				die("%s: %s is not a 4-byte initialised variable", path, MARKER);
			have_marker = memcmp(at, &zero, sizeof(zero)) ? 1 : 2;
			memcpy(at, &zero, sizeof(zero));
			continue;
		}
		if (ELF64_ST_TYPE(syms[i].st_info) == STT_FUNC &&
		    (strstr(name, ".cold") || strstr(name, ".part.")))
			die("%s: %s is a split-off part of a function: a task sleeping there is invisible to the livepatch stack check, which looks only at whole functions (build with -fno-reorder-blocks-and-partition -fno-partial-inlining)",
			    path, name);
		if (syms[i].st_shndx != SHN_UNDEF || ELF64_ST_BIND(syms[i].st_info) != STB_WEAK)
			continue;
		if (list_find(&symvers, name) >= 0)
			die("%s: %s is exported by the kernel: declare it normally, not weak", path,
			    name);
		k = list_find(&sympos, name);
		snprintf(klp, sizeof(klp), "%s%s,%lu", KLP_SYM, name, k >= 0 ? sympos.pos[k] : 0);
		if (verbose)
			printf("  %s\n", klp);
		sym_name[i] = syms[i].st_name;
		syms[i].st_name = (Elf64_Word)buf_add(&str, klp, strlen(klp) + 1);
		syms[i].st_shndx = SHN_LIVEPATCH;
		syms[i].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE);
		converted[i] = 1;
		nconv++;
	}
	if (!have_marker)
		die("%s: no %s variable: is this mlock_audit.ko?", path, MARKER);
	if (!nconv && have_marker == 2) {
		printf("%s: %s: already converted\n", prog, path);
		return 0;
	}
	for (i = 1; i < nsyms; i++)
		if (syms[i].st_shndx == SHN_UNDEF && ELF64_ST_BIND(syms[i].st_info) == STB_WEAK)
			die("%s: internal error: weak symbol left", path);

	/* the section names: the old ones, then one per new section */
	buf_add(&shstr, shstrtab, sh[eh->e_shstrndx].sh_size);

	/* split each relocation section that refers to a converted symbol */
	buf_add(&out, img, len);
	for (i = 0; i < shnum; i++) {
		Elf64_Rela *r = (Elf64_Rela *)(img + sh[i].sh_offset);
		size_t n = sh[i].sh_size / sizeof(Elf64_Rela), keep = 0, moved = 0;
		const char *target;
		Elf64_Rela *klp;
		char name[1024];

		if (sh[i].sh_type != SHT_RELA || sh[i].sh_link != symidx ||
		    (sh[i].sh_flags & SHF_RELA_LIVEPATCH))
			continue;
		if (sh[i].sh_entsize != sizeof(Elf64_Rela) || sh[i].sh_info >= shnum)
			die("%s: bad relocation section %zu", path, i);
		target = shstrtab + sh[sh[i].sh_info].sh_name;
		klp = xrealloc(NULL, n * sizeof(*klp));
		for (j = 0; j < n; j++) {
			size_t s = ELF64_R_SYM(r[j].r_info);
			unsigned int type = ELF64_R_TYPE(r[j].r_info);

			if (s >= nsyms)
				die("%s: relocation against symbol %zu of %zu", path, s, nsyms);
			if (!converted[s]) {
				r[keep++] = r[j];
				continue;
			}
			if (!klp_target_ok(target))
				die("%s: kernel symbol %s is referred to from section %s: livepatch relocations may only apply to .text*, .rodata*, .data*, .init.text and .exit.text",
				    path, strtab + sym_name[s], target);
			if (!rela_type_ok(type))
				die("%s: kernel symbol %s is referred to by a relocation of type %u in %s: livepatch relocations may only be PLT32, PC32, 32S or 64",
				    path, strtab + sym_name[s], type, target);
			klp[moved++] = r[j];
		}
		if (moved && !(sh[sh[i].sh_info].sh_flags & SHF_ALLOC))
			die("%s: a kernel symbol is referred to from the non-allocated section %s",
			    path, target);
		if (moved) {
			Elf64_Shdr s = sh[i];

			/* the kept entries, in place */
			memcpy(out.p + sh[i].sh_offset, r, keep * sizeof(*r));
			sh[i].sh_size = keep * sizeof(*r);
			snprintf(name, sizeof(name), "%s.%s", KLP_RELA, target);
			buf_align(&out, 8);
			s.sh_offset = buf_add(&out, klp, moved * sizeof(*klp));
			s.sh_size = moved * sizeof(*klp);
			s.sh_name = (Elf64_Word)buf_add(&shstr, name, strlen(name) + 1);
			s.sh_flags = SHF_ALLOC | SHF_INFO_LINK | SHF_RELA_LIVEPATCH;
			s.sh_addralign = 8;
			newsh = xrealloc(newsh, (nnew + 1) * sizeof(*newsh));
			newsh[nnew++] = s;
			nrel += moved;
			if (verbose)
				printf("  %s: %zu relocations\n", name, moved);
		}
		free(klp);
	}
	if (shnum + nnew >= SHN_LORESERVE)
		die("%s: too many sections", path);

	/* string tables and section headers (the rest was changed in place) */
	buf_align(&out, 8);
	sh[sh[symidx].sh_link].sh_offset = buf_add(&out, str.p, str.len);
	sh[sh[symidx].sh_link].sh_size = str.len;
	buf_align(&out, 8);
	sh[eh->e_shstrndx].sh_offset = buf_add(&out, shstr.p, shstr.len);
	sh[eh->e_shstrndx].sh_size = shstr.len;
	buf_align(&out, 8);
	eh->e_shoff = buf_add(&out, sh, shnum * sizeof(*sh));
	if (nnew)
		buf_add(&out, newsh, nnew * sizeof(*newsh));
	eh->e_shnum = (Elf64_Half)(shnum + nnew);
	memcpy(out.p, eh, sizeof(*eh));
	file_write(path, &out);
	printf("%s: %s: %zu kernel symbols, %zu relocations in %zu livepatch sections\n",
	       prog, path, nconv, nrel, nnew);
	return 0;
}
