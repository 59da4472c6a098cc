#!/bin/sh
# ust_tracef() and ust_tracelog() (<ust/tracef.h>): LTTng-UST's events
# lttng_ust_tracef:event {msg} and lttng_ust_tracelog:TRACE_<LEVEL> {line,
# file, func, msg}, read back exactly by babeltrace2 and `ust view`; a
# message longer than UST_TRACEF_MSG_MAX cut at a character boundary;
# levels outside 0-14 record nothing; enabled and disabled by patterns
# like any event; the call site as ip; a program that does not trace runs.
. "$top_srcdir/tests/compat/lib.sh"
SRC="$top_srcdir/tests/compat/ctxapp.c"
site() { grep -n "call site: $1 \*/" "$SRC" | cut -d: -f1; }

# The events as `ust view` and babeltrace2 print them, without the time,
# host and context prefix: "NAME: { FIELDS }".
payloads() {
	sed 's/^\[[^]]*\] ([^)]*) [^ ]* \([^ ]*\) { cpu_id = [0-9]* }, { vtid = [0-9]* }, /\1 /' "$1"
}

# 1. Everything recorded, as expected, field for field.
record all -- "$APP" tracef
t=$(trace_dir "$WORK/all")
same_view "$t"
F=$(sed -n 's/^file=//p' "$WORK/all.out")	# __FILE__, as the build named it
long=$(printf '%1023s' '' | tr ' ' a)
{
	echo 'lttng_ust_tracef:event: { _msg_length = 14, msg = "hello 42 world" }'
	echo 'lttng_ust_tracef:event: { _msg_length = 12, msg = "no arguments" }'
	echo 'lttng_ust_tracef:event: { _msg_length = 0, msg = "" }'
	echo "lttng_ust_tracef:event: { _msg_length = 1023, msg = \"$long\" }"
	echo 'lttng_ust_tracef:event: { _msg_length = 5, msg = "café" }'
	level=0
	for name in EMERG ALERT CRIT ERR WARNING NOTICE INFO DEBUG_SYSTEM \
		    DEBUG_PROGRAM DEBUG_PROCESS DEBUG_MODULE DEBUG_UNIT \
		    DEBUG_FUNCTION DEBUG_LINE DEBUG; do
		msg="level $level is TRACE_$name"
		echo "lttng_ust_tracelog:TRACE_$name: { line = $(site tracelog), file = \"$F\", func = \"tracef\", _msg_length = ${#msg}, msg = \"$msg\" }"
		level=$((level + 1))
	done
	echo 'lttng_ust_tracef:event: { _msg_length = 8, msg = "v args 7" }'
	echo "lttng_ust_tracelog:TRACE_INFO: { line = $(site vtracelog), file = \"$F\", func = \"vlog\", _msg_length = 8, msg = \"v args 7\" }"
} >"$WORK/expected"
payloads "$t.bt" >"$WORK/got"
cmp -s "$WORK/expected" "$WORK/got" ||
	fail "events differ: $(diff "$WORK/expected" "$WORK/got" | cut -c 1-200 | head -n 6)"

# The metadata: LTTng's fields, types and log levels.
m="$t/metadata"
grep -qF 'integer { size = 32; align = 8; signed = false; encoding = none; base = 10; } __msg_length; integer { size = 8; align = 8; signed = true; encoding = UTF8; base = 10; } _msg[__msg_length];' "$m" ||
	fail "no LTTng msg field in the metadata"
grep -qF 'integer { size = 32; align = 8; signed = true; encoding = none; base = 10; } _line; string _file; string _func; integer' "$m" ||
	fail "no LTTng tracelog fields in the metadata"
sed -n '/name = "lttng_ust_tracelog:TRACE_WARNING";/,/^}/p' "$m" | grep -qx '	loglevel = 4;' ||
	fail "TRACE_WARNING's log level"
sed -n '/name = "lttng_ust_tracef:event";/,/^}/p' "$m" | grep -qx '	loglevel = 14;' ||
	fail "tracef's log level"

# 2. Disabled by the patterns: nothing, or exactly the level asked for.
record none -e 'ctxapp:*' -- "$APP" tracef
t=$(trace_dir "$WORK/none")
grep -q "written" "$WORK/none.err" || fail "$(cat "$WORK/none.err")"
[ ! -e "$t"/ust_0 ] && [ ! -e "$t"/ust_1 ] || [ "$(babeltrace2 "$t" | wc -l)" -eq 0 ] ||
	fail "events recorded with tracef disabled: $(babeltrace2 "$t" | head -n 2)"
record err -e 'lttng_ust_tracelog:TRACE_ERR' -- "$APP" tracef
t=$(trace_dir "$WORK/err")
same_view "$t"
[ "$(payloads "$t.bt")" = "lttng_ust_tracelog:TRACE_ERR: { line = $(site tracelog), file = \"$F\", func = \"tracef\", _msg_length = 20, msg = \"level 3 is TRACE_ERR\" }" ] ||
	fail "only TRACE_ERR: $(cat "$t.bt")"

# 3. The call site is the ip context.
record ip --context=ip -- "$APP" tracef
t=$(trace_dir "$WORK/ip")
same_view "$t"
$CHECK callsite "$t" "$WORK/ip.out" "$APP" "$SRC" lttng_ust_tracef:event tracef ||
	fail "tracef's call site"
$CHECK callsite "$t" "$WORK/ip.out" "$APP" "$SRC" lttng_ust_tracelog:TRACE_EMERG tracelog ||
	fail "tracelog's call site"

# 4. Not traced: the program runs, prints, and writes nothing.
UST_OUTPUT="$WORK/plain" timeout 30 "$APP" tracef >"$WORK/plain.out" 2>"$WORK/plain.err" ||
	fail "untraced ctxapp tracef: $(cat "$WORK/plain.err")"
[ ! -s "$WORK/plain.err" ] || fail "untraced: $(cat "$WORK/plain.err")"
[ ! -e "$WORK/plain" ] || fail "untraced: $WORK/plain was created"
grep -q '^pid=' "$WORK/plain.out" || fail "untraced: $(cat "$WORK/plain.out")"
echo "ok"
