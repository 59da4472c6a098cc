#!/bin/sh
# fork() then exec(): the parent, the fork child and the exec'd program
# each write a trace; the calls after the exec are counted exactly.
. "$top_srcdir/tests/functions/lib.sh"

record "$WORK/t" "$CALLS" forkexec
set -- "$WORK"/t/calls-*
[ $# -eq 3 ] || fail "expected 3 traces (parent, fork child, exec), got: $*"
ok_parent=0 ok_exec=0
for dir; do
	"$FUNCS" "$dir" >"$WORK/funcs" || fail "funcs $dir: $(cat "$WORK/funcs")"
	grep -q "unmatched=0" "$WORK/funcs" || fail "unmatched in $dir"
	if grep -qxF "fib 15 15" "$WORK/funcs"; then
		expect "$WORK/funcs" "leaf 3 3"
		expect "$WORK/funcs" "run_forkexec 1 1"
		ok_parent=1
	elif grep -qxF "fib 177 177" "$WORK/funcs"; then
		expect "$WORK/funcs" "leaf 7 7"
		expect "$WORK/funcs" "main 1 1"
		ok_exec=1
	fi
done
[ $ok_parent = 1 ] && [ $ok_exec = 1 ] || fail "parent or exec'd trace missing"
