#!/bin/sh
# Bad input gives one clear error line naming the file (and the byte
# offset for stream data), exit status 1, and no crash.
. "$top_srcdir/tests/reader/lib.sh"

[ -x "$STRESS" ] || skip "stress not built"
record good --subbuf-size 4k -- "$STRESS" -n 2000 -s
good=$(ls -d "$WORK"/good/*)
stream=$(ls "$good" | grep -v metadata | head -n 1)
VG=""
if [ "${UST_VALGRIND:-}" = 1 ] && command -v valgrind >/dev/null; then
	VG="valgrind -q --error-exitcode=99"
fi

# expect NAME REGEX: a copy of the good trace, broken by stdin's commands
expect() {
	name=$1 re=$2
	rm -rf "$WORK/$name"
	cp -r "$good" "$WORK/$name"
	(cd "$WORK/$name" && sh -e)
	set +e
	$VG "$UST" view "$WORK/$name" >/dev/null 2>"$WORK/err"
	rc=$?
	set -e
	[ $rc = 1 ] || fail "$name: exit status $rc: $(cat "$WORK/err")"
	[ "$(wc -l <"$WORK/err")" = 1 ] || fail "$name: not one line: $(cat "$WORK/err")"
	grep -Eq "^ust view: $re\$" "$WORK/err" || fail "$name: got: $(cat "$WORK/err")"
}

size=$(stat -c %s "$good/$stream")
P="$WORK/[a-z-]*/$stream"
expect truncated "$P: offset [0-9]*: packet size [0-9]* runs past the end of the file \\($((size - 100)) bytes\\)" <<EOS
truncate -s $((size - 100)) $stream
EOS
expect bad-magic "$P: offset 0: bad CTF magic number 0xc1fc1fc2" <<EOS
printf '\\302' | dd of=$stream bs=1 seek=0 conv=notrunc 2>/dev/null
EOS
# packet_size (bits) of the first packet, at byte 68: 2^32 bits
expect huge-packet "$P: offset 0: packet size 536870912 runs past the end of the file \\($size bytes\\)" <<EOS
printf '\\000\\000\\000\\000\\001\\000\\000\\000' | dd of=$stream bs=1 seek=68 conv=notrunc 2>/dev/null
EOS
expect stray-file "$WORK/stray-file/README: offset 0: bad CTF magic number 0x20746f6e" <<EOS
echo "not a stream, but a README that is long enough to hold a packet header and its context" > README
EOS
expect garbage-metadata "$WORK/garbage-metadata/metadata: line 1: missing \"/\\* CTF 1.8\" signature" <<EOS
echo garbage > metadata
EOS
expect syntax-error "$WORK/syntax-error/metadata: line [0-9]*: expected ';', got 'oops'" <<EOS
sed -i 's/major = 1;/major = 1 oops;/' metadata
EOS
# offset_s = INT64_MAX: the clock origin in ns does not fit in 64 bits
# (undefined behaviour before, caught by the UBSan lane; babeltrace2
# refuses such a trace too)
expect clock-offset "$WORK/clock-offset/metadata: line [0-9]*: clock offset out of range \\(offset_s = 9223372036854775807, offset = [0-9]*\\)" <<EOS
sed -i 's/offset_s = [0-9]*;/offset_s = 9223372036854775807;/' metadata
EOS
expect no-metadata "$WORK/no-metadata: no trace found \\(no 'metadata' file\\)" <<EOS
rm metadata
EOS
expect unknown-event "$P: offset [0-9]*: no event class with id [0-9]* in stream class 0" <<EOS
sed -i '/stress:tick/{n;s/id = 0;/id = 9;/}' metadata
EOS
# Random damage to the stream data: an error or success, never a crash.
i=0
while [ $i -lt 20 ]; do
	rm -rf "$WORK/fuzz"
	cp -r "$good" "$WORK/fuzz"
	off=$(( (i * 7919 + 85) % size ))
	printf '\377\377\377\377' | dd of="$WORK/fuzz/$stream" bs=1 seek=$off conv=notrunc 2>/dev/null
	set +e
	$VG "$UST" view "$WORK/fuzz" >/dev/null 2>"$WORK/err"
	rc=$?
	set -e
	[ $rc -le 1 ] || fail "damage at $off: exit status $rc: $(cat "$WORK/err")"
	i=$((i + 1))
done

# `ust report` and `ust export` read traces with the same reader: the
# same one-line error, under their own name
for cmd in report export; do
	set +e
	if [ $cmd = export ]; then
		$VG "$UST" export --format=csv "$WORK/truncated" >/dev/null 2>"$WORK/err"
	else
		$VG "$UST" report "$WORK/truncated" >/dev/null 2>"$WORK/err"
	fi
	rc=$?
	set -e
	[ $rc = 1 ] || fail "ust $cmd of a truncated trace: exit status $rc: $(cat "$WORK/err")"
	[ "$(wc -l <"$WORK/err")" = 1 ] || fail "ust $cmd: not one line: $(cat "$WORK/err")"
	grep -Eq "^ust $cmd: $P: offset [0-9]*: packet size [0-9]* runs past the end of the file \\($((size - 100)) bytes\\)\$" "$WORK/err" ||
		fail "ust $cmd: got: $(cat "$WORK/err")"
done
