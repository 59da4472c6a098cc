#!/bin/sh
# select.sh - `ust record -e fa:EVENT --filter EXPR`: for each operator and
# field type, fltapp records its ten rounds of known values (fltapp.c, and
# fb:note, whose first field is a string, for prefixes on it) and
# the trace holds exactly the rounds the expression selects, read back by
# babeltrace2 and by `ust view`.  One `ust record` per round of cases:
# case k of every event, each on its own -e.
. "$top_srcdir/tests/filter/lib.sh"

# EVENT@EXPR@the n of the records kept
cat >"$WORK/cases" <<'CASES'
ints@i8 < 0@0 1 2 3
ints@i8 == -25@3
ints@u8 >= 200@8 9
ints@i16 > 0 && u16 < 50000@5 6 7
ints@i32 <= -400000000@0 1 2 3 4
ints@u32 > 4000000000@9
ints@i64 != 0@0 1 2 3 4 6 7 8 9
ints@u64 < 0@5 6 7 8 9
ints@u64 == 18000000000000000000@9
ints@be32 == -3000@3
ints@be64 == 0x50000000000@5
ints@(u8 / 28) * 2 == 6@3
ints@u8 % 56 == 28@1 3 5 7 9
ints@n - 1 + 2 == 4@3
ints@n & 1@1 3 5 7 9
ints@(n | 8) == 9@1 9
ints@n ^ 3 == 0@3
ints@!(n & 1)@0 2 4 6 8
ints@~n == -8@7
ints@n << 4 == 48 || u16 >> 3 == 7000@3 8
ints@-i8 > 50@0 1
ints@n & 6 == 6@6 7
ints@n == 0x7 || n == 010@7 8
ints@!(n < 5) && n != 7@5 6 8 9
ints@$ctx.vpid > 0 && $ctx.vtid == $ctx.vpid && $ctx.cpu_id >= 0@0 1 2 3 4 5 6 7 8 9
ints@$ctx.procname == "fltapp" && n < 2@0 1
floats@f >= 2.5@5 6 7 8 9
floats@d < 0@0 1 2 3 4
floats@f * 2 == n@0 1 2 3 4 5 6 7 8 9
floats@d == -0.625@4
floats@f > d && d > -1@4 5 6 7
floats@f - 1 <= 0.5 && !f == 0@1 2 3
text@text == "alpha"@0
text@text == "*a"@0 1 2 3 9
text@text == "hello*"@7 8
text@text == "hello\*"@8
text@text == "*\**"@5 8
text@text == ""@6
text@text != other@1 3 7 9
text@other == "(null)"@9
text@after > 50 && text == "*e*"@8 9
text@count < 2 || other == "y"@0 1 3
text@'h*' == text@7 8
enums@s == "BUSY"@1 5 9
enums@s == "B*"@1 2 5 6 9
enums@s == 255@3 7
enums@d == "down"@0 3 6 9
enums@d < 0 && s != "IDLE"@3 6 9
enums@n > 6@7 8 9
enums@d >= 0@1 2 4 5 7 8
enums@d != -1@1 2 4 5 7 8
enums@s & 2@2 3 6 7
enums@d == 1@2 5 8
arrays@mac[5] == 35@3
arrays@matrix[1][2] == 16@9
arrays@names[0] == "*ta"@1 3 9
arrays@names[1] == "odd" && tail > 4@5 7 9
arrays@names[2] == "x" && mac[0] / 10 == tail@0 1 2 3 4 5 6 7 8 9
seqs@vals[0] >= 0@1 2 3 5 6 7 9
seqs@vals[2] == 32@3
seqs@words[1] == "w1"@2 5 8
seqs@words[0] == "*a"@1 2
seqs@tail == 4 || vals[3] == 0@4
seqs@vals[3] == 0 || tail == 4@
structs@origin.x == 2@2
structs@origin.y < -7@8 9
structs@box.name == "g*"@2
structs@box.corners[1].y == 10@5
structs@box.color == 0x30000@3
structs@tail > 7@8 9
variants@value.NUM >= 3000@3 6 9
variants@value.TEXT == "*t*"@1
variants@value.PAIR.y == -5@5
variants@kind == "PAIR" && tail > 4@5 8
variants@tail == 9@9
note@text == "hello*"@7 8
note@text == "a*"@0 5
note@text != "hello*"@0 1 2 3 4 5 6 9
note@text == "epsilon*"@4
note@text == "hello wo*"@7
note@text == "*"@0 1 2 3 4 5 6 7 8 9
note@text == "*a"@0 1 2 3 9
note@text == "d*" || n == 6@3 6
CASES

# The facility of an event: fb:note's first field is a string, the rest
# are fa:'s.
facility() {
	case $1 in
	note) echo fb ;;
	*) echo fa ;;
	esac
}

round=0
while :; do
	round=$((round + 1))
	: >"$WORK/args"
	: >"$WORK/want"
	for ev in ints floats text enums arrays seqs structs variants note; do
		line=$(grep "^$ev@" "$WORK/cases" | sed -n "${round}p")
		[ -n "$line" ] || continue
		expr=$(printf '%s\n' "$line" | cut -d'@' -f2)
		printf '%s\n' "-e" "$(facility "$ev"):$ev" "--filter" "$expr" >>"$WORK/args"
		printf '%s\n' "$line" >>"$WORK/want"
	done
	[ -s "$WORK/args" ] || break
	# The arguments, one a line, as positional parameters.
	set --
	while IFS= read -r a; do
		set -- "$@" "$a"
	done <"$WORK/args"
	record "$WORK/t$round" "$@" -- "$FLTAPP" once
	while IFS='@' read -r ev expr want; do
		ctx="round $round: $(facility "$ev"):$ev --filter '$expr'"
		same_numbers "$WORK/t$round" "$(facility "$ev"):$ev" "$want"
	done <"$WORK/want"
done
[ "$round" -gt 20 ] || fail "only $round rounds"
echo "ok: $(wc -l <"$WORK/cases") expressions in $((round - 1)) runs"
