/*
 * validate.h - semantic validation of the facility tree.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What the grammar cannot say: names must be C identifiers (they become
 * parts of C symbols and parameters), field names must not be keywords or
 * names the generated code relies on, names must be unique, references
 * (enum and typedef names, variant tags and option labels) resolve,
 * typedefs are not recursive and label values fit their enum.
 *
 * tp_prepare(), after the schema, refuses what this version cannot
 * generate yet (support.c) and gives the enums and structs the C names
 * that the emitters use (names.c).
 */
#ifndef TPGEN_VALIDATE_H
#define TPGEN_VALIDATE_H

#include <stdbool.h>

#include "diag.h"
#include "model.h"

/*
 * Check the whole tree, resolve its references and name its C types;
 * reports every problem of a step before it stops.  Returns 0 or -1.
 */
int tp_validate(struct tp_facility *fac, struct tp_diag *diag);

/*
 * After tp_validate() and the schema: tp_check_support(), then
 * tp_name_types().  Returns 0 or -1 after reporting.
 */
int tp_prepare(struct tp_facility *fac, struct tp_diag *diag);

/*
 * Report what the generator does not support yet (sequences, variants,
 * strings inside compound types) and events too large to stage.  Only
 * for a tree whose references resolve.  Returns 0 or -1.
 */
int tp_check_support(const struct tp_facility *fac, struct tp_diag *diag);

/*
 * Set the C names of the enums ("enum app_state") and structs ("struct
 * app_point", "struct app_event_field") and report two that would be the
 * same, or two label constants that would.  Returns 0, -1 after
 * reporting, or -2 when out of memory.
 */
int tp_name_types(struct tp_facility *fac, struct tp_diag *diag);

/* [A-Za-z_][A-Za-z0-9_]* */
bool tp_is_c_identifier(const char *name);

/*
 * Why an identifier cannot name a field, i.e. a parameter of the
 * generated functions, or NULL when it can.  "C or C++ keyword";
 * "reserved identifier" for names reserved to the C implementation (__x,
 * _X), names of the headers the generated code includes (int32_t,
 * INT8_MAX, NULL, size_t, ...), errno, and ust's own ust_ and UST_.
 */
const char *tp_field_name_problem(const char *name);

#endif /* TPGEN_VALIDATE_H */
