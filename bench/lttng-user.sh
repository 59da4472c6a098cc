# bench/lttng-user.sh - sourced by the benchmark scripts that run LTTng:
# as the unprivileged user $LT_USER (created with useradd when the script
# runs as root), with its own LTTNG_HOME in $WORK/lttng.
#   lt_user_setup    sets LTW (that directory) and AS_LT
#   lt CMD...        runs CMD as that user, with that LTTNG_HOME
# SPDX-License-Identifier: GPL-2.0-only

lt_user_setup() {
	AS_LT=
	LTW=$WORK/lttng
	mkdir -p "$LTW"
	if [ "$(id -u)" = 0 ]; then
		id "$LT_USER" >/dev/null 2>&1 ||
			useradd --system --no-create-home --shell /usr/sbin/nologin "$LT_USER" 2>/dev/null || true
		if id "$LT_USER" >/dev/null 2>&1; then
			AS_LT="runuser -u $LT_USER --"
			chown "$LT_USER" "$LTW"
		fi
	fi
}

# shellcheck disable=SC2086
lt() { $AS_LT env LTTNG_HOME="$LTW" HOME="$LTW" "$@"; }
