#!/bin/sh
# Contexts chosen per recording (ust record --context, UST_CONTEXT), as
# LTTng names them: every value read back by python3-bt2 for the threads
# that recorded it (vtid, vpid, procname before and after a rename,
# pthread_id, ip resolved to the marked call-site line), `ust view` equal
# to babeltrace2 byte for byte, each context costing exactly its bytes,
# the procname cut to 15 characters like the kernel's (and LTTng's), and
# bad lists refused with the reason.
. "$top_srcdir/tests/compat/lib.sh"

# 1. Every context, one trace: values and call sites.
record all --context=vtid,vpid,procname,ip,pthread_id -- "$APP" contexts
t=$(trace_dir "$WORK/all")
same_view "$t"
$CHECK contexts "$t" "$WORK/all.out" "$APP" "$top_srcdir/tests/compat/ctxapp.c" ctxapp ||
	fail "context values"
grep -q 'ctxapp:hit: { cpu_id = [0-9]* }, { vtid = [0-9]*, vpid = [0-9]*, procname = "worker-two", pthread_id = [0-9]*, ip = [0-9]* }, { n = 11 }$' "$t.bt" ||
	fail "no renamed worker event in: $(grep 'n = 11' "$t.bt")"

# 2. The same list, in another order and through UST_CONTEXT: the same
# record layout (the order is ust's, not the list's).
UST_CONTEXT=ip,pthread_id,procname,tid,vpid record env -- "$APP" contexts
t=$(trace_dir "$WORK/env")
$CHECK contexts "$t" "$WORK/env.out" "$APP" "$top_srcdir/tests/compat/ctxapp.c" ctxapp ||
	fail "UST_CONTEXT: context values"

# 3. Each context alone costs its bytes: 1000 ctxapp:hit (4-byte payload)
# with no statedump (UST_TRACE given directly), measured record by record.
for c in none vtid vpid procname pthread_id ip; do
	case $c in
	none) bytes=0 ;;
	vtid | vpid) bytes=4 ;;
	procname) bytes=17 ;;
	pthread_id | ip) bytes=8 ;;
	esac
	UST_TRACE='ctxapp:*' UST_CONTEXT=$c traced_directly "$WORK/size-$c" loop 1000
	[ ! -s "$WORK/size-$c.err" ] || fail "UST_CONTEXT=$c: $(cat "$WORK/size-$c.err")"
	$SIZES "$WORK/size-$c" "$bytes" 4 >"$WORK/size-$c.txt" || fail "$(cat "$WORK/size-$c.txt")"
	grep -q "^records=1000 .* bytes_per_compact_record=$((8 + bytes))\$" "$WORK/size-$c.txt" ||
		fail "UST_CONTEXT=$c: $(cat "$WORK/size-$c.txt")"
	same_view "$WORK/size-$c"
done
grep -q "_vtid" "$WORK"/size-none/*/metadata && fail "context none: metadata declares _vtid"
[ "$(grep -c 'ctxapp:hit: { cpu_id = [0-9]* }, { ip = [0-9]* }, { n = [0-9]* }$' "$WORK/size-ip.bt")" -eq 1000 ] ||
	fail "ip alone: $(head -n 1 "$WORK/size-ip.bt")"

# 4. The procname is the thread's name, 15 characters at most: a program
# with a longer name records its first 15, as LTTng does.
cp "$APP" "$WORK/ctxapp-with-a-much-longer-name"
record long --context=procname -- "$WORK/ctxapp-with-a-much-longer-name" loop 2
t=$(trace_dir "$WORK/long")
same_view "$t"
[ "$(grep -c ', { procname = "ctxapp-with-a-m" }, { n = [01] }$' "$t.bt")" -eq 2 ] ||
	fail "long name: $(cat "$t.bt")"
grep -q '^	procname = "ctxapp-with-a-m";$' "$t/metadata" || fail "env procname of the long name"

# 5. Bad lists: ust record refuses them (status 2) and says why...
bad() {
	"$UST" record "--context=$1" -o "$WORK/bad" -- true >/dev/null 2>"$WORK/bad.err" &&
		fail "--context=$1 accepted"
	[ "$(cat "$WORK/bad.err")" = "ust record: invalid --context '$1': $2 (contexts: vtid (or tid), vpid, procname, ip, pthread_id, or none)" ] ||
		fail "--context=$1: $(cat "$WORK/bad.err")"
}
bad "" "empty context name"
bad "vtid,,ip" "empty context name"
bad "vtid," "empty context name"
bad "none,vtid" "'none' cannot be combined with other contexts"
bad "vtid,none" "'none' cannot be combined with other contexts"
bad "vtid,pid" "unknown context 'pid'"
bad "VTID" "unknown context 'VTID'"
"$UST" record --context=pid -o "$WORK/bad" -- true >/dev/null 2>&1 || rc=$?
[ "${rc:-0}" -eq 2 ] || fail "--context=pid: exit status ${rc:-0}, expected 2"

# ...and libust warns and keeps the default (the vtid).
UST_CONTEXT=vtid,bogus record warn -- "$APP" loop 1
grep -qxF "ust: ignoring UST_CONTEXT='vtid,bogus': unknown context 'bogus'" "$WORK/warn.err" ||
	fail "UST_CONTEXT=vtid,bogus: $(cat "$WORK/warn.err")"
t=$(trace_dir "$WORK/warn")
same_view "$t"
grep -q 'ctxapp:hit: { cpu_id = [0-9]* }, { vtid = [0-9]* }, { n = 0 }$' "$t.bt" ||
	fail "not the default context: $(cat "$t.bt")"
echo "ok"
