/*
 * parse.c - the walk from the libxml2 document to the facility tree.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Each element kind has one function that checks what it knows about the
 * element (its children's names, the attributes it reads and their
 * values) and fills its part of the tree.  The walk reports every problem
 * it finds, not only the first, and returns no tree when it found any.
 * Names are stored as written: validate.c decides whether they are valid.
 * Text, comments and attributes that the walk does not read are left to
 * the schema (schema.c).
 */
#include <stdlib.h>
#include <string.h>
#include <libxml/tree.h>

#include "parse.h"

/* Context of one walk. */
struct walk {
	struct tp_diag *diag;
	bool oom;		/* memory ran out: the tree is incomplete */
};

/* A type element and the function that reads it into `type`. */
struct type_parser {
	const char *element;
	enum tp_type_kind kind;
	void (*parse)(struct walk *w, xmlNodePtr node, struct tp_type *type);
};

static long node_line(xmlNodePtr node)
{
	return xmlGetLineNo(node);
}

static const char *node_name(xmlNodePtr node)
{
	return (const char *)node->name;
}

/* True for an element named `name` in no namespace. */
static bool is_element(xmlNodePtr node, const char *name)
{
	return node->type == XML_ELEMENT_NODE && !node->ns &&
	       strcmp(node_name(node), name) == 0;
}

static void report_unknown(struct walk *w, xmlNodePtr node, const char *parent)
{
	if (node->ns && node->ns->prefix)
		tp_error(w->diag, node_line(node), "unknown element <%s:%s> in <%s>",
			 (const char *)node->ns->prefix, node_name(node), parent);
	else
		tp_error(w->diag, node_line(node), "unknown element <%s> in <%s>",
			 node_name(node), parent);
}

static char *walk_strdup(struct walk *w, const char *s)
{
	char *copy = strdup(s);

	if (!copy)
		w->oom = true;
	return copy;
}

/*
 * Value of an attribute in no namespace, as a malloc'ed string (libxml2
 * allocates with its own allocator).  NULL when absent or out of memory.
 */
static char *get_attr(struct walk *w, xmlNodePtr node, const char *name)
{
	xmlChar *value = xmlGetNoNsProp(node, (const xmlChar *)name);
	char *copy;

	if (!value)
		return NULL;
	copy = walk_strdup(w, (const char *)value);
	xmlFree(value);
	return copy;
}

static bool is_xml_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Collapse every run of XML white space to one space and trim both ends,
 * in place, so that an indented multi-line description becomes one line
 * that the emitters can wrap and quote.
 */
static void normalize_space(char *s)
{
	const char *in;
	char *out = s;
	bool pending = false;	/* white space seen since the last word */

	for (in = s; *in; in++) {
		if (is_xml_space(*in)) {
			pending = out != s;
			continue;
		}
		if (pending)
			*out++ = ' ';
		pending = false;
		*out++ = *in;
	}
	*out = '\0';
}

/*
 * Read a <description> into `*text`, once per parent.  An empty one is
 * the same as none.
 */
static void parse_description(struct walk *w, xmlNodePtr node,
			      const char *parent, char **text, bool *seen)
{
	xmlChar *content;

	if (*seen) {
		tp_error(w->diag, node_line(node),
			 "more than one <description> in <%s>", parent);
		return;
	}
	*seen = true;
	content = xmlNodeGetContent(node);
	if (!content)
		return;
	*text = walk_strdup(w, (const char *)content);
	xmlFree(content);
	if (!*text)
		return;
	normalize_space(*text);
	if (**text == '\0') {
		free(*text);
		*text = NULL;
	}
}

/*
 * Parse a small unsigned decimal number, written as digits without sign,
 * white space or leading zero (as the schema's values are), at most
 * `max`.  Returns -1 for anything else.
 */
static long parse_small_uint(const char *s, long max)
{
	long value = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		value = value * 10 + (*s - '0');
		if (value > max)
			return -1;
	}
	return value;
}

/* <int size="N" [base="B"]/> and <uint .../>. */
static void parse_integer(struct walk *w, xmlNodePtr node, struct tp_type *type)
{
	char *size = get_attr(w, node, "size");
	char *base = get_attr(w, node, "base");
	long value;

	type->u.integer.is_signed = is_element(node, "int");
	if (!size) {
		tp_error(w->diag, node_line(node),
			 "missing size in <%s>: expected 1, 2, 4 or 8",
			 node_name(node));
	} else {
		value = parse_small_uint(size, 8);
		if (value == 1 || value == 2 || value == 4 || value == 8)
			type->u.integer.size = (unsigned int)value;
		else
			tp_error(w->diag, node_line(node),
				 "invalid size '%s' in <%s>: expected 1, 2, 4 or 8",
				 size, node_name(node));
	}
	if (base) {
		value = parse_small_uint(base, 16);
		if (value == 2 || value == 8 || value == 10 || value == 16)
			type->u.integer.base = (unsigned int)value;
		else
			tp_error(w->diag, node_line(node),
				 "invalid base '%s' in <%s>: expected 2, 8, 10 or 16",
				 base, node_name(node));
	}
	free(size);
	free(base);
}

/* <string/>: nothing to read. */
static void parse_string(struct walk *w, xmlNodePtr node, struct tp_type *type)
{
	(void)w;
	(void)node;
	(void)type;
}

