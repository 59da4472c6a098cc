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
