#!/bin/sh
# Symlinks planted in the output directory under the names the consumer
# would pick do not redirect its writes: it takes the next free name.
. "$srcdir/lib.sh"

mkdir "$WORK/victim"
run_fake -s basic -o "$WORK/out" -k "$CLOCK" -n 500 -V "$WORK/victim"
[ "$STATUS" = 0 ] || fail "consumer exited $STATUS: $(cat "$WORK/err")"
no_consumer_errors
[ -z "$(ls -A "$WORK/victim")" ] || fail "wrote through a symlink: $(ls -A "$WORK/victim")"
t=$(trace_dir)
[ ! -L "$t" ] || fail "$t is a symlink"
case "$t" in *-2) ;; *) fail "expected a -2 suffix: $t" ;; esac
$CHECK "$t" "$WORK/expect" --all || exit 1
echo "ok"
