#!/usr/bin/env bash
# build.sh - set up, build and test ust from a fresh clone.
#
# SPDX-License-Identifier: GPL-2.0-only
#
#   ./build.sh demo     install what is missing, build, trace examples/hello
#   ./build.sh check    install what is missing, build, run `make check`
#   ./build.sh build    install what is missing, build
#
# Idempotent and incremental: each step runs only when its inputs changed.
# The build is out of tree, in _build/.
set -euo pipefail

cd "$(dirname "$0")"
top=$(pwd -P)
build=$top/_build

packages=(autoconf automake libtool pkg-config make gcc g++ liburcu-dev
	  libpopt-dev check libxml2-dev libxml2-utils babeltrace2 python3-bt2
	  valgrind libdw-dev libelf-dev clang libtracefs-dev libtraceevent-dev
	  systemtap-sdt-dev bpftrace gdb)

say() {
	printf 'build.sh: %s\n' "$*" >&2
}

die() {
	say "$*"
	exit 1
}

usage() {
	cat <<USAGE
Usage: ./build.sh [check|demo|build]

  build   install missing Debian packages (as root), configure into _build/
          and build (the default)
  check   build, then run the whole test suite (make check)
  demo    build, then trace examples/hello with 'ust record' and show the
          trace with babeltrace2

Steps already done are skipped; a non-root user needs the packages to be
installed already (build.sh prints the apt-get command otherwise).
USAGE
}

# The packages of the list that are not installed.
missing_packages() {
	local p status

	for p in "${packages[@]}"; do
		status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
		[ "$status" = "install ok installed" ] || printf '%s\n' "$p"
	done
}

install_packages() {
	local missing

	if ! command -v dpkg-query >/dev/null; then
		say "not a Debian system: make sure these are installed: ${packages[*]}"
		return
	fi
	mapfile -t missing < <(missing_packages)
	if [ "${#missing[@]}" -eq 0 ]; then
		return
	fi
	if [ "$(id -u)" -ne 0 ]; then
		say "missing packages: ${missing[*]}"
		say "install them with:"
		printf '  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y %s\n' \
			"${missing[*]}" >&2
		exit 1
	fi
	say "installing ${missing[*]}"
	apt-get update </dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" </dev/null
}

# autoreconf when ./configure is missing or older than its inputs.
bootstrap() {
	local newer

	if [ -x configure ]; then
		newer=$(find . -path ./_build -prune -o \
			\( -name configure.ac -o -name Makefile.am \) \
			-newer configure -print -quit)
		if [ -z "$newer" ]; then
			return
		fi
	fi
	say "autoreconf -fi"
	mkdir -p m4	# holds only generated files, so a clone lacks it
	autoreconf -fi
	# autoreconf may keep an unchanged configure; mark it up to date.
	touch configure
}

# configure into _build/ when it was never done or configure changed.
configure_build() {
	if [ -f "$build/config.status" ] && [ "$build/config.status" -nt configure ]; then
		return
	fi
	say "configuring into _build/"
	mkdir -p "$build"
	(cd "$build" && ../configure)
}

make_all() {
	say "make -j$(nproc)"
	make -C "$build" -j"$(nproc)"
}

build_all() {
	install_packages
	bootstrap
	configure_build
	make_all
}

# The test-suite.log of every directory where a test failed.
show_failures() {
	local log

	while IFS= read -r log; do
		if grep -Eq '^# (FAIL|ERROR|XPASS): +[1-9]' "$log"; then
			say "==> ${log#"$top"/} <=="
			cat "$log" >&2
		fi
	done < <(find "$build" -name test-suite.log | sort)
}

check() {
	build_all
	say "make -k -j$(nproc) check"
	# -k: one directory that fails to build does not hide the others.
	if ! make -C "$build" -k -j"$(nproc)" check; then
		show_failures
		die "make check failed"
	fi
	say "all tests passed"
}

demo() {
	local hello=$build/examples/hello/hello
	local trace=$build/demo-trace
	local ust=$build/cli/ust
	local text=$build/demo-trace.txt

	build_all
	[ -x "$hello" ] || die "$hello was not built"
	# Run the uninstalled tools: the consumer and libust from _build/.
	export UST_CONSUMERD=$build/consumer/ust-consumerd
	export LD_LIBRARY_PATH=$build/libust/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	rm -rf "$trace"
	say "ust record -o _build/demo-trace -- examples/hello/hello"
	"$ust" record -o "$trace" -- "$hello"
	say "babeltrace2 _build/demo-trace (first 20 events)"
	babeltrace2 "$trace" >"$text"
	head -n 20 "$text"
	say "$(wc -l <"$text") events in $trace (all of them in ${text#"$top"/})"
}

case ${1:-build} in
-h | --help | help)
	usage
	;;
build)
	build_all
	;;
check)
	check
	;;
demo)
	demo
	;;
*)
	usage >&2
	exit 2
	;;
esac
