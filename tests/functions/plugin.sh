#!/bin/sh
# A library loaded with dlopen() and unloaded with dlclose(): described
# by lttng_ust_dl:dlopen/build_id/dlclose, its function resolved.
. "$top_srcdir/tests/functions/lib.sh"

count_calls "$CALLS" plugin "$PLUGIN" 300
expect "$WORK/funcs" "plugin_work 300 300"
expect "$WORK/funcs" "run_plugin 1 1"
expect "$WORK/funcs" "total entries=302 exits=302 unmatched=0 threads=1"
babeltrace2 "$dir" >"$WORK/bt2" || fail "babeltrace2 failed"
plugin_path=$(readlink -f "$PLUGIN")
grep ' lttng_ust_dl:dlopen: ' "$WORK/bt2" | grep -qF "path = \"$plugin_path\"" ||
	fail "no dlopen event for $plugin_path"
[ "$(grep -c ' lttng_ust_dl:build_id: ' "$WORK/bt2")" -ge 1 ] || fail "no dl build_id"
base=$(grep ' lttng_ust_dl:dlopen: ' "$WORK/bt2" | grep -F "$plugin_path" |
	sed -n 's/.*baddr = \(0x[0-9A-Fa-f]*\),.*/\1/p')
grep ' lttng_ust_dl:dlclose: ' "$WORK/bt2" | grep -q "baddr = $base }" ||
	fail "no dlclose of $base"
# ust view prints the statedump, dl and function events as babeltrace2 does.
"$UST" view "$dir" >"$WORK/view" || fail "ust view failed"
cmp -s "$WORK/bt2" "$WORK/view" || fail "ust view differs: $(diff "$WORK/bt2" "$WORK/view" | head -4)"
