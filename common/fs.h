/*
 * fs.h - directories and small files.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_FS_H
#define UST_FS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Make `path` a directory like `mkdir -p`: each missing component is
 * created with mode 0755 (less the umask).  *created tells whether the
 * last component was created by this call.  Returns 0 or -errno
 * (-ENOTDIR when a component exists and is not a directory).
 */
int ust__mkdir_p(const char *path, bool *created);

/*
 * Read at most len - 1 bytes of `path` (a /proc or /sys file) into buf,
 * NUL-terminated.  Returns 0 or -errno.
 */
int ust__read_small_file(const char *path, char *buf, size_t len);

#endif /* UST_FS_H */
