#!/bin/sh
# ust record creates its output directory like mkdir -p, and refuses one
# it cannot create before it runs CMD.
. "$srcdir/lib.sh"

marker=$WORK/ran

# cannot DIR ERROR: `ust record -o DIR` fails with ERROR, CMD not run.
cannot() {
	expect_fail 1 "ust record: cannot write to output directory '$1': $2" -- \
		"$UST" record -o "$1" -- touch "$marker"
	[ ! -e "$marker" ] || fail "CMD ran with output directory '$1'"
}

: >"$WORK/file"
cannot "$WORK/file" "Not a directory"
cannot "$WORK/file/x" "Not a directory"
cannot "$WORK/file/x/y" "Not a directory"
[ -r /etc/passwd ] && [ ! -d /etc/passwd ] &&
	cannot /etc/passwd/x "Not a directory"

# The same through UST_OUTPUT.
expect_fail 1 "ust record: cannot write to output directory '$WORK/file/z': Not a directory" -- \
	env UST_OUTPUT="$WORK/file/z" "$UST" record -- touch "$marker"
[ ! -e "$marker" ] || fail "CMD ran with UST_OUTPUT under a file"

# mkdir -p: missing parents, repeated and trailing slashes.
umask 022
for dir in "$WORK/a/b/c" "$WORK//d///e/" "$WORK/a/b/c"; do
	run "$UST" record -o "$dir" -- true
	expect_rc 0
	[ -d "$dir" ] || fail "'$dir' not created"
done
mode=$(stat -c %a "$WORK/a/b/c")
[ "$mode" = 755 ] || fail "'$WORK/a/b/c' has mode $mode"

# A relative path, from CMD's working directory.
(cd "$WORK" && "$UST" record -o rel/out -- true 2>/dev/null) || fail "relative -o"
[ -d "$WORK/rel/out" ] || fail "relative -o not created"

# Through a symbolic link to a directory.
ln -s "$WORK/a" "$WORK/link"
run "$UST" record -o "$WORK/link/b" -- sh -c 'echo "$UST_OUTPUT"'
expect_rc 0
expect_out "$(cd "$WORK/a/b" && pwd -P)"
exit 0
