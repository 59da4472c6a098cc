#!/bin/sh
# valgrind-consumerd.sh - stands for ust-consumerd (UST_CONSUMERD, or
# fake-app -c) and runs the real one under memcheck.  valgrind.sh sets
# VG_CONSUMERD (the real binary), VG_LOGS (a log directory) and VG_OPTS.
# SPDX-License-Identifier: GPL-2.0-only
# shellcheck disable=SC2086
exec valgrind $VG_OPTS --log-file="$VG_LOGS/consumerd.%p" "$VG_CONSUMERD" "$@"
