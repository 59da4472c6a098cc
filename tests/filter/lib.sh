# lib.sh - shared set-up of the filter tests (sourced).
# SPDX-License-Identifier: GPL-2.0-only
set -eu

: "${top_builddir:?run from make check}"
: "${top_srcdir:?run from make check}"
UST="$top_builddir/cli/ust"
FLTAPP="$top_builddir/tests/filter/fltapp"
export UST_CONSUMERD="$top_builddir/consumer/ust-consumerd"
unset UST_TRACE UST_OUTPUT UST_MODE UST_SUBBUF_SIZE UST_SUBBUF_COUNT \
	UST_READ_TIMER_US UST_RATE_LIMIT FLTAPP_MARKER

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ust-filter.XXXXXX")
app_pid=
cleanup() {
	[ -z "$app_pid" ] || kill -9 "$app_pid" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

command -v babeltrace2 >/dev/null || skip "babeltrace2 is not installed"

# numbers READER DIR EVENT: the `n` of every EVENT (fa:ints ...) record of
# the traces under DIR, in the order READER (babeltrace2 or view) prints
# them, one line.
numbers() {
	case $1 in
	babeltrace2) out=$(babeltrace2 "$2" 2>"$WORK/reader.err") ;;
	view) out=$("$UST" view "$2" 2>"$WORK/reader.err") ;;
	esac || fail "$1 $2: $(cat "$WORK/reader.err")"
	[ ! -s "$WORK/reader.err" ] || fail "$1 $2 warned: $(cat "$WORK/reader.err")"
	printf '%s\n' "$out" | sed -n "s/.* $3: .*{ n = \([0-9]*\)[,}].*/\1/p" |
		tr '\n' ' ' | sed 's/ $//'
}

# same_numbers DIR EVENT WANT: both readers find exactly WANT.
same_numbers() {
	for reader in babeltrace2 view; do
		got=$(numbers "$reader" "$1" "$2")
		[ "$got" = "$3" ] || fail "$2 by $reader: [$got], expected [$3] ($ctx)"
	done
}

# record DIR ARGS...: `ust record -o DIR ARGS` must succeed; its stderr in $rec.
record() {
	dir=$1
	shift
	rm -rf "$dir"
	"$UST" record -o "$dir" "$@" >"$WORK/rec.out" 2>"$WORK/rec.err" ||
		fail "ust record $*: $(cat "$WORK/rec.err")"
	rec=$(cat "$WORK/rec.err")
}

. "$top_srcdir/tests/expect_fail.sh"

# start_app ARGS...: fltapp serve under `ust record -o $WORK/trace ARGS`,
# driven through fds 3 (commands) and 4 (answers); sets app_pid.
start_app() {
	mkfifo "$WORK/cmd" "$WORK/answer"
	"$UST" record -o "$WORK/trace" "$@" -- "$FLTAPP" serve "$WORK/answer" \
		<"$WORK/cmd" >"$WORK/record.out" 2>&1 &
	record_pid=$!
	exec 3>"$WORK/cmd" 4<"$WORK/answer"
	read -r word app_pid <&4 || fail "fltapp did not start: $(cat "$WORK/record.out")"
	[ "$word" = pid ] || fail "fltapp said [$word $app_pid]"
}

# emit BASE: fltapp emits its ten rounds numbered from BASE.
emit() {
	echo "emit $1" >&3
	read -r answer <&4 || answer=
	[ "$answer" = ok ] || fail "fltapp: 'emit $1' answered [$answer] ($(cat "$WORK/record.out"))"
}

# stop_app: end fltapp's input and wait until the trace is complete.
stop_app() {
	exec 3>&- 4<&-
	wait "$record_pid" || fail "ust record failed: $(cat "$WORK/record.out")"
	app_pid=
}

# seq_from BASE N...: "BASE+N1 BASE+N2 ..."
seq_from() {
	base=$1
	shift
	for k in "$@"; do
		printf '%s ' $((base + k))
	done | sed 's/ $//'
}
