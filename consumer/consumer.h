/*
 * consumer.h - internals of ust-consumerd, shared by its modules.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One consumer serves one traced process: it maps the process's shared
 * memory (shm/map.c), creates the trace directory (output.c), writes
 * the metadata and follows the metadata log (metadata.c), and drains
 * every per-CPU buffer into one stream file each (drain.c).
 *
 * Invariants:
 * - Everything in `struct shm_map` except `base` is a validated private
 *   copy, read once from the shared memory; only the dynamic words
 *   (commit, lost counts, meta_used) are read from the mapping again,
 *   and each is checked where it is used.
 * - Stream files only ever hold whole packets (`stream.file_size`).
 */
#ifndef UST_CONSUMER_H
#define UST_CONSUMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "abi/consumerd.h"
#include "abi/shm.h"
#include "common/clock.h"
#include "common/safepath.h"
#include "ctf/format.h"
#include "shm/map.h"
#include "shm/packet.h"

#define CONSUMER_NAME		UST_CONSUMERD_NAME
#define META_MAX_EVENT_ID	(1u << 20)	/* bounds the layout tables */
#define CORRUPT_REPORT_MAX	5		/* messages per stream */
#define META_FILE		"metadata"

/*
 * One buffer of one channel, and its stream file: a CPU's, or a thread's
 * (threads.c).  `buf`, `data`, `instance`, `cpu_slot` and `tbuf` say
 * where the buffer is and what its packets must carry.
 */
struct stream {
	unsigned int chan;
	unsigned int cpu;		/* the CPU, or the thread buffer's region */
	char name[48];			/* "<channel>_<cpu>", "<channel>_tid<tid>" */
	struct ust_shm_buf *buf;	/* its control block, in the mapping */
	const uint8_t *data;		/* its ring */
	uint64_t instance;		/* stream_instance_id of its packets */
	uint32_t cpu_slot;		/* their cpu_id: the CPU, or the thread id */
	const struct ust_shm_tbuf *tbuf;	/* a thread buffer's control page, or NULL */
	int fd;				/* -1 until the first packet is written */
	uint64_t file_size;		/* bytes of whole packets on disk */
	uint64_t consumed;		/* next sub-buffer (free-running) to read */
	bool broken;			/* control block unusable: stop reading */
	bool overrun_reported;		/* discard-mode lap already reported */

	/* The last packet accepted for this stream (written or not). */
	bool have_last;
	uint64_t last_ts_end;
	uint64_t last_discarded;
	uint64_t last_seq;
	uint64_t first_ts;		/* timestamp_begin of the first one */
	uint64_t first_seq;		/* and its packet_seq_num */
	uint64_t last_instance;		/* resume.c: the stream_instance_id on disk */

	uint64_t unwritten;		/* records of its packets not written */

	uint64_t nr_corrupt;
};

/* What may have happened to a copy while it was taken (drain.c). */
enum copy_state {
	COPY_CLEAN,	/* no writer could reach the slot: trust the checks */
	COPY_RACY,	/* a writer may be switching into the slot */
	COPY_TORN,	/* a writer wrote into the slot: drop the copy */
};

/* Totals for the summary. */
struct consumer_stats {
	uint64_t events;		/* records in packets written */
	uint64_t packets;		/* packets written */
	uint64_t packets_dropped;	/* overwritten (laps, torn) + corrupt */
	uint64_t packets_unwritten;	/* valid, but writing had stopped */
	uint64_t events_unwritten;	/* their records, counted lost */
	uint64_t bytes;			/* written, metadata included */
};

struct cd_trigger;

