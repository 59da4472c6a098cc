/*
 * main.c - tpgen: compile a facility description into C tracepoints.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *	tpgen [-o OUTDIR] [--no-sdt] app.xml
 *
 * reads the facility description app.xml and writes OUTDIR/<facility>_tp.h
 * and OUTDIR/<facility>_tp.c (see doc/tpgen.md).  The stages run in turn
 * and the first one that finds a problem stops the run:
 *
 *	xml.c		XML syntax
 *	parse.c		the walk into the tree: elements, attribute values
 *	validate.c	names: C identifiers, keywords, uniqueness;
 *			references, recursion, variant tags, enum values
 *	schema.c	the whole grammar, against facility.rng
 *	support.c	what this version cannot generate yet
 *	names.c		C names of enums and structs
 *	output.c	emit-header.c and emit-source.c into temporary
 *			files, renamed when both are complete
 *
 * validate.c runs before the schema because the schema also constrains
 * names, and libxml2 would report a bad name far less clearly.
 *
 * Exit status: 0 success, 1 the input is invalid or the output cannot be
 * written, 2 usage error.
 */
#include <popt.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>

#include "validate.h"
#include "diag.h"
#include "emit.h"
#include "output.h"
#include "parse.h"

#define EXIT_USAGE 2

struct options {
	char *outdir;		/* from popt; NULL: the current directory */
	int no_sdt;		/* no <sys/sdt.h> probes */
	int version;
	char *input;		/* copied: popt owns what it returns */
};

/* The name of the input file without its directories, for the banners. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Run every stage on one input.  Returns the exit status. */
static int run(const char *input, const char *outdir,
	       const struct tp_emit_options *emit)
{
	struct tp_facility *fac = NULL;
	struct tp_diag diag;
	int status = EXIT_FAILURE;
	xmlDocPtr doc;

	tp_diag_init(&diag, input, stderr);
	doc = tp_xml_read_file(&diag);
	if (!doc)
		return EXIT_FAILURE;
	fac = tp_parse_doc(doc, &diag);
	if (!fac || tp_validate(fac, &diag) || tp_schema_validate(doc, &diag) ||
	    tp_prepare(fac, &diag))
		goto out;
	if (tp_output_write(fac, outdir, base_name(input), emit, &diag))
		goto out;
	status = EXIT_SUCCESS;
out:
	tp_facility_free(fac);
	xmlFreeDoc(doc);
	return status;
}

static void usage_hint(void)
{
	fputs("Try 'tpgen --help' for more information.\n", stderr);
}

/*
 * Parse the command line into `opts`.  Returns -1 to go on, or the exit
 * status when tpgen is done (--version, or a usage error).
 */
static int parse_options(int argc, const char **argv, struct options *opts)
{
	struct poptOption table[] = {
		{ "output", 'o', POPT_ARG_STRING, &opts->outdir, 0,
		  "write the generated files into DIR (default: the current directory)",
		  "DIR" },
		{ "no-sdt", 0, POPT_ARG_NONE, &opts->no_sdt, 0,
		  "make no USDT probes (<sys/sdt.h>) in the trace_*() functions",
		  NULL },
		{ "version", 'V', POPT_ARG_NONE, &opts->version, 0,
		  "print the version and exit", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx;
	int rc, status = -1;

	ctx = poptGetContext("tpgen", argc, argv, table, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] FILE.xml");
	while ((rc = poptGetNextOpt(ctx)) > 0)
		;
	if (rc < -1) {
		fprintf(stderr, "tpgen: %s: %s\n",
			poptBadOption(ctx, POPT_BADOPTION_NOALIAS),
			poptStrerror(rc));
		usage_hint();
		status = EXIT_USAGE;
	} else if (opts->version) {
		printf("tpgen (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		status = EXIT_SUCCESS;
	} else {
		const char *input = poptGetArg(ctx);

		if (!input || poptPeekArg(ctx)) {
			fprintf(stderr, "tpgen: expected exactly one input file\n");
			usage_hint();
			status = EXIT_USAGE;
		} else if (!(opts->input = strdup(input))) {
			fputs("tpgen: out of memory\n", stderr);
			status = EXIT_FAILURE;
		}
	}
	poptFreeContext(ctx);
	return status;
}

int main(int argc, const char **argv)
{
	struct options opts = { 0 };
	struct tp_emit_options emit;
	int status;

	status = parse_options(argc, argv, &opts);
	emit.sdt = !opts.no_sdt;
	if (status < 0)
		status = run(opts.input, opts.outdir ? opts.outdir : ".", &emit);
	free(opts.input);
	free(opts.outdir);
	xmlCleanupParser();
	return status;
}
