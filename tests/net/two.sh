#!/usr/bin/env bash
# two.sh - two consumers (two connections, as two traced processes of one
# `ust record` have) giving the same session identity land in ONE relay
# session: one session directory holding both traces, which babeltrace2
# and `ust view` read as the two local traces together.  lttng-relayd
# 2.11+ matches them by the sessiond uuid and session id: its log shows
# the second connection joining the first one's trace chunk registry.
# A third connection with another session id is another session.
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$(dirname "$0")/lib.sh"

TZ=UTC start_relayd 127.0.0.1 "$WORK/relay" -vvv
A=$(record "$WORK/a" -t 1 -n 5000)
B=$(record "$WORK/b" -t 2 -n 3000 -s)
URL="net://127.0.0.1:$CTRL:$DATA"
UUID=0123456789abcdef0123456789abcdef
UUID_TEXT=01234567-89ab-cdef-0123-456789abcdef

replay() {
	local name=$1 trace=$2

	shift 2
	timeout 60 "$REPLAY" --url "$URL" --session fleet --hostname web-7 --time 1700000000 \
		--uuid "$UUID" "$@" "$trace" >"$WORK/$name.out" 2>"$WORK/$name.err"
}

# The first one stays connected while the second joins.
replay a "$A" --id 42 --hold-ms 1000 &
pa=$!
wait_line "$WORK/a.out" ready
replay b "$B" --id 42 || { cat "$WORK/b.err"; fail "replay b"; }
wait "$pa" || { cat "$WORK/a.err"; fail "replay a"; }

oa=$(value output_path "$WORK/a.out")
ob=$(value output_path "$WORK/b.out")
[ "$oa" = "web-7/fleet-20231114-221320" ] || fail "a: session directory '$oa'"
[ "$ob" = "$oa" ] || fail "b: session directory '$ob', a's is '$oa'"
[ "$(value session_id "$WORK/a.out")" != "$(value session_id "$WORK/b.out")" ] ||
	fail "one relay session id for two connections"
listing=$(cd "$WORK/relay/web-7" && ls -d */*/ | sort | tr '\n' ' ')
want=$(printf '%s/%s/ ' "fleet-20231114-221320" "$(basename "$A")" "fleet-20231114-221320" "$(basename "$B")")
[ "$listing" = "$want" ] || fail "relay output: '$listing', want '$want'"

if grep -q '^DBG' "$WORK/relay.log"; then
	joined=$(grep -c "Acquired reference to trace chunk registry of sessiond {$UUID_TEXT}" "$WORK/relay.log" || true)
	[ "$joined" = 1 ] || fail "the second connection did not join the first one's session (log: $joined joins)"
else
	echo "note: this lttng-relayd logs no debug lines; the join is checked by the directory only"
fi

bt2_text "$A" "$B" >"$WORK/local.txt"
bt2_text "$WORK/relay/$oa" >"$WORK/relay.txt"
cmp "$WORK/local.txt" "$WORK/relay.txt" || { diff "$WORK/local.txt" "$WORK/relay.txt" | head; fail "babeltrace2 differs"; }
[ "$(grep -c '^\[' "$WORK/local.txt")" = 11000 ] || fail "$(grep -c '^\[' "$WORK/local.txt") events, not 11000"
"$UST" view "$A" "$B" >"$WORK/view-local.txt"
"$UST" view "$WORK/relay/$oa" >"$WORK/view-relay.txt"
cmp "$WORK/view-local.txt" "$WORK/view-relay.txt" || fail "ust view differs"

# Another session id: another session (the same name and time give the
# same directory name, so the relay's output tells nothing; its log does).
replay c "$A" --id 43 --session other || { cat "$WORK/c.err"; fail "replay c"; }
if grep -q '^DBG' "$WORK/relay.log"; then
	grep -q "Attempting to publish trace chunk: sessiond {$UUID_TEXT}, session_id = 43, chunk_id = 0" \
		"$WORK/relay.log" || fail "session 43 not announced as its own"
fi
[ -d "$WORK/relay/web-7/other-20231114-221320/$(basename "$A")" ] || fail "no session 'other'"
echo "PASS: two connections, one relay session ($oa), 11000 events as recorded"
