/*
 * safepath.h - opening the directories where traces go without following
 * anything another user planted, and the default location.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Every directory a trace goes to (`ust record -o`, UST_OUTPUT, the
 * default, `ust snapshot -o`, the summary directory) is opened by one
 * walk, component by component from "/", with openat(O_NOFOLLOW).  The
 * rule it keeps:
 *
 *   In a world-writable directory (/tmp, /var/tmp, a 1777 folder), an
 *   entry on the way is never a symbolic link, and is a directory owned
 *   by us or by root.
 *
 * Elsewhere only the directory's owner can have put an entry there, so
 * links are followed (by the walk itself, which then checks the target's
 * components the same way).  Every check is made on the opened
 * descriptor (fstat), so a swap between the check and the use cannot
 * redirect anything: the caller gets the descriptor, and creates what it
 * creates relative to it.  Relative paths are walked from the physical
 * working directory, ".." goes to the physical parent.
 */
#ifndef UST_SAFEPATH_H
#define UST_SAFEPATH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* ust__safe_dir_open() flags. */
#define UST_SAFE_CREATE		0x1	/* create what is missing, like mkdir -p */
#define UST_SAFE_CHMOD		0x2	/* a last component we create gets exactly `mode` */

struct ust_safe_dir {
	int fd;			/* O_PATH descriptor of the directory */
	struct stat st;		/* its fstat */
	char path[PATH_MAX];	/* its physical path: no link, no "." or ".." */
	bool created;		/* this call created the last component */
};

/*
 * Open directory `path` (absolute, or relative to the working directory)
 * by the walk above.  With UST_SAFE_CREATE, missing directories are
 * created with mode 0755, the last one with `mode` (less the umask,
 * unless UST_SAFE_CHMOD).  Returns 0, or -errno with a sentence in `err`:
 * strerror() alone for an ordinary error (ENOENT, EACCES, ENOTDIR...),
 * a full explanation when the walk refused a link or another user's
 * directory (-ELOOP, -EPERM).  d->fd is closed by ust__safe_dir_close().
 */
int ust__safe_dir_open(const char *path, unsigned int flags, mode_t mode,
		       struct ust_safe_dir *d, char *err, size_t errlen);

/* The same walk, for `rel` inside the open directory `base`. */
int ust__safe_dir_open_at(const struct ust_safe_dir *base, const char *rel,
			  unsigned int flags, mode_t mode,
			  struct ust_safe_dir *d, char *err, size_t errlen);

void ust__safe_dir_close(struct ust_safe_dir *d);

/*
 * Whether `path` names UST_DEFAULT_OUTPUT (/tmp/ltt-usertrace) in any
 * spelling: repeated or trailing slashes, "." components.
 */
bool ust__output_is_default(const char *path);

/*
 * Open this user's directory of the default location, creating what is
 * missing (doc/ust-record.md, "The output directory"):
 *
 *   1. /tmp/ltt-usertrace/<uid>: ours, mode 0700, in /tmp/ltt-usertrace,
 *      which must be owned by root or by us and, when others may write
 *      it, sticky (created 1777 when missing);
 *   2. else /tmp/ltt-usertrace-<uid>: ours, 0700;
 *   3. else a new /tmp/ltt-usertrace-<uid>.XXXXXX (mkdtemp: a name no
 *      one can take first).
 *
 * So no other user can deny a user a place to trace, nor read or move
 * its traces.  When 1 was refused, `note` says why and where traces go
 * instead (else it is empty).  Returns 0 or -errno with `err` set.
 */
int ust__default_output_open(struct ust_safe_dir *d, char *note, size_t notelen,
			     char *err, size_t errlen);

/*
 * Open `path` as a place for traces: ust__default_output_open() when it
 * names the default, else ust__safe_dir_open() with UST_SAFE_CREATE,
 * mode 0755.
 */
int ust__output_open(const char *path, struct ust_safe_dir *d, char *note,
		     size_t notelen, char *err, size_t errlen);

#endif /* UST_SAFEPATH_H */
