# lib.sh - shared set-up of the reader tests (sourced), on top of
# tests/lib/common.sh (WORK, fail, skip, UST, record_env...).
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$top_srcdir/tests/lib/common.sh"

STRESS="$top_builddir/tests/integration/stress"
record_env

# record NAME [record options] -- stress options
record() {
	name=$1
	shift
	"$UST" record -o "$WORK/$name" "$@" >"$WORK/$name.rec" 2>&1 ||
		fail "ust record $*: $(cat "$WORK/$name.rec")"
}

# live_follow DIR PID EVENTS: once the traces under DIR have both CPUs'
# stream files (ust_0 and ust_1; skip if PID ends first), follow DIR with
# `ust view --live` while PID writes it.  Checks: something is printed
# before PID ends, the view exits 0 by itself with nothing on stderr,
# and its output is byte for byte `ust view DIR` of the finished trace,
# EVENTS lines.  The view's output stays in $WORK/live.out.
live_follow() {
	dir=$1 pid=$2 events=$3
	i=0
	until [ "$(ls "$dir"/*/ust_0 "$dir"/*/ust_1 2>/dev/null | wc -l)" = 2 ]; do
		i=$((i + 1))
		if [ $i -ge 300 ] || ! kill -0 "$pid" 2>/dev/null; then
			wait "$pid" || true
			skip "the traced program did not use both CPUs: $(ls "$dir"/* 2>&1)"
		fi
		sleep 0.1
	done
	timeout 120 "$UST" view --live "$dir" >"$WORK/live.out" 2>"$WORK/live.err" &
	view=$!
	printed=no
	while kill -0 "$pid" 2>/dev/null; do
		[ -s "$WORK/live.out" ] && { printed=yes; break; }
		sleep 0.1
	done
	wait "$pid" || fail "the traced program failed"
	set +e
	wait $view
	rc=$?
	set -e
	[ $rc = 0 ] || fail "ust view --live: exit status $rc: $(cat "$WORK/live.err")"
	[ ! -s "$WORK/live.err" ] || fail "ust view --live stderr: $(cat "$WORK/live.err")"
	[ $printed = yes ] || fail "ust view --live printed nothing while the program ran"
	"$UST" view "$dir" >"$WORK/all.out" || fail "ust view"
	[ "$(wc -l <"$WORK/all.out")" = "$events" ] ||
		fail "$(wc -l <"$WORK/all.out") events, not $events"
	cmp -s "$WORK/live.out" "$WORK/all.out" ||
		fail "live view differs from the view of the finished trace: $(diff "$WORK/all.out" "$WORK/live.out" | head -4)"
}
