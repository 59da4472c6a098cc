/*
 * parse.h - from the XML file to the facility tree.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Three steps, each reporting through struct tp_diag and each run only
 * when the previous one found no error:
 *
 *  1. tp_xml_read_file(): libxml2 parses the file; XML syntax errors.
 *  2. tp_parse_doc(): tpgen's own walk over the document builds the tree
 *     and reports, with precise messages, everything it models: unknown
 *     elements, missing names, attribute values (sizes, bases, loglevels).
 *  3. tp_schema_validate(): the RelaxNG schema facility.rng, built into the
 *     binary, checks the whole grammar, so that nothing the walk does not
 *     look at (a stray attribute, text inside an event) passes silently.
 *
 * The walk runs before the schema because libxml2's RelaxNG messages are
 * vague for exactly the common mistakes ("Element int failed to validate
 * attributes", followed by one message per enclosing element).
 */
#ifndef TPGEN_PARSE_H
#define TPGEN_PARSE_H

#include <stddef.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "diag.h"
#include "model.h"

/* libxml2 2.12 made the structured error handler's argument const. */
#if LIBXML_VERSION >= 21200
typedef const xmlError tp_xml_error;
#else
typedef xmlError tp_xml_error;
#endif

/*
 * Parse the file named by diag->file.  Returns the document, or NULL after
 * reporting why (cannot open, XML syntax error: only the first one, since
 * the ones after it are mostly its consequences).
 */
xmlDocPtr tp_xml_read_file(struct tp_diag *diag);

/* The same for a document in memory (unit tests); diag->file names it. */
xmlDocPtr tp_xml_read_memory(const char *buf, size_t len, struct tp_diag *diag);

/* Report one libxml2 error as `file:line: message`, without its newline. */
void tp_xml_report(struct tp_diag *diag, tp_xml_error *err);

/*
 * Build the facility tree from a parsed document.  Returns NULL when
 * anything was reported (diag->nr_errors grew) or memory ran out.
 */
struct tp_facility *tp_parse_doc(xmlDocPtr doc, struct tp_diag *diag);

/*
 * Validate the document against the built-in schema.  Returns 0 when it
 * is valid, -1 after reporting the first violation or an internal error.
 */
int tp_schema_validate(xmlDocPtr doc, struct tp_diag *diag);

/* The text of facility.rng, generated at build time (facility-rng.c). */
extern const char tpgen_facility_rng[];
extern const size_t tpgen_facility_rng_size;

#endif /* TPGEN_PARSE_H */
