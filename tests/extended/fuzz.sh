#!/bin/sh
# fuzz.sh - `make fuzz` and the fuzz lane of `make check-extended`:
# libFuzzer runs of tpgen's front end (tests/tpgen/fuzz-tpgen.c), of the
# trace reader (tests/reader/fuzz_reader.c), of the runtime control
# area as `ust list`, `ust ctl` and libust read it
# (tests/control/fuzz_control.c) and of the filters (expressions compiled,
# programs validated and run on events: tests/filter/fuzz-filter.c),
# FUZZ_SECONDS each (default 60; the
# nightly form is `make fuzz FUZZ_SECONDS=600`), each from its seed
# corpus in the source tree, copied
# under fuzz-work/ (the source tree is never written).  Prints the
# executions and fails on any crash, leak, timeout or sanitizer report,
# whose input is left in fuzz-work/<target>/artifacts/: keep it as a
# regression input (tests/tpgen/bad/ or tests/reader/crashers/) and fix
# the bug.  Needs clang with libFuzzer (build.sh installs it).
#
# SPDX-License-Identifier: GPL-2.0-only
. "$(dirname "$0")/lib.sh"

: "${FUZZ_SECONDS:=60}"
work=$abs_builddir/fuzz-work
command -v clang >/dev/null || fail "clang not found: it builds the fuzz targets (build.sh installs it)"

# fuzz NAME DIR TARGET CORPUS: build DIR's TARGET and run it on CORPUS.
fuzz() {
	name=$1 dir=$abs_top_builddir/tests/$2 target=$3 seeds=$abs_top_srcdir/tests/$2/$4
	say "$name: building $target"
	make -s -C "$dir" "$target" >"$work/$name.build.log" 2>&1 ||
		{ tail -n 30 "$work/$name.build.log"; fail "$name: build failed"; }
	rm -rf "$work/$name" && mkdir -p "$work/$name/corpus" "$work/$name/artifacts"
	cp "$seeds"/* "$work/$name/corpus/"
	st=0
	(cd "$work/$name" && TMPDIR="$work/$name" "$dir/$target" \
		-max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix=artifacts/ corpus) \
		>"$work/$name.log" 2>&1 || st=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
	crashes=$(ls "$work/$name/artifacts" | wc -l)
	say "$name: ${execs:-?} executions in $FUZZ_SECONDS s, $(ls "$work/$name/corpus" | wc -l) inputs in the corpus (from $(ls "$seeds" | wc -l) seeds), $crashes crash(es)"
	if [ $st -ne 0 ] || [ "$crashes" -ne 0 ]; then
		grep -E -m 5 'ERROR|SUMMARY|runtime error' "$work/$name.log" || tail -n 20 "$work/$name.log"
		fail "$name: exit $st, crash input(s): $(ls "$work/$name/artifacts")"
	fi
}

mkdir -p "$work"
fuzz tpgen tpgen fuzz-tpgen fuzz-corpus
fuzz reader reader fuzz_reader fuzz-corpus
fuzz control control fuzz_control fuzz-corpus
fuzz filter filter fuzz-filter fuzz-corpus
done_ok
