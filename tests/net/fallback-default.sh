#!/usr/bin/env bash
# fallback-default.sh - a trace that cannot stream falls back, without
# UST_RELAY_FALLBACK, to the default location as a trace that does not
# stream does: this user's own folder /tmp/ltt-usertrace/<uid> (0700,
# common/safepath.h), never the shared folder itself.  Only what this
# test created there is removed.
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$(dirname "$0")/lib.sh"

use_default_location stress-
read -r P1 P2 P3 < <(free_ports 127.0.0.1)
mkdir "$WORK/sum"
unset UST_RELAY_FALLBACK
UST_TRACE='*' UST_OUTPUT="net://127.0.0.1:$P1:$P2" UST_SUMMARY_DIR="$WORK/sum" \
	"$STRESS" -n 3000 >/dev/null 2>"$WORK/err" </dev/null
wait_summary "$WORK/sum"
t=$(value dir "$WORK"/sum/*.summary)
case "$t" in "$MINE"/stress-*) ;; *) fail "trace directory '$t', not in $MINE: $(cat "$WORK/err")" ;; esac
grep -qx "ust-consumerd: lttng-relayd at net://127.0.0.1:$P1:$P2: control port $P1: Connection refused; the trace goes on in $t" \
	"$WORK/err" || fail "message: $(cat "$WORK/err")"
[ "$(stat -c %a "$MINE")" = 700 ] || fail "$MINE mode $(stat -c %a "$MINE")"
[ "$("$BT2" "$t" | wc -l)" = 3000 ] || fail "the fallback trace"
echo "PASS: the fallback goes to $MINE"
