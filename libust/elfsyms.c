/*
 * elfsyms.c - the functions named in a loaded object's symbol tables,
 * read from its file: what the function filters resolve their globs with
 * (funcfilter.c), once, when tracing starts.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * The file is mapped read-only and every offset and size in it is checked
 * against the file's size before it is used: a file replaced or cut
 * since it was loaded gives fewer names, never a crash.  Both .symtab
 * (when the object is not stripped) and .dynsym are read; a function in
 * both is reported twice, which a set does not mind.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "functions.h"

struct elf_file {
	const uint8_t *map;
	size_t size;
};

/* `count` entries of `entsize` bytes at `off` lie inside the file. */
static bool elf_fits(const struct elf_file *f, uint64_t off, uint64_t count,
		     uint64_t entsize)
{
	return entsize && off <= f->size && count <= (f->size - off) / entsize;
}

/* The section headers, checked; NULL when there are none usable. */
static const Elf64_Shdr *elf_sections(const struct elf_file *f, uint16_t *nr)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f->map;

	if (f->size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !elf_fits(f, eh->e_shoff, eh->e_shnum, sizeof(Elf64_Shdr)))
		return NULL;
	*nr = eh->e_shnum;
	return (const Elf64_Shdr *)(f->map + eh->e_shoff);
}

/* Each defined function of symbol table `sym` (with strings `str`). */
static void elf_table(const struct elf_file *f, const Elf64_Shdr *sym,
		      const Elf64_Shdr *str, uint64_t bias,
		      const struct ust_elf_visit *v)
{
	const Elf64_Sym *syms = (const Elf64_Sym *)(f->map + sym->sh_offset);
	const char *names = (const char *)(f->map + str->sh_offset);
	uint64_t i, n = sym->sh_size / sizeof(Elf64_Sym);

	if (!elf_fits(f, sym->sh_offset, n, sizeof(Elf64_Sym)) ||
	    !elf_fits(f, str->sh_offset, str->sh_size, 1) || !str->sh_size ||
	    names[str->sh_size - 1] != '\0')
		return;
	for (i = 0; i < n; i++) {
		unsigned int type = ELF64_ST_TYPE(syms[i].st_info);

		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    syms[i].st_shndx == SHN_UNDEF || !syms[i].st_value ||
		    syms[i].st_name >= str->sh_size)
			continue;
		if (v->match(names + syms[i].st_name, v->arg))
			v->found(bias + syms[i].st_value, v->arg);
	}
}

int ust__elf_functions(const char *path, uint64_t bias,
		       const struct ust_elf_visit *v)
{
	struct elf_file f;
	const Elf64_Shdr *sh;
	struct stat st;
	uint16_t nr, i;
	void *map;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return -1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	f = (struct elf_file){ map, (size_t)st.st_size };
	sh = elf_sections(&f, &nr);
	for (i = 0; sh && i < nr; i++) {
		if ((sh[i].sh_type == SHT_SYMTAB || sh[i].sh_type == SHT_DYNSYM) &&
		    sh[i].sh_link < nr && sh[sh[i].sh_link].sh_type == SHT_STRTAB)
			elf_table(&f, &sh[i], &sh[sh[i].sh_link], bias, v);
	}
	munmap(map, f.size);
	return sh ? 0 : -1;
}
