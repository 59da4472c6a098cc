/*
 * xml.c - reading the input file with libxml2.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libxml/parser.h>

#include "parse.h"

/*
 * No network access, and line numbers past 65535 (libxml2 caps them
 * otherwise).  Entities are not substituted in the tree and no external
 * DTD is loaded: a facility description has no use for either.
 */
#define TP_XML_OPTIONS (XML_PARSE_NONET | XML_PARSE_BIG_LINES)

/* State of the syntax error handler: report the first error only. */
struct read_state {
	struct tp_diag *diag;
	bool failed;
};

void tp_xml_report(struct tp_diag *diag, tp_xml_error *err)
{
	const char *msg = err->message ? err->message : "unknown XML error";
	size_t len = strlen(msg);
	long line = err->line;

	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		len--;
	if (err->node && ((xmlNodePtr)err->node)->type == XML_ELEMENT_NODE)
		line = xmlGetLineNo((xmlNodePtr)err->node);
	tp_error(diag, line, "%.*s", (int)len, msg);
}

static void read_error(void *arg, tp_xml_error *err)
{
	struct read_state *state = arg;

	/* Warnings (e.g. a relative namespace URI) do not stop tpgen. */
	if (err->level < XML_ERR_ERROR || state->failed)
		return;
	state->failed = true;
	tp_xml_report(state->diag, err);
}

/*
 * Run one libxml2 parse with our error handler installed.  A document
 * that libxml2 returns despite an error (it recovers from some) is freed:
 * tpgen never works on a document that was not well-formed.
 */
static xmlDocPtr read_with(struct tp_diag *diag, int fd,
			   const char *buf, size_t len)
{
	struct read_state state = { .diag = diag };
	xmlDocPtr doc;

	xmlSetStructuredErrorFunc(&state, read_error);
	if (buf)
		doc = xmlReadMemory(buf, (int)len, diag->file, NULL, TP_XML_OPTIONS);
	else
		doc = xmlReadFd(fd, diag->file, NULL, TP_XML_OPTIONS);
	xmlSetStructuredErrorFunc(NULL, NULL);

	if (doc && !state.failed)
		return doc;
	if (!state.failed)
		tp_error(diag, 0, "cannot parse the document");
	xmlFreeDoc(doc);
	return NULL;
}

xmlDocPtr tp_xml_read_file(struct tp_diag *diag)
{
	struct stat st;
	xmlDocPtr doc;
	int fd;

	fd = open(diag->file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		tp_fatal(diag, "cannot open '%s': %s", diag->file, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		tp_fatal(diag, "cannot read '%s': %s", diag->file, strerror(EISDIR));
		close(fd);
		return NULL;
	}
	doc = read_with(diag, fd, NULL, 0);
	close(fd);
	return doc;
}

xmlDocPtr tp_xml_read_memory(const char *buf, size_t len, struct tp_diag *diag)
{
	return read_with(diag, -1, buf, len);
}
