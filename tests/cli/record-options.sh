#!/bin/sh
# ust record refuses bad command lines before it runs anything.
. "$srcdir/lib.sh"

usage="ust record: missing command to trace (usage: ust record [OPTIONS] -- CMD [ARGS])"
marker=$WORK/ran
cmd="touch $marker"

# bad OPTION VALUE MESSAGE-TAIL: `ust record OPTION VALUE -- CMD` fails.
bad() {
	# shellcheck disable=SC2086
	expect_fail 2 "ust record: invalid $1 '$2': $3" -- \
		"$UST" record -o "$WORK/out" "$1" "$2" -- $cmd
	[ ! -e "$marker" ] || fail "CMD ran despite '$1 $2'"
}

pow2_size="must be a power of two >= 4096"
for v in 3000 1000 abc 0 4095 6144 -4096 " 4096" 4096x 4k5 1T ""; do
	bad --subbuf-size "$v" "$pow2_size"
done
bad --subbuf-size 2G "must be at most 1G"
bad --subbuf-size 99999999999999999999 "$pow2_size"

for v in 3 0 1 6 abc -2 2k ""; do
	bad --subbuf-count "$v" "must be a power of two >= 2"
done
bad --subbuf-count 131072 "must be at most 65536"

for v in 99 0 10000001 abc -100 1ms ""; do
	bad --read-timer "$v" "must be from 100 to 10000000 microseconds"
done

expect_fail 2 "ust record: invalid --event '': empty pattern" -- \
	"$UST" record -o "$WORK/out" -e "" -- $cmd
expect_fail 2 "ust record: invalid --event 'a:*,b:*': one pattern per -e, without ',' or ';'" -- \
	"$UST" record -o "$WORK/out" -e 'a:*,b:*' -- $cmd
many=
i=0
while [ $i -lt 65 ]; do many="$many -e p$i"; i=$((i + 1)); done
# shellcheck disable=SC2086
expect_fail 2 "ust record: too many --event patterns: at most 64" -- \
	"$UST" record -o "$WORK/out" $many -- $cmd
expect_fail 2 "ust record: invalid --output '': empty path" -- \
	"$UST" record -o "" -- $cmd

expect_fail 2 "ust record: --frobnicate: unknown option" -- \
	"$UST" record --frobnicate -- $cmd
expect_fail 2 "ust record: -x: unknown option" -- \
	"$UST" record -x -- $cmd
expect_fail 2 "ust record: --subbuf-size: missing argument" -- \
	"$UST" record --subbuf-size
[ ! -e "$marker" ] || fail "CMD ran despite a bad option"

expect_fail 2 "$usage" -- "$UST" record
expect_fail 2 "$usage" -- "$UST" record --
expect_fail 2 "$usage" -- "$UST" record -o "$WORK/out" --overwrite
[ ! -e "$WORK/out" ] || fail "the output directory was created without CMD"

# Good values, with and without suffixes, in every spelling popt takes.
for args in "--subbuf-size 4096" "--subbuf-size=64k" "--subbuf-size 1M" \
	    "--subbuf-size 1G" "--subbuf-size 8K" "--subbuf-count 2" \
	    "--subbuf-count=65536" "--read-timer 100" "--read-timer=10000000" \
	    "-e foo:* -e -foo:bar" "--event=-x:*" "--overwrite"; do
	# shellcheck disable=SC2086
	run "$UST" record -o "$WORK/out" $args -- true
	expect_rc 0
	expect_err "$(no_trace true)"
done

# Options stop at the first word that is not one: CMD keeps its own.
run "$UST" record -o "$WORK/out" sh -c 'echo "$0 $1"' --overwrite -o
expect_rc 0
expect_out "--overwrite -o"
run "$UST" record -o "$WORK/out" -- sh -c 'echo "$1"' x --help
expect_rc 0
expect_out "--help"
exit 0
