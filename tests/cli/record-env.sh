#!/bin/sh
# ust record hands its settings to CMD in the UST_* variables.
. "$srcdir/lib.sh"

out_dir=$WORK/out
show='echo "$UST_TRACE|$UST_MODE|$UST_OUTPUT|${UST_SUBBUF_SIZE-unset}|${UST_SUBBUF_COUNT-unset}|${UST_READ_TIMER_US-unset}"'

unset UST_TRACE UST_MODE UST_OUTPUT UST_SUBBUF_SIZE UST_SUBBUF_COUNT \
      UST_READ_TIMER_US UST_SESSION_CLOCK UST_SUMMARY_DIR UST_CONTEXT

run "$UST" record -o "$out_dir" -e a -e b --overwrite -- sh -c 'echo "$UST_TRACE $UST_MODE"'
expect_rc 0
expect_out "a,b overwrite"

# Defaults: every event, discard mode; buffer settings left to libust.
run "$UST" record -o "$out_dir" -- sh -c "$show"
expect_rc 0
expect_out "*|discard|$(cd "$out_dir" && pwd -P)|unset|unset|unset"

# Values given are passed normalized; UST_OUTPUT is absolute.
mkdir "$WORK/cwd"
(cd "$WORK/cwd" && run "$UST" record -o rel/dir -e 'app:*' -e '-app:noisy' \
	--subbuf-size 64k --subbuf-count 8 --read-timer 500 -- sh -c "$show" &&
	expect_rc 0 &&
	expect_out "app:*,-app:noisy|discard|$(cd "$WORK/cwd/rel/dir" && pwd -P)|65536|8|500") ||
	exit 1

# UST_OUTPUT is the default for -o; -o wins over it.
run env UST_OUTPUT="$WORK/from-env" "$UST" record -- sh -c 'echo "$UST_OUTPUT"'
expect_rc 0
expect_out "$(cd "$WORK/from-env" && pwd -P)"
run env UST_OUTPUT="$WORK/from-env" "$UST" record -o "$out_dir" -- sh -c 'echo "$UST_OUTPUT"'
expect_out "$(cd "$out_dir" && pwd -P)"

# --context is passed as UST_CONTEXT; without it, UST_CONTEXT is left alone.
run "$UST" record -o "$out_dir" --context=none -- sh -c 'echo "${UST_CONTEXT-unset}"'
expect_rc 0
expect_out none
run "$UST" record -o "$out_dir" -- sh -c 'echo "${UST_CONTEXT-unset}"'
expect_out unset
run env UST_CONTEXT=none "$UST" record -o "$out_dir" --context tid -- sh -c 'echo "$UST_CONTEXT"'
expect_out tid

# Buffer settings from the environment are left alone.
run env UST_SUBBUF_COUNT=16 "$UST" record -o "$out_dir" -- sh -c 'echo "$UST_SUBBUF_COUNT"'
expect_out 16

# A hidden summary directory of ours, inside the output directory, which
# exists while CMD runs and is gone afterwards.
run "$UST" record -o "$out_dir" -- sh -c \
	'echo "$UST_SUMMARY_DIR"; test -d "$UST_SUMMARY_DIR" && test -w "$UST_SUMMARY_DIR" && echo ok'
expect_rc 0
sumdir=$(printf '%s\n' "$out" | head -n 1)
case $sumdir in
"$(cd "$out_dir" && pwd -P)"/.ust-record-[0-9]*) ;;
*) fail "UST_SUMMARY_DIR is '$sumdir'" ;;
esac
[ "$(printf '%s\n' "$out" | tail -n 1)" = ok ] || fail "no summary directory while CMD runs"
[ ! -e "$sumdir" ] || fail "summary directory $sumdir left behind"

# One session clock, "kind:freq:offset_s:offset:boot-id".
run "$UST" record -o "$out_dir" -- sh -c 'echo "$UST_SESSION_CLOCK"'
expect_rc 0
printf '%s\n' "$out" |
	grep -Eqx '[a-z]+:[0-9]+:-?[0-9]+:-?[0-9]+:[0-9a-f-]{36}' ||
	fail "UST_SESSION_CLOCK is '$out'"
boot_id=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null) &&
	case $out in *":$boot_id") ;; *) fail "clock uuid is not the boot id: $out" ;; esac
exit 0
