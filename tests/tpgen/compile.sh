#!/bin/sh
# compile.sh - the generated code compiles without a warning, as C and
# as C++, with its USDT probes and where <sys/sdt.h> is missing, and the
# two languages link together.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Uses the Makefile's $CC and $CXX.  Each flag set below is one a user of
# ust may reasonably build with; every one has -Werror.  The generated
# sources need libust to link, so they are only compiled (-c), except in
# the last step, which links them with the stand-in mock-ust.c.
#
# Without <sys/sdt.h>: each compiler runs with -nostdinc and its own
# include directories, the one holding sys/sdt.h replaced by a copy made
# of links to everything else.

. "${srcdir:-.}/test-lib.sh"

cd "$WORK" || exit 99
for xml in tpt other types compound sdt; do
	"$TPGEN" "$srcdir/$xml.xml" || { fail "tpgen $xml.xml"; finish; }
done

C_FLAGS_SETS="-Wall -Wextra -std=c99 -Werror
-Wall -Wextra -std=c99 -pedantic -O2 -Werror
-Wall -Wextra -std=c11 -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Wconversion -Wsign-conversion -Wcast-qual -Wwrite-strings -O2 -Werror"
CXX_FLAGS_SETS="-Wall -Wextra -Werror
-Wall -Wextra -std=c++98 -pedantic -O2 -Werror
-Wall -Wextra -std=c++17 -Wshadow -Wconversion -Wsign-conversion -Wold-style-cast -O2 -Werror"

SOURCES="tpt_tp.c other_tp.c types_tp.c compound_tp.c sdt_tp.c $srcdir/user.c $srcdir/sdt-prog.c"

# compile LANG_DRIVER FLAGS SYSTEM_INCLUDES FILE...: compile each file
# alone, -c, into objects/; then whether its objects have probes (a
# .note.stapsdt section) is in notes/ (yes or no).
compile() {
	driver=$1 flags=$2 system=$3
	shift 3
	for src in "$@"; do
		obj=objects/$(basename "$src" .c).o
		# $driver, $flags and $system are word lists on purpose.
		if $driver $flags $system -I"$UST_INCLUDE" -I. -I"$srcdir" -c "$src" \
			-o "$obj" 2>errors; then
			pass "$driver $flags${system:+ (no sys/sdt.h)}: $(basename "$src")"
		else
			fail "$driver $flags${system:+ (no sys/sdt.h)}: $(basename "$src"):"
			cat errors
		fi
		readelf -S "$obj" 2>/dev/null | grep -q '\.note\.stapsdt' &&
			echo yes >"notes/$(basename "$src" .c)" ||
			echo no >"notes/$(basename "$src" .c)"
	done
}

# search_dirs DRIVER LANG: the directories where DRIVER looks for <...>
# includes of language LANG (c or c++), in order.
search_dirs() {
	$1 -x "$2" -E -v - </dev/null 2>&1 |
		sed -n '/^#include <\.\.\.> search starts here:$/,/^End of search list\.$/p' |
		sed -e '1d' -e '$d' -e 's/^ *//'
}

# no_sdt_includes DRIVER LANG: the flags that make DRIVER search its
# usual directories, but find no sys/sdt.h: -nostdinc, then -isystem
# each directory, the one with sys/sdt.h replaced by links to the rest.
no_sdt_includes() {
	flags=-nostdinc
	n=0
	for dir in $(search_dirs "$1" "$2"); do
		n=$((n + 1))
		if [ -e "$dir/sys/sdt.h" ]; then
			shadow=$WORK/no-sdt/$2-$n
			mkdir -p "$shadow/sys"
			for entry in "$dir"/*; do
				[ "$entry" = "$dir/sys" ] || ln -s "$entry" "$shadow/"
			done
			for entry in "$dir"/sys/*; do
				[ "$entry" = "$dir/sys/sdt.h" ] || ln -s "$entry" "$shadow/sys/"
			done
			dir=$shadow
		fi
		flags="$flags -isystem $dir"
	done
	echo "$flags"
}

# compile_all SYSTEM_C SYSTEM_CXX: every source under every flag set,
# as C, then as C++ (the sources are .c: -x c++).
compile_all() {
	while IFS= read -r flags; do
		# shellcheck disable=SC2086
		compile "$CC" "$flags" "$1" $SOURCES
	done <<END
$C_FLAGS_SETS
END
	while IFS= read -r flags; do
		# shellcheck disable=SC2086
		compile "$CXX" "-x c++ $flags" "$2" $SOURCES
	done <<END
$CXX_FLAGS_SETS
END
}

mkdir objects notes

# With <sys/sdt.h>: the code that calls trace_*() has probes.
compile_all "" ""
[ "$(cat notes/user notes/sdt-prog)" = "yes
yes" ] && pass "with sys/sdt.h: probes in user.o and sdt-prog.o" ||
	fail "with sys/sdt.h: no probe in user.o or sdt-prog.o"

# Without: the same code compiles, without probes or semaphores.
no_sdt_c=$(no_sdt_includes "$CC" c)
no_sdt_cxx=$(no_sdt_includes "$CXX" c++)
case $no_sdt_c in
*/no-sdt/*) ;;
*) fail "no sys/sdt.h found among the include directories of $CC" ;;
esac
printf '#if defined(__has_include)\n#if __has_include(<sys/sdt.h>)\n#error found\n#endif\n#endif\n' >has-sdt.c
# shellcheck disable=SC2086
$CC $no_sdt_c -c has-sdt.c -o objects/has-sdt.o 2>/dev/null &&
	$CXX -x c++ $no_sdt_cxx -c has-sdt.c -o objects/has-sdt.o 2>/dev/null &&
	pass "the copies hide sys/sdt.h" || fail "sys/sdt.h is still found"
compile_all "$no_sdt_c" "$no_sdt_cxx"
[ "$(cat notes/*)" = "$(printf 'no\n%.0s' $(ls notes))" ] &&
	pass "without sys/sdt.h: no probe anywhere" ||
	fail "without sys/sdt.h, probes in: $(grep -l yes notes/*)"
for obj in objects/*_tp.o; do
	if readelf -S "$obj" | grep -q '\.probes'; then
		fail "without sys/sdt.h: semaphores in $obj"
	fi
done

# Providers compiled as C++, application and libust stand-in as C.
if $CXX -x c++ -Wall -Wextra -Werror -I"$UST_INCLUDE" -I. -c tpt_tp.c -o tpt.o &&
   $CXX -x c++ -Wall -Wextra -Werror -I"$UST_INCLUDE" -I. -c other_tp.c -o other.o &&
   $CC -std=c99 -Wall -Wextra -Werror -I"$UST_INCLUDE" -I. -I"$srcdir" \
	-c "$srcdir/user.c" -o user.o &&
   $CC -std=c99 -Wall -Wextra -Werror -I"$UST_INCLUDE" -I"$srcdir" \
	-c "$srcdir/mock-ust.c" -o mock.o &&
   $CXX tpt.o other.o user.o mock.o -o user; then
	if ./user; then
		pass "C++ providers with a C application"
	else
		fail "C++ providers with a C application: ./user failed"
	fi
else
	fail "C++ providers with a C application: build failed"
fi

finish
