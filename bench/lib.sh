# bench/lib.sh - what the bench scripts share, sourced first thing:
# their messages, named after the script, the end of their option loop
# and the build directory they measure.  POSIX sh (filter.sh is sh).
#
# SPDX-License-Identifier: GPL-2.0-only

BENCH_NAME=${0##*/}
SRCDIR=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)

die() { echo "$BENCH_NAME: $*" >&2; exit 1; }
note() { echo "$BENCH_NAME: $*" >&2; }

# An option the script's own loop does not take: --help prints
# "usage: SCRIPT $1" and exits 0, anything else is refused.
bench_other_option() {
	case $2 in
	-h | --help) echo "usage: $0 $1"; exit 0 ;;
	*) die "unknown option $2" ;;
	esac
}

# BUILD: the build directory $1, by default ../_build beside bench/.
bench_set_build() {
	BUILD=$(CDPATH='' cd -- "${1:-$SRCDIR/../_build}" && pwd) || die "no build directory"
}
