#!/bin/sh
# Providers in shared objects: one linked by the program next to a
# provider compiled into it (two facilities in one program), and one
# LD_PRELOADed into a program that knows nothing of ust.  Both traces are
# read back by babeltrace2, every event and value exact.
. "$top_srcdir/tests/integration/lib.sh"

need_babeltrace2

# events DIR: the events of the trace in DIR, "name: payload" per line.
events() {
	babeltrace2 "$1" 2>"$WORK/bt" |
		sed 's/^[^)]*) [^ ]* \([a-z]*:[a-z_]*\): { cpu_id = [0-9]* }, { vtid = [0-9]* },* */\1: /' ||
		fail "babeltrace2 $1: $(cat "$WORK/bt")"
	[ ! -s "$WORK/bt" ] || fail "babeltrace2 $1 printed: $(cat "$WORK/bt")"
}

"$UST" record -o "$WORK/linked" -- "$top_builddir/tests/integration/so-linked" \
	>"$WORK/out" 2>"$WORK/err" || fail "ust record so-linked: $(cat "$WORK/err")"
grep -q "4 events written, 0 lost" "$WORK/err" || fail "summary: $(cat "$WORK/err")"
events "$WORK/linked" >"$WORK/got"
cat >"$WORK/want" <<'END'
other:strings: { value = -5 }
types:floats: { f = 0.5, d = -2 }
other:empty: { }
other:strings: { value = 2147483647 }
END
cmp -s "$WORK/want" "$WORK/got" || fail "linked provider: $(diff "$WORK/want" "$WORK/got")"

preload=$(sed -n "s/^dlname='\(.*\)'/\1/p" "$top_builddir/tests/integration/libsopreload.la")
[ -n "$preload" ] || fail "libsopreload.la names no shared object"
preload="$(cd "$top_builddir/tests/integration/.libs" && pwd)/$preload"
# Under the sanitizer lanes (tests/extended), a sanitizer runtime must be
# loaded before the instrumented library: preload it first.
runtime=$(ldd "$preload" | sed -n 's/^[[:space:]]*lib[at]san[^ ]* => \([^ ]*\).*/\1/p' | head -n 1)
"$UST" record -o "$WORK/preloaded" -- env LD_PRELOAD="${runtime:+$runtime }$preload" \
	"$top_builddir/tests/integration/so-target" \
	>"$WORK/out" 2>"$WORK/err" || fail "ust record so-target: $(cat "$WORK/err")"
grep -q "3 events written, 0 lost" "$WORK/err" || fail "summary: $(cat "$WORK/err")"
# The preloaded library reaches the consumer too: it must not trace it.
[ "$(find "$WORK/preloaded" -name metadata | wc -l)" -eq 1 ] ||
	fail "more than one trace: $(find "$WORK/preloaded" -name metadata)"
events "$WORK/preloaded" >"$WORK/got"
for i in 1 2 3; do
	echo "compound:tagged: { id = $i, kind = ( \"TEXT\" : container = 0 ), value = { \"getppid\" }, end = 0 }"
done >"$WORK/want"
cmp -s "$WORK/want" "$WORK/got" || fail "preloaded provider: $(diff "$WORK/want" "$WORK/got")"
echo "ok: linked and preloaded providers, every event exact"