/* Every element that can stand for a type inside a <field>. */
static const struct type_parser type_parsers[] = {
	{ "int",	TP_TYPE_INT,	parse_integer },
	{ "uint",	TP_TYPE_INT,	parse_integer },
	{ "string",	TP_TYPE_STRING,	parse_string },
};

static const struct type_parser *find_type_parser(xmlNodePtr node)
{
	size_t i;

	for (i = 0; i < sizeof(type_parsers) / sizeof(type_parsers[0]); i++)
		if (is_element(node, type_parsers[i].element))
			return &type_parsers[i];
	return NULL;
}

/*
 * Read the one type element of a field.  Reports a field with no type, or
 * with more than one, and any unknown element (which is then the reason
 * for the missing type: not reported twice).
 */
static void parse_field_type(struct walk *w, xmlNodePtr field_node,
			     struct tp_field *field)
{
	const struct type_parser *tp;
	bool seen = false, unknown = false;
	xmlNodePtr child;

	for (child = field_node->children; child; child = child->next) {
		if (child->type != XML_ELEMENT_NODE)
			continue;
		tp = find_type_parser(child);
		if (!tp) {
			report_unknown(w, child, "field");
			unknown = true;
			continue;
		}
		if (seen) {
			tp_error(w->diag, node_line(child),
				 "field '%s' has more than one type", field->name);
			continue;
		}
		seen = true;
		field->type = tp_type_new(tp->kind, (int)node_line(child));
		if (!field->type) {
			w->oom = true;
			return;
		}
		tp->parse(w, child, field->type);
	}
	if (!seen && !unknown)
		tp_error(w->diag, node_line(field_node),
			 "field '%s' has no type", field->name);
}

static void parse_field(struct walk *w, xmlNodePtr node, struct tp_event *event)
{
	struct tp_field *field = tp_field_list_add(&event->fields);

	if (!field) {
		w->oom = true;
		return;
	}
	field->line = (int)node_line(node);
	field->name = get_attr(w, node, "name");
	if (!field->name) {
		if (!w->oom)
			tp_error(w->diag, field->line, "field without a name");
		return;
	}
	parse_field_type(w, node, field);
}

static void parse_loglevel(struct walk *w, xmlNodePtr node,
			   struct tp_event *event)
{
	char *text = get_attr(w, node, "loglevel");
	long value;

	if (!text)
		return;
	value = parse_small_uint(text, 14);
	if (value < 0)
		tp_error(w->diag, node_line(node),
			 "invalid loglevel '%s': expected an integer from 0 to 14",
			 text);
	else
		event->loglevel = (int)value;
	free(text);
}

static void parse_event(struct walk *w, xmlNodePtr node, struct tp_facility *fac)
{
	struct tp_event *event = tp_facility_add_event(fac);
	bool has_description = false;
	xmlNodePtr child;

	if (!event) {
		w->oom = true;
		return;
	}
	event->line = (int)node_line(node);
	event->name = get_attr(w, node, "name");
	if (!event->name && !w->oom)
		tp_error(w->diag, event->line, "event without a name");
	parse_loglevel(w, node, event);

	for (child = node->children; child && !w->oom; child = child->next) {
		if (child->type != XML_ELEMENT_NODE)
			continue;
		if (is_element(child, "field"))
			parse_field(w, child, event);
		else if (is_element(child, "description"))
			parse_description(w, child, "event", &event->description,
					  &has_description);
		else
			report_unknown(w, child, "event");
	}
}

static void parse_facility(struct walk *w, xmlNodePtr root,
			   struct tp_facility *fac)
{
	bool has_description = false;
	xmlNodePtr child;

	fac->line = (int)node_line(root);
	fac->name = get_attr(w, root, "name");
	if (!fac->name && !w->oom)
		tp_error(w->diag, fac->line, "facility without a name");

	for (child = root->children; child && !w->oom; child = child->next) {
		if (child->type != XML_ELEMENT_NODE)
			continue;
		if (is_element(child, "event"))
			parse_event(w, child, fac);
		else if (is_element(child, "description"))
			parse_description(w, child, "facility", &fac->description,
					  &has_description);
		else
			report_unknown(w, child, "facility");
	}
}

struct tp_facility *tp_parse_doc(xmlDocPtr doc, struct tp_diag *diag)
{
	xmlNodePtr root = xmlDocGetRootElement(doc);
	struct walk w = { .diag = diag };
	unsigned int errors = diag->nr_errors;
	struct tp_facility *fac;

	if (!root) {
		tp_error(diag, 0, "no root element, expected <facility>");
		return NULL;
	}
	if (!is_element(root, "facility")) {
		if (root->ns)
			tp_error(diag, node_line(root),
				 "root element <%s> is in a namespace, expected <facility> in none",
				 node_name(root));
		else
			tp_error(diag, node_line(root),
				 "root element is <%s>, expected <facility>",
				 node_name(root));
		return NULL;
	}
	fac = tp_facility_new();
	if (!fac) {
		tp_fatal(diag, "out of memory");
		return NULL;
	}
	parse_facility(&w, root, fac);
	if (w.oom)
		tp_fatal(diag, "out of memory");
	if (diag->nr_errors != errors) {
		tp_facility_free(fac);
		return NULL;
	}
	return fac;
}
