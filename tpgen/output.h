/*
 * output.h - writing the generated files, all or nothing.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TPGEN_OUTPUT_H
#define TPGEN_OUTPUT_H

#include "diag.h"
#include "emit.h"
#include "model.h"

/*
 * Write OUTDIR/<facility>_tp.h and OUTDIR/<facility>_tp.c.  Both are
 * written to hidden temporary files in OUTDIR (.<name>.tmp.XXXXXX) and
 * renamed over their final names only once both are complete, so a
 * failure leaves neither a partial file nor a temporary one behind.
 * Returns 0, or -1 after reporting the failure.
 */
int tp_output_write(const struct tp_facility *fac, const char *outdir,
		    const char *input_name, const struct tp_emit_options *opts,
		    struct tp_diag *diag);

#endif /* TPGEN_OUTPUT_H */
