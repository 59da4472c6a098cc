#!/bin/sh
# libust cannot start its consumer: the program runs untraced, and ust
# record says which process and why, and exits 1 where the program
# exited 0 (before, it said "no trace was written (is 'faultapp' linked
# with libust?)" and exited 0).  Unless the program failed itself: then
# its status wins, as always.
. "$top_srcdir/tests/faults/lib.sh"

missing="$WORK/no-such-consumerd"
touch "$WORK/go"	# faultapp says its pid at the gate, open at once
rc=0
UST_CONSUMERD="$missing" "$UST" record -o "$WORK/t" -- "$APP" -n 100 -g "$WORK/go" \
	>"$WORK/out" 2>"$WORK/err" </dev/null || rc=$?
[ "$rc" = 1 ] || fail "exit status $rc, not 1: $(cat "$WORK/err")"
[ "$(field attempted "$WORK/out")" = 100 ] || fail "the program did not run: $(cat "$WORK/out")"
pid=$(field pid "$WORK/out")
why="cannot start '$missing': No such file or directory"
grep -qx "ust: $why; tracing disabled" "$WORK/err" ||
	fail "libust did not say why: $(cat "$WORK/err")"
grep -qx "ust record: error: process $pid: $why" "$WORK/err" ||
	fail "ust record did not say which process and why: $(cat "$WORK/err")"
grep -q "no trace was written" "$WORK/err" &&
	fail "blamed on the link: $(cat "$WORK/err")"
[ -z "$(ls "$WORK/t")" ] || fail "something was written: $(ls -a "$WORK/t")"

# The program's own failure is its exit status, and the error is said.
rc=0
UST_CONSUMERD="$missing" "$UST" record -o "$WORK/t" -- sh -c "'$APP' -n 1; exit 3" \
	>"$WORK/out" 2>"$WORK/err" </dev/null || rc=$?
[ "$rc" = 3 ] || fail "exit status $rc, not 3: $(cat "$WORK/err")"
grep -q "^ust record: error: process [0-9]*: $why\$" "$WORK/err" ||
	fail "ust record did not say why: $(cat "$WORK/err")"
echo ok
