#!/bin/sh
# golden.sh - tpgen's output for tpt.xml and types.xml, byte for byte.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# After an intended change of the generated code, regenerate the golden
# files with `make -C tests/tpgen update-golden` and review the diff.

. "${srcdir:-.}/test-lib.sh"

out=$WORK/out
mkdir "$out"
for xml in tpt types compound; do
	if ! "$TPGEN" -o "$out" "$srcdir/$xml.xml"; then
		fail "tpgen refused $xml.xml"
		continue
	fi
	for f in ${xml}_tp.h ${xml}_tp.c; do
		if cmp -s "$srcdir/golden/$f" "$out/$f"; then
			pass "$f matches golden/$f"
		else
			fail "$f differs from golden/$f:"
			diff -u "$srcdir/golden/$f" "$out/$f"
		fi
	done
done
[ "$(entries "$out")" = "compound_tp.c
compound_tp.h
tpt_tp.c
tpt_tp.h
types_tp.c
types_tp.h" ] || fail "unexpected files in OUTDIR: $(entries "$out")"
finish
