# lib.sh - shared set-up of the function-tracing tests (sourced), on top
# of the integration tests' (tests/lib/common.sh, UST_CONSUMERD, STRESS).
# SPDX-License-Identifier: GPL-2.0-only
. "$top_srcdir/tests/integration/lib.sh"

CALLS="$top_builddir/tests/functions/calls"
FUNCS="$top_builddir/tests/functions/funcs"
PLUGIN="$top_builddir/tests/functions/.libs/libplugin.so"
export UST_CYG_PROFILE_LIB="$top_builddir/libust/.libs/libust-cyg-profile.so"

# In the ASan lane (tests/extended) the preloaded library, linked with
# libasan, is loaded before the program's libasan: tell ASan that this
# order is intended.
if ldd "$CALLS" 2>/dev/null | grep -q libasan; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
fi

# record OUTDIR CMD...: trace CMD's functions, fail on any loss.
record() {
	out=$1
	shift
	"$UST" record --functions -o "$out" -- "$@" >"$WORK/cmd.out" 2>"$WORK/rec.err" ||
		fail "ust record: $(cat "$WORK/rec.err")"
	grep -q " 0 lost" "$WORK/rec.err" || fail "events lost: $(cat "$WORK/rec.err")"
}

# The only trace directory under $1 whose name starts with $2.
trace_dir() {
	set -- "$1"/"$2"-*
	[ $# -eq 1 ] && [ -d "$1" ] || fail "expected one trace $*"
	echo "$1"
}

# count_calls CMD...: record CMD, then count its one trace's calls into
# $WORK/funcs; $dir is the trace.
count_calls() {
	record "$WORK/t" "$@"
	dir=$(trace_dir "$WORK/t" calls)
	"$FUNCS" "$dir" >"$WORK/funcs" || fail "funcs: $(cat "$WORK/funcs")"
}

# expect FILE LINE: FILE has exactly LINE.
expect() {
	grep -qxF -- "$2" "$1" || fail "missing '$2' in: $(cat "$1")"
}
