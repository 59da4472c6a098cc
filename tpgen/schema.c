/*
 * schema.c - validation against the built-in RelaxNG schema.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * facility.rng is compiled into the binary (facility-rng.c is generated
 * from it by the Makefile), so tpgen validates the same way installed or
 * run from the build tree.  The same file is installed for editors and
 * xmllint.
 */
#include <stdbool.h>
#include <libxml/relaxng.h>

#include "parse.h"

/* State of the validation error handler: report the first error only. */
struct validate_state {
	struct tp_diag *diag;
	bool failed;
};

/*
 * libxml2 follows the first RelaxNG violation with one message per
 * enclosing element ("Element event failed to validate content", ...),
 * which say nothing new: keep the first, which names the offending node.
 */
static void validate_error(void *arg, tp_xml_error *err)
{
	struct validate_state *state = arg;

	if (state->failed)
		return;
	state->failed = true;
	tp_xml_report(state->diag, err);
}

/* Schema parse errors mean a broken build: count them, say nothing yet. */
static void schema_error(void *arg, tp_xml_error *err)
{
	bool *failed = arg;

	(void)err;
	*failed = true;
}

static xmlRelaxNGPtr load_schema(struct tp_diag *diag)
{
	xmlRelaxNGParserCtxtPtr pctxt;
	xmlRelaxNGPtr schema = NULL;
	bool failed = false;

	pctxt = xmlRelaxNGNewMemParserCtxt(tpgen_facility_rng,
					   (int)tpgen_facility_rng_size);
	if (pctxt) {
		xmlRelaxNGSetParserStructuredErrors(pctxt, schema_error, &failed);
		schema = xmlRelaxNGParse(pctxt);
		xmlRelaxNGFreeParserCtxt(pctxt);
	}
	if (!schema || failed) {
		tp_fatal(diag, "internal error: the built-in schema does not load");
		xmlRelaxNGFree(schema);
		return NULL;
	}
	return schema;
}

int tp_schema_validate(xmlDocPtr doc, struct tp_diag *diag)
{
	struct validate_state state = { .diag = diag };
	xmlRelaxNGValidCtxtPtr vctxt;
	xmlRelaxNGPtr schema;
	int ret = -1;

	schema = load_schema(diag);
	if (!schema)
		return -1;
	vctxt = xmlRelaxNGNewValidCtxt(schema);
	if (!vctxt) {
		tp_fatal(diag, "out of memory");
		goto free_schema;
	}
	xmlRelaxNGSetValidStructuredErrors(vctxt, validate_error, &state);
	ret = xmlRelaxNGValidateDoc(vctxt, doc);
	if (ret != 0) {
		/* < 0: libxml2 failed internally, possibly without a message. */
		if (!state.failed)
			tp_error(diag, 0, "does not match the facility schema");
		ret = -1;
	}
	xmlRelaxNGFreeValidCtxt(vctxt);
free_schema:
	xmlRelaxNGFree(schema);
	return ret;
}
