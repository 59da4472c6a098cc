#!/bin/sh
# sdt.sh - the USDT probes of a generated header (doc/tpgen.md): one per
# event, named facility:event, with the arguments of the call in field
# order, read back by gdb; none with tpgen --no-sdt.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# sdt-prog is built by make (real libust); the --no-sdt variant and its
# control are built here with the stand-in libust.  bpftrace reads the
# same probes in sdt-bpftrace.sh (root).

. "${srcdir:-.}/test-lib.sh"

prog=$(pwd)/sdt-prog
[ -x "$prog" ] || { echo "sdt-prog was not built"; exit 99; }
cd "$WORK" || exit 99

# 1. One probe per event; each argument's size and signedness as sdt.h
# encodes them (N@ unsigned, -N@ signed): enums and one-byte integers as
# int, floats as their
# bits, sequences as length and pointer, structs as pointers, at most 12.
stapsdt_notes "$prog" | sed 's/@[^ ]*//g' | sort >notes
cat >expect <<'END'
sdt:many -2 -2 -2 -2 -2 -2 -2 -2 -2 -2 -2 -2
sdt:mixed -4 -4 8 8 8 8
sdt:none 
sdt:pair 8
sdt:small -4 -4 -2 2 -4 4
sdt:text 8 -4
sdt:wide -8 8 -8
END
if cmp -s expect notes; then
	pass "one probe per event, argument sizes and signs"
else
	fail "probes of sdt-prog:"
	diff -u expect notes
fi
# No semaphore: nothing is tested before a probe fires.
if readelf -n "$prog" | grep 'Semaphore:' | grep -qv 'Semaphore: 0x0*$'; then
	fail "a probe has a semaphore: $(readelf -n "$prog" | grep Semaphore:)"
else
	pass "no semaphores"
fi

# 2. --no-sdt: the header without the probes, and nothing else changed;
# no note in the program.  The control, built the same way with the
# probes, has them.
build_sdt_prog with || fail "build with probes"
build_sdt_prog without --no-sdt || fail "build with --no-sdt"
[ "$(stapsdt_notes with/sdt-prog | wc -l)" -eq 7 ] &&
	pass "control: 7 probes" || fail "control: $(stapsdt_notes with/sdt-prog)"
if readelf -n without/sdt-prog | grep -q stapsdt ||
   readelf -S without/sdt-prog | grep -q -e '\.note\.stapsdt' -e '\.probes'; then
	fail "--no-sdt left probes: $(readelf -n without/sdt-prog | grep -A4 stapsdt)"
else
	pass "--no-sdt: no stapsdt note, no .probes section"
fi
# Drop the probes' blocks from the files with probes: the include of
# <sys/sdt.h> after its comment, and each #if on UST_TP_sdt_SDT, up to
# its #endif.
for f in sdt_tp.h sdt_tp.c; do
	awk '
		/^\/\* USDT probes/ { skip = 1; next }
		/^#if.*UST_TP_sdt_SDT/ { skip = 1 }
		skip && /^#if/ { depth++; next }
		skip && /^#endif$/ { skip = --depth > 0; next }
		!skip' "with/$f" | cat -s >"stripped-$f"
	if cmp -s "stripped-$f" "without/$f"; then
		pass "--no-sdt $f: the same but for the probes"
	else
		fail "--no-sdt $f differs beyond the probes:"
		diff -u "stripped-$f" "without/$f"
	fi
done

# 3. gdb reads every argument, all 12 of `many`, the string, the bits of
# the double, the pointers that the program prints.
if ! command -v gdb >/dev/null; then
	echo "SKIP: gdb is not installed (apt-get install gdb)"
	[ "$failures" -eq 0 ] && exit 77
	finish
fi
cat >gdb.cmd <<'END'
set pagination off
break -probe-stap sdt:small
commands
silent
printf "small %d %ld %ld %ld %ld %ld %ld\n", $_probe_argc, $_probe_arg0, $_probe_arg1, $_probe_arg2, $_probe_arg3, $_probe_arg4, $_probe_arg5
continue
end
break -probe-stap sdt:wide
commands
silent
printf "wide %d %ld %lu %ld\n", $_probe_argc, $_probe_arg0, $_probe_arg1, $_probe_arg2
continue
end
break -probe-stap sdt:text
commands
silent
printf "text %d %s %ld\n", $_probe_argc, $_probe_arg0, $_probe_arg1
continue
end
break -probe-stap sdt:mixed
commands
silent
printf "mixed %d %ld %c %#lx %#lx %lu %#lx %d %d %d\n", $_probe_argc, $_probe_arg0, $_probe_arg1, $_probe_arg2, $_probe_arg3, $_probe_arg4, $_probe_arg5, ((int *)$_probe_arg5)[0], ((int *)$_probe_arg5)[1], ((int *)$_probe_arg5)[2]
continue
end
break -probe-stap sdt:pair
commands
silent
printf "pair %d %#lx %d %d\n", $_probe_argc, $_probe_arg0, ((int *)$_probe_arg0)[0], ((int *)$_probe_arg0)[1]
continue
end
break -probe-stap sdt:many
commands
silent
printf "many %d %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld\n", $_probe_argc, $_probe_arg0, $_probe_arg1, $_probe_arg2, $_probe_arg3, $_probe_arg4, $_probe_arg5, $_probe_arg6, $_probe_arg7, $_probe_arg8, $_probe_arg9, $_probe_arg10, $_probe_arg11
continue
end
break -probe-stap sdt:none
commands
silent
printf "none %d\n", $_probe_argc
continue
end
run
END
# LeakSanitizer cannot run under ptrace (the ASan lane builds $prog with it).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	timeout 120 gdb -nx -batch -x gdb.cmd --args "$prog" 1 >gdb.out 2>gdb.err </dev/null
addresses=$(sed -n 's/^samples=\(0x[0-9a-f]*\) pair=\(0x[0-9a-f]*\)$/\1 \2/p' gdb.out)
samples=${addresses% *}
pair=${addresses#* }
grep -e '^small ' -e '^wide ' -e '^text ' -e '^mixed ' -e '^pair ' -e '^many ' \
	-e '^none ' gdb.out >got
cat >expect <<END
small 6 -128 255 -32768 65535 -2147483648 4294967295
wide 3 -9223372036854775808 18446744073709551615 -1234567890123
text 2 hello, usdt -7
mixed 6 -1 x $pair 0xc002000000000000 3 $samples 7 -8 9
pair 1 $pair 42 -42
many 12 1 -2 3 -4 5 -6 7 -8 9 -10 11 -12
none 0
END
if [ -n "$samples" ] && cmp -s expect got; then
	pass "gdb reads every argument"
else
	fail "gdb read:"
	diff -u expect got
	cat gdb.out gdb.err
fi
finish
