# test-lib.sh - shared by tpgen's shell tests; sourced, not run.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# The Makefile exports TPGEN (absolute path of the tool), CC, CXX,
# UST_INCLUDE (the public headers) and srcdir.  Each test gets a scratch
# directory in the build tree, removed when it ends.

set -u

: "${srcdir:=.}"
: "${TPGEN:=../../tpgen/tpgen}"
: "${CC:=cc}"
: "${CXX:=c++}"
: "${UST_INCLUDE:=$srcdir/../../include}"

# srcdir and TPGEN absolute, since tests change directory.
srcdir=$(cd "$srcdir" && pwd)
case $TPGEN in /*) ;; *) TPGEN=$(pwd)/$TPGEN ;; esac

test_name=$(basename "$0" .sh)
scratch=$(mktemp -d "./$test_name.tmp.XXXXXX") || exit 99
scratch=$(cd "$scratch" && pwd)
trap 'rm -rf "$scratch"' EXIT

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
