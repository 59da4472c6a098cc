/*
 * diag.h - error messages in the `file:line: message` form.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every stage reports problems in the input through one struct tp_diag,
 * which counts them so that the driver can stop after a stage that found
 * any.  Messages follow the project's CLI style: lowercase, no final
 * period, names in quotes, element names in angle brackets.
 */
#ifndef TPGEN_DIAG_H
#define TPGEN_DIAG_H

#include <stdio.h>

struct tp_diag {
	const char *file;	/* input path, as given on the command line */
	FILE *out;		/* where messages go: stderr, or a test's buffer */
	unsigned int nr_errors;
};

void tp_diag_init(struct tp_diag *diag, const char *file, FILE *out);

/* Report an error in the input at `line` (0 when unknown: no line). */
void tp_error(struct tp_diag *diag, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Report a failure of tpgen itself or of the system, as `tpgen: ...`. */
void tp_fatal(struct tp_diag *diag, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* TPGEN_DIAG_H */
