# lib.sh - shared set-up of the per-thread buffer tests (sourced), on top
# of tests/lib/common.sh (WORK, fail, skip, UST, record_env...).
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$top_srcdir/tests/lib/common.sh"

APP="$top_builddir/tests/threads/tbuf-app"
CHECK="$BT2_PYTHON $top_srcdir/tests/threads/check_threads.py"
record_env

# The value of KEY=N in an "attempted=N handler=M grown=B" line.
field() { sed -n "s/.*$1=\([0-9-]*\).*/\1/p" "$2" | head -n 1; }

# `ust view` prints exactly what babeltrace2 prints.
same_as_babeltrace() {
	"$UST" view "$1" >"$WORK/view.txt" 2>"$WORK/view.err" ||
		fail "ust view: $(cat "$WORK/view.err")"
	babeltrace2 "$1" >"$WORK/bt.txt" 2>/dev/null ||
		fail "babeltrace2 failed on $1"
	cmp -s "$WORK/view.txt" "$WORK/bt.txt" ||
		fail "ust view differs from babeltrace2: $(diff "$WORK/view.txt" "$WORK/bt.txt" | head -n 6)"
}
