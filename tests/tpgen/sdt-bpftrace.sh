#!/bin/sh
# sdt-bpftrace.sh - bpftrace hooks the USDT probes of generated code and
# reads their arguments exactly, also while `ust record` traces the same
# program (both see every event); a --no-sdt program has none.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Needs root and bpftrace (Debian's bpftrace 0.17 reads arg0..arg5 of a
# USDT probe; gdb reads all of them in sdt.sh).  Skips, saying why,
# where bpftrace cannot attach.

. "${srcdir:-.}/test-lib.sh"

prog=$(pwd)/sdt-prog
[ -x "$prog" ] || { echo "sdt-prog was not built"; exit 99; }
cd "$WORK" || exit 99

skip() {
	echo "SKIP: $*"
	exit 77
}

[ "$(id -u)" -eq 0 ] || skip "bpftrace needs root"
command -v bpftrace >/dev/null || skip "no bpftrace (apt-get install bpftrace)"

# bpftrace warns about RLIMIT_MEMLOCK on stderr, harmlessly: keep stdout.
bt() {
	timeout 120 bpftrace "$@" 2>bt.err
}

# Can bpftrace attach a USDT probe here at all?
if ! bt -e "usdt:$prog:sdt:none { exit(); }" -c "$prog" >probe.out ||
   ! grep -q '^Attaching 1 probe' probe.out; then
	skip "bpftrace cannot attach a USDT probe: $(grep -v RLIMIT_MEMLOCK bt.err)"
fi

# 1. bpftrace -l lists one probe per event.
bt -l "usdt:$prog:*" >list
cat >expect <<END
usdt:$prog:sdt:many
usdt:$prog:sdt:mixed
usdt:$prog:sdt:none
usdt:$prog:sdt:pair
usdt:$prog:sdt:small
usdt:$prog:sdt:text
usdt:$prog:sdt:wide
END
sort list >sorted
cmp -s expect sorted && pass "bpftrace -l lists the 7 probes" ||
	{ fail "bpftrace -l:"; diff -u expect sorted; cat bt.err; }

# 2. The arguments of every probe: extreme integers sign- or zero-extended,
# a string, a char, the bits of a double, a sequence's length and
# elements, a struct through its pointer.  The script prints one line per
# event, and exits after the `none` of round ROUNDS (its first argument).
cat >probes.bt <<END
usdt:$prog:sdt:small { printf("small %ld %ld %ld %ld %ld %ld\n", arg0, arg1, arg2, arg3, arg4, arg5); }
usdt:$prog:sdt:wide { printf("wide %ld %lu %ld\n", arg0, arg1, arg2); }
usdt:$prog:sdt:text { printf("text %s %ld\n", str(arg0), arg1); }
usdt:$prog:sdt:mixed { printf("mixed %ld %c 0x%lx 0x%lx %ld 0x%lx %d %d %d\n", arg0, arg1, arg2, arg3, arg4, arg5, *(int32 *)arg5, *(int32 *)(arg5 + 4), *(int32 *)(arg5 + 8)); }
usdt:$prog:sdt:pair { printf("pair 0x%lx %d %d\n", arg0, *(int32 *)arg0, *(int32 *)(arg0 + 4)); }
usdt:$prog:sdt:many { printf("many %ld %ld %ld %ld %ld %ld\n", arg0, arg1, arg2, arg3, arg4, arg5); }
usdt:$prog:sdt:none { printf("none\n"); @rounds = @rounds + 1; if (@rounds == \$1) { exit(); } }
END

# expect_rounds N PROGRAM_OUTPUT: the lines of N rounds.
expect_rounds() {
	addresses=$(sed -n 's/^samples=\(0x[0-9a-f]*\) pair=\(0x[0-9a-f]*\)$/\1 \2/p' "$2")
	samples=${addresses% *}
	pair=${addresses#* }
	[ -n "$samples" ] || { fail "no addresses in $(cat "$2")"; return; }
	i=0
	while [ $i -lt "$1" ]; do
		cat <<END
small -128 255 -32768 65535 -2147483648 4294967295
wide -9223372036854775808 18446744073709551615 -1234567890123
text hello, usdt -7
mixed -1 x $pair 0xc002000000000000 3 $samples 7 -8 9
pair $pair 42 -42
many 1 -2 3 -4 5 -6
none
END
		i=$((i + 1))
	done
}

# events FILE: bpftrace's output without its banner, blank lines and the
# maps it prints at exit.
events() {
	grep -v -e '^Attaching ' -e '^$' -e '^@rounds' "$1"
}

bt -o probes.out probes.bt 2 -c "$prog 2" >prog.out ||
	fail "bpftrace failed: $(cat bt.err)"
expect_rounds 2 prog.out >expect
events probes.out >got
cmp -s expect got && pass "bpftrace reads the arguments of 2 rounds" ||
	{ fail "bpftrace read:"; diff -u expect got; cat bt.err; }

# 3. No probe in a program made with --no-sdt; the control has them.
build_sdt_prog with >/dev/null || fail "build with probes"
build_sdt_prog without --no-sdt >/dev/null || fail "build with --no-sdt"
[ "$(bt -l "usdt:$(pwd)/with/sdt-prog:*" | wc -l)" -eq 7 ] &&
	pass "control: bpftrace lists 7 probes" || fail "control: $(cat bt.err)"
bt -l "usdt:$(pwd)/without/sdt-prog:*" >none.list
[ ! -s none.list ] && pass "--no-sdt: bpftrace lists no probe" ||
	fail "--no-sdt: bpftrace lists $(cat none.list)"

# 4. bpftrace and ust at once: bpftrace watches every process running
# the program (no -c), `ust record` runs it; both see all 3 rounds.
bt -o both.out probes.bt 3 >/dev/null &
bt_pid=$!
n=0
until grep -q '^Attaching ' both.out 2>/dev/null; do
	n=$((n + 1))
	if [ $n -gt 600 ] || ! kill -0 $bt_pid 2>/dev/null; then
		kill $bt_pid 2>/dev/null
		fail "bpftrace did not attach: $(cat bt.err)"
		finish
	fi
	sleep 0.1
done
timeout 60 "$UST" record -o trace -- "$prog" 3 >ust.out 2>ust.err ||
	fail "ust record failed: $(cat ust.err)"
wait $bt_pid || fail "bpftrace failed: $(cat bt.err)"
grep '^samples=' ust.out >prog3.out
expect_rounds 3 prog3.out >expect
events both.out >got
cmp -s expect got && pass "bpftrace sees 3 rounds while ust records" ||
	{ fail "bpftrace read, with ust:"; diff -u expect got; cat bt.err; }
babeltrace2 trace 2>bt2.err | sed -n 's/^.* sdt:\([a-z]*\): .*{ \(.*\) }$/\1 \2/p' >ust.events
[ "$(wc -l <ust.events)" -eq 21 ] && pass "ust recorded the 21 events" ||
	fail "ust recorded $(wc -l <ust.events) events: $(cat ust.events bt2.err)"
grep -c '^small s8 = -128, u8 = 255, s16 = -32768, u16 = 65535, s32 = -2147483648, u32 = 4294967295$' ust.events >small.count
grep -c '^text msg = "hello, usdt", n = -7$' ust.events >text.count
[ "$(cat small.count) $(cat text.count)" = "3 3" ] &&
	pass "ust's events hold the same values" ||
	fail "ust's events: $(cat ust.events)"
finish
