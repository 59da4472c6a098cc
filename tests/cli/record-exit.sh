#!/bin/sh
# ust record exits with CMD's status, as a shell would.
. "$srcdir/lib.sh"

out_dir=$WORK/out

run "$UST" record -o "$out_dir" -- sh -c 'exit 3'
expect_rc 3
expect_err "$(no_trace sh)"

run "$UST" record -o "$out_dir" -- true
expect_rc 0
expect_err "$(no_trace true)"

run "$UST" record -o "$out_dir" -- false
expect_rc 1

# Killed by signal N: 128 + N.
run "$UST" record -o "$out_dir" -- sh -c 'kill -9 $$'
expect_rc 137
expect_err "$(no_trace sh)"
run "$UST" record -o "$out_dir" -- sh -c 'kill -TERM $$'
expect_rc 143

# stdout and the arguments reach CMD untouched.
run "$UST" record -o "$out_dir" -- printf '%s|' a 'b c' ''
expect_rc 0
expect_out "a|b c||"

# CMD cannot be run: 127 when not found, 126 when not executable.
expect_fail 127 "ust record: cannot run 'ust-no-such-command': No such file or directory" -- \
	"$UST" record -o "$out_dir" -- ust-no-such-command
expect_fail 127 "ust record: cannot run '$WORK/missing': No such file or directory" -- \
	"$UST" record -o "$out_dir" -- "$WORK/missing"
printf '#!/bin/sh\nexit 0\n' >"$WORK/noexec"
chmod 0644 "$WORK/noexec"
expect_fail 126 "ust record: cannot run '$WORK/noexec': Permission denied" -- \
	"$UST" record -o "$out_dir" -- "$WORK/noexec"
expect_fail 126 "ust record: cannot run '$WORK': Permission denied" -- \
	"$UST" record -o "$out_dir" -- "$WORK"

# Nothing is left behind in the output directory: no summary directory,
# no probe file.
left=$(ls -A "$out_dir")
[ -z "$left" ] || fail "left in the output directory: $left"
exit 0
