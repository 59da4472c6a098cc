/*
 * elfscan.c - read a section of a program's ELF files without running it
 * (elfscan.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libelf reads the section from the program and from each library that
 * the dynamic loader itself says the program loads: `INTERP --list
 * PROGRAM`, where INTERP is the program's PT_INTERP, maps the libraries
 * as the program would get them and exits without running any of their
 * code.  For a running process, the files are those of /proc/PID/maps.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "elfscan.h"
#include "procmaps.h"

extern char **environ;

/* The section `name` of `elf`, or NULL. */
static Elf_Scn *find_section(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/*
 * Open `path` with libelf.  Returns the Elf (fd in *fd), or NULL after
 * printing why when `loud`.
 */
static Elf *open_elf(const char *path, int *fd, bool loud)
{
	Elf *elf;

	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0) {
		if (loud)
			cli_error("%s: %s", path, strerror(errno));
		return NULL;
	}
	elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (loud)
			cli_error("%s: not an ELF file", path);
		elf_end(elf);
		close(*fd);
		return NULL;
	}
	return elf;
}

/* `fn` on section `name` of the open `elf`, when it has one. */
static unsigned int scan_elf(const char *path, Elf *elf, const char *name,
			     cli_elf_section_fn fn, void *arg)
{
	Elf_Scn *scn = find_section(elf, name);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;

	return d && d->d_buf ? fn(path, d->d_buf, d->d_size, arg) : 0;
}

/* The same for a file that may not be ELF at all (a library, a mapping). */
static unsigned int scan_file(const char *path, const char *name,
			      cli_elf_section_fn fn, void *arg)
{
	unsigned int n = 0;
	int fd;
	Elf *elf = open_elf(path, &fd, false);

	if (elf) {
		n = scan_elf(path, elf, name, fn, arg);
		elf_end(elf);
		close(fd);
	}
	return n;
}

/* The program interpreter (PT_INTERP) of `elf`, malloc'ed, or NULL. */
static char *interpreter(Elf *elf)
{
	size_t i, nr, size;
	const char *raw = elf_rawfile(elf, &size);
	GElf_Phdr ph;

	if (!raw || elf_getphdrnum(elf, &nr))
		return NULL;
	for (i = 0; i < nr; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_INTERP)
			continue;
		if (ph.p_offset >= size || ph.p_filesz > size - ph.p_offset ||
		    !ph.p_filesz || raw[ph.p_offset + ph.p_filesz - 1])
			return NULL;
		return strdup(raw + ph.p_offset);
	}
	return NULL;
}

/*
 * Start `INTERP --list PROGRAM`: the dynamic loader resolves and maps the
 * libraries the program needs, prints them and exits without running
 * any of their code.  Returns its output stream, or NULL.
 */
static FILE *start_loader_list(const char *interp, const char *program,
			       pid_t *pid)
{
	char *argv[] = { (char *)interp, (char *)"--list", (char *)program, NULL };
	posix_spawn_file_actions_t fa;
	int pipefd[2], ret;
	FILE *f;

	if (pipe2(pipefd, O_CLOEXEC))
		return NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	ret = posix_spawn(pid, interp, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	f = ret ? NULL : fdopen(pipefd[0], "r");
	if (!f)
		close(pipefd[0]);
	return f;
}

/* The path in a "\tlibx.so => /path/libx.so (0x...)" line, or NULL. */
static char *loader_line_path(char *line)
{
	char *p = strstr(line, "=> /"), *end;

	if (!p)
		return NULL;
	p += 3;
	end = strstr(p, " (0x");
	if (!end)
		return NULL;
	*end = '\0';
	return p;
}

/* Every library the loader lists for `program`. */
static unsigned int scan_libraries(const char *interp, const char *program,
				   const char *name, cli_elf_section_fn fn,
				   void *arg)
{
	char *line = NULL, *path;
	size_t len = 0;
	unsigned int n = 0;
	int status;
	pid_t pid;
	FILE *f = start_loader_list(interp, program, &pid);

	if (!f)
		return 0;
	while (getline(&line, &len, f) > 0) {
		path = loader_line_path(line);
		if (path)
			n += scan_file(path, name, fn, arg);
	}
	free(line);
	fclose(f);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return n;
}

long cli_elf_scan_program(const char *program, const char *name,
			  cli_elf_section_fn fn, void *arg)
{
	unsigned int n;
	char *interp;
	int fd;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		cli_error("libelf: %s", elf_errmsg(-1));
		return -1;
	}
	elf = open_elf(program, &fd, true);
	if (!elf)
		return -1;
	n = scan_elf(program, elf, name, fn, arg);
	interp = interpreter(elf);
	elf_end(elf);
	close(fd);
	if (interp)
		n += scan_libraries(interp, program, name, fn, arg);
	free(interp);
	return n;
}

/* Has `path` been seen among the first `nr` of `seen`? */
static bool seen_before(char **seen, size_t nr, const char *path)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(seen[i], path))
			return true;
	return false;
}

long cli_elf_scan_process(pid_t pid, const char *name, cli_elf_section_fn fn,
			  void *arg)
{
	char *line = NULL, **seen = NULL;
	size_t len = 0, nr = 0, i;
	unsigned int n = 0;
	FILE *f;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		cli_error("libelf: %s", elf_errmsg(-1));
		return -1;
	}
	f = cli_maps_open(pid);
	if (!f)
		return -1;
	while (getline(&line, &len, f) > 0) {
		char *path = strchr(line, '/'), **grown;

		if (!path || strstr(path, " (deleted)"))
			continue;
		path[strcspn(path, "\n")] = '\0';
		if (seen_before(seen, nr, path))
			continue;
		grown = realloc(seen, (nr + 1) * sizeof(*seen));
		if (!grown || !(grown[nr] = strdup(path))) {
			seen = grown ? grown : seen;
			break;
		}
		seen = grown;
		n += scan_file(seen[nr++], name, fn, arg);
	}
	for (i = 0; i < nr; i++)
		free(seen[i]);
	free(seen);
	free(line);
	fclose(f);
	return n;
}

char *cli_find_in_path(const char *cmd)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	if (strchr(cmd, '/'))
		return strdup(cmd);
	copy = strdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		struct stat st;
		char *candidate;

		if (asprintf(&candidate, "%s/%s", *dir ? dir : ".", cmd) < 0)
			break;
		if (!stat(candidate, &st) && S_ISREG(st.st_mode) &&
		    !access(candidate, X_OK))
			found = candidate;
		else
			free(candidate);
	}
	free(copy);
	return found;
}
