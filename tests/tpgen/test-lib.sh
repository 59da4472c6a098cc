# test-lib.sh - shared by tpgen's shell tests; sourced, not run.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# On top of tests/lib/common.sh (WORK, TPGEN, UST, skip...); the Makefile
# also exports CC, CXX and PACKAGE_VERSION.  Unlike the other folders'
# fail, this one counts a failure and the test goes on: `finish` ends it.

set -u

: "${top_srcdir:=${srcdir:-.}/../..}" "${top_builddir:=../..}"
. "$top_srcdir/tests/lib/common.sh"

: "${CC:=cc}"
: "${CXX:=c++}"
UST_INCLUDE=$top_srcdir/include
srcdir=$top_srcdir/tests/tpgen
record_env

failures=0

# fail MESSAGE...: report one failure; the test goes on.
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

pass() {
	echo "ok: $*"
}

# finish: exit status of the test (automake: 0 pass, 1 fail).
finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures failure(s)"
		exit 1
	fi
	exit 0
}

# entries DIR: every name in DIR, hidden ones included, one per line.
entries() {
	ls -A "$1"
}

# build_sdt_prog DIR [TPGEN_OPTION...]: DIR/sdt-prog, from sdt.xml and
# sdt-prog.c as tpgen and $CC make them, linked with the stand-in libust
# (mock-ust.c): a program with the probes, or without with --no-sdt.
build_sdt_prog() {
	sdt_dir=$1
	shift
	mkdir -p "$sdt_dir" &&
		"$TPGEN" "$@" -o "$sdt_dir" "$srcdir/sdt.xml" &&
		$CC -O2 -Wall -Wextra -Werror -I"$UST_INCLUDE" -I"$sdt_dir" \
			-I"$srcdir" -o "$sdt_dir/sdt-prog" "$srcdir/sdt-prog.c" \
			"$sdt_dir/sdt_tp.c" "$srcdir/mock-ust.c"
}

# stapsdt_notes FILE: "provider:name arguments" of each USDT probe of an
# ELF file, as readelf shows its notes, one line per probe location.
stapsdt_notes() {
	readelf -n "$1" | awk '
		/^ *Provider:/ { provider = $2 }
		/^ *Name:/ { name = $2 }
		/^ *Arguments:/ { sub(/^ *Arguments: */, ""); print provider ":" name " " $0 }'
}
