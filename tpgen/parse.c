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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/tree.h>
#include <ust/loglevel.h>

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

/* Whether a new entry was made: when not (NULL), the walk is out of memory. */
static bool walk_added(struct walk *w, const void *entry)
{
	if (!entry)
		w->oom = true;
	return entry != NULL;
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

static struct tp_type *parse_type(struct walk *w, xmlNodePtr node);
static void parse_fields(struct walk *w, xmlNodePtr node, const char *parent,
			 struct tp_field_list *fields);

/*
 * Read a size-like attribute whose values are 1, 2, 4 or 8 (size,
 * lengthsize) into `*out`.  A missing one is an error when `required`.
 */
static void parse_size_attr(struct walk *w, xmlNodePtr node, const char *attr,
			    bool required, unsigned int *out)
{
	char *text = get_attr(w, node, attr);
	long value;

	if (!text) {
		if (required && !w->oom)
			tp_error(w->diag, node_line(node),
				 "missing %s in <%s>: expected 1, 2, 4 or 8",
				 attr, node_name(node));
		return;
	}
	value = parse_small_uint(text, 8);
	if (value == 1 || value == 2 || value == 4 || value == 8)
		*out = (unsigned int)value;
	else
		tp_error(w->diag, node_line(node),
			 "invalid %s '%s' in <%s>: expected 1, 2, 4 or 8",
			 attr, text, node_name(node));
	free(text);
}

static void parse_base(struct walk *w, xmlNodePtr node, struct tp_type *type)
{
	char *base = get_attr(w, node, "base");
	long value;

	if (!base)
		return;
	value = parse_small_uint(base, 16);
	if (value == 2 || value == 8 || value == 10 || value == 16)
		type->u.integer.base = (unsigned int)value;
	else
		tp_error(w->diag, node_line(node),
			 "invalid base '%s' in <%s>: expected 2, 8, 10 or 16",
			 base, node_name(node));
	free(base);
}

static void parse_byte_order(struct walk *w, xmlNodePtr node,
			     struct tp_type *type)
{
	static const struct {
		const char *name;
		enum tp_byte_order order;
	} orders[] = {
		{ "host", TP_ORDER_HOST }, { "network", TP_ORDER_BE },
		{ "le", TP_ORDER_LE }, { "be", TP_ORDER_BE },
	};
	char *text = get_attr(w, node, "byte_order");
	size_t i;

	if (!text)
		return;
	for (i = 0; i < sizeof(orders) / sizeof(orders[0]); i++)
		if (strcmp(text, orders[i].name) == 0)
			break;
	if (i < sizeof(orders) / sizeof(orders[0]))
		type->u.integer.byte_order = orders[i].order;
	else
		tp_error(w->diag, node_line(node),
			 "invalid byte_order '%s' in <%s>: expected host, network, le or be",
			 text, node_name(node));
	free(text);
}

/*
 * <int [size="N"]/> and <uint .../>: without a size, the C int and
 * unsigned int.  Both take base and byte_order, as every integer does.
 */
static void parse_integer(struct walk *w, xmlNodePtr node, struct tp_type *type)
{
	type->u.integer.is_signed = is_element(node, "int");
	type->u.integer.ctype = TP_CTYPE_INT;
	type->u.integer.size = tp_host_size(TP_CTYPE_INT);
	if (xmlHasNsProp(node, (const xmlChar *)"size", NULL))
		type->u.integer.ctype = TP_CTYPE_FIXED;
	parse_size_attr(w, node, "size", false, &type->u.integer.size);
	parse_base(w, node, type);
	parse_byte_order(w, node, type);
}

/* The integers of the host's sizes, one element each. */
static const struct {
	const char *element;
	enum tp_int_ctype ctype;
	bool is_signed;
} host_integers[] = {
	{ "long", TP_CTYPE_LONG, true },
	{ "ulong", TP_CTYPE_LONG, false },
	{ "size_t", TP_CTYPE_SIZE_T, false },
	{ "ssize_t", TP_CTYPE_SIZE_T, true },
	{ "pointer", TP_CTYPE_POINTER, false },
	{ "char", TP_CTYPE_CHAR, true },
};

/* <long/>, <pointer/>, ...: pointers show in hexadecimal by default. */
static void parse_host_integer(struct walk *w, xmlNodePtr node,
			       struct tp_type *type)
{
	size_t i;

	for (i = 0; !is_element(node, host_integers[i].element); i++)
		;
	type->u.integer.ctype = host_integers[i].ctype;
	type->u.integer.is_signed = host_integers[i].is_signed;
	if (host_integers[i].ctype == TP_CTYPE_CHAR)
		type->u.integer.is_signed = tp_host_char_is_signed();
	if (host_integers[i].ctype == TP_CTYPE_POINTER)
		type->u.integer.base = 16;
	type->u.integer.size = tp_host_size(host_integers[i].ctype);
	parse_base(w, node, type);
	parse_byte_order(w, node, type);
}

static void parse_float(struct walk *w, xmlNodePtr node, struct tp_type *type)
{
	(void)w;
	type->u.floating.size = is_element(node, "float") ? 4 : 8;
}

/* <string/>: nothing to read. */
static void parse_string(struct walk *w, xmlNodePtr node, struct tp_type *type)
{
	(void)w;
	(void)node;
	(void)type;
}

/* A reference attribute (<enum ref>, <typeref name>); reported if missing. */
static char *parse_required(struct walk *w, xmlNodePtr node, const char *attr)
{
	char *value = get_attr(w, node, attr);

	if (!value && !w->oom)
		tp_error(w->diag, node_line(node), "missing %s in <%s>",
			 attr, node_name(node));
	return value;
}

static void parse_enum_ref(struct walk *w, xmlNodePtr node, struct tp_type *type)
{
	type->u.enumeration.ref = parse_required(w, node, "ref");
}

static void parse_typeref(struct walk *w, xmlNodePtr node, struct tp_type *type)
{
	type->u.typeref.name = parse_required(w, node, "name");
}

/*
 * The one type element among the children of `parent` (a field, typedef,
 * array, sequence or option), which `what` names in messages.  Reports
 * none, more than one, and unknown elements (then the reason for a
 * missing type: not reported twice).  Children other than elements are
 * the schema's business.
 */
static struct tp_type *parse_single_type(struct walk *w, xmlNodePtr parent,
					 const char *what)
{
	struct tp_type *type = NULL, *extra;
	bool seen = false, unknown = false;
	xmlNodePtr child;

	for (child = parent->children; child && !w->oom; child = child->next) {
		if (child->type != XML_ELEMENT_NODE)
			continue;
		if (seen) {
			extra = parse_type(w, child);
			if (extra)
				tp_error(w->diag, node_line(child),
					 "%s has more than one type", what);
			tp_type_free(extra);
			continue;
		}
		type = parse_type(w, child);
		seen = type != NULL;
		unknown = unknown || !type;
	}
	if (!seen && !unknown && !w->oom)
		tp_error(w->diag, node_line(parent), "%s has no type", what);
	return type;
}

static void parse_array(struct walk *w, xmlNodePtr node, struct tp_type *type)
{
	char *text = get_attr(w, node, "length");
	long value = text ? parse_small_uint(text, 65535) : -1;

	if (!text && !w->oom)
		tp_error(w->diag, node_line(node),
			 "missing length in <array>: expected an integer from 1 to 65535");
	else if (text && value < 1)
		tp_error(w->diag, node_line(node),
			 "invalid length '%s' in <array>: expected an integer from 1 to 65535",
			 text);
	else if (text)
		type->u.array.length = (unsigned int)value;
	free(text);
	type->u.array.elem = parse_single_type(w, node, "<array>");
}

static void parse_sequence(struct walk *w, xmlNodePtr node, struct tp_type *type)
{
	parse_size_attr(w, node, "lengthsize", true, &type->u.sequence.lengthsize);
	type->u.sequence.elem = parse_single_type(w, node, "<sequence>");
}

static void parse_struct(struct walk *w, xmlNodePtr node, struct tp_type *type)
{
	parse_fields(w, node, "struct", &type->u.structure.fields);
	if (type->u.structure.fields.nr == 0 && !w->oom)
		tp_error(w->diag, node_line(node), "<struct> has no field");
}

/*
 * A named element holding exactly one type (<field name=...>,
 * <typedef name=...>, <option label=...>): its line into *line, the
 * attribute `attr` into *name, then the type.  `kind` names the element in messages.
 */
static void parse_named_type(struct walk *w, xmlNodePtr node, const char *kind,
			     const char *attr, int *line, char **name,
			     struct tp_type **type)
{
	char *what;

	*line = (int)node_line(node);
	*name = get_attr(w, node, attr);
	if (!*name) {
		if (!w->oom)
			tp_error(w->diag, *line, "%s without a %s", kind, attr);
		return;
	}
	if (asprintf(&what, "%s '%s'", kind, *name) < 0) {
		w->oom = true;
		return;
	}
	*type = parse_single_type(w, node, what);
	free(what);
}

static void parse_option(struct walk *w, xmlNodePtr node, struct tp_type *variant)
{
	struct tp_option *option = tp_variant_add_option(variant);

	if (!walk_added(w, option))
		return;
	parse_named_type(w, node, "option", "label", &option->line, &option->label,
			 &option->type);
}

static void parse_variant(struct walk *w, xmlNodePtr node, struct tp_type *type)
{
	xmlNodePtr child;

	type->u.variant.tag = parse_required(w, node, "tag");
	for (child = node->children; child && !w->oom; child = child->next) {
		if (child->type != XML_ELEMENT_NODE)
			continue;
		if (is_element(child, "option"))
			parse_option(w, child, type);
		else
			report_unknown(w, child, "variant");
	}
	if (type->u.variant.nr_options == 0 && !w->oom)
		tp_error(w->diag, node_line(node), "<variant> has no option");
}

/* Every element that can stand for a type. */
static const struct type_parser type_parsers[] = {
	{ "int",	TP_TYPE_INT,		parse_integer },
	{ "uint",	TP_TYPE_INT,		parse_integer },
	{ "long",	TP_TYPE_INT,		parse_host_integer },
	{ "ulong",	TP_TYPE_INT,		parse_host_integer },
	{ "size_t",	TP_TYPE_INT,		parse_host_integer },
	{ "ssize_t",	TP_TYPE_INT,		parse_host_integer },
	{ "pointer",	TP_TYPE_INT,		parse_host_integer },
	{ "char",	TP_TYPE_INT,		parse_host_integer },
	{ "float",	TP_TYPE_FLOAT,		parse_float },
	{ "double",	TP_TYPE_FLOAT,		parse_float },
	{ "string",	TP_TYPE_STRING,		parse_string },
	{ "enum",	TP_TYPE_ENUM,		parse_enum_ref },
	{ "array",	TP_TYPE_ARRAY,		parse_array },
	{ "sequence",	TP_TYPE_SEQUENCE,	parse_sequence },
	{ "struct",	TP_TYPE_STRUCT,		parse_struct },
	{ "variant",	TP_TYPE_VARIANT,	parse_variant },
	{ "typeref",	TP_TYPE_TYPEREF,	parse_typeref },
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
 * One type element into a new type, or NULL after reporting an unknown
 * element (or when memory ran out).  Only integers have a byte order: a
 * byte_order elsewhere gets a clearer message than the schema's.
 */
static struct tp_type *parse_type(struct walk *w, xmlNodePtr node)
{
	const struct type_parser *tp = find_type_parser(node);
	struct tp_type *type;

	if (!tp) {
		report_unknown(w, node, node_name(node->parent));
		return NULL;
	}
	type = tp_type_new(tp->kind, (int)node_line(node));
	if (!walk_added(w, type))
		return NULL;
	if (tp->kind != TP_TYPE_INT &&
	    xmlHasNsProp(node, (const xmlChar *)"byte_order", NULL))
		tp_error(w->diag, node_line(node),
			 "byte_order in <%s>: only integers have a byte order",
			 node_name(node));
	tp->parse(w, node, type);
	return type;
}

static void parse_field(struct walk *w, xmlNodePtr node,
			struct tp_field_list *fields)
{
	struct tp_field *field = tp_field_list_add(fields);

	if (!walk_added(w, field))
		return;
	parse_named_type(w, node, "field", "name", &field->line, &field->name,
			 &field->type);
}

/* The <field>s of an event or struct; `parent` names it in messages. */
static void parse_fields(struct walk *w, xmlNodePtr node, const char *parent,
			 struct tp_field_list *fields)
{
	xmlNodePtr child;

	for (child = node->children; child && !w->oom; child = child->next) {
		if (child->type != XML_ELEMENT_NODE)
			continue;
		if (is_element(child, "field"))
			parse_field(w, child, fields);
		else if (strcmp(parent, "event") || !is_element(child, "description"))
			report_unknown(w, child, parent);
	}
}

/*
 * A label's value: a decimal integer, optionally negative, that fits in
 * a long long (validate.c checks the enum's range).  Returns -1 when it
 * is not one.
 */
static int parse_label_value(const char *text, long long *value)
{
	char *end;

	if (!*text || !(*text == '-' || (*text >= '0' && *text <= '9')))
		return -1;
	errno = 0;
	*value = strtoll(text, &end, 10);
	return errno || *end ? -1 : 0;
}

static void parse_label(struct walk *w, xmlNodePtr node, struct tp_enum *en)
{
	struct tp_label *label = tp_enum_add_label(en);
	char *value;

	if (!walk_added(w, label))
		return;
	label->line = (int)node_line(node);
	label->name = get_attr(w, node, "name");
	if (!label->name) {
		if (!w->oom)
			tp_error(w->diag, label->line, "label without a name");
		return;
	}
	value = get_attr(w, node, "value");
	if (!value && !w->oom)
		tp_error(w->diag, label->line, "label '%s' without a value",
			 label->name);
	else if (value && parse_label_value(value, &label->value))
		tp_error(w->diag, label->line,
			 "invalid value '%s' of label '%s': expected a decimal integer",
			 value, label->name);
	free(value);
}

/* <enum name="..." size="N"> <label .../>... </enum> at facility level. */
static void parse_enum_decl(struct walk *w, xmlNodePtr node,
			    struct tp_facility *fac)
{
	struct tp_enum *en = tp_facility_add_enum(fac);
	xmlNodePtr child;

	if (!walk_added(w, en))
		return;
	en->line = (int)node_line(node);
	en->name = get_attr(w, node, "name");
	if (!en->name && !w->oom)
		tp_error(w->diag, en->line, "enum without a name");
	parse_size_attr(w, node, "size", true, &en->size);
	for (child = node->children; child && !w->oom; child = child->next) {
		if (child->type != XML_ELEMENT_NODE)
			continue;
		if (is_element(child, "label"))
			parse_label(w, child, en);
		else
			report_unknown(w, child, "enum");
	}
	if (en->nr_labels == 0 && !w->oom)
		tp_error(w->diag, en->line, "enum '%s' has no label",
			 en->name ? en->name : "");
}

/* <typedef name="..."> T </typedef> at facility level. */
static void parse_typedef(struct walk *w, xmlNodePtr node,
			  struct tp_facility *fac)
{
	struct tp_typedef *td = tp_facility_add_typedef(fac);

	if (!walk_added(w, td))
		return;
	parse_named_type(w, node, "typedef", "name", &td->line, &td->name,
			 &td->type);
}

/* "TRACE_EMERG, TRACE_ALERT, ..., TRACE_DEBUG", malloc'ed, or NULL. */
static char *loglevel_names(void)
{
	size_t len = 0;
	char *list;
	int level;

	for (level = 0; level <= UST_LOGLEVEL_MAX; level++)
		len += strlen(ust_loglevel_name(level)) + 2;
	list = malloc(len);
	if (!list)
		return NULL;
	list[0] = '\0';
	for (level = 0; level <= UST_LOGLEVEL_MAX; level++) {
		if (level)
			strcat(list, ", ");
		strcat(list, ust_loglevel_name(level));
	}
	return list;
}

/* loglevel="6" or loglevel="TRACE_INFO" (include/ust/loglevel.h). */
static void parse_loglevel(struct walk *w, xmlNodePtr node,
			   struct tp_event *event)
{
	char *text = get_attr(w, node, "loglevel"), *names;

	if (!text)
		return;
	event->loglevel = ust_loglevel_parse(text);
	if (event->loglevel < 0) {
		names = loglevel_names();
		if (names)
			tp_error(w->diag, node_line(node),
				 "invalid loglevel '%s': expected an integer from 0 to %d or one of %s",
				 text, UST_LOGLEVEL_MAX, names);
		w->oom = w->oom || !names;
		free(names);
	}
	free(text);
}

static void parse_event(struct walk *w, xmlNodePtr node, struct tp_facility *fac)
{
	struct tp_event *event = tp_facility_add_event(fac);
	bool has_description = false;
	xmlNodePtr child;

	if (!walk_added(w, event))
		return;
	event->line = (int)node_line(node);
	event->name = get_attr(w, node, "name");
	if (!event->name && !w->oom)
		tp_error(w->diag, event->line, "event without a name");
	parse_loglevel(w, node, event);

	for (child = node->children; child && !w->oom; child = child->next) {
		if (is_element(child, "description"))
			parse_description(w, child, "event", &event->description,
					  &has_description);
	}
	parse_fields(w, node, "event", &event->fields);
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
		else if (is_element(child, "enum"))
			parse_enum_decl(w, child, fac);
		else if (is_element(child, "typedef"))
			parse_typedef(w, child, fac);
		else if (is_element(child, "description"))
			parse_description(w, child, "facility", &fac->description,
					  &has_description);
		else
			report_unknown(w, child, "facility");
	}
}

#define NO_ENTITIES \
	"tpgen expands no entities (only &lt; &gt; &amp; &apos; &quot; and character references)"

/*
 * References to entities that the document's DTD declares are refused
 * wherever they are, in text or in attribute values: tpgen substitutes
 * none (so neither entity bombs nor external entities reach it), and
 * libxml2's schema validation would report them without a line.  The
 * entities' own content, below each reference, is not walked.
 */
static void report_entities(struct walk *w, xmlNodePtr node)
{
	xmlNodePtr child;
	xmlAttrPtr attr;

	for (attr = node->properties; attr; attr = attr->next)
		for (child = attr->children; child; child = child->next)
			if (child->type == XML_ENTITY_REF_NODE)
				tp_error(w->diag, node_line(node),
					 "entity reference '&%s;' in attribute %s of <%s>: " NO_ENTITIES,
					 node_name(child), (const char *)attr->name,
					 node_name(node));
	for (child = node->children; child; child = child->next) {
		if (child->type == XML_ENTITY_REF_NODE)
			tp_error(w->diag, node_line(child),
				 "entity reference '&%s;' in <%s>: " NO_ENTITIES,
				 node_name(child), node_name(node));
		else if (child->type == XML_ELEMENT_NODE)
			report_entities(w, child);
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
	/* Attribute values are read with their entities expanded: not those. */
	report_entities(&w, root);
	if (diag->nr_errors == errors)
		parse_facility(&w, root, fac);
	if (w.oom)
		tp_fatal(diag, "out of memory");
	if (diag->nr_errors != errors) {
		tp_facility_free(fac);
		return NULL;
	}
	return fac;
}
