/*
 * elfscan.h - sections of a program's ELF files, read without running it:
 * the program itself and every shared library its dynamic loader maps for
 * it (`ust list PROGRAM`'s "ust_events", `ust record --filter`'s
 * "ust_fields"), or every file a running process has mapped (`ust ctl
 * PID filter`).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_ELFSCAN_H
#define UST_CLI_ELFSCAN_H

#include <stddef.h>
#include <sys/types.h>

/* Called with the bytes of the section in one file; its return is summed. */
typedef unsigned int (*cli_elf_section_fn)(const char *path, const char *data,
					   size_t size, void *arg);

/*
 * For `program` (a path) and each library its loader lists (`INTERP
 * --list PROGRAM`, what ldd runs: it maps the libraries and runs none of
 * their code), call `fn` on section `name` where the file has it.  The
 * sum of what `fn` returned, or -1 after printing why `program` cannot
 * be read (not found, not ELF).
 */
long cli_elf_scan_program(const char *program, const char *name,
			  cli_elf_section_fn fn, void *arg);

/* The same for every file that process `pid` maps now (/proc/PID/maps). */
long cli_elf_scan_process(pid_t pid, const char *name, cli_elf_section_fn fn,
			  void *arg);

/* The path execvp() would run for `cmd` (searched in PATH), malloc'ed, or NULL. */
char *cli_find_in_path(const char *cmd);

#endif /* UST_CLI_ELFSCAN_H */
