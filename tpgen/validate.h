/*
 * validate.h - semantic validation of the facility tree.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What the grammar cannot say: names must be C identifiers (they become
 * parts of C symbols and parameters), field names must not be keywords or
 * names the generated code relies on, and names must be unique.  Later:
 * references (enum and typedef names, variant tags) resolve.
 */
#ifndef TPGEN_VALIDATE_H
#define TPGEN_VALIDATE_H

#include <stdbool.h>

#include "diag.h"
#include "model.h"

/* Check the whole tree; reports every problem.  Returns 0 or -1. */
int tp_validate(const struct tp_facility *fac, struct tp_diag *diag);

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
