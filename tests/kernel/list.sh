#!/bin/sh
# --kernel=LIST picks tracepoints by glob; a glob that matches nothing
# stops ust record before CMD runs (exit 2), leaving no instance.
. "$top_srcdir/tests/kernel/lib.sh"

record_kernel 10 --kernel='sched:sched_switch,irq:softirq_*,sys_enter_getppid'
$CHECK "$WORK/t" --classes sched_switch,irq_softirq_entry,irq_softirq_exit,irq_softirq_raise,syscall_entry_getppid

rm -rf "$WORK/t"
rc=0
"$UST" record --kernel=sched:sched_switch,nosuch:thing -o "$WORK/t" -- "$KWORK" 1 >"$WORK/out" 2>"$WORK/err" || rc=$?
[ "$rc" = 2 ] || fail "exit status $rc, not 2"
grep -qx "ust record: --kernel: no kernel tracepoint matches 'nosuch:thing' (see /sys/kernel/tracing/available_events)" "$WORK/err" ||
	fail "message: $(cat "$WORK/err")"
[ ! -s "$WORK/out" ] || fail "CMD ran: $(cat "$WORK/out")"
[ -z "$(stale_instances)" ] || fail "instance left: $(stale_instances)"

rc=0
"$UST" record --kernel= -o "$WORK/t" -- "$KWORK" 1 >/dev/null 2>"$WORK/err" || rc=$?
[ "$rc" = 2 ] || fail "exit status $rc for an empty list"
grep -qx "ust record: invalid --kernel '': an empty list" "$WORK/err" ||
	fail "message: $(cat "$WORK/err")"
