#!/bin/sh
# edges.sh - a string filter decided before the probe measures the string
# (doc/filters.md, "Strings are measured after the filter"): fltapp edges
# records fa:text with strings that end where their page ends, the next
# page inaccessible, so a read past a NUL kills the program; an empty
# string; a 3000-byte string; other fields around them.  For each
# expression the trace holds exactly the records it keeps, read back by
# babeltrace2 and by `ust view`, with their strings whole.
. "$top_srcdir/tests/filter/lib.sh"

# EXPR@the n of the records kept
cat >"$WORK/cases" <<'CASES'
text == "hello*"@0 3
text == "*edge*"@0
text == "*edge"@0
text == ""@1
text == "*"@0 1 2 3
text != "h*"@1 2
text == "x*"@2
text == "*xy*"@
text == "*x"@2
text == "*e*" && after > 100@3
count == 7 || text == "x*"@1 2
other == "t*"@3
other == ""@0
CASES

xs=$(printf '%3000s' '' | tr ' ' x)
k=0
while IFS='@' read -r expr want; do
	k=$((k + 1))
	ctx="fa:text --filter '$expr'"
	record "$WORK/t$k" -e fa:text --filter "$expr" -- "$FLTAPP" edges
	same_numbers "$WORK/t$k" fa:text "$want"
done <"$WORK/cases"

# The strings recorded whole (`text == "*"` keeps every record).
for reader in babeltrace2 view; do
	case $reader in
	babeltrace2) babeltrace2 "$WORK/t5" >"$WORK/out" 2>&1 ;;
	view) "$UST" view "$WORK/t5" >"$WORK/out" 2>&1 ;;
	esac || fail "$reader: $(cat "$WORK/out")"
	for s in '"hello edge"' '""' "\"$xs\"" '"hello"'; do
		grep -qF "text = $s" "$WORK/out" ||
			fail "$reader: no record with text = $(printf '%.20s' "$s")..."
	done
	grep -qF 'other = "tail"' "$WORK/out" || fail "$reader: no other = \"tail\""
done
echo "ok: $k expressions on strings at the end of their page"