struct consumer {
	struct shm_map shm;
	struct ust_clock clock;
	int out_fd;			/* the trace directory */
	char *out_path;			/* its absolute path */
	time_t created;			/* when it was created (env of the metadata) */
	int meta_fd;
	uint64_t meta_file_size;	/* bytes of whole blocks in `metadata` */
	uint64_t meta_pos;		/* next unread byte of the metadata log */
	bool meta_broken;		/* log unreadable: stop following it */
	uint64_t meta_dropped;		/* classes libust could not log, reported */
	struct stream *streams;
	unsigned int nr_streams;
	uint8_t *scratch;		/* private copy of one packet (largest sub-buffer) */
	size_t scratch_size;
	bool writing_stopped;
	char error[256];		/* why writing stopped, for the summary */
	int pidfd;			/* the traced process */
	unsigned int nr_snapshots;	/* flight recorder: written so far */
	char *snapshot_lines;		/* "snapshot=PATH\n" each, for the summary */
	struct cd_relay *relay;		/* the relay sink (relay.c), or NULL */
	struct consumer_stats stats;
	int wake_fd;			/* the eventfd blocked writers ring (I16), or -1 */
	struct cd_threads *threads;	/* the thread buffers (threads.c), or NULL */
	/*
	 * I1, I17: the memory broke the contract once (a corrupt packet, a
	 * count that did not fit, a bad thread buffer): from then on every
	 * packet is walked, the writers' counts are not trusted.
	 */
	bool distrust;
	struct cd_trigger *trigger;	/* UST_TRIGGER on a user event, or NULL */
	int reserve_fd;			/* room kept on the trace's disk (reserve.c) */

	char resume_parent[4096];	/* --resume refused: where a new trace goes */
	char resume_name[256];		/* --resume: env.trace_name of the trace */

	/* The summary file (summary.c). */
	int sum_dirfd;			/* the summary directory */
	int sum_fd;			/* our hidden file in it, -1 when none */
	int sum_pid;			/* the traced process */
	char sum_tmp[64];		/* its name */
};

/* output.c: where the trace goes (a directory, or the relay: relay.c) */
int cd_output_start(struct consumer *c, const char *output, const char *procname, int pid);
int cd_output_metadata(struct consumer *c, const char *text, size_t len);
void cd_output_packet(struct consumer *c, struct stream *s, uint64_t n, const uint8_t *pkt,
		      size_t len, uint64_t records, bool partial);
void cd_output_finish(struct consumer *c);
int cd_output_file_metadata(struct consumer *c, const char *text, size_t len);
void cd_output_file_packet(struct consumer *c, struct stream *s, const uint8_t *pkt,
			   size_t len, uint64_t records);
void cd_output_trace_name(const char *procname, int pid, time_t created,
			  char *buf, size_t len);
int cd_output_create_trace_dir(struct consumer *c, const char *dir,
			    const char *procname, int pid);
void cd_output_remove_trace_dir(struct consumer *c, const char *meta);
int cd_output_open_file(struct consumer *c, const char *name);
void cd_output_stop(struct consumer *c, const char *name, int err);
int cd_output_append(struct consumer *c, int fd, uint64_t *size,
		  const void *buf, size_t len, const char *name);
/* The summary lines of records gates stopped (abi/consumerd.h), malloc'ed. */
char *cd_not_recorded_lines(const struct consumer *c);
/* The same lines in the trace directory, when there are any. */
void cd_not_recorded_write(const struct consumer *c);
int cd_output_open_parent(const char *dir, struct ust_safe_dir *d,
			  char *err, size_t errlen);
int cd_output_make_dir(int parent, const char *base, char *name, size_t len);
int cd_output_write_all(int fd, const void *data, size_t len);
char *cd_output_join_path(const struct ust_safe_dir *d, const char *name);
void cd_sanitize_name(char *s);

/* relay.c: the relay sink */
struct cd_relay;
bool cd_relay_wanted(const char *output);
bool cd_relay_sink(const struct consumer *c);
char *cd_relay_begun_lines(const struct consumer *c);
const char *cd_relay_session_name(const struct consumer *c);
void cd_relay_snapshot(struct consumer *c, const char *dir);
int cd_relay_start(struct consumer *c, const char *url, const char *trace_name);
int cd_relay_metadata(struct consumer *c, const char *text, size_t len);
void cd_relay_packet(struct consumer *c, struct stream *s, uint64_t n, const uint8_t *pkt,
		     size_t len, uint64_t records, bool partial);
bool cd_relay_live_due(struct consumer *c);
void cd_relay_beacons(struct consumer *c);
void cd_relay_tick(struct consumer *c);
void cd_relay_finish(struct consumer *c);
char *cd_relay_summary(const struct consumer *c);
void cd_relay_release(struct consumer *c);

