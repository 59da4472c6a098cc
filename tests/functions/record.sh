#!/bin/sh
# ust record --functions: LD_PRELOAD appended, -e patterns still get the
# function events, a missing library is a clear error.
. "$top_srcdir/tests/functions/lib.sh"

# An existing LD_PRELOAD is kept (first), ours appended.
LD_PRELOAD=/nonexistent-but-harmless.so "$UST" record --functions -o "$WORK/t" -- \
	sh -c 'echo "$LD_PRELOAD"' >"$WORK/out" 2>"$WORK/err" || true
expect "$WORK/out" "/nonexistent-but-harmless.so:$UST_CYG_PROFILE_LIB"

# -e narrows the other events; the function events stay on.
"$UST" record --functions -e 'nothing:*' -o "$WORK/t2" -- "$CALLS" counts 5 2 \
	>/dev/null 2>"$WORK/err" || fail "record: $(cat "$WORK/err")"
"$FUNCS" "$(trace_dir "$WORK/t2" calls)" >"$WORK/funcs"
expect "$WORK/funcs" "fib 15 15"

# No library: one line saying what is missing and how to fix it.
if UST_CYG_PROFILE_LIB=/nope/libust-cyg-profile.so "$UST" record --functions \
	-o "$WORK/t3" -- true 2>"$WORK/err"; then
	fail "record without the library succeeded"
fi
expect "$WORK/err" "ust record: --functions: cannot read '/nope/libust-cyg-profile.so': No such file or directory (install ust, or set UST_CYG_PROFILE_LIB to the library's path)"

# Usage errors of the layouts and the hooks' filters: one line, status 2.
usage_error() {	# MESSAGE ARGS...
	msg=$1; shift
	st=0
	"$UST" record -o "$WORK/t4" "$@" -- "$CALLS" counts 3 1 >/dev/null 2>"$WORK/err" || st=$?
	[ "$st" = 2 ] || fail "ust record $*: exit $st, want 2: $(cat "$WORK/err")"
	expect "$WORK/err" "$msg"
}
usage_error "ust record: invalid --functions 'uftrace': a layout is compact (the default), full, lttng-fast or lttng" \
	--functions=uftrace
usage_error "ust record: invalid --time-filter '1h': a duration from 1ns, with ns (the default), us, ms or s" \
	--functions --time-filter=1h
usage_error "ust record: invalid --depth '0': a depth from 1" --functions --depth=0
usage_error "ust record: invalid --filter-func '': function names or globs, comma-separated" \
	--functions --filter-func=
usage_error "ust record: --time-filter, --depth, --filter-func and --exclude-func need --functions with per-thread buffers" \
	--depth=3
usage_error "ust record: --time-filter, --depth, --filter-func and --exclude-func need --functions with per-thread buffers" \
	--functions --buffers=per-cpu --exclude-func=fib
# libust: a filter without per-thread buffers is reported and left out.
UST_TRACE='*' UST_OUTPUT="$WORK/t5" UST_FUNC_DEPTH=2 LD_PRELOAD="$UST_CYG_PROFILE_LIB" \
	"$CALLS" counts 3 1 2>"$WORK/err" || fail "calls: $(cat "$WORK/err")"
expect "$WORK/err" "ust: ignoring UST_FUNC_DEPTH='2': function filters need per-thread buffers (UST_BUFFERS=per-thread)"
# No function matching --filter-func: said, and nothing recorded.
"$UST" record --functions --filter-func=no_such_function -o "$WORK/t6" -- "$CALLS" counts 3 1 \
	>/dev/null 2>"$WORK/err" || fail "record: $(cat "$WORK/err")"
expect "$WORK/err" "ust: no function matches 'no_such_function' in the symbol tables of the loaded objects"
