#!/bin/sh
# Overwrite mode under a writer much faster than the consumer, with 2 and
# 4 sub-buffers: copies raced by the writer must be dropped, never
# written torn.  Every packet on disk holds exactly the records written
# to it, and babeltrace2 reads the trace (missing packets are warnings).
. "$srcdir/lib.sh"

for n in 2 4; do
	rm -rf "$WORK/out" "$WORK/sum"
	mkdir "$WORK/out" "$WORK/sum"
	run_fake -s overwrite-live -o "$WORK/out" -k "$CLOCK" -n 300000 -b $n -l
	[ "$STATUS" = 0 ] || fail "consumer exited $STATUS: $(cat "$WORK/err")"
	no_consumer_errors
	t=$(trace_dir)
	$CHECK "$t" "$WORK/expect" \
		--allow '^WARNING: Tracer discarded [0-9]+ packets? between' || exit 1
	echo "count $n: packets=$(summary packets) dropped=$(summary packets_dropped)"
done
echo "ok"
