#!/bin/sh
# ust --help, --version, help and the command dispatch.
. "$srcdir/lib.sh"

run "$UST" --help
expect_rc 0
expect_err ""
printf '%s\n' "$out" | grep -q '^Usage: ust \[OPTION\.\.\.\] COMMAND \[ARGS\]$' ||
	fail "--help: no usage line in [$out]"
printf '%s\n' "$out" | grep -q '^  record ' || fail "--help: record not listed"
for cmd in view report export snapshot list ctl; do
	printf '%s\n' "$out" | grep -q "^  $cmd " || fail "--help: $cmd not listed"
done

run "$UST" -h
expect_rc 0

run "$UST" --version
expect_rc 0
expect_err ""
printf '%s\n' "$out" | grep -qx 'ust [0-9][0-9.]*[a-z0-9.~-]*' ||
	fail "--version: got [$out]"

for args in "help record" "record --help" "record -h"; do
	# shellcheck disable=SC2086
	run "$UST" $args
	expect_rc 0
	expect_err ""
	printf '%s\n' "$out" | grep -q '^Usage: ust record \[OPTION\.\.\.\] -- CMD \[ARGS\]$' ||
		fail "'ust $args': no usage line in [$out]"
	for opt in --output --event --overwrite --flight-recorder --subbuf-size \
		   --subbuf-count --read-timer --help; do
		printf '%s\n' "$out" | grep -q -- "$opt" ||
			fail "'ust $args' does not document $opt"
	done
done

for args in "help snapshot" "snapshot --help" "snapshot -h"; do
	# shellcheck disable=SC2086
	run "$UST" $args
	expect_rc 0
	expect_err ""
	printf '%s\n' "$out" | grep -q '^Usage: ust snapshot \[OPTION\.\.\.\] PID$' ||
		fail "'ust $args': no usage line in [$out]"
	for opt in --output --reason --timeout --help; do
		printf '%s\n' "$out" | grep -q -- "$opt" ||
			fail "'ust $args' does not document $opt"
	done
done

run "$UST" help
expect_rc 0
printf '%s\n' "$out" | grep -q '^  record ' || fail "'ust help': record not listed"

for cmd in frobnicate; do
	expect_fail 2 "ust: unknown command '$cmd' (see 'ust --help')" -- "$UST" "$cmd"
	expect_fail 2 "ust: unknown command '$cmd' (see 'ust --help')" -- "$UST" help "$cmd"
done

expect_fail 2 "ust: --frobnicate: unknown option" -- "$UST" --frobnicate

# No command at all: the help, on stderr.
run "$UST"
expect_rc 2
expect_out ""
printf '%s\n' "$err" | grep -q '^Usage: ust ' || fail "no usage on stderr: [$err]"
exit 0
