#!/bin/sh
# `ust report` on a generated kernel trace whose figures are known (the
# workload is described in gen-kernel-trace.py): every section, exactly.
# `ust view` prints it exactly as babeltrace2 does, losses included.
. "$top_srcdir/tests/reader/lib.sh"

GEN="$top_srcdir/tests/report/gen-kernel-trace.py"
[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3"
/usr/bin/python3 "$GEN" "$WORK/s/kernel" || fail "gen-kernel-trace.py"
cd "$WORK"

"$UST" report --clock-gmt --top 3 --interval 0.25 s >got 2>err ||
	fail "ust report: $(cat err)"
[ ! -s err ] || fail "ust report wrote on stderr: $(cat err)"
# Derivation of each figure from the workload:
# - events: 100 write calls (entry + exit), 5 reads + the unpaired exit,
#   4 statedump tasks, 8 switches (2 at 0 ms, 500, 600, 700, 800, 900,
#   1000 ms), one of each other.
# - losses: cpu 1's second packet says 7 discarded, one seq skipped.
# - threads: 101 = 200 write events + 1 switch; 100 = 10 read + 4 irq +
#   1 wakeup + 1 switch; tid 0 = 4 statedump + the 4 switches from idle.
# - CPU: 100 ran [0,600) on cpu 0 and 101 [0,500) on cpu 1: 1.1 s of
#   the 2 s of 2 CPUs in 1 s, 55%; 200 [600,700) and 300 [800,900): 5%;
#   idle = cpu 0 [700,1000) + cpu 1 [500,800) + [900,1000) = 0.7 s.
#   Per 250 ms: 100 ran both CPUs in the first two, 100 ms of 250 in
#   the third (40%); 200 100 ms in the third; 300 100 ms in the fourth.
# - syscalls: write i us, i = 1..100, but the two whose entry ends a
#   packet of cpu 1 before its losses (7 discarded events, then a lost
#   packet), writes 15 and 46: a reader cannot know their exits are not
#   among the lost events, so they are forgotten and their exits are
#   "without their entry" (3 with read's).  98 writes: mean (5050 - 61) /
#   98 = 50.908, p99 (98th of 98) = max = 100; read 10..50 us: mean 30,
#   p99 = max = 50; openat 5 ms.
cat >want <<'EOS'
ust report: 1 trace, 2 streams, 234 events
  from [22:13:20.000000000] to [22:13:21.000000000]: 1.000000000 s
  trace vm/kernel (kernel)

== Events per type ==
       count  event
         100  syscall_entry_write
         100  syscall_exit_write
           8  sched_switch
           6  syscall_exit_read
           5  syscall_entry_read
           4  lttng_statedump_process_state
           1  irq_handler_entry
           1  irq_handler_exit
           1  irq_softirq_entry
           1  irq_softirq_exit
           1  sched_process_exec
           1  sched_process_exit
           1  sched_process_fork
           1  sched_wakeup
           1  syscall_entry_nanosleep
           1  syscall_entry_openat
           1  syscall_exit_openat

== Losses per stream ==
      events    discarded packets lost  stream
          26           0             0  vm/kernel/kernel_0
         208           7             1  vm/kernel/kernel_1
total: 7 events discarded, 1 packets lost

== Events per thread ==
       count      pid      tid  command
         201      100      101  busy [kernel]
          16      100      100  busy [kernel]
           8        0        0  swapper/0 [kernel]
(2 more threads; see --top)

== CPU usage per process (sched_switch) ==
2 CPUs over 1.000000000 s: 1.300000000 s busy, 0.700000000 s idle
      pid  command              cpu time (s)   share
      100  busy                  1.100000000   55.0%
      200  sleepy                0.100000000    5.0%
      300  worker                0.100000000    5.0%

Over time: % of one CPU per 0.250000000 s, from the first event:
     start (s)       100       200       300
   0.000000000     200.0       0.0       0.0
   0.250000000     200.0       0.0       0.0
   0.500000000      40.0      40.0       0.0
   0.750000000       0.0       0.0      40.0

== System call latency ==
syscall                   count    mean (us)     p99 (us)     max (us)
write                        98       50.908      100.000      100.000
read                          5       30.000       50.000       50.000
openat                        1     5000.000     5000.000     5000.000
unpaired: 3 exits without their entry, 1 calls not returned by the end

Slowest 3:
  [22:13:20.610000000]     5000.000 us  openat               tid 200 (sleepy)
  [22:13:20.401000000]      100.000 us  write                tid 101 (busy)
  [22:13:20.397000000]       99.000 us  write                tid 101 (busy)
EOS
cmp -s want got || fail "report differs: $(diff want got)"

# Picking sections; the default interval is a tenth of the trace.
"$UST" report --syscalls --clock-gmt --top 1 s >got || fail "ust report --syscalls"
grep -q '^== Events per type' got && fail "--syscalls printed the events section"
grep -q '^== CPU usage' got && fail "--syscalls printed the CPU section"
tail -n 2 got | head -n 1 | grep -q '^Slowest 1:$' || fail "--top 1: $(cat got)"
"$UST" report --cpu s >got || fail "ust report --cpu"
grep -q '^Over time: % of one CPU per 0.100000000 s' got || fail "default interval: $(cat got)"
[ "$(sed -n '/^ *start/,$p' got | wc -l)" = 11 ] || fail "not 10 intervals: $(cat got)"
# the third tenth [200, 300) ms: 100 ran on both CPUs
grep -Eq '^ +0\.200000000 +200\.0 +0\.0 +0\.0$' got || fail "third tenth: $(cat got)"

# `ust view` = babeltrace2, stdout and stderr (the losses)
command -v babeltrace2 >/dev/null || exit 0
for opt in "" --clock-gmt; do
	"$UST" view $opt s >u.out 2>u.err || fail "ust view $opt: $(cat u.err)"
	babeltrace2 $opt s >b.out 2>b.err || fail "babeltrace2 $opt"
	cmp -s u.out b.out || fail "view $opt differs: $(diff b.out u.out | head -4)"
	cmp -s u.err b.err || fail "view $opt stderr differs: $(diff b.err u.err | head -4)"
done
[ "$(wc -l <u.out)" = 234 ] || fail "view printed $(wc -l <u.out) events"
[ "$(wc -l <u.err)" = 2 ] || fail "not 2 loss warnings: $(cat u.err)"
