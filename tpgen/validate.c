/*
 * validate.c - semantic validation of the facility tree.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nameset.h"
#include "validate.h"

/*
 * Keywords of C (up to C23) and C++ (up to C++20), including the C++
 * alternative operator spellings ("and", "not") and GNU's "asm" and
 * "typeof": the generated code compiles as both languages.
 */
static const char *const keywords[] = {
	"alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand",
	"bitor", "bool", "break", "case", "catch", "char", "char8_t",
	"char16_t", "char32_t", "class", "co_await", "co_return",
	"co_yield", "compl", "concept", "const", "const_cast", "consteval",
	"constexpr", "constinit", "continue", "decltype", "default",
	"delete", "do", "double", "dynamic_cast", "else", "enum",
	"explicit", "export", "extern", "false", "float", "for", "friend",
	"goto", "if", "inline", "int", "long", "mutable", "namespace",
	"new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
	"or_eq", "private", "protected", "public", "register",
	"reinterpret_cast", "requires", "restrict", "return", "short",
	"signed", "sizeof", "static", "static_assert", "static_cast",
	"struct", "switch", "template", "this", "thread_local", "throw",
	"true", "try", "typedef", "typeid", "typename", "typeof",
	"typeof_unqual", "union", "unsigned", "using", "virtual", "void",
	"volatile", "wchar_t", "while", "xor", "xor_eq",
};

/*
 * Names that the generated header and source use unqualified next to the
 * parameters: the types of <stdint.h> and <stddef.h> and their
 * object-like macros.  And errno: a likely field name in a tracer, but a
 * macro wherever <errno.h> is included before the generated header.
 */
static const char *const generated_names[] = {
	"NULL", "size_t", "ssize_t", "ptrdiff_t", "max_align_t",
	"SIZE_MAX", "PTRDIFF_MIN", "PTRDIFF_MAX", "SIG_ATOMIC_MIN",
	"SIG_ATOMIC_MAX", "WCHAR_MIN", "WCHAR_MAX", "WINT_MIN", "WINT_MAX",
	"errno",
};

/* TSDL keywords that are not C or C++ ones (CTF 1.8, section 7.1). */
static const char *const tsdl_keywords[] = {
	"_Bool", "_Complex", "_Imaginary", "align", "callsite", "clock",
	"env", "event", "floating_point", "integer", "stream", "string",
	"trace", "typealias", "variant",
};

static bool in_list(const char *name, const char *const *list, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t len = strlen(s), slen = strlen(suffix);

	return len >= slen && strcmp(s + len - slen, suffix) == 0;
}

/*
 * Names reserved by C11 7.31.10 for <stdint.h>, which the generated
 * header includes: typedef names that begin with "int" or "uint" and end
 * with "_t", macro names that begin with "INT" or "UINT" and end with
 * "_MAX", "_MIN", "_C" or "_WIDTH".
 */
static bool is_stdint_name(const char *name)
{
	if (starts_with(name, "int") || starts_with(name, "uint"))
		return ends_with(name, "_t");
	if (starts_with(name, "INT") || starts_with(name, "UINT"))
		return ends_with(name, "_MAX") || ends_with(name, "_MIN") ||
		       ends_with(name, "_C") || ends_with(name, "_WIDTH");
	return false;
}

