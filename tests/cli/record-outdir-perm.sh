#!/bin/sh
# ust record refuses an output directory it may not write to: a 0500
# directory for a user without override rights, a read-only mount for
# root.  Skipped when neither can be set up here.
. "$srcdir/lib.sh"

tested=0
marker=$WORK/ran

# as_nobody CMD...: run CMD as user nobody (root only).
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
}

# check_denied DIR ERROR [WRAPPER...]: `ust record -o DIR` fails with ERROR.
check_denied() {
	_dir=$1 _why=$2
	shift 2
	expect_fail 1 "ust record: cannot write to output directory '$_dir': $_why" -- \
		"$@" "$UST" record -o "$_dir" -- touch "$marker"
	[ ! -e "$marker" ] || fail "CMD ran with output directory '$_dir'"
	tested=$((tested + 1))
	echo "ok: '$_dir' refused: $_why${1:+ ($1)}"
}

mkdir "$WORK/ro"
chmod 0500 "$WORK/ro"
if [ "$(id -u)" != 0 ]; then
	check_denied "$WORK/ro" "Permission denied"
	check_denied "$WORK/ro/sub" "Permission denied"
else
	# Root writes anywhere, unless it is read-only: a private mount.
	if command -v unshare >/dev/null &&
	   unshare -m sh -c 'mount -t tmpfs -o ro tmpfs "$1"' sh "$WORK/ro" 2>/dev/null; then
		ro_run() {
			unshare -m sh -c 'mount -t tmpfs -o ro tmpfs "$1" && shift && exec "$@"' \
				sh "$WORK/ro" "$@"
		}
		check_denied "$WORK/ro" "Read-only file system" ro_run
		check_denied "$WORK/ro/sub" "Read-only file system" ro_run
	fi
	# And as a user without rights, when one is at hand, running a copy
	# of ust (the build tree may be in a private directory).
	chmod 0755 "$WORK"
	cp "$UST" "$WORK/ust" && chmod 0755 "$WORK/ust" && UST=$WORK/ust
	if command -v setpriv >/dev/null &&
	   as_nobody test -x "$UST" 2>/dev/null; then
		check_denied "$WORK/ro" "Permission denied" as_nobody
		check_denied "$WORK/ro/sub" "Permission denied" as_nobody
	fi
fi
[ "$tested" -gt 0 ] || skip "no unwritable directory could be set up"
exit 0
