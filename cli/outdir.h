/*
 * outdir.h - the directory `ust record` writes traces under.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_OUTDIR_H
#define UST_CLI_OUTDIR_H

#include <stdbool.h>

#include "abi/env.h"		/* UST_DEFAULT_OUTPUT */
#include "common/fs.h"		/* ust__mkdir_p() */

/*
 * Make `dir` ready for traces before anything runs: create it like
 * `mkdir -p`; when this creates it and `shared` is set, make it 1777 like
 * /tmp (with chmod: the umask would take those bits away); then check
 * that we can write in it.  Returns 0 or -errno.
 */
int cli_outdir_prepare(const char *dir, bool shared);

/*
 * Check that this process can create files in `dir`: access(2), then a
 * hidden probe file created and removed again (access(2) alone says yes
 * to root on a read-only bind mount, for one).  Returns 0 or -errno.
 */
int cli_dir_check_writable(const char *dir);

#endif /* UST_CLI_OUTDIR_H */
