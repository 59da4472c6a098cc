#!/usr/bin/env bash
# options.sh - the command lines of the relay options: usage errors say
# what and where, exit 2 and run nothing; a viewer with no relay or no
# session says so and exits 1; a URL path is the session's place on the
# relay (lttng's base path).
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$(dirname "$0")/lib.sh"

# usage STATUS MESSAGE CMD...: CMD exits STATUS and says exactly MESSAGE.
usage() {
	local want=$1 msg=$2 rc=0

	shift 2
	timeout 30 "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
	[ "$rc" = "$want" ] || { cat "$WORK/err"; fail "$*: exit $rc, not $want"; }
	[ "$(cat "$WORK/err")" = "$msg" ] || fail "$*: said '$(cat "$WORK/err")', not '$msg'"
}

usage 2 "ust record: invalid --relayd 'net://relay:0': column 13: port 0 out of range (1 to 65535)" \
	"$UST" record --relayd net://relay:0 -- true
usage 2 "ust record: invalid --relayd 'tcp://relay:5342': column 1: tcp:// names one port: give net://HOST[:CTRL_PORT[:DATA_PORT]], or a control URL and a data URL" \
	"$UST" record --relayd tcp://relay:5342 -- true
usage 2 "ust record: --live needs --relayd URL" "$UST" record --live -- true
usage 2 "ust record: --session needs --relayd URL" "$UST" record --session x -- true
usage 2 "ust record: invalid --live '50ms': a timer from 100ms to 3600s (in microseconds, or with ms or s)" \
	"$UST" record --relayd net://relay --live=50ms -- true
usage 2 "ust record: invalid --live '1h': a timer from 100ms to 3600s (in microseconds, or with ms or s)" \
	"$UST" record --relayd net://relay --live=1h -- true
usage 2 "ust record: invalid --session '.x': letters, digits, '.', '_' and '-' only, not starting with '.'" \
	"$UST" record --relayd net://relay --session .x -- true
usage 2 "ust view: 'net://relay/host/h/s' is a relay: follow a live session with --live, or read the relay's output directory" \
	"$UST" view net://relay/host/h/s
usage 2 "ust view: invalid URL 'net://relay/host/h': column 19: missing '/SESSION' after the HOSTNAME" \
	"$UST" view --live net://relay/host/h
usage 2 "ust view: 'net://relay' names no session: net://HOST[:PORT]/host/HOSTNAME/SESSION" \
	"$UST" view --live net://relay
read -r P1 P2 P3 < <(free_ports 127.0.0.1)
usage 1 "ust view: lttng-relayd live port at net://127.0.0.1:$P3: Connection refused" \
	"$UST" view --live "net://127.0.0.1:$P3/host/h/s"

start_relayd 127.0.0.1 "$WORK/relay"
usage 1 "ust view: no session 's' of host 'h' on lttng-relayd at net://127.0.0.1:$LIVE_PORT/host/h/s in 10 s" \
	"$UST" view --live "net://127.0.0.1:$LIVE_PORT/host/h/s"

# net://HOST:C:D/PATH: the session is HOSTNAME/PATH on the relay
mkdir "$WORK/local"
"$UST" record -o "$WORK/local" --relayd "net://127.0.0.1:$CTRL:$DATA/fleet/web" -- "$STRESS" -n 100 \
	>/dev/null 2>"$WORK/r.err" || { cat "$WORK/r.err"; fail "ust record with a path"; }
host=$(hostname | sed 's/[^A-Za-z0-9._-]/_/g')
[ "$(ls "$WORK/relay/$host/fleet/web" | wc -l)" = 1 ] || fail "relay output: $(find "$WORK/relay" -maxdepth 4)"
[ "$("$BT2" "$WORK/relay/$host/fleet/web" | wc -l)" = 100 ] || fail "trace under the path"
echo "PASS: usage errors, viewer errors, URL path"
