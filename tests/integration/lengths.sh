#!/bin/sh
# Records of every size modulo 16 (a string of each length from 0 to 47,
# after 12 bytes of integers and a 4-byte header, more with a context),
# each followed by a 3-byte event passed by value (ust_event_write_small),
# read back exactly by babeltrace2 and `ust view`, in both buffer modes
# and with and without context: every tail of the writer's copy into the
# buffer (libust/rseq-commit.h) and the per-thread quick paths.
. "$top_srcdir/tests/integration/lib.sh"

CHARS=0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJK

# For L from 0 to 47: "text seq = L, msg = "<the first L characters>" }"
# then "small len = L, neg = -L }".
awk -v c="$CHARS" 'BEGIN { for (l = 0; l <= 47; l++) {
	printf "text seq = %d, msg = \"%s\" }\n", l, substr(c, 1, l)
	printf "small len = %d, neg = %d }\n", l, -l } }' >"$WORK/want"

# The events of a reader's text output, in the form above.
fields() {
	sed -n 's/.*stress:text: .*{ thread = 0, /text /p
		s/.*stress:small: .*{ len = /small len = /p'
}

for buffers in per-cpu per-thread; do
	for context in none vtid,vpid,procname; do
		what="--buffers=$buffers --context=$context"
		rm -rf "$WORK/t"
		"$UST" record --buffers="$buffers" --context="$context" -o "$WORK/t" -- \
			"$STRESS" -l >"$WORK/out" 2>"$WORK/err" ||
			fail "$what: ust record: $(cat "$WORK/err")"
		grep -q '96 events written, 0 lost' "$WORK/err" ||
			fail "$what: $(cat "$WORK/err")"
		babeltrace2 "$WORK/t" | fields >"$WORK/bt"
		cmp -s "$WORK/want" "$WORK/bt" ||
			fail "$what: babeltrace2 read: $(diff "$WORK/want" "$WORK/bt" | head -5)"
		"$UST" view "$WORK/t" | fields >"$WORK/view"
		cmp -s "$WORK/want" "$WORK/view" ||
			fail "$what: ust view: $(diff "$WORK/want" "$WORK/view" | head -5)"
	done
done
echo "ok: 48 lengths and 48 small events exact in both buffer modes, with and without context"
