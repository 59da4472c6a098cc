/*
 * validate.c - semantic validation of the facility tree.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <string.h>

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

static void check_field_names(const struct tp_event *event,
			      struct tp_diag *diag)
{
	const struct tp_field *f = event->fields.v;
	const char *problem;
	size_t i, j;

	for (i = 0; i < event->fields.nr; i++) {
		if (!check_identifier(diag, f[i].line, "field", f[i].name))
			continue;
		problem = tp_field_name_problem(f[i].name);
		if (problem) {
			tp_error(diag, f[i].line, "invalid field name '%s': %s",
				 f[i].name, problem);
			continue;
		}
		for (j = 0; j < i; j++) {
			if (strcmp(f[i].name, f[j].name) == 0) {
				tp_error(diag, f[i].line,
					 "duplicate field name '%s' in event '%s' (first defined on line %d)",
					 f[i].name, event->name, f[j].line);
				break;
			}
		}
	}
}

static void check_event_names(const struct tp_facility *fac,
			      struct tp_diag *diag)
{
	const struct tp_event *ev = fac->events;
	size_t i, j;

	for (i = 0; i < fac->nr_events; i++) {
		if (!check_identifier(diag, ev[i].line, "event", ev[i].name))
			continue;
		for (j = 0; j < i; j++) {
			if (strcmp(ev[i].name, ev[j].name) == 0) {
				tp_error(diag, ev[i].line,
					 "duplicate event name '%s' (first defined on line %d)",
					 ev[i].name, ev[j].line);
				break;
			}
		}
	}
}

int tp_validate(const struct tp_facility *fac, struct tp_diag *diag)
{
	unsigned int errors = diag->nr_errors;
	size_t i;

	check_identifier(diag, fac->line, "facility", fac->name);
	check_event_names(fac, diag);
	for (i = 0; i < fac->nr_events; i++)
		check_field_names(&fac->events[i], diag);
	return diag->nr_errors == errors ? 0 : -1;
}
