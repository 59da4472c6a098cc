#!/bin/sh
# bad-input.sh - tpgen refuses every malformed description in bad/.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Each line of bad/cases.txt is the exact stderr expected from one file
# of bad/, which the line starts with: `file.xml:LINE: message`.  For
# each, tpgen must print exactly that line, exit with status 1, and leave
# OUTDIR empty, temporary files included.

. "${srcdir:-.}/test-lib.sh"

bad=$srcdir/bad
out=$WORK/out
mkdir "$out"
nr=0

while IFS= read -r expect; do
	file=${expect%%:*}
	nr=$((nr + 1))
	if [ ! -f "$bad/$file" ]; then
		fail "$file: listed in cases.txt but missing from bad/"
		continue
	fi
	# Run from bad/ so that the file name in messages is the bare one.
	(cd "$bad" && "$TPGEN" -o "$out" "$file") >"$WORK/stdout" \
		2>"$WORK/stderr"
	status=$?
	got=$(cat "$WORK/stderr")
	if [ "$status" -ne 1 ]; then
		fail "$file: exit status $status, expected 1"
	elif [ "$got" != "$expect" ]; then
		fail "$file: stderr is
	$got
expected
	$expect"
	elif [ -s "$WORK/stdout" ]; then
		fail "$file: wrote to stdout"
	elif [ -n "$(entries "$out")" ]; then
		fail "$file: left files in OUTDIR: $(entries "$out")"
		rm -rf "$out" && mkdir "$out"
	else
		pass "$file"
	fi
done <"$bad/cases.txt"

# Every file of bad/ has its case.
for path in "$bad"/*.xml; do
	file=$(basename "$path")
	grep -q "^$file:" "$bad/cases.txt" || fail "$file: no line in cases.txt"
done

[ "$nr" -ge 12 ] || fail "only $nr cases"
finish
