#!/bin/sh
# `ust view` options against independent answers: --begin/--end in each
# TIME form against babeltrace2's own --begin/--end (stdout, byte for
# byte), in local time and --clock-gmt; -e, --tid and --pid against
# babeltrace2's full output filtered by grep, with the delta column
# dropped (it depends on the previous printed line), and exact counts
# from the workload.
. "$top_srcdir/tests/reader/lib.sh"

need_babeltrace2
[ -x "$STRESS" ] || skip "stress not built"

# 2 processes (fork) x 2 threads x 300 events; every 8th is stress:text
record f -- "$STRESS" -f -t 2 -n 300 -s
cd "$WORK"
export TZ=Asia/Kolkata	# local time is not UTC: --clock-gmt must matter

babeltrace2 f >all.bt 2>/dev/null || fail "babeltrace2 f"
[ "$(wc -l <all.bt)" = 1200 ] || fail "babeltrace2 printed $(wc -l <all.bt) events, not 1200"

# same_as_bt2 UST_OPTIONS -- BT2_OPTIONS: same stdout, at least one line
same_as_bt2() {
	uopts="" bopts=""
	while [ "$1" != -- ]; do uopts="$uopts|$1"; shift; done
	shift
	for a in "$@"; do bopts="$bopts|$a"; done
	(IFS='|'; set -f; "$UST" view ${uopts#|} f) >u.out 2>u.err ||
		fail "ust view$uopts: $(cat u.err)"
	(IFS='|'; set -f; babeltrace2 ${bopts#|} f) >b.out 2>/dev/null ||
		fail "babeltrace2$bopts failed"
	[ -s b.out ] || fail "babeltrace2$bopts printed nothing"
	cmp -s u.out b.out ||
		fail "ust view$uopts: $(diff b.out u.out | head -4)"
	wc -l <u.out
}

# The 100th and 900th events, in each time form (babeltrace2 prints them).
stamp() { sed -n "${1}p" "$2" | sed 's/^\[\([^]]*\)\].*/\1/'; }
babeltrace2 --clock-seconds f >sec.bt 2>/dev/null
babeltrace2 --clock-date f >date.bt 2>/dev/null
babeltrace2 --clock-date --clock-gmt f >gmtdate.bt 2>/dev/null
babeltrace2 --clock-gmt f >gmt.bt 2>/dev/null

n=$(same_as_bt2 --begin "$(stamp 100 all.bt)" --end "$(stamp 900 all.bt)" -- \
	--begin="$(stamp 100 all.bt)" --end="$(stamp 900 all.bt)")
[ "$n" = 801 ] || fail "HH:MM:SS.N range: $n events, not 801"
n=$(same_as_bt2 --clock-gmt --begin "$(stamp 100 gmt.bt)" -- \
	--clock-gmt --begin="$(stamp 100 gmt.bt)")
[ "$n" = 1101 ] || fail "--clock-gmt --begin HH:MM:SS.N: $n events, not 1101"
n=$(same_as_bt2 --begin "$(stamp 100 date.bt)" --end "$(stamp 900 date.bt)" -- \
	--begin="$(stamp 100 date.bt)" --end="$(stamp 900 date.bt)")
[ "$n" = 801 ] || fail "date range: $n events, not 801"
n=$(same_as_bt2 --clock-gmt --end "$(stamp 900 gmtdate.bt)" -- \
	--clock-gmt --end="$(stamp 900 gmtdate.bt)")
[ "$n" = 900 ] || fail "--clock-gmt date --end: $n events, not 900"
n=$(same_as_bt2 --begin "$(stamp 100 sec.bt)" --end "$(stamp 900 sec.bt)" -- \
	--begin="$(stamp 100 sec.bt)" --end="$(stamp 900 sec.bt)")
[ "$n" = 801 ] || fail "SEC.N range: $n events, not 801"
# whole seconds: everything lies within the recording's seconds
s=$(stamp 1 sec.bt | cut -d. -f1)
n=$(same_as_bt2 --begin "$s" --end "$((s + 60))" -- --begin="$s" --end="$((s + 60))")
[ "$n" = 1200 ] || fail "SEC range: $n events, not 1200"
# one instant: the events at exactly that time (at least the one)
n=$(same_as_bt2 --begin "$(stamp 500 sec.bt)" --end "$(stamp 500 sec.bt)" -- \
	--begin="$(stamp 500 sec.bt)" --end="$(stamp 500 sec.bt)")
[ "$n" -ge 1 ] || fail "one-instant range printed nothing"
# a range after the trace: nothing, and no error
"$UST" view --begin "$((s + 100))" f >u.out || fail "--begin after the end failed"
[ ! -s u.out ] || fail "--begin after the end printed events"

# --clock-gmt alone: babeltrace2's --clock-gmt output, exactly
same_as_bt2 --clock-gmt -- --clock-gmt >/dev/null

# filters: babeltrace2's output selected by grep, deltas dropped
nodelta() { sed 's/ (+[?.0-9]*) / /' "$@"; }
# filtered NAME GREP_REGEX UST_OPTIONS...: same lines as the grep
filtered() {
	name=$1 re=$2
	shift 2
	"$UST" view "$@" f >u.out 2>u.err || fail "ust view $*: $(cat u.err)"
	grep -E -- "$re" all.bt | nodelta >want
	nodelta u.out >got
	[ -s want ] || fail "$name: the filter selects nothing"
	cmp -s want got || fail "$name: $(diff want got | head -4)"
	wc -l <got
}
n=$(filtered text ' stress:text: ' -e 'stress:te*')
[ "$n" = 152 ] || fail "-e stress:te*: $n events, not 4 x 38"
n=$(filtered tick-or-text ' stress:t(ick|ext): ' -e 'stress:tick' -e '*:text')
[ "$n" = 1200 ] || fail "-e tick -e *:text: $n events, not 1200"
n=$(filtered '[]' ' stress:tick: ' -e 'stress:[t][i]ck')
[ "$n" = 1048 ] || fail "-e [t][i]ck: $n events, not 1200 - 152"
"$UST" view -e 'nothing:*' f >u.out || fail "-e matching nothing failed"
[ ! -s u.out ] || fail "-e nothing:* printed events"

tid=$(sed -n '1s/.*vtid = \([0-9]*\) .*/\1/p' all.bt)
n=$(filtered tid "vtid = $tid }" --tid "$tid")
[ "$n" = 300 ] || fail "--tid $tid: $n events, not 300"
pid=$(sed -n '$s/.*:(\([0-9]*\)) stress:.*/\1/p' all.bt)
n=$(filtered pid ":\\($pid\\) " --pid "$pid")
[ "$n" = 600 ] || fail "--pid $pid: $n events, not 600"
n=$(filtered pid-text ":\\($pid\\) stress:text: " --pid "$pid" -e '*text')
[ "$n" = 76 ] || fail "--pid $pid -e *text: $n events, not 76"
"$UST" view --tid 1 f >u.out || fail "--tid of no thread failed"
[ ! -s u.out ] || fail "--tid 1 printed events"

# bad option values: usage errors (exit status 2) naming the value
bad() {
	msg=$1
	shift
	set +e
	"$UST" view "$@" f >/dev/null 2>u.err
	rc=$?
	set -e
	[ $rc = 2 ] || fail "ust view $*: exit status $rc, not 2"
	[ "$(cat u.err)" = "ust view: $msg" ] || fail "ust view $*: $(cat u.err)"
}
bad "bad time '12:xx' (see 'ust view --help')" --begin 12:xx
bad "bad time '1.2.3' (see 'ust view --help')" --begin 1 --end 1.2.3
bad "bad --tid 'abc'" --tid abc
bad "bad --pid '-3'" --pid -3
