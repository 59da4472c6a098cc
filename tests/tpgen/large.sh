#!/bin/sh
# large.sh - tpgen's run time grows linearly with its input: a facility
# of 50 000 events, an enum of 100 000 labels and an event of 20 000
# fields is compiled well within a bound that the quadratic versions
# overran many times (doc/tpgen.md, "Run time").
#
# SPDX-License-Identifier: GPL-2.0-only
#
# The bound, 30 s, is generous: the input takes 1.2 s of CPU here (3 s
# elapsed on a busy machine).  Before tpgen looked names up in hash sets
# and the schema lost its <interleave>, it took 49 s of CPU.

. "${srcdir:-.}/test-lib.sh"

cd "$WORK" || exit 99
EVENTS=50000
LABELS=100000
FIELDS=20000

awk -v events=$EVENTS -v labels=$LABELS -v fields=$FIELDS 'BEGIN {
	print "<?xml version=\"1.0\"?>"
	print "<facility name=\"large\">"
	print "  <description>A generated facility of many events.</description>"
	print "  <enum name=\"big\" size=\"4\">"
	for (i = 0; i < labels; i++)
		printf "    <label name=\"L%d\" value=\"%d\"/>\n", i, i - labels / 2
	print "  </enum>"
	print "  <event name=\"pick\"><field name=\"k\"><enum ref=\"big\"/></field></event>"
	print "  <event name=\"wide\">"
	for (i = 0; i < fields; i++)
		printf "    <field name=\"f%d\"><uint size=\"1\"/></field>\n", i
	print "  </event>"
	for (i = 0; i < events; i++) {
		printf "  <event name=\"e%d\" loglevel=\"TRACE_INFO\">\n", i
		printf "    <description>Event number %d.</description>\n", i
		print "    <field name=\"id\"><int size=\"4\"/></field>"
		print "    <field name=\"what\"><string/></field>"
		print "  </event>"
	}
	print "</facility>"
}' >large.xml

start=$(date +%s.%N)
timeout 30 "$TPGEN" -o . large.xml >out 2>err
status=$?
end=$(date +%s.%N)
seconds=$(echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }')
echo "tpgen took $seconds s for $EVENTS events, $LABELS labels, $FIELDS fields"
if [ $status -eq 124 ]; then
	fail "tpgen did not finish within 30 s"
elif [ $status -ne 0 ]; then
	fail "tpgen failed ($status): $(head -5 err)"
else
	pass "tpgen finished in $seconds s"
fi
# The output is complete: every event has its descriptor and its probe,
# every label its constant, the wide event every field.
[ "$(grep -c '^struct ust_event_desc __ust_event_large_' large_tp.c)" -eq $((EVENTS + 2)) ] &&
	pass "$((EVENTS + 2)) descriptors" ||
	fail "descriptors: $(grep -c '^struct ust_event_desc __ust_event_large_' large_tp.c)"
[ "$(grep -c '^	LARGE_BIG_L[0-9]* = -\{0,1\}[0-9]*,\{0,1\}$' large_tp.h)" -eq $LABELS ] &&
	grep -q "^	LARGE_BIG_L99999 = 49999$" large_tp.h &&
	pass "$LABELS enum constants" || fail "enum constants missing"
# The probe's declaration and trace_large_wide() end with the last one.
[ "$(grep -c "uint8_t f$((FIELDS - 1)))" large_tp.h)" -eq 2 ] &&
	pass "the wide event has its $FIELDS fields" ||
	fail "the wide event is incomplete"
finish
