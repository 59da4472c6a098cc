# procs.sh - finding the processes of a traced program (sourced by the
# fault and storm tests; POSIX sh).
# SPDX-License-Identifier: GPL-2.0-only

# consumer_of PID [NOT]: the ust-consumerd serving process PID (by its
# --pid), other than NOT (one just killed, still listed as it dies).
consumer_of() {
	_c=$(pgrep -a -x ust-consumerd | awk -v p="$1" -v not="${2:-}" '{
		for (i = 2; i < NF; i++)
			if ($i == "--pid" && $(i + 1) == p && $1 != not) { print $1; exit }
	}')
	[ -n "$_c" ] && echo "$_c"
}
