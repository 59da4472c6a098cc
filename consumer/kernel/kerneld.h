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
 * (trace_pipe_raw, decoded by libtraceevent's kbuffer) on a timer,
 * converts the records of all CPUs in time order (merge.c) and appends
 * whole packets to DIR/kernel/kernel_<cpu> (stream.c) until it is told
 * to stop.  doc/kernel.md has the whole picture.
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
#define KERNELD_NICE	(-10)	/* the bridge's priority (main.c) */

struct tracefs_instance;
struct tracefs_cpu;
struct kbuffer;
struct kd_paths;
struct kd_trigger;

/* How one CTF field is made from the ftrace record. */
enum kfield_kind {
	KF_INT,		/* integer of `size` bytes, copied (the low bytes) */
	KF_CHARS,	/* char[N]: a NUL-terminated string */
	KF_DYN_CHARS,	/* __data_loc / __rel_loc char[]: a string */
	KF_INT_ARRAY,	/* fixed array of `count` integers of `size` bytes */
	KF_TGID,	/* int32: the process (tgid) of the thread in `src` */
	KF_PRIO,	/* int32: the kernel's prio less MAX_RT_PRIO, as LTTng */
	KF_RWBS,	/* char[N] "WS"... into LTTng's uint32 RWBS_FLAG_* bits */
	KF_CUR_TID,	/* int32: the thread the record was written by */
	KF_USER_PATH,	/* a path argument: the string it points to (paths.c) */
	KF_IN_INTERRUPT,	/* uint8 from common_flags: 0 task, 1 softirq,
				 * 2 hard irq, 3 NMI (sched_wakeup's waker) */
};

struct kfield {
	const struct tep_format_field *src;	/* NULL in a statedump class */
	char name[64];
	enum kfield_kind kind;
	unsigned int size;	/* bytes of one integer */
	unsigned int count;	/* KF_INT_ARRAY elements */
	bool is_signed;
	unsigned char base;	/* 10, 16 or 8: how readers print it */
	bool network_order;	/* big endian (an IPv4 address) */
};

/* What the converter does besides writing an event of the class. */
enum kclass_role {
	KR_PLAIN,
	KR_NEWTASK,		/* task_newtask: the child's process */
	KR_EXEC,		/* sched_process_exec: the thread leads */
};

struct kclass {
	uint32_t ctf_id;
	char *name;		/* CTF event name */
	struct tep_event *ev;	/* NULL for a statedump class */
	struct kfield *fields;
	unsigned int nr_fields;
	enum kclass_role role;
	const struct tep_format_field *role_field[2];	/* what the role reads */
	bool hidden;		/* read for the bridge's own state, not written */
	bool user_path;		/* has a KF_USER_PATH field */
	bool sched_context;	/* kept for a muted thread: who runs, who wakes */
};

/* The statedump classes, lttng-modules' (statedump.c writes them). */
enum kd_statedump_class {
	SD_START,
	SD_PROCESS_STATE,
	SD_FILE_DESCRIPTOR,
	SD_VM_MAP,
	SD_INTERRUPT,
	SD_NETWORK_INTERFACE,
	SD_BLOCK_DEVICE,
	SD_CPU_TOPOLOGY,
	SD_END,
	SD_NR,
};

/* The classes, found by ftrace event id. */
struct kclasses {
	struct kclass **by_id;	/* indexed by ftrace event id */
	int max_id;
	struct kclass **all;	/* in CTF id order */
	unsigned int nr;
	struct kclass *statedump[SD_NR];
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
	bool seq_force;		/* write the next packet even when empty */
	const uint8_t *uuid;	/* in its packets; NULL: the trace's */
	/* merge.c: sub-buffers read whose records are not all converted
	 * (after a pass's or a snapshot's cut) */
	struct kbuffer *kb;	/* held[held_head], when held_loaded */
	void **held;		/* held[held_head, held_head + nr_held) */
	size_t held_head, nr_held, cap_held;
	bool held_loaded;
	bool missed_ignored;	/* the next sub-buffer's losses are not ours */
	void *rec;		/* the next record to convert, or NULL */
	uint64_t rec_ts;
};

struct kerneld_opts {
	const char *output;	/* the session directory */
	char *events;		/* comma-separated globs, NULL: the default */
	uint64_t buffer_kb;	/* ring size per CPU */
	uint64_t period_us;	/* read timer */
	int control_fd;		/* abi/kerneld.h's messages with ust record */
	int32_t root;		/* --recorder PID: PID's new process tree only */
	bool flight;		/* --flight: rings written only in snapshots */
	char *trigger;		/* --trigger EVENT[ if FILTER], a kernel event */
	char *holdoff;		/* --trigger-holdoff SEC */
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
	char **hidden;		/* "sys:event" enabled for the bridge itself */
	int32_t self;		/* our pid: the statedump's context */
	time_t created;		/* env.trace_creation_datetime */
	int32_t root_pid;	/* the traced command, once ust record says */
	int32_t *muted;		/* processes whose events are not written */
	unsigned int nr_muted;
	struct kd_paths *paths;	/* open()'s file names (paths.c), or NULL */
	int listen_fd;		/* --flight: the snapshot socket, or -1 */
	struct kd_trigger *trigger;	/* --trigger (ktrigger.c), or NULL */
	struct kd_relay *relay;	/* relay.c: streaming to lttng-relayd, or NULL */
};

/* tracefs.c */
int kd_tracefs_find(struct kerneld *kd);
int kd_instance_create(struct kerneld *kd);
int kd_enable_events(struct kerneld *kd, char ***enabled);
int kd_tracing_on(struct kerneld *kd, bool on);
void kd_instance_destroy(struct kerneld *kd);
uint64_t kd_cpu_lost(struct kerneld *kd, unsigned int cpu);
/* Free a NULL-terminated list of ours (not one of libtracefs). */
void kd_list_free(char **l);
bool kd_list_has(char **l, const char *s);

/* classes.c */
int kd_classes_build(struct kerneld *kd, char **enabled);
void kd_classes_release(struct kclasses *c);
/* `name`, with a leading '_' when it is a TSDL keyword. */
void kd_field_name(struct kfield *k, const char *name);
/*
 * How to carry ftrace field `f` into CTF (k->kind, size, count, sign);
 * false when we cannot (a dynamic array of numbers, an odd size).
 */
bool kd_field_kind(const struct tep_format_field *f, struct kfield *k);

#define KD_MAX_RT_PRIO	100	/* LTTng's prio is the kernel's less it */

/* lttng-names.c: lttng-modules' names and encodings */
/* The CTF name of ftrace event sys:name, malloc'ed. */
char *kd_lttng_event_name(const char *sys, const char *name);
/*
 * Name and encode field `f` of event sys:event as LTTng does, from the
 * kind field_kind() chose: 0, or 1 when LTTng has no such field.
 */
int kd_lttng_field(const char *sys, const char *event,
		   const struct tep_format_field *f, struct kfield *k);
/* Whether LTTng records the current thread as `tid` before field `field`. */
bool kd_lttng_tid_before(const char *sys, const char *event, const char *field);
/* The RWBS_FLAG_* bits of the kernel's rwbs text (at most `len` chars). */
uint32_t kd_lttng_rwbs(const char *s, size_t len);

/* metadata.c */
int kd_metadata_write(struct kerneld *kd);
/* The metadata with trace UUID `uuid` into directory `dir_fd` (not to a relay). */
int kd_metadata_write_to(struct kerneld *kd, int dir_fd, const uint8_t uuid[16]);

/* relay.c: the kernel trace on lttng-relayd when UST_OUTPUT is a relay URL */
int kd_relay_start(struct kerneld *kd);
bool kd_relay_active(const struct kerneld *kd);
int kd_relay_metadata(struct kerneld *kd, const char *text, size_t len);
int kd_relay_packet(struct kerneld *kd, struct kstream *s, uint64_t events);
void kd_relay_pass_end(struct kerneld *kd);
void kd_relay_finish(struct kerneld *kd, uint64_t events, uint64_t lost);
bool kd_relay_streamed(const struct kerneld *kd);
void kd_relay_release(struct kerneld *kd);

/* main.c */
int kd_random_uuid(uint8_t uuid[16]);

/* flight.c: the kernel flight recorder */
int kd_flight_listen(struct kerneld *kd);
/* Serve one connection of the snapshot socket. */
void kd_flight_accept(struct kerneld *kd);
/* A snapshot up to `cut` in `dir` (made); *events written. 0 or -errno. */
int kd_flight_snapshot(struct kerneld *kd, uint64_t cut, const char *dir, uint64_t *events);
void kd_flight_release(struct kerneld *kd);

/* ktrigger.c: --trigger on a kernel event */
/* Its own instance, armed; 0, -KERNELD_EXIT_USAGE (said) or -1. */
int kd_trigger_open(struct kerneld *kd);
/* Look for matches (on the timer); a match asks for snapshots. */
void kd_trigger_poll(struct kerneld *kd);
/* Process `pid` (text) is not traced: set_event_notrace_pid of ours too. */
void kd_trigger_notrace(struct kerneld *kd, const char *pid);
void kd_trigger_close(struct kerneld *kd);

/* tasks.c: which process each thread belongs to */
int kd_tasks_init(struct kerneld *kd);
int32_t kd_tgid_of(struct kerneld *kd, int32_t tid);
void kd_tgid_set(struct kerneld *kd, int32_t tid, int32_t tgid);
/* The "Tgid:" and "PPid:" lines of /proc/<tid>/status; 0 or -errno. */
int kd_proc_status(int32_t tid, int32_t *tgid, int32_t *ppid);
/* Events of a muted process are not written (sched context excepted). */
bool kd_muted(const struct kerneld *kd, int32_t pid);
void kd_mute(struct kerneld *kd, int32_t pid);
/* A record of class `k` (its role) just converted. */
void kd_tasks_follow(struct kerneld *kd, const struct kclass *k,
		     const uint8_t *data, unsigned int size, int32_t tid);

/* paths.c: the file names of the open() family */
#define KD_PATH_MAX	1024	/* with its NUL */
/* Attach the BPF copier; without BPF the names read "(unavailable)". */
int kd_paths_open(struct kerneld *kd);
void kd_paths_close(struct kerneld *kd);
/* Whether sys:event's field is a path the bridge copies. */
bool kd_paths_field(const char *sys, const char *event, const char *field);
/* Read the copier's ring (before converting a pass). */
void kd_paths_drain(struct kerneld *kd);
/* The path thread `tid` passed as `ptr`, malloc'ed (never NULL but on ENOMEM). */
char *kd_paths_take(struct kerneld *kd, int32_t tid, uint64_t ptr);

/* statedump.c, statedump-sys.c */
#define KD_PAYLOAD_MAX	8192

/* A statedump event's payload, as the class's fields lay it out. */
struct kd_payload {
	uint8_t buf[KD_PAYLOAD_MAX];
	size_t len;
};

void kd_payload_int(struct kd_payload *p, uint64_t v, unsigned int size);
void kd_payload_be32(struct kd_payload *p, uint32_t v);
void kd_payload_str(struct kd_payload *p, const char *s);
/* One statedump event into stream `s`, in the bridge's context. */
void kd_statedump_write(struct kerneld *kd, struct kstream *s, enum kd_statedump_class c,
			uint64_t ts, const struct kd_payload *p);
/* The state at the start: lttng_statedump_start ... _end. */
int kd_statedump(struct kerneld *kd);
/*
 * lttng_statedump_vm_map events of process `pid` into stream `s`, in the
 * context of thread `ctx` (0: the bridge's, as the start's statedump).
 */
void kd_statedump_vm_maps(struct kerneld *kd, struct kstream *s, uint64_t ts, int32_t pid,
			  int32_t ctx);
/* Interrupts, network interfaces, block devices, CPUs. */
void kd_statedump_system(struct kerneld *kd, uint64_t ts);

/* stream.c */
int kd_streams_open(struct kerneld *kd);
void kd_streams_close(struct kerneld *kd);
uint8_t *kd_event_begin(struct kerneld *kd, struct kstream *s,
			const struct kclass *k, uint64_t ts, int32_t tid,
			int32_t pid, size_t payload_max);
void kd_event_end(struct kstream *s, uint8_t *end);
/* One ring record of `size` bytes at `ts` into stream `s`. */
void kd_convert_record(struct kerneld *kd, struct kstream *s, const uint8_t *data,
		       unsigned int size, uint64_t ts);
int kd_packet_flush(struct kerneld *kd, struct kstream *s);
/* The last packet of every stream, ending at `ts`. */
void kd_streams_end(struct kerneld *kd, uint64_t ts);
/* merge.c: the live passes, every CPU's records in time order */
int kd_merge_open(struct kerneld *kd, struct kstream *s);
void kd_merge_close(struct kstream *s);
/*
 * Read CPU `s->cpu`'s ring until it is empty, or one ring's worth (so
 * that a busy CPU does not starve the others), into its held list.
 * Returns the number of sub-buffers read; *full when it stopped at the
 * ring's worth.
 */
long kd_merge_read(struct kerneld *kd, struct kstream *s, bool *full);
/* Convert the held records up to `cut` of the `n` streams, merged by time. */
void kd_merge_convert(struct kerneld *kd, struct kstream *streams, unsigned int n,
		      uint64_t cut);
/*
 * Read every ring, convert the records up to `cut` (UINT64_MAX: all),
 * write the packets; returns the number of sub-buffers read.
 */
uint64_t kd_merge_pass(struct kerneld *kd, uint64_t cut);
/* Append a whole packet to the CPU's stream file (also for relay.c's fallback). */
int kd_packet_write_local(struct kerneld *kd, struct kstream *s, const void *pkt, size_t len);

#endif /* UST_KERNELD_H */
