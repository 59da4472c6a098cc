#!/bin/sh
# list.sh - `ust list PROGRAM`: the events of a binary and of the shared
# libraries it needs, read from their "ust_events" sections without
# running anything, under the file that holds them; and its errors.
. "$top_srcdir/tests/control/lib.sh"

CTLLINKED="$top_builddir/tests/control/ctllinked"

out=$("$UST" list "$CTLAPP") || fail "ust list ctlapp"
[ "$out" = "$CTLAPP:
  app:a(uint32_t phase, uint32_t seq)
  app:b(uint32_t phase, uint32_t seq)" ] || fail "ust list ctlapp: [$out]"

# Its events all come from the library it links, found where the dynamic
# loader finds it.
out=$("$UST" list "$CTLLINKED") || fail "ust list ctllinked"
[ "$out" = "$LATE_SO:
  late:b(uint32_t phase, uint32_t seq)" ] || fail "ust list ctllinked: [$out]"

out=$("$UST" list "$LATE_SO") || fail "ust list libctllate.so"
[ "$out" = "$LATE_SO:
  late:b(uint32_t phase, uint32_t seq)" ] || fail "ust list libctllate.so: [$out]"

expect_fail 1 "ust list: $WORK/none: No such file or directory" \
	"$UST" list "$WORK/none"
expect_fail 1 "ust list: $top_srcdir/tests/control/app.xml: not an ELF file" \
	"$UST" list "$top_srcdir/tests/control/app.xml"
expect_fail 1 "ust list: $UST_CONSUMERD: no events (neither it nor its libraries hold tpgen providers)" \
	"$UST" list "$UST_CONSUMERD"
expect_fail 2 "ust list: expected one PID or PROGRAM (see 'ust list --help')" \
	"$UST" list
expect_fail 2 "ust list: expected one PID or PROGRAM (see 'ust list --help')" \
	"$UST" list "$CTLAPP" "$CTLAPP"
expect_fail 2 "ust list: --bogus: unknown option" "$UST" list --bogus

out=$("$UST" list --help) || fail "ust list --help"
printf '%s\n' "$out" | grep -q '^Usage: ust list PID|PROGRAM$' ||
	fail "ust list --help: [$out]"
echo "PASS: ust list PROGRAM"
