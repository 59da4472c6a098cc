#!/bin/sh
# compile.sh - the generated code compiles without a warning, as C and
# as C++, and the two languages link together.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Uses the Makefile's $CC and $CXX.  Each flag set below is one a user of
# ust may reasonably build with; every one has -Werror.  The generated
# sources need libust to link, so they are only compiled (-c), except in
# the last step, which links them with the stand-in mock-ust.c.

. "${srcdir:-.}/test-lib.sh"

cd "$WORK" || exit 99
for xml in tpt other types compound; do
	"$TPGEN" "$srcdir/$xml.xml" || { fail "tpgen $xml.xml"; finish; }
done

C_FLAGS_SETS="-Wall -Wextra -std=c99 -Werror
-Wall -Wextra -std=c99 -pedantic -O2 -Werror
-Wall -Wextra -std=c11 -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Wconversion -Wsign-conversion -Wcast-qual -Wwrite-strings -O2 -Werror"
CXX_FLAGS_SETS="-Wall -Wextra -Werror
-Wall -Wextra -std=c++98 -pedantic -O2 -Werror
-Wall -Wextra -std=c++17 -Wshadow -Wconversion -Wsign-conversion -Wold-style-cast -O2 -Werror"

# compile LANG_DRIVER FLAGS FILE...: compile each file alone, -c.
compile() {
	driver=$1 flags=$2
	shift 2
	for src in "$@"; do
		# $driver and $flags are word lists on purpose.
		if $driver $flags -I"$UST_INCLUDE" -I. -I"$srcdir" -c "$src" \
			-o out.o 2>errors; then
			pass "$driver $flags: $(basename "$src")"
		else
			fail "$driver $flags: $(basename "$src"):"
			cat errors
		fi
	done
}

# As C.
while IFS= read -r flags; do
	compile "$CC" "$flags" tpt_tp.c other_tp.c types_tp.c compound_tp.c "$srcdir/user.c"
done <<END
$C_FLAGS_SETS
END

# As C++ (the sources are .c: -x c++).
while IFS= read -r flags; do
	compile "$CXX" "-x c++ $flags" tpt_tp.c other_tp.c types_tp.c compound_tp.c "$srcdir/user.c"
done <<END
$CXX_FLAGS_SETS
END

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
