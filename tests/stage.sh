# stage.sh - copies of the uninstalled programs that another user can run
# (sourced by tests that become nobody or a user made for the test; POSIX
# sh).  A build tree inside a private (0700) directory, say a clone in
# `mktemp -d`, is out of that user's reach: the programs themselves, and
# libust, which they find through a RUNPATH into the build tree.  So
# such a test runs copies from a directory everybody can read.
# SPDX-License-Identifier: GPL-2.0-only
#
# stage DIR FILE...: copy each FILE (an ELF program of the build tree)
# to DIR/bin/ and libust to DIR/lib/, readable by everybody.  DIR is
# meant to be in the test's own temporary directory, which the test makes
# searchable (chmod 0755).  The copies run with LD_LIBRARY_PATH=DIR/lib,
# which comes before their RUNPATH.
stage() {
	_dir=$1
	shift
	mkdir -p "$_dir/bin" "$_dir/lib" || return 1
	cp "$@" "$_dir/bin/" || return 1
	cp -L "$top_builddir/libust/.libs/libust.so.0" "$_dir/lib/" || return 1
	chmod -R a+rX "$_dir"
}
