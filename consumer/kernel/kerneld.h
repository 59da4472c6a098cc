/*
 * kerneld.h - ust-kerneld, the kernel bridge: kernel tracepoints from a
 * private ftrace instance, written as a CTF trace of the session.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * `ust record --kernel` starts one ust-kerneld before CMD.  It creates
 * the instance (tracefs.c), turns the tracepoints' formats into CTF
 * event classes (classes.c), writes DIR/kernel/metadata (metadata.c),
 * dumps the running tasks (statedump.c), then reads every CPU's ring
 * (trace_pipe_raw, decoded by libtraceevent's kbuffer) on a timer and
 * appends whole packets to DIR/kernel/kernel_<cpu> (stream.c) until it
 * is told to stop.  doc/kernel.md has the whole picture.
 */
#ifndef UST_KERNELD_H
#define UST_KERNELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/kerneld.h"	/* KERNELD_EXIT_*: ust record tells them apart */
#include "common/clock.h"

#define KERNELD_NAME		UST_KERNELD_NAME

struct tep_handle;
struct tep_event;
struct tep_format_field;
struct tracefs_instance;
struct tracefs_cpu;
struct kbuffer;

/* How one CTF field is made from the ftrace record. */
enum kfield_kind {
	KF_INT,		/* integer of `size` bytes, copied */
	KF_CHARS,	/* char[N]: a NUL-terminated string */
	KF_DYN_CHARS,	/* __data_loc / __rel_loc char[]: a string */
	KF_INT_ARRAY,	/* fixed array of `count` integers of `size` bytes */
	KF_TGID,	/* int32: the process (tgid) of the thread in `src` */
};

struct kfield {
	const struct tep_format_field *src;
	char name[64];
	enum kfield_kind kind;
	unsigned int size;	/* bytes of one integer */
	unsigned int count;	/* KF_INT_ARRAY elements */
	bool is_signed;
};

struct kclass {
	uint32_t ctf_id;
	char *name;		/* CTF event name */
	struct tep_event *ev;	/* NULL for the statedump event */
	struct kfield *fields;
	unsigned int nr_fields;
	bool is_exit;		/* sched_process_exit: forget the thread */
};

/* The classes, found by ftrace event id. */
struct kclasses {
	struct kclass **by_id;	/* indexed by ftrace event id */
	int max_id;
	struct kclass **all;	/* in CTF id order */
	unsigned int nr;
	struct kclass *statedump;
};

/* One CPU: its ring and its CTF stream file. */
struct kstream {
	unsigned int cpu;
	struct tracefs_cpu *tcpu;
	int fd;			/* DIR/kernel/kernel_<cpu> */
	uint8_t *pkt;		/* the packet being filled */
	size_t len;		/* bytes in pkt */
	size_t cap;
	uint64_t seq;		/* packet_seq_num of the next packet */
	uint64_t discarded;	/* cumulative events lost in the ring */
	uint64_t discarded_written;	/* in the last packet written */
	uint64_t begin_ts;	/* timestamp_begin of the open packet */
	uint64_t last_ts;	/* of the last event written */
	uint64_t nr_events;	/* in the open packet */
	uint64_t total_events;
	bool write_failed;
};

struct kerneld_opts {
	const char *output;	/* the session directory */
	char *events;		/* comma-separated globs, NULL: the default */
	uint64_t buffer_kb;	/* ring size per CPU */
	uint64_t period_us;	/* read timer */
	int ready_fd;		/* written once tracing is on, then closed */
	const char *clock;	/* the session clock text, NULL: measure */
};

struct kerneld {
	struct kerneld_opts opts;
	struct ust_clock clock;
	uint8_t uuid[16];	/* the kernel trace's own trace UUID */
	char *tracing_dir;
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	void *page;		/* one ring sub-buffer */
	int page_size;
	struct kclasses classes;
	int dir_fd;		/* DIR/kernel */
	char *dir_path;
	struct kstream *streams;
	unsigned int nr_cpus;
	int32_t *tgid;		/* tid -> tgid, 0 when unknown */
	uint32_t pid_max;
	struct kd_relay *relay;	/* relay.c: streaming to lttng-relayd, or NULL */
};

/* tracefs.c */
int kd_tracefs_find(struct kerneld *kd);
int kd_instance_create(struct kerneld *kd);
int kd_enable_events(struct kerneld *kd, char ***enabled);
int kd_tracing_on(struct kerneld *kd, bool on);
void kd_instance_destroy(struct kerneld *kd);
/* Free a NULL-terminated list of ours (not one of libtracefs). */
void kd_list_free(char **l);

/* classes.c */
int kd_classes_build(struct kerneld *kd, char **enabled);
void kd_classes_release(struct kclasses *c);

/* metadata.c */
int kd_metadata_write(struct kerneld *kd);

/* relay.c: the kernel trace on lttng-relayd when UST_OUTPUT is a relay URL */
int kd_relay_start(struct kerneld *kd);
bool kd_relay_active(const struct kerneld *kd);
int kd_relay_metadata(struct kerneld *kd, const char *text, size_t len);
int kd_relay_packet(struct kerneld *kd, struct kstream *s, uint64_t events);
void kd_relay_pass_end(struct kerneld *kd);
void kd_relay_finish(struct kerneld *kd, uint64_t events, uint64_t lost);
bool kd_relay_streamed(const struct kerneld *kd);
void kd_relay_release(struct kerneld *kd);

/* statedump.c */
int32_t kd_tgid_of(struct kerneld *kd, int32_t tid);
void kd_tgid_forget(struct kerneld *kd, int32_t tid);
int kd_statedump(struct kerneld *kd);

/* stream.c */
int kd_streams_open(struct kerneld *kd);
void kd_streams_close(struct kerneld *kd);
uint8_t *kd_event_begin(struct kerneld *kd, struct kstream *s,
			const struct kclass *k, uint64_t ts, int32_t tid,
			size_t payload_max);
void kd_event_end(struct kstream *s, uint8_t *end);
int kd_drain_cpu(struct kerneld *kd, struct kstream *s);
int kd_packet_flush(struct kerneld *kd, struct kstream *s);
/* Append a whole packet to the CPU's stream file (also for relay.c's fallback). */
int kd_packet_write_local(struct kerneld *kd, struct kstream *s, const void *pkt, size_t len);

#endif /* UST_KERNELD_H */
