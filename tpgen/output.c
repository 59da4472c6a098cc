/*
 * output.c - writing the generated files, all or nothing.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "output.h"

/* One generated file on its way to its final name. */
struct out_file {
	char *path;		/* OUTDIR/<name> */
	char *tmp_path;		/* OUTDIR/.<name>.tmp.XXXXXX, while it exists */
	FILE *fp;		/* open on tmp_path while being written */
	unsigned int slot;	/* its entry in pending_tmp[] */
};

/*
 * Temporary files that a fatal signal (^C during make) must not leave
 * behind: the handler unlinks them, which is async-signal-safe, then dies
 * of the signal as it would have.  A slot is set before mkstemp() creates
 * the file and cleared once the file is renamed or removed, so a signal
 * at any point finds at worst a name that does not exist.
 */
static char *volatile pending_tmp[2];
static const int fatal_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM };
#define NR_FATAL_SIGNALS (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
static struct sigaction saved_actions[NR_FATAL_SIGNALS];

static void remove_pending_tmp(int sig)
{
	size_t i;

	for (i = 0; i < sizeof(pending_tmp) / sizeof(pending_tmp[0]); i++)
		if (pending_tmp[i])
			unlink(pending_tmp[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_fatal_signals(void)
{
	struct sigaction sa = { .sa_handler = remove_pending_tmp };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NR_FATAL_SIGNALS; i++)
		sigaction(fatal_signals[i], &sa, &saved_actions[i]);
}

static void release_fatal_signals(void)
{
	size_t i;

	for (i = 0; i < NR_FATAL_SIGNALS; i++)
		sigaction(fatal_signals[i], &saved_actions[i], NULL);
}

/* The mode a file created with 0666 would get under the current umask. */
static mode_t default_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

static int out_file_open(struct out_file *f, unsigned int slot,
			 const char *outdir, const char *name,
			 struct tp_diag *diag)
{
	int fd;

	*f = (struct out_file){ .slot = slot };
	if (asprintf(&f->path, "%s/%s", outdir, name) < 0) {
		f->path = NULL;
		goto oom;
	}
	if (asprintf(&f->tmp_path, "%s/.%s.tmp.XXXXXX", outdir, name) < 0) {
		f->tmp_path = NULL;
		goto oom;
	}
	pending_tmp[slot] = f->tmp_path;
	fd = mkstemp(f->tmp_path);
	if (fd < 0) {
		tp_fatal(diag, "cannot create a temporary file in '%s': %s",
			 outdir, strerror(errno));
		pending_tmp[slot] = NULL;
		free(f->tmp_path);
		f->tmp_path = NULL;
		return -1;
	}
	/* mkstemp() creates 0600; generated sources are ordinary files. */
	if (fchmod(fd, default_file_mode()) < 0 ||
	    !(f->fp = fdopen(fd, "w"))) {
		tp_fatal(diag, "cannot write '%s': %s", f->tmp_path,
			 strerror(errno));
		close(fd);
		return -1;
	}
	return 0;
oom:
	tp_fatal(diag, "out of memory");
	return -1;
}

/* Flush and close, reporting a write error (e.g. a full disk). */
static int out_file_close(struct out_file *f, struct tp_diag *diag)
{
	int err = 0;

	errno = 0;
	if (fflush(f->fp) != 0 || ferror(f->fp))
		err = errno ? errno : EIO;
	if (fclose(f->fp) != 0 && !err)
		err = errno;
	f->fp = NULL;
	if (err) {
		tp_fatal(diag, "cannot write '%s': %s", f->path, strerror(err));
		return -1;
	}
	return 0;
}

/* Remove whatever is left of the temporary file and free everything. */
static void out_file_release(struct out_file *f)
{
	if (f->fp)
		fclose(f->fp);
	if (f->tmp_path)
		unlink(f->tmp_path);
	pending_tmp[f->slot] = NULL;
	free(f->tmp_path);
	free(f->path);
	*f = (struct out_file){ 0 };
}

static int out_file_commit(struct out_file *f, struct tp_diag *diag)
{
	if (rename(f->tmp_path, f->path) < 0) {
		tp_fatal(diag, "cannot rename '%s' to '%s': %s", f->tmp_path,
			 f->path, strerror(errno));
		return -1;
	}
	pending_tmp[f->slot] = NULL;
	free(f->tmp_path);
	f->tmp_path = NULL;
	return 0;
}

static int emit_both(struct out_file *h, struct out_file *c,
		     const struct tp_facility *fac, const char *input_name,
		     const struct tp_emit_options *opts, struct tp_diag *diag)
{
	if (tp_emit_header(h->fp, fac, input_name, opts) ||
	    tp_emit_source(c->fp, fac, input_name, opts)) {
		tp_fatal(diag, "out of memory");
		return -1;
	}
	if (out_file_close(h, diag) || out_file_close(c, diag))
		return -1;
	return 0;
}

int tp_output_write(const struct tp_facility *fac, const char *outdir,
		    const char *input_name, const struct tp_emit_options *opts,
		    struct tp_diag *diag)
{
	struct out_file h = { 0 }, c = { 0 };
	char *h_name = NULL, *c_name = NULL;
	int ret = -1;

	catch_fatal_signals();
	/* asprintf() leaves its pointer undefined when it fails. */
	if (asprintf(&h_name, "%s_tp.h", fac->name) < 0)
		h_name = NULL;
	if (asprintf(&c_name, "%s_tp.c", fac->name) < 0)
		c_name = NULL;
	if (!h_name || !c_name) {
		tp_fatal(diag, "out of memory");
		goto out;
	}
	if (out_file_open(&h, 0, outdir, h_name, diag) ||
	    out_file_open(&c, 1, outdir, c_name, diag) ||
	    emit_both(&h, &c, fac, input_name, opts, diag))
		goto out;
	if (out_file_commit(&h, diag))
		goto out;
	if (out_file_commit(&c, diag)) {
		/* Do not leave a header without its source. */
		unlink(h.path);
		goto out;
	}
	ret = 0;
out:
	out_file_release(&h);
	out_file_release(&c);
	release_fatal_signals();
	free(h_name);
	free(c_name);
	return ret;
}
