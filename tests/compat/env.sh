#!/bin/sh
# The metadata's environment is an LTTng-UST 2.13 per-process trace's:
# every key with its value and type, read by python3-bt2 (trace_name is
# the output directory's name, the dates LTTng's format and the moment
# in the trace directory's name), babeltrace2 reading it without a word
# on stderr and naming each event's host, process and pid from it.
. "$top_srcdir/tests/compat/lib.sh"

mkdir "$WORK/session-one"
record session-one/out -- "$APP" loop 3
t=$(trace_dir "$WORK/session-one/out")
same_view "$t"
pid=$(sed -n 's/^pid=//p' "$WORK/session-one/out.out")
version=$("$UST" --version | sed -n 's/^ust //p')
$CHECK env "$t" "$pid" "$WORK/session-one/out" "$version" || fail "env"
[ "$(grep -c "^\[[^]]*\] ([^)]*) $(hostname):ctxapp:($pid) ctxapp:hit: " "$t.bt")" -eq 3 ] ||
	fail "babeltrace2's host:procname:(vpid): $(head -n 1 "$t.bt")"

# The same in LTTng's order, as text.
sed -n '/^env {/,/^};/p' "$t/metadata" | sed 's/ = .*//; s/^	//' | tr '\n' ' ' >"$WORK/keys"
[ "$(cat "$WORK/keys")" = "env { domain tracer_name tracer_major tracer_minor tracer_buffering_scheme tracer_buffering_id architecture_bit_width trace_name trace_creation_datetime hostname tracer_patchlevel vpid procname vpid_datetime ust_version }; " ] ||
	fail "env keys: $(cat "$WORK/keys")"
echo "ok"
