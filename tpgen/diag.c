/*
 * diag.c - error messages in the `file:line: message` form.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdarg.h>

#include "diag.h"

void tp_diag_init(struct tp_diag *diag, const char *file, FILE *out)
{
	diag->file = file;
	diag->out = out;
	diag->nr_errors = 0;
}

void tp_error(struct tp_diag *diag, long line, const char *fmt, ...)
{
	va_list ap;

	if (line > 0)
		fprintf(diag->out, "%s:%ld: ", diag->file, line);
	else
		fprintf(diag->out, "%s: ", diag->file);
	va_start(ap, fmt);
	vfprintf(diag->out, fmt, ap);
	va_end(ap);
	fputc('\n', diag->out);
	diag->nr_errors++;
}

void tp_fatal(struct tp_diag *diag, const char *fmt, ...)
{
	va_list ap;

	fputs("tpgen: ", diag->out);
	va_start(ap, fmt);
	vfprintf(diag->out, fmt, ap);
	va_end(ap);
	fputc('\n', diag->out);
	diag->nr_errors++;
}
