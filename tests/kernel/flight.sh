#!/bin/sh
# The kernel flight recorder: with --flight-recorder --kernel, kernel
# events go to disk only in snapshots, at the user snapshot's cut.  A
# ust_trigger() snapshot has its kernel part next to it, ending at the
# trigger's instant, with the workload's system calls; a death by SIGSEGV
# gives both sides too, the kernel's with the process's exit.
. "$top_srcdir/tests/kernel/lib.sh"

KIO="$top_builddir/tests/kernel/kio"
"$UST" record -o "$WORK/t" --flight-recorder --kernel -- "$KIO" "$WORK/out.bin" \
	100000 200000 10 trigger >"$WORK/out" 2>"$WORK/err" || fail "ust record: $(cat "$WORK/err")"
grep -qx 'trigger=0' "$WORK/out" || fail "ust_trigger: $(cat "$WORK/out")"
[ -z "$(stale_instances)" ] || fail "ftrace instance left behind: $(stale_instances)"
T=$(sed -n 's/^tid=//p' "$WORK/out")
snap=$(ls -d "$WORK"/t/kio-*-snapshot-1-kio-done)
[ -d "$snap-kernel" ] || fail "no kernel part of $snap: $(ls "$WORK/t")"
grep -qx "ust record:     snapshot $snap-kernel" "$WORK/err" ||
	fail "the summary does not list $snap-kernel: $(cat "$WORK/err")"
# The session's kernel trace holds the statedump only: no ring event.
babeltrace2 "$WORK/t/kernel" | grep -v ' lttng_statedump_' >"$WORK/rest" || true
[ ! -s "$WORK/rest" ] || fail "DIR/kernel has ring events: $(head -3 "$WORK/rest")"
$CHECK "$snap" --flight-kernel "$snap-kernel" "$T" kio-done
for dir in "$snap-kernel" "$WORK/t"; do
	babeltrace2 "$dir" >/dev/null 2>"$WORK/bterr" || fail "babeltrace2 $dir: $(cat "$WORK/bterr")"
	[ ! -s "$WORK/bterr" ] || fail "babeltrace2 $dir warns: $(cat "$WORK/bterr")"
done

# A crash: the consumer's snapshot and the kernel's, with the exit.
rm -rf "$WORK/t"
# The crash is kio's own raise(SIGSEGV): under ASan it must stay a SIGSEGV.
rc=0
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0" \
"$UST" record -o "$WORK/t" --flight-recorder --kernel -- "$KIO" "$WORK/out.bin" \
	1000 1000 1 segv >"$WORK/out" 2>"$WORK/err" || rc=$?
[ "$rc" = 139 ] || fail "exit status $rc, not 139: $(cat "$WORK/err")"
T=$(sed -n 's/^tid=//p' "$WORK/out")
snap=$(ls -d "$WORK"/t/kio-*-snapshot-1-SIGSEGV)
[ -d "$snap-kernel" ] || fail "no kernel part of $snap: $(ls "$WORK/t")"
babeltrace2 "$snap-kernel" | grep -q "sched_process_exit: .*{ comm = \"kio\", tid = $T," ||
	fail "the kernel part of $snap does not show kio's exit"
