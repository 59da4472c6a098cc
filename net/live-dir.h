/*
 * live-dir.h - a live viewer sink that mirrors the followed session into
 * a directory: DIR/PATH/metadata and DIR/PATH/CHANNEL per stream, whole
 * packets appended as they arrive, so any CTF reader can read DIR at any
 * time (`ust view --live` on a relay reads it while it grows).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * For printing in time order while the session runs, each stream says up
 * to which clock value it is known complete: the end of its last packet,
 * or the time of the relay's last "quiet" notice, whichever is later.
 * Nothing older can arrive on that stream any more.
 */
#ifndef UST_NET_LIVE_DIR_H
#define UST_NET_LIVE_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/live.h"

struct ust_live_dir_stream {
	char file[8704];		/* DIR/PATH/CHANNEL */
	uint64_t id;			/* the relay's stream handle */
	uint64_t trace_id;
	bool metadata;
	bool ended;			/* nothing more will come */
	bool has_complete;		/* complete_to is known */
	uint64_t complete_to;		/* clock value (cycles of the trace clock) */
	uint64_t packets;
	uint64_t bytes;
};

struct ust_live_dir;

/* Mirror into `dir` (created like mkdir -p).  NULL with err set. */
struct ust_live_dir *ust_live_dir_open(const char *dir, char *err, size_t errlen);

/* The callbacks that feed it, for ust_live_poll(). */
void ust_live_dir_sink(struct ust_live_dir *d, struct ust_live_sink *sink);

size_t ust_live_dir_nr_streams(const struct ust_live_dir *d);
const struct ust_live_dir_stream *ust_live_dir_stream(const struct ust_live_dir *d, size_t i);

/* Why a callback failed, or "". */
const char *ust_live_dir_error(const struct ust_live_dir *d);

void ust_live_dir_close(struct ust_live_dir *d);

#endif /* UST_NET_LIVE_DIR_H */
