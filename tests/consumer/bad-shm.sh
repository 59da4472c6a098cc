#!/bin/sh
# Shared memory that breaks the contract is refused before anything is
# created, with the reason.
. "$srcdir/lib.sh"

check_broken() {
	run_fake -s basic -o "$WORK/out" -k "$CLOCK" -n 10 -B "$1"
	[ "$STATUS" = 1 ] || fail "$1: consumer exited $STATUS"
	grep -q "^ust-consumerd: shared memory rejected: .*$2" "$WORK/err" ||
		fail "$1: message: $(cat "$WORK/err")"
	[ -z "$(ls -A "$WORK/out")" ] || fail "$1: created $(ls -A "$WORK/out")"
}

check_broken magic "bad magic 0x12345678"
check_broken subbuf "bad sub-buffer size 5000"
check_broken offset "data outside the mapping"
check_broken overlap "overlaps"
check_broken cpus "bad number of CPUs"
check_broken name "bad name"
echo "ok"
