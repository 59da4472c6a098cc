#!/bin/sh
# Records of every size modulo 16 (a string of each length from 0 to 47,
# after 12 bytes of integers and a 4-byte header, more with a context)
# read back exactly by babeltrace2 and `ust view`, in both buffer modes
# and with and without context: every tail of the writer's copy into the
# buffer (libust/rseq-commit.h, the per-thread paths).
. "$top_srcdir/tests/integration/lib.sh"

CHARS=0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJK

# The 48 lines "seq = L, msg = "<the first L characters>"".
awk -v c="$CHARS" 'BEGIN { for (l = 0; l <= 47; l++)
	printf "seq = %d, msg = \"%s\" }\n", l, substr(c, 1, l) }' >"$WORK/want"

for buffers in per-cpu per-thread; do
	for context in none vtid,vpid,procname; do
		what="--buffers=$buffers --context=$context"
		rm -rf "$WORK/t"
		"$UST" record --buffers="$buffers" --context="$context" -o "$WORK/t" -- \
			"$STRESS" -l >"$WORK/out" 2>"$WORK/err" ||
			fail "$what: ust record: $(cat "$WORK/err")"
		grep -q '48 events written, 0 lost' "$WORK/err" ||
			fail "$what: $(cat "$WORK/err")"
		babeltrace2 "$WORK/t" | sed 's/.*stress:text: .*{ thread = 0, //' >"$WORK/bt"
		cmp -s "$WORK/want" "$WORK/bt" ||
			fail "$what: babeltrace2 read: $(diff "$WORK/want" "$WORK/bt" | head -5)"
		"$UST" view "$WORK/t" | sed 's/.*stress:text: .*{ thread = 0, //' >"$WORK/view"
		cmp -s "$WORK/want" "$WORK/view" ||
			fail "$what: ust view: $(diff "$WORK/want" "$WORK/view" | head -5)"
	done
done
echo "ok: 48 lengths exact in both buffer modes, with and without context"
