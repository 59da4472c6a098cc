# lib.sh - shared by the extended lanes (sourced, not run).
# SPDX-License-Identifier: GPL-2.0-only
#
# The Makefile exports abs_top_srcdir, abs_top_builddir, abs_builddir and
# CC.  Every lane works under $abs_builddir (never in the source tree) and
# can be run again: build trees are reused, logs are replaced.
set -eu

: "${abs_top_srcdir:?run from make check-extended}"
: "${abs_top_builddir:?run from make check-extended}"
: "${abs_builddir:?run from make check-extended}"
top_srcdir=$abs_top_srcdir top_builddir=$abs_top_builddir
. "$top_srcdir/tests/lib/common.sh"

# The lanes call make themselves; do not inherit the outer make's flags
# (-k, jobserver fds, TESTS=...).
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES TESTS
JOBS=$(nproc 2>/dev/null || echo 2)
LANE=$(basename "$0" .sh)
START=$(date +%s)

say() { printf '%s: %s\n' "$LANE" "$*"; }
FAIL_PREFIX="$LANE: "
done_ok() { say "PASS in $(($(date +%s) - START)) s"; exit 0; }

# sanitized_tree DIR CONFIGURE-FLAG: configure (once, or again when
# configure changed) and build a tree with that flag.
sanitized_tree() {
	dir=$1 flag=$2
	mkdir -p "$dir"
	if [ ! -f "$dir/config.status" ] ||
	   [ "$abs_top_srcdir/configure" -nt "$dir/config.status" ] ||
	   ! grep -q -e "$flag" "$dir/config.status"; then
		say "configuring $dir ($flag)"
		(cd "$dir" && "$abs_top_srcdir/configure" -q ${CC:+CC="$CC"} "$flag") ||
			fail "configure $flag failed (see $dir/config.log)"
	fi
	say "building $dir"
	make -s -C "$dir" -j"$JOBS" >"$dir/build.log" 2>&1 ||
		{ tail -n 40 "$dir/build.log"; fail "build failed: $dir/build.log"; }
}

# make_var DIR VAR: the value of VAR in the Makefile of a configured
# directory.
make_var() {
	# First bring the Makefile up to date: regenerating it prints.
	make -s --no-print-directory -C "$1" Makefile >/dev/null 2>&1 || true
	printf 'print-var:\n\t@echo $(%s)\n' "$2" |
		make -s --no-print-directory -C "$1" -f Makefile -f - print-var
}

# tests_of DIR: the TESTS of a configured test directory.
tests_of() { make_var "$1" TESTS; }

# without LIST WORD...: LIST minus the WORDs.
without() {
	list=$1; shift
	for t in $list; do
		case " $* " in *" $t "*) ;; *) printf '%s ' "$t" ;; esac
	done
}

# test_dirs TREE: the test folders of TREE, as tests/Makefile.am's SUBDIRS
# lists them (the folders `make check` runs), so that a folder added
# there runs in every lane too.
test_dirs() { make_var "$1/tests" SUBDIRS; }

# run_suite TREE: `make check` in each test folder of TREE (test_dirs),
# less the folders named in SKIP_DIRS and the tests named in SKIP_<dir>
# (both said aloud; the lane script says why next to each).  LANE_DIRS,
# when set, runs only those folders (a lane on a subset, by hand:
# `make check-asan LANE_DIRS="filter net"`).  Sets TOTAL; fails at the
# end.
run_suite() {
	st=0 TOTAL=0
	all=$(test_dirs "$1")
	[ -n "$all" ] || fail "no test folder in $1/tests/Makefile (SUBDIRS)"
	for d in ${SKIP_DIRS:-} ${LANE_DIRS:-}; do
		case " $all " in *" $d "*) ;; *) fail "no test folder tests/$d" ;; esac
	done
	for d in ${SKIP_DIRS:-}; do say "tests/$d: NOT RUN in this lane (see $LANE.sh)"; done
	dirs=$(without "${LANE_DIRS:-$all}" ${SKIP_DIRS:-})
	say "test folders: $dirs"
	for d in $dirs; do
		dir=$1/tests/$d
		eval skip=\${SKIP_$d:-}
		list=$(without "$(tests_of "$dir")" $skip)
		[ -z "$skip" ] || say "tests/$d: NOT RUN in this lane: $skip (see $LANE.sh)"
		[ -n "$list" ] || continue
		say "tests/$d: $(echo $list | wc -w) tests"
		# No stale log of an earlier run (or of a skipped test).
		rm -f "$dir"/*.log "$dir"/*.trs
		make -C "$dir" -k check TESTS="$list" >"$dir/extended-check.log" 2>&1 ||
			{ st=1; grep -h '^\(FAIL\|ERROR\)' "$dir/test-suite.log" || true; }
		n=$(sed -n 's/^# TOTAL: *//p' "$dir/test-suite.log" 2>/dev/null)
		TOTAL=$((TOTAL + ${n:-0}))
	done
	return $st
}

# Sanitizer reports written to $1 (log_path): print them and fail.
no_reports() {
	n=$(find "$1" -type f | wc -l)
	if [ "$n" -gt 0 ]; then
		for f in "$1"/*; do say "report $f:"; cat "$f"; done
		fail "$n sanitizer report file(s) in $1"
	fi
}
