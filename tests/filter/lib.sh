# lib.sh - shared set-up of the filter tests (sourced), on top of
# tests/lib/common.sh (WORK, fail, skip, UST, record_env...).
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$top_srcdir/tests/lib/common.sh"
. "$top_srcdir/tests/lib/expect_fail.sh"

FLTAPP="$top_builddir/tests/filter/fltapp"
record_env
unset FLTAPP_MARKER
need_babeltrace2

# fltapp, killed at exit if a test ends before stop_app.
app_pid=
on_exit '[ -z "$app_pid" ] || kill -9 "$app_pid" 2>/dev/null'

# numbers READER DIR EVENT: the `n` of every EVENT (fa:ints ..., fb:note) record of
# the traces under DIR, in the order READER (babeltrace2 or view) prints
# them, one line.
numbers() {
	case $1 in
	babeltrace2) out=$(babeltrace2 "$2" 2>"$WORK/reader.err") ;;
	view) out=$("$UST" view "$2" 2>"$WORK/reader.err") ;;
	esac || fail "$1 $2: $(cat "$WORK/reader.err")"
	[ ! -s "$WORK/reader.err" ] || fail "$1 $2 warned: $(cat "$WORK/reader.err")"
	printf '%s\n' "$out" | sed -n "s/.* $3: .*[{,] n = \([0-9]*\)[, ].*/\1/p" |
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

# start_app ARGS...: fltapp serve under `ust record -o $WORK/trace ARGS`
# (driven_start); sets app_pid.
start_app() { driven_start fltapp "$@" -- "$FLTAPP" serve "$WORK/answer"; }

# emit BASE: fltapp emits its ten rounds numbered from BASE.
emit() { driven_do emit "$1"; }

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
