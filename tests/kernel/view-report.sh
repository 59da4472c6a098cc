#!/bin/sh
# Our reader on a real user + kernel session: `ust view` prints exactly
# what babeltrace2 prints (merged, so time-ordered like it), its
# timestamps never go back, and `ust report` counts the workload's
# getppid() calls of its thread as babeltrace2 sees them.
. "$top_srcdir/tests/kernel/lib.sh"

N=40
record_kernel $N --kernel
for dir in "$WORK/t" "$WORK/t/kernel"; do
	view_as_babeltrace2 "$dir"
	cmp -s "$WORK/ust.err" "$WORK/bt.err" ||
		fail "ust view $dir warns unlike babeltrace2: $(cat "$WORK/ust.err")"
done

# Merged order: HH:MM:SS.NNNNNNNNN never decreases (the run is short, so
# it cannot cross midnight twice; one crossing is allowed).
"$UST" view --clock-gmt "$WORK/t" | awk '
	{ t = substr($1, 2, 18); if (t < prev) back++; prev = t }
	END { exit back > 1 }' || fail "ust view: merged timestamps go back"

# The workload thread's getppid() calls, entry and exit paired by tid.
bt_calls=$(grep -c "syscall_exit_getppid: .*{ tid = $TID, pid = $TID }" "$WORK/bt.txt" || true)
[ "$bt_calls" -eq $N ] || fail "babeltrace2 sees $bt_calls getppid exits of tid $TID, want $N"
"$UST" report --syscalls "$WORK/t" >"$WORK/report" 2>"$WORK/report.err" ||
	fail "ust report: $(cat "$WORK/report.err")"
all=$(grep -c "syscall_exit_getppid: " "$WORK/bt.txt" || true)
got=$(awk '$1 == "getppid" { print $2 }' "$WORK/report")
[ "$got" = "$all" ] ||
	fail "ust report counts ${got:-no} getppid calls, babeltrace2 sees $all exits: $(cat "$WORK/report")"
exit 0
