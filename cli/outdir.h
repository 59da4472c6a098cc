/*
 * outdir.h - the directory `ust record` writes traces under.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_OUTDIR_H
#define UST_CLI_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "abi/env.h"		/* UST_DEFAULT_OUTPUT */
#include "common/safepath.h"

/*
 * Make `dir` ready for traces before anything runs: open it by the walk
 * of common/safepath.h (no link, no other user's directory in a
 * world-writable one), creating it like `mkdir -p`; the default location
 * (UST_DEFAULT_OUTPUT, any spelling) becomes this user's own folder, and
 * `note` says so when it had to fall back.  Then check that we can write
 * in it.  Returns 0 with `d` open, or -errno with the reason in `err`.
 */
int cli_outdir_prepare(const char *dir, struct ust_safe_dir *d, char *note,
		       size_t notelen, char *err, size_t errlen);

/*
 * Check that this process can create files in the directory `dirfd`: a
 * hidden probe file created and removed again (access(2) says yes to
 * root on a read-only bind mount, for one).  Returns 0 or -errno.
 */
int cli_dir_check_writable(int dirfd);

#endif /* UST_CLI_OUTDIR_H */
