#!/bin/sh
# The statedump API of <ust/ust.h> used by a program itself: once
# ust_statedump_enable() is called, the loaded objects are described
# (lttng_ust_statedump:bin_info, the program and a library loaded before
# included), ust_statedump_dl_sync() then records what dlopen() loaded
# (lttng_ust_dl:dlopen) and dlclose() unloaded; before
# ust_statedump_enable() it records nothing.  Read back by babeltrace2.
. "$top_srcdir/tests/functions/lib.sh"

need_babeltrace2
APP=$top_builddir/tests/functions/statedump-app
APP_PATH=$(readlink -f "$APP")
FIRST=$(readlink -f "$top_builddir/tests/functions/.libs/libsdfirst.so")
SECOND=$(readlink -f "$top_builddir/tests/functions/.libs/libsdsecond.so")

# sd_record NAME [--no-enable]: record statedump-app's statedump events
# into $WORK/NAME; babeltrace2's text in $WORK/NAME.bt.
sd_record() {
	name=$1
	shift
	"$UST" record -e 'lttng_ust_statedump:*' -e 'lttng_ust_dl:*' -o "$WORK/$name" -- \
		"$APP" "$@" "$FIRST" "$SECOND" >"$WORK/$name.out" 2>"$WORK/$name.err" ||
		fail "ust record: $(cat "$WORK/$name.err")"
	grep -qx 'tracing=1' "$WORK/$name.out" || fail "not traced: $(cat "$WORK/$name.out")"
	babeltrace2 "$WORK/$name" >"$WORK/$name.bt" 2>"$WORK/$name.bt.err" ||
		fail "babeltrace2: $(cat "$WORK/$name.bt.err")"
	[ ! -s "$WORK/$name.bt.err" ] || fail "babeltrace2 warned: $(cat "$WORK/$name.bt.err")"
	grep -q " $(wc -l <"$WORK/$name.bt") events\? written, 0 lost" "$WORK/$name.err" ||
		fail "ust record's summary: $(cat "$WORK/$name.err")"
}

# count NAME EVENT [PATH]: the EVENT records of trace NAME (whose path
# field is PATH).
count() {
	grep " $2: " "$WORK/$1.bt" | grep -cF "${3:+path = \"$3\"}" || true
}

# expect_count N NAME EVENT [PATH]
expect_count() {
	n=$1
	shift
	[ "$(count "$@")" = "$n" ] ||
		fail "$(count "$@") $2 records${3:+ of $3}, expected $n: $(grep " $2: " "$WORK/$1.bt")"
}

sd_record on
expect_count 1 on lttng_ust_statedump:start
expect_count 1 on lttng_ust_statedump:end
expect_count 1 on lttng_ust_statedump:bin_info "$APP_PATH"
# Loaded before ust_statedump_enable(): in the statedump, not a dlopen.
expect_count 1 on lttng_ust_statedump:bin_info "$FIRST"
expect_count 0 on lttng_ust_dl:dlopen "$FIRST"
# Loaded after: one dlopen record, with dlopen's flags (RTLD_NOW = 2, in
# hexadecimal as LTTng-UST declares them).
expect_count 0 on lttng_ust_statedump:bin_info "$SECOND"
expect_count 1 on lttng_ust_dl:dlopen
expect_count 1 on lttng_ust_dl:dlopen "$SECOND"
grep ' lttng_ust_dl:dlopen: ' "$WORK/on.bt" | grep -q ', flags = 0x2, ' ||
	fail "dlopen flags: $(grep ' lttng_ust_dl:dlopen: ' "$WORK/on.bt")"
base=$(sed -n 's/.* lttng_ust_dl:dlopen: .*baddr = \(0x[0-9A-Fa-f]*\),.*/\1/p' "$WORK/on.bt")
[ -n "$base" ] || fail "no baddr in the dlopen record"
expect_count 1 on lttng_ust_dl:dlclose
grep ' lttng_ust_dl:dlclose: ' "$WORK/on.bt" | grep -q "{ baddr = $base }" ||
	fail "dlclose of $base: $(grep ' lttng_ust_dl:dlclose: ' "$WORK/on.bt")"
# In time order: the statedump, then the dlopen, then the dlclose.
line_of() { grep -n " $1: " "$WORK/on.bt" | head -n 1 | cut -d: -f1; }
[ "$(line_of lttng_ust_statedump:end)" -lt "$(line_of lttng_ust_dl:dlopen)" ] &&
[ "$(line_of lttng_ust_dl:dlopen)" -lt "$(line_of lttng_ust_dl:dlclose)" ] ||
	fail "order: $(grep -n ' lttng_ust_statedump:end: \| lttng_ust_dl:' "$WORK/on.bt")"

# Never enabled: dlopen, dlclose and their syncs record nothing.
sd_record off --no-enable
[ ! -s "$WORK/off.bt" ] || fail "recorded without ust_statedump_enable(): $(head -n 3 "$WORK/off.bt")"
echo "ok: statedump and dl records of the API, none before it is enabled"
