#!/bin/sh
# ust record --trigger: a snapshot cut at the first matching event, named
# after it, one per hold-off.  A user event (the consumer looks), with a
# string filter; then (root) a kernel event (the kernel filters), whose
# snapshot has both sides ending at the match; a storm of matches; the
# command-line errors.
KERNEL_LIB_ANY_USER=1
. "$top_srcdir/tests/kernel/lib.sh"
KIO="$top_builddir/tests/kernel/kio"
[ -x "$KIO" ] || skip "kio not built"

# Exactly one snapshot, named after the event; prints its directory.
one_snapshot() {
	n=$(ls -d "$WORK"/t/*-snapshot-* 2>/dev/null | grep -vc -- '-kernel$' || true)
	[ "$n" = 1 ] || fail "$n snapshots, not 1: $(ls "$WORK/t")"
	s=$(ls -d "$WORK"/t/*-snapshot-1-"$1")
	echo "$s"
}

# The last event of thread $1 in babeltrace2's output on stdin.  The cut
# is the match's time as the trigger instance saw it; the recording
# instance's own copy of the event may be stamped a little earlier, and
# other CPUs' events may then come after it, up to the cut.
last_of_thread() { grep "}, { tid = $1, pid = " | tail -n 1; }

# Errors: exit 2 and the reason.
for args in "--trigger x" "--flight-recorder --trigger syscall_exit_read" \
	    "--flight-recorder --trigger app:x --trigger-holdoff 0" \
	    "--flight-recorder --kernel --trigger 'app:x when'"; do
	rc=0
	eval "\"\$UST\" record -o \"\$WORK/t\" $args -- true" >/dev/null 2>"$WORK/err" || rc=$?
	[ "$rc" = 2 ] || fail "ust record $args: exit $rc, not 2"
done
grep -qx "ust record: invalid --trigger 'app:x when': column 7: 'if FILTER' or the end was expected after the event name" "$WORK/err" ||
	fail "message: $(cat "$WORK/err")"

# A user event with a string filter: the sleep phase's beginning.
"$UST" record -o "$WORK/t" --flight-recorder --trigger 'kio:phase_begin if phase == "sl*"' \
	-- "$KIO" "$WORK/out.bin" 1000 1000 300 >"$WORK/out" 2>"$WORK/err" ||
	fail "ust record: $(cat "$WORK/err")"
snap=$(one_snapshot kio_phase_begin)
"$UST" view "$snap" | tail -n 1 | grep -q 'kio:phase_begin: .* { phase = "sleep" }' ||
	fail "the snapshot does not end with the sleep phase: $("$UST" view "$snap" | tail -n 2)"

[ "$(id -u)" = 0 ] || skip "kernel triggers need root"
# A kernel event: both sides end at kio's nanosleep entry.
rm -rf "$WORK/t"
"$UST" record -o "$WORK/t" --flight-recorder --kernel --trigger syscall_entry_clock_nanosleep \
	-- "$KIO" "$WORK/out.bin" 1000 1000 300 >"$WORK/out" 2>"$WORK/err" ||
	fail "ust record: $(cat "$WORK/err")"
T=$(sed -n 's/^tid=//p' "$WORK/out")
snap=$(one_snapshot syscall_entry_clock_nanosleep)
[ -d "$snap-kernel" ] || fail "no kernel part: $(ls "$WORK/t")"
babeltrace2 "$snap-kernel" | last_of_thread "$T" | grep -q "syscall_entry_clock_nanosleep: .*{ tid = $T," ||
	fail "kio's part of the kernel snapshot does not end with the nanosleep: $(babeltrace2 "$snap-kernel" | last_of_thread "$T")"
"$UST" view "$snap" | tail -n 1 | grep -q 'kio:phase_begin: .* { phase = "sleep" }' ||
	fail "the user part does not end before the nanosleep: $("$UST" view "$snap" | tail -n 1)"

# A storm (every send succeeds, in a burst): one snapshot per hold-off.
rm -rf "$WORK/t"
"$UST" record -o "$WORK/t" --flight-recorder --kernel --trigger 'syscall_exit_sendto if ret > 0' \
	-- "$KIO" "$WORK/out.bin" 1000 200000 300 >"$WORK/out" 2>"$WORK/err" ||
	fail "ust record: $(cat "$WORK/err")"
T=$(sed -n 's/^tid=//p' "$WORK/out")
snap=$(one_snapshot syscall_exit_sendto)
babeltrace2 "$snap-kernel" | last_of_thread "$T" | grep -q 'syscall_exit_sendto: .*{ ret = 8192 }' ||
	fail "kio's part of the kernel snapshot does not end with a send: $(babeltrace2 "$snap-kernel" | last_of_thread "$T")"
