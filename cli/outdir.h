/*
 * outdir.h - the directory `ust record` writes traces under.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_OUTDIR_H
#define UST_CLI_OUTDIR_H

#include <stdbool.h>

/* Shared by every user, like /tmp: created with mode 1777. */
#define UST_DEFAULT_OUTPUT	"/tmp/ltt-usertrace"

/*
 * Make `path` a directory like `mkdir -p`: each missing component is
 * created with mode 0755 (less the umask).  *created tells whether the
 * last component was created by this call.  Returns 0 or -errno
 * (-ENOTDIR when a component exists and is not a directory).
 */
int ust_mkdir_p(const char *path, bool *created);

/*
 * Make `dir` ready for traces before anything runs: create it like
 * `mkdir -p`; when this creates it and `shared` is set, make it 1777 like
 * /tmp (with chmod: the umask would take those bits away); then check
 * that we can write in it.  Returns 0 or -errno.
 */
int ust_outdir_prepare(const char *dir, bool shared);

/*
 * Check that this process can create files in `dir`: access(2), then a
 * hidden probe file created and removed again (access(2) alone says yes
 * to root on a read-only bind mount, for one).  Returns 0 or -errno.
 */
int ust_dir_check_writable(const char *dir);

#endif /* UST_CLI_OUTDIR_H */
