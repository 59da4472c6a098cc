#!/bin/sh
# A session with a user trace and a kernel trace on the same clock: the
# merged `ust view` is time-ordered, holds both, and is what babeltrace2
# prints; the report covers both traces.
. "$top_srcdir/tests/reader/lib.sh"

GEN="$top_srcdir/tests/report/gen-kernel-trace.py"
[ -x "$STRESS" ] || skip "stress not built"
[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3"
need_babeltrace2

# ~1 s of user events (2 events per ms), the kernel's 1 s starting
# half a second before the first user event
record s -- "$STRESS" -n 2000 -r 2
cd "$WORK"
user=$(ls -d s/stress-*)
first=$(babeltrace2 --clock-cycles "$user" | sed -n '1s/^\[0*\([0-9]*\)\].*/\1/p')
freq=$(sed -n 's/^\tfreq = \([0-9]*\);/\1/p' "$user/metadata")
/usr/bin/python3 "$GEN" s/kernel "$user/metadata" $((first - freq / 2)) ||
	fail "gen-kernel-trace.py"

"$UST" view --clock-gmt s >u.out 2>u.err || fail "ust view: $(cat u.err)"
babeltrace2 --clock-gmt s >b.out 2>b.err || fail "babeltrace2"
cmp -s u.out b.out || fail "merged view differs from babeltrace2: $(diff b.out u.out | head -4)"
cmp -s u.err b.err || fail "stderr differs: $(diff b.err u.err | head -4)"
[ "$(wc -l <u.out)" = $((2000 + 234)) ] || fail "$(wc -l <u.out) events, not 2234"
# time-ordered (same day: the stamps compare as text) ...
sed 's/^\[\([^]]*\)\].*/\1/' u.out >stamps
LC_ALL=C sort -c stamps || fail "merged view not time-ordered"
# ... and interleaved: kernel events between the first and last user
# events, user events between the first and last kernel events
awk '/ stress:tick: / {u = 1; if (k) ku = 1} / sched_switch: / {k = 1; if (u) uk = 1}
     END {exit !(ku && uk)}' u.out || fail "user and kernel events not interleaved"

"$UST" report --events --threads s >got 2>err || fail "ust report: $(cat err)"
grep -q '^ust report: 2 traces, [0-9]* streams, 2234 events$' got || fail "summary: $(head -n 1 got)"
grep -Eq '^ +2000  stress:tick$' got || fail "user events: $(cat got)"
grep -Eq '^ +100  syscall_entry_write$' got || fail "kernel events: $(cat got)"
grep -Eq '^ +201 +100 +101  busy \[kernel\]$' got || fail "kernel thread: $(cat got)"