bool tp_is_c_identifier(const char *name)
{
	const char *p = name;

	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_'))
		return false;
	for (p++; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}

const char *tp_field_name_problem(const char *name)
{
	if (in_list(name, keywords, sizeof(keywords) / sizeof(keywords[0])))
		return "C or C++ keyword";
	/* C11 7.1.3: "__x" and "_X" belong to the implementation (and to us). */
	if (name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z')))
		return "reserved identifier";
	/* ust's own namespace: ust_event_write(), UST_ABI_VERSION, ... */
	if (starts_with(name, "ust_") || starts_with(name, "UST_"))
		return "reserved identifier";
	if (is_stdint_name(name) ||
	    in_list(name, generated_names,
		    sizeof(generated_names) / sizeof(generated_names[0])))
		return "reserved identifier";
	return NULL;
}

/* Report a name that is not a C identifier; `what` is "event", ... */
static bool check_identifier(struct tp_diag *diag, int line, const char *what,
			     const char *name)
{
	if (tp_is_c_identifier(name))
		return true;
	tp_error(diag, line, "invalid %s name '%s': not a C identifier",
		 what, name);
	return false;
}

/* Context of the checks of one facility. */
struct check {
	struct tp_facility *fac;
	struct tp_diag *diag;
	/* Every enum and typedef by name, the first of each name. */
	struct tp_nameset enums, typedefs;
	bool oom;
};

/*
 * Add `name` to `set` under `index`.  True, with the index of the first
 * in *first, when an equal name was there already.
 */
static bool already_seen(struct check *c, struct tp_nameset *set,
			 const char *name, size_t index, size_t *first)
{
	int ret = tp_nameset_add(set, name, index, first);

	if (ret < 0)
		c->oom = true;
	return ret == 1;
}

/*
 * The names of a field list: identifiers that can be parameters or
 * members, unique in the list.  `owner` ends the duplicate message ("in
 * event 'e'", "in struct").
 */
static void check_field_names(struct check *c, const struct tp_field_list *fields,
			      const char *owner)
{
	const struct tp_field *f = fields->v;
	struct tp_nameset seen;
	const char *problem;
	size_t i, first;

	tp_nameset_init(&seen, false);
	for (i = 0; i < fields->nr; i++) {
		if (!check_identifier(c->diag, f[i].line, "field", f[i].name))
			continue;
		problem = tp_field_name_problem(f[i].name);
		if (problem)
			tp_error(c->diag, f[i].line, "invalid field name '%s': %s",
				 f[i].name, problem);
		else if (already_seen(c, &seen, f[i].name, i, &first))
			tp_error(c->diag, f[i].line,
				 "duplicate field name '%s' %s (first defined on line %d)",
				 f[i].name, owner, f[first].line);
	}
	tp_nameset_clear(&seen);
}

static void check_event_names(struct check *c)
{
	const struct tp_event *ev = c->fac->events;
	struct tp_nameset seen;
	size_t i, first;

	tp_nameset_init(&seen, false);
	for (i = 0; i < c->fac->nr_events; i++) {
		if (check_identifier(c->diag, ev[i].line, "event", ev[i].name) &&
		    already_seen(c, &seen, ev[i].name, i, &first))
			tp_error(c->diag, ev[i].line,
				 "duplicate event name '%s' (first defined on line %d)",
				 ev[i].name, ev[first].line);
	}
	tp_nameset_clear(&seen);
}

/* Every enum and typedef by name, for the references and duplicates. */
static void index_type_names(struct check *c)
{
	size_t i, first;

	tp_nameset_init(&c->enums, false);
	tp_nameset_init(&c->typedefs, false);
	for (i = 0; i < c->fac->nr_enums; i++)
		already_seen(c, &c->enums, c->fac->enums[i].name, i, &first);
	for (i = 0; i < c->fac->nr_typedefs; i++)
		already_seen(c, &c->typedefs, c->fac->typedefs[i].name, i, &first);
}

/*
 * The index in `set` (c->enums or c->typedefs) of `name`, which a type
 * on `line` refers to as `what`; false, reported, when there is none.
 */
static bool resolve(struct check *c, const struct tp_nameset *set,
		    const char *what, const char *name, int line, size_t *index)
{
	if (tp_nameset_find(set, name, index))
		return true;
	tp_error(c->diag, line, "undefined %s '%s'", what, name);
	return false;
}

static void check_type(struct check *c, struct tp_type *type);

static void check_options(struct check *c, struct tp_type *type)
{
	const struct tp_option *opt = type->u.variant.options;
	struct tp_nameset seen;
	const char *problem;
	size_t i, first;

	tp_nameset_init(&seen, false);
	for (i = 0; i < type->u.variant.nr_options; i++) {
		if (already_seen(c, &seen, opt[i].label, i, &first))
			tp_error(c->diag, opt[i].line,
				 "duplicate option label '%s' in variant (first defined on line %d)",
				 opt[i].label, opt[first].line);
		/*
		 * A label names a member of the variant's C union, and an
		 * option of its TSDL variant, without a '_' before it.
		 */
		problem = tp_field_name_problem(opt[i].label);
		if (!problem &&
		    in_list(opt[i].label, tsdl_keywords,
			    sizeof(tsdl_keywords) / sizeof(tsdl_keywords[0])))
			problem = "TSDL keyword";
		if (problem)
			tp_error(c->diag, opt[i].line,
				 "invalid option label '%s': %s", opt[i].label,
				 problem);
		check_type(c, opt[i].type);
	}
	tp_nameset_clear(&seen);
}

/* Names and references inside a type; resolves enum and typedef names. */
static void check_type(struct check *c, struct tp_type *type)
{
	size_t i;

	switch (type->kind) {
	case TP_TYPE_ENUM:
		if (resolve(c, &c->enums, "enum", type->u.enumeration.ref,
			    type->line, &i))
			type->u.enumeration.def = &c->fac->enums[i];
		break;
	case TP_TYPE_TYPEREF:
		if (resolve(c, &c->typedefs, "typedef", type->u.typeref.name,
			    type->line, &i))
			type->u.typeref.def = &c->fac->typedefs[i];
		break;
	case TP_TYPE_ARRAY:
		check_type(c, type->u.array.elem);
		break;
	case TP_TYPE_SEQUENCE:
		check_type(c, type->u.sequence.elem);
		break;
	case TP_TYPE_STRUCT:
		check_field_names(c, &type->u.structure.fields, "in struct");
		for (i = 0; i < type->u.structure.fields.nr; i++)
			check_type(c, type->u.structure.fields.v[i].type);
		break;
	case TP_TYPE_VARIANT:
		check_options(c, type);
		break;
	case TP_TYPE_INT:
	case TP_TYPE_STRING:
	case TP_TYPE_FLOAT:
		break;
	}
}

/*
 * Enum and typedef names share one namespace: in C++, enum app_x and
 * struct app_x would be one name.  An enum is a duplicate of an earlier
 * enum, a typedef of any enum or of an earlier typedef.
 */
static void check_type_name(struct check *c, const char *what, int line,
			    const char *name, int first_line)
{
	if (first_line)
		tp_error(c->diag, line, "duplicate %s name '%s' (first defined on line %d)",
			 what, name, first_line);
}

/* The line of the first enum named `name` before enum `index`, or 0. */
static int earlier_enum(const struct check *c, const char *name, size_t index)
{
	size_t first;

	if (!tp_nameset_find(&c->enums, name, &first) || first >= index)
		return 0;
	return c->fac->enums[first].line;
}

/* The same for a typedef, which also clashes with every enum. */
static int earlier_type(const struct check *c, const char *name, size_t index)
{
	int line = earlier_enum(c, name, c->fac->nr_enums);
	size_t first;

	if (line || !tp_nameset_find(&c->typedefs, name, &first) || first >= index)
		return line;
	return c->fac->typedefs[first].line;
}

/* Whether `value` fits in the enum's size and signedness, and in an int. */
static void check_label_value(struct check *c, const struct tp_enum *en,
			      const struct tp_label *label)
{
	unsigned int bits = en->size * 8;
	long long min = 0, max = LLONG_MAX;

	if (en->is_signed && bits < 64) {
		min = -(1LL << (bits - 1));
		max = (1LL << (bits - 1)) - 1;
	} else if (en->is_signed) {
		min = LLONG_MIN;
	} else if (bits < 64) {
		max = (long long)((1ULL << bits) - 1);
	}
	if (label->value < min || label->value > max)
		tp_error(c->diag, label->line,
			 "value %lld of label '%s' does not fit in enum '%s' (%u byte%s, %s)",
			 label->value, label->name, en->name, en->size,
			 en->size == 1 ? "" : "s",
			 en->is_signed ? "signed" : "unsigned");
	else if (label->value < INT_MIN || label->value > INT_MAX)
		tp_error(c->diag, label->line,
			 "value %lld of label '%s' does not fit in a C int",
			 label->value, label->name);
}

static void check_enum(struct check *c, size_t index)
{
	struct tp_enum *en = &c->fac->enums[index];
	const struct tp_label *l = en->labels;
	struct tp_nameset constants;
	size_t i, first;

	if (check_identifier(c->diag, en->line, "enum", en->name))
		check_type_name(c, "enum", en->line, en->name,
				earlier_enum(c, en->name, index));
	en->is_signed = false;
	for (i = 0; i < en->nr_labels; i++)
		en->is_signed = en->is_signed || l[i].value < 0;
	/*
	 * Labels whose constants <FAC>_<ENUM>_<LABEL> would be the same:
	 * names equal but for case.
	 */
	tp_nameset_init(&constants, true);
	for (i = 0; i < en->nr_labels; i++) {
		if (!check_identifier(c->diag, l[i].line, "label", l[i].name))
			continue;
		if (already_seen(c, &constants, l[i].name, i, &first))
			tp_error(c->diag, l[i].line,
				 "duplicate label name '%s' in enum '%s' (first defined on line %d)",
				 l[i].name, en->name, l[first].line);
		check_label_value(c, en, &l[i]);
	}
	tp_nameset_clear(&constants);
}

static void check_typedef(struct check *c, size_t index)
{
	struct tp_typedef *td = &c->fac->typedefs[index];

	if (check_identifier(c->diag, td->line, "typedef", td->name))
		check_type_name(c, "typedef", td->line, td->name,
				earlier_type(c, td->name, index));
	check_type(c, td->type);
}

/*
 * Recursive typedefs: the typedefs on a cycle of typerefs, found with
 * Tarjan's strongly connected components in one walk of every typedef
 * body.  A typedef is recursive when its component holds more than one
 * typedef, or when it refers to itself.
 */
struct scc {
	const struct tp_facility *fac;
	size_t *order;		/* visit order + 1 of each typedef, 0: unseen */
	size_t *low;		/* lowest order reachable on the stack */
	size_t *stack, depth, visited;
	bool *on_stack;
	bool *recursive;
};

static void scc_visit(struct scc *s, size_t v);

/* Follow every typeref of `type` (not through them) from typedef `v`. */
static void scc_edges(struct scc *s, size_t v, const struct tp_type *type)
{
	size_t i, w;

	switch (type->kind) {
	case TP_TYPE_TYPEREF:
		w = (size_t)(type->u.typeref.def - s->fac->typedefs);
		if (w == v)
			s->recursive[v] = true;
		if (!s->order[w]) {
			scc_visit(s, w);
			if (s->low[w] < s->low[v])
				s->low[v] = s->low[w];
		} else if (s->on_stack[w] && s->order[w] < s->low[v]) {
			s->low[v] = s->order[w];
		}
		break;
	case TP_TYPE_ARRAY:
		scc_edges(s, v, type->u.array.elem);
		break;
	case TP_TYPE_SEQUENCE:
		scc_edges(s, v, type->u.sequence.elem);
		break;
	case TP_TYPE_STRUCT:
		for (i = 0; i < type->u.structure.fields.nr; i++)
			scc_edges(s, v, type->u.structure.fields.v[i].type);
		break;
	case TP_TYPE_VARIANT:
		for (i = 0; i < type->u.variant.nr_options; i++)
			scc_edges(s, v, type->u.variant.options[i].type);
		break;
	case TP_TYPE_INT:
	case TP_TYPE_STRING:
	case TP_TYPE_FLOAT:
	case TP_TYPE_ENUM:
		break;
	}
}

static void scc_visit(struct scc *s, size_t v)
{
	size_t w, first;

	s->order[v] = s->low[v] = ++s->visited;
	first = s->depth;
	s->stack[s->depth++] = v;
	s->on_stack[v] = true;
	scc_edges(s, v, s->fac->typedefs[v].type);
	if (s->low[v] != s->order[v])
		return;
	/* v is the root of a component: stack[first..] is the component. */
	for (w = first; w < s->depth; w++) {
		s->on_stack[s->stack[w]] = false;
		if (s->depth - first > 1)
			s->recursive[s->stack[w]] = true;
	}
	s->depth = first;
}

/* Every typedef that contains itself, directly or not, is reported. */
static void check_recursion(struct check *c)
{
	const struct tp_facility *fac = c->fac;
	size_t n = fac->nr_typedefs, i;
	struct scc s = {
		.fac = fac,
		.order = calloc(n + 1, sizeof(size_t)),
		.low = calloc(n + 1, sizeof(size_t)),
		.stack = calloc(n + 1, sizeof(size_t)),
		.on_stack = calloc(n + 1, sizeof(bool)),
		.recursive = calloc(n + 1, sizeof(bool)),
	};

	if (!s.order || !s.low || !s.stack || !s.on_stack || !s.recursive) {
		c->oom = true;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (!s.order[i])
			scc_visit(&s, i);
	for (i = 0; i < n; i++)
		if (s.recursive[i])
			tp_error(c->diag, fac->typedefs[i].line,
				 "recursive typedef '%s'", fac->typedefs[i].name);
out:
	free(s.order);
	free(s.low);
	free(s.stack);
	free(s.on_stack);
	free(s.recursive);
}

/*
 * A field list and, built at its first use, the index of its names: the
 * tags of the variants in it are looked up there.
 */
struct scope {
	const struct tp_field_list *fields;
	struct tp_nameset names;
};

static void scope_init(struct scope *scope, const struct tp_field_list *fields)
{
	scope->fields = fields;
	tp_nameset_init(&scope->names, false);
}

/* The index of the field named `name` in the scope, or the list's size. */
static size_t scope_find(struct check *c, struct scope *scope, const char *name)
{
	const struct tp_field_list *fields = scope->fields;
	size_t i, first;

	if (!scope->names.slots)
		for (i = 0; i < fields->nr; i++)
			if (tp_nameset_add(&scope->names, fields->v[i].name, i,
					   &first) < 0)
				c->oom = true;
	return tp_nameset_find(&scope->names, name, &i) ? i : fields->nr;
}

/*
 * Each option label of `variant` is a label of `en`, and each label of
 * `en` has an option (in the order of the input).
 */
static void check_options_match(struct check *c, const struct tp_type *variant,
				const struct tp_enum *en)
{
	const struct tp_option *opt = variant->u.variant.options;
	size_t nr_options = variant->u.variant.nr_options, i, first;
	struct tp_nameset labels, options;

	tp_nameset_init(&labels, false);
	tp_nameset_init(&options, false);
	for (i = 0; i < en->nr_labels; i++)
		already_seen(c, &labels, en->labels[i].name, i, &first);
	for (i = 0; i < nr_options; i++)
		already_seen(c, &options, opt[i].label, i, &first);
	for (i = 0; i < nr_options && !c->oom; i++)
		if (!tp_nameset_find(&labels, opt[i].label, &first))
			tp_error(c->diag, opt[i].line,
				 "option label '%s' is not a label of enum '%s'",
				 opt[i].label, en->name);
	/*
	 * Every value of the tag must select an option: a CTF reader
	 * refuses a record whose tag selects none.
	 */
	for (i = 0; i < en->nr_labels && !c->oom; i++)
		if (!tp_nameset_find(&options, en->labels[i].name, &first))
			tp_error(c->diag, variant->line,
				 "label '%s' of enum '%s' has no option in this variant",
				 en->labels[i].name, en->name);
	tp_nameset_clear(&labels);
	tp_nameset_clear(&options);
}

/*
 * A variant's tag is an earlier field of its struct whose type is an
 * enum, and every option label is a label of that enum.
 */
static void check_tag(struct check *c, const struct tp_type *variant,
		      struct scope *scope, size_t index)
{
	const char *tag = variant->u.variant.tag;
	const struct tp_type *tag_type;
	size_t i = scope ? scope_find(c, scope, tag) : 0;

	if (!scope || i >= index) {
		tp_error(c->diag, variant->line,
			 "variant tag '%s' is not an earlier field of the same struct",
			 tag);
		return;
	}
	tag_type = tp_type_resolve(scope->fields->v[i].type);
	if (tag_type->kind != TP_TYPE_ENUM) {
		tp_error(c->diag, variant->line, "variant tag '%s' is not an enum",
			 tag);
		return;
	}
	check_options_match(c, variant, tag_type->u.enumeration.def);
}

static void check_variants(struct check *c, const struct tp_type *type,
			   struct scope *scope, size_t index);

/* The variants of the fields of a list, each tag looked up in it. */
static void check_list_variants(struct check *c,
				const struct tp_field_list *fields)
{
	struct scope scope;
	size_t i;

	scope_init(&scope, fields);
	for (i = 0; i < fields->nr; i++)
		check_variants(c, fields->v[i].type, &scope, i);
	tp_nameset_clear(&scope.names);
}

/*
 * The variants inside `type`, which is field `index` of the list of
 * `scope` (or not a field at all when `scope` is NULL).  A typedef's own
 * body is checked at its typerefs, where its variant has a struct around
 * it.
 */
static void check_variants(struct check *c, const struct tp_type *type,
			   struct scope *scope, size_t index)
{
	const struct tp_type *resolved = tp_type_resolve(type);
	size_t i;

	if (resolved->kind == TP_TYPE_VARIANT)
		check_tag(c, resolved, scope, index);
	if (type->kind == TP_TYPE_TYPEREF)
		return;
	switch (type->kind) {
	case TP_TYPE_ARRAY:
		check_variants(c, type->u.array.elem, NULL, 0);
		break;
	case TP_TYPE_SEQUENCE:
		check_variants(c, type->u.sequence.elem, NULL, 0);
		break;
	case TP_TYPE_STRUCT:
		check_list_variants(c, &type->u.structure.fields);
		break;
	case TP_TYPE_VARIANT:
		for (i = 0; i < type->u.variant.nr_options; i++)
			check_variants(c, type->u.variant.options[i].type, NULL, 0);
		break;
	default:
		break;
	}
}

static void check_all_variants(struct check *c)
{
	const struct tp_facility *fac = c->fac;
	const struct tp_type *body;
	size_t i, j;

	for (i = 0; i < fac->nr_typedefs; i++) {
		body = fac->typedefs[i].type;
		if (body->kind == TP_TYPE_VARIANT) {
			for (j = 0; j < body->u.variant.nr_options; j++)
				check_variants(c, body->u.variant.options[j].type,
					       NULL, 0);
		} else if (body->kind != TP_TYPE_TYPEREF) {
			check_variants(c, body, NULL, 0);
		}
	}
	for (i = 0; i < fac->nr_events; i++)
		check_list_variants(c, &fac->events[i].fields);
}

int tp_validate(struct tp_facility *fac, struct tp_diag *diag)
{
	struct check c = { .fac = fac, .diag = diag };
	unsigned int errors = diag->nr_errors;
	char *owner;
	size_t i, j;

	check_identifier(diag, fac->line, "facility", fac->name);
	check_event_names(&c);
	index_type_names(&c);
	for (i = 0; i < fac->nr_enums; i++)
		check_enum(&c, i);
	for (i = 0; i < fac->nr_typedefs; i++)
		check_typedef(&c, i);
	for (i = 0; i < fac->nr_events && !c.oom; i++) {
		if (asprintf(&owner, "in event '%s'", fac->events[i].name) < 0) {
			c.oom = true;
			break;
		}
		check_field_names(&c, &fac->events[i].fields, owner);
		free(owner);
		for (j = 0; j < fac->events[i].fields.nr; j++)
			check_type(&c, fac->events[i].fields.v[j].type);
	}
	/* What follows walks through typerefs: only once they resolve. */
	if (diag->nr_errors == errors && !c.oom)
		check_recursion(&c);
	if (diag->nr_errors == errors && !c.oom)
		check_all_variants(&c);
	tp_nameset_clear(&c.enums);
	tp_nameset_clear(&c.typedefs);
	if (c.oom)
		tp_fatal(diag, "out of memory");
	return diag->nr_errors == errors ? 0 : -1;
}

int tp_prepare(struct tp_facility *fac, struct tp_diag *diag)
{
	int ret;

	if (tp_check_support(fac, diag))
		return -1;
	ret = tp_name_types(fac, diag);
	if (ret == -2)
		tp_fatal(diag, "out of memory");
	return ret ? -1 : 0;
}
