#!/bin/sh
# Hostile shared memory, live: STORM_HOSTILE_RUNS runs of a program whose
# 4 threads trace while a fifth scribbles over libust's shared memory
# (header, channel table, the channel name set to "../../escaped",
# commit offsets, consumed positions, lost counts, packet headers,
# records, metadata log; with per-thread buffers, every other run, also
# the thread buffers' states, record counts and published count) every
# millisecond, at random (seed STORM_SEED +
# run), from the moment the consumer first released a sub-buffer (so it
# drains a session it validated); at the end it breaks the magic of
# every buffer's open packet.  The real consumer, started by libust,
# drains it all the while.  For each run:
#   - the program exits 0 and the consumer finishes (its summary is there)
#     with no crash, no sanitizer report;
#   - it reports the corruption (ust-consumerd: lines on stderr);
#   - it wrote nothing but metadata and stream files in the trace
#     directory (the run happens three directories down from a private
#     directory whose whole listing is checked);
#   - babeltrace2 reads the trace, warning at most of discards (the lost
#     counts are the writers' to set: a nonsense value, such as 2^64 - 5,
#     makes babeltrace2 say "Tracer may have discarded events");
#     per-thread runs: ust view reads it and ends cleanly (exit 0 or 1;
#     counted packets' records are not checked, see below).
. "$top_srcdir/tests/storm/lib.sh"

echo "hostile storm: $STORM_HOSTILE_RUNS runs, STORM_SEED=$STORM_SEED"
reports=0 acts=0
i=0
while [ $i -lt "$STORM_HOSTILE_RUNS" ]; do
	i=$((i + 1))
	seed=$((STORM_SEED + i))
	top="$WORK/r$i"
	run="$top/a/b/c"
	log="$WORK/log$i"
	mkdir -p "$run"
	status=0
	buffers=per-cpu
	[ $((i % 2)) = 0 ] && buffers=per-thread
	(cd "$run" && "$UST" record -o "$run/out" --buffers=$buffers --subbuf-size 16k --subbuf-count 4 -- \
		"$STORM" hostile -t 4 -r 50 -s -d 300 -S $seed) >"$log.out" 2>"$log.err" ||
		status=$?
	what="run $i (seed $seed, $buffers)"
	[ $status -eq 0 ] || fail "$what: ust record exited $status: $(tail -n 5 "$log.err")"
	if grep -E -q 'Sanitizer|runtime error|core dumped|Segmentation' "$log.err"; then
		fail "$what: $(grep -E 'Sanitizer|runtime error|core dumped|Segmentation' "$log.err" | head -n 3)"
	fi
	grep -q '^ust record: 1 trace, ' "$log.err" ||
		fail "$what: the consumer did not finish: $(tail -n 5 "$log.err")"
	n=$(grep -c '^ust-consumerd: ' "$log.err" || true)
	[ "$n" -gt 0 ] || fail "$what: corruption not reported: $(cat "$log.err")"
	# Nothing but the trace directory and its metadata and stream files.
	find "$top" | sed "s|^$top||" | grep -v -E \
		'^(|/a|/a/b|/a/b/c|/a/b/c/out|/a/b/c/out/storm-[0-9]+-[0-9]{8}-[0-9]{6}(/metadata|/ust_[0-9]+|/ust_tid-?[0-9]+(_sig)?(-[0-9]+)?)?)$' \
		>"$log.stray" || true
	[ ! -s "$log.stray" ] || fail "$what: wrote outside its trace: $(head -n 5 "$log.stray")"
	[ "$(ls "$WORK" | grep -v -E '^(r|log)[0-9]+' | wc -l)" = 0 ] ||
		fail "$what: wrote into $WORK: $(ls "$WORK")"
	trace=$(ls -d "$run"/out/storm-* 2>/dev/null) ||
		fail "$what: no trace directory: $(ls -R "$run"; tail -n 5 "$log.err")"
	if [ $buffers = per-thread ]; then
		# Counted packets are written without reading their records
		# (I17, doc/consumer.md "The counted path"): records broken in
		# the shared memory, or two writers in one buffer (a forged
		# state), reach the file, and readers may refuse them.  Our
		# reader must still end cleanly.
		status=0
		"$UST" view "$trace" >/dev/null 2>"$log.view" || status=$?
		[ $status -le 1 ] || fail "$what: ust view exited $status: $(head -c 600 "$log.view")"
	else
		babeltrace2 "$trace" >/dev/null 2>"$log.bt" ||
			fail "$what: babeltrace2: $(head -c 600 "$log.bt")"
		if grep -v -E '^WARNING: Tracer (may have )?discarded ([0-9]+ )?(events?|packets?) ' "$log.bt" | grep -q .; then
			fail "$what: babeltrace2 warned: $(head -c 600 "$log.bt")"
		fi
	fi
	reports=$((reports + n))
	acts=$((acts + $(sed -n 's/^seed=[0-9]* acts://p' "$log.out" | tr ' ' '\n' |
		awk -F= '{ s += $2 } END { print s + 0 }')))
	echo "$what: $(sed -n 's/^seed=[0-9]* acts: //p' "$log.out"); $n reports"
	rm -rf "$top"
done
echo "hostile storm: $STORM_HOSTILE_RUNS runs, $acts corruptions, $reports consumer reports, no crash, nothing written outside"
