/*
 * list.c - `ust list PID`: the events registered in a running traced
 * process and their state; `ust list PROGRAM`: the events a binary and
 * the shared libraries it needs provide (doc/control.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A running process is read from its runtime control area (control.h).
 * A binary is read without running it: tpgen puts one string per event,
 * "facility:event(parameters)", in the section "ust_events" of the
 * object a provider is linked into; libelf reads that section from the
 * binary and from each library that the dynamic loader itself
 * (`INTERP --list PROGRAM`, what ldd runs) says the binary loads.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <popt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "control.h"
#include "common/parse.h"

#define EVENTS_SECTION	"ust_events"

extern char **environ;

enum list_opt { OPT_HELP = 1 };

static const struct poptOption list_options[] = {
	{ "help", 'h', POPT_ARG_NONE, NULL, OPT_HELP, "show this help", NULL },
	POPT_TABLEEND
};

static void list_help(FILE *out)
{
	ctl_print_help(out, "ust list", list_options, "PID|PROGRAM",
		       "\nPID: the events registered in the running traced process, "
		       "each\nenabled or disabled, and whether tracing is stopped "
		       "(see 'ust ctl').\nPROGRAM: the events that the binary and the "
		       "shared libraries it\nneeds provide, with their parameters, "
		       "under the file that holds them.\nA PROGRAM named by digits "
		       "only is given as ./NAME.\n");
}

/* `ust list PID` */
static int list_process(pid_t pid)
{
	struct ust_ctl_event ev;
	struct ctl_process p;
	bool stopped;
	uint32_t i, n = 0;

	if (ctl_attach(&p, pid, LOCK_SH))
		return UST_EXIT_FAILURE;
	stopped = p.area->stopped != 0;
	for (i = 0; i < ust__ctl_nr_events(p.area); i++)
		n += ctl_event(&p, i, &ev);
	printf("process %d (%s): %u event%s, tracing %s\n", (int)pid,
	       p.map.procname, n, n == 1 ? "" : "s",
	       stopped ? "stopped" : "running");
	for (i = 0; i < ust__ctl_nr_events(p.area); i++) {
		if (!ctl_event(&p, i, &ev))
			continue;
		printf("  %s %s%s\n", ev.name,
		       ev.flags & UST_CTL_EV_WANTED ? "enabled" : "disabled",
		       ev.flags & UST_CTL_EV_DESCRIBED ? "" :
		       " (not in the metadata: its log was full)");
	}
	ctl_detach(&p);
	return 0;
}

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

/* Print the NUL-separated strings of `d`, printable ones only. */
static unsigned int print_events(const char *file, const Elf_Data *d)
{
	const char *s = d->d_buf, *end = s + d->d_size;
	unsigned int n = 0;

	while (s < end) {
		size_t len = strnlen(s, (size_t)(end - s)), i;
		bool ok = len > 0 && len < (size_t)(end - s);

		for (i = 0; ok && i < len; i++)
			ok = s[i] >= ' ' && s[i] < 0x7f;
		if (ok) {
			if (!n)
				printf("%s:\n", file);
			printf("  %s\n", s);
			n++;
		}
		s += len + 1;
	}
	return n;
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

/* Print the events of one ELF file; their number. */
static unsigned int file_events(const char *path, Elf *elf)
{
	Elf_Scn *scn = find_section(elf, EVENTS_SECTION);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;

	return d && d->d_buf ? print_events(path, d) : 0;
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

static unsigned int library_events(const char *path)
{
	unsigned int n = 0;
	int fd;
	Elf *elf = open_elf(path, &fd, false);

	if (elf) {
		n = file_events(path, elf);
		elf_end(elf);
		close(fd);
	}
	return n;
}

/* The events of every library the loader lists for `program`. */
static unsigned int libraries_events(const char *interp, const char *program)
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
			n += library_events(path);
	}
	free(line);
	fclose(f);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return n;
}

/* `ust list PROGRAM` */
static int list_program(const char *program)
{
	unsigned int n;
	char *interp;
	int fd;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		cli_error("libelf: %s", elf_errmsg(-1));
		return UST_EXIT_FAILURE;
	}
	elf = open_elf(program, &fd, true);
	if (!elf)
		return UST_EXIT_FAILURE;
	n = file_events(program, elf);
	interp = interpreter(elf);
	elf_end(elf);
	close(fd);
	if (interp)
		n += libraries_events(interp, program);
	free(interp);
	if (!n) {
		cli_error("%s: no events (neither it nor its libraries hold "
			  "tpgen providers)", program);
		return UST_EXIT_FAILURE;
	}
	return 0;
}

static int list_run(int argc, const char **argv)
{
	poptContext ctx = poptGetContext("ust list", argc, argv, list_options,
					 POPT_CONTEXT_POSIXMEHARDER);
	const char **args;
	int rc, ret;
	pid_t pid;

	while ((rc = poptGetNextOpt(ctx)) > 0) {
		list_help(stdout);
		poptFreeContext(ctx);
		return 0;
	}
	args = poptGetArgs(ctx);
	if (rc < -1) {
		cli_error("%s: %s", poptBadOption(ctx, POPT_BADOPTION_NOALIAS),
			  poptStrerror(rc));
		ret = UST_EXIT_USAGE;
	} else if (!args || !args[0] || args[1]) {
		cli_error("expected one PID or PROGRAM (see 'ust list --help')");
		ret = UST_EXIT_USAGE;
	} else if (!ust__parse_pid(args[0], &pid)) {
		ret = list_process(pid);
	} else {
		ret = list_program(args[0]);
	}
	poptFreeContext(ctx);
	return ret;
}

const struct cli_command cli_list_command = {
	.name = "list",
	.summary = "list the events of a running process or of a program",
	.run = list_run,
	.help = list_help,
};