/* metadata.c */
int cd_metadata_header_text(const struct consumer *c, int pid, char **text,
			    size_t *len);
int cd_metadata_write_header(struct consumer *c, int pid);
void cd_metadata_update(struct consumer *c);
void cd_metadata_release(struct consumer *c);
int cd_meta_tsdl_check(const char *tsdl, char *err, size_t errlen);

/* drain.c */
int cd_streams_init(struct consumer *c);
void cd_stream_start_at(struct consumer *c, struct stream *s, uint64_t from);
void cd_drain_all(struct consumer *c, bool final);
void cd_drain_live(struct consumer *c);
size_t cd_packet_copy(struct consumer *c, const struct chan_info *ci,
		   const uint8_t *slot);
enum copy_state cd_packet_copy_state(const struct consumer *c,
				  const struct stream *s, uint64_t n,
				  const uint8_t *slot);
const char *cd_packet_sequence_check(const struct stream *s, uint64_t n,
				  const uint8_t *pkt, char *why, size_t len);
void cd_streams_release(struct consumer *c);
uint64_t cd_streams_lost(const struct consumer *c);

/* threads.c: the per-thread channel's buffers (abi/shm.h, I14-I17) */
struct cd_threads;
int cd_threads_init(struct consumer *c);
void cd_threads_drain(struct consumer *c, bool final);
void cd_threads_release(struct consumer *c);
uint64_t cd_threads_lost(const struct consumer *c);
/* The summary lines of the function filters' counts, malloc'ed ("" when none). */
char *cd_threads_summary(const struct consumer *c);
/* drain.c, for threads.c */
void cd_stream_drain(struct consumer *c, struct stream *s, bool final);
void cd_stream_flush_counted(struct consumer *c, struct stream *s);
const uint8_t *cd_stream_slot(const struct consumer *c, const struct stream *s,
			      uint64_t n);
/* summary.c */
int cd_summary_start(struct consumer *c, int dirfd, int pid);
void cd_summary_started(struct consumer *c);
int cd_summary_finish(struct consumer *c);

/* reserve.c */
void cd_reserve_take(struct consumer *c);
void cd_reserve_release(struct consumer *c);
void cd_reserve_close_streams(struct consumer *c);

/* resume.c */
int cd_resume(struct consumer *c, const char *dir, int pid);
int cd_resume_stream(struct consumer *c, struct stream *s);
/* threads.c: the thread streams a dead consumer wrote, taken over */
int cd_threads_resume(struct consumer *c);
/* threads.c: the closed thread streams lacking records (fd -1), for reserve.c */
struct stream *cd_threads_unwritten(const struct consumer *c, size_t *nr);

/* snapshot.c */
void cd_flight_poll(struct consumer *c);
void cd_flight_final(struct consumer *c);

/* trigger.c: --trigger on a user event (UST_TRIGGER) */
int cd_trigger_init(struct consumer *c);
/* Event class `id` of channel `chan` was logged (metadata.c). */
void cd_trigger_class(struct consumer *c, unsigned int chan, uint32_t id, const char *name,
		      const char *tsdl);
/* Look for a match since the last tick; a match asks for a snapshot. */
void cd_trigger_scan(struct consumer *c);
/* Resuming a dead consumer's trace: it may have fired up to `cut` (resume.c). */
void cd_trigger_resume(struct consumer *c, uint64_t cut);
void cd_trigger_release(struct consumer *c);

/* kernel-snapshot.c: a snapshot's kernel part, by the kernel bridge */
struct cd_kernel_request {
	int fd;			/* -1: none asked for */
	char dir[UST_FLIGHT_PATH_MAX + 16];
};
/* Ask for the kernel events up to `cut` next to `snapshot` (if a bridge). */
void cd_kernel_snapshot_send(struct cd_kernel_request *r, const char *snapshot,
			     uint64_t cut);
/* Its answer: 0 when r->dir was written, else -errno (said). */
int cd_kernel_snapshot_wait(struct cd_kernel_request *r);

#endif /* UST_CONSUMER_H */
