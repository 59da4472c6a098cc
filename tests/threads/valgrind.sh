#!/bin/sh
# The traced program under valgrind (memcheck), which has no rseq: with
# per-thread buffers every record is written (4 threads, a fork child
# too), and memcheck finds no error in libust's writer.
. "$top_srcdir/tests/threads/lib.sh"

need_cmd valgrind
# The sanitizer lanes of tests/extended build every program with ASan or
# TSan, whose runtime valgrind cannot run (both claim the address space).
san=$(ldd "$APP" | sed -n 's/^[[:space:]]*\(lib[at]san\)[^ ]* =>.*/\1/p' | head -n 1)
[ -z "$san" ] || skip "tbuf-app is built with ${san#lib} (a sanitizer lane): valgrind cannot run it"
export UST_TRACE='*' UST_OUTPUT="$WORK/t" UST_BUFFERS=per-thread UST_SUMMARY_DIR="$WORK/sum"
mkdir "$WORK/sum"
timeout 300 valgrind --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite \
	--log-file="$WORK/vg.%p" \
	"$APP" -t 4 -n 2000 -s -f >"$WORK/out" 2>"$WORK/err" ||
	fail "tbuf-app under valgrind: exit $?: $(cat "$WORK/err" "$WORK"/vg.* | head -n 20)"
# The program and its fork child ran to their end, each saying no error
# (the processes that exec the consumers leave logs without a summary).
[ "$(grep -l 'ERROR SUMMARY' "$WORK"/vg.* | wc -l)" = 2 ] ||
	fail "memcheck logs: $(ls "$WORK")"
for f in $(grep -l 'ERROR SUMMARY' "$WORK"/vg.*); do
	grep -q 'ERROR SUMMARY: 0 errors' "$f" || fail "memcheck: $(grep -A 20 '==[0-9]*== [A-Z]' "$f" | head -n 30)"
done
wait_for 120 "the two consumers did not finish" \
	sh -c "[ \$(ls $WORK/sum | grep -c '\.summary\$') = 2 ]"
$CHECK "$WORK/t" --traces 2 --complete 4 2000 --streams 4
echo ok
