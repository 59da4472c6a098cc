/*
 * shm/map.h - a traced process's shared memory, mapped and validated.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Used by the consumer (which gets the memfd from libust) and by the `ust`
 * commands that act on a running process (which find it with
 * shm_map_attach()).  Everything in `struct shm_map` except `base` is a
 * validated private copy of the header and channel table; the dynamic
 * words (commit, lost counts, meta_used) must be checked where used.
 */
#ifndef UST_SHM_MAP_H
#define UST_SHM_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "shm/packet.h"
#include "abi/shm.h"

/* A validated private copy of one channel of the channel table. */
struct chan_info {
	char name[32];
	uint32_t stream_id;
	uint32_t mode;			/* enum ust_mode */
	uint32_t subbuf_size;
	uint32_t subbuf_count;
	unsigned int subbuf_shift;	/* log2(subbuf_size) */
	uint64_t bufs_offset;
	uint64_t data_offset;
	uint32_t flags;			/* enum ust_chan_flags */
	struct ust_layout_table table;	/* layouts known so far, by event id */
};

/* The mapping and what the header said, once validated. */
struct shm_map {
	uint8_t *base;
	size_t map_size;		/* bytes mapped */
	uint64_t size;			/* bytes checked: the header's total_size */
	uint32_t nr_cpus;
	uint32_t nr_channels;
	int32_t pid;
	uint32_t clock_kind;
	char procname[16];
	uint8_t uuid[16];
	uint64_t meta_offset;
	uint64_t meta_size;
	struct chan_info chan[UST_MAX_CHANNELS];
	/* The per-thread channel's thread area (I14), when there is one. */
	int fd;				/* the memfd, to map its regions; not ours */
	int thread_chan;		/* the channel, or -1 */
	uint64_t threads_offset;
	uint64_t region_size;		/* UST_TBUF_REGION_SIZE() */
};

/* Format a reason into `err` (may be NULL with errlen 0); returns -EINVAL. */
int shm_fail_msg(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int shm_map_open(struct shm_map *m, int fd, char *err, size_t errlen);
int shm_header_check(struct shm_map *m, const struct ust_shm_header *h,
		     char *err, size_t errlen);
void shm_map_close(struct shm_map *m);
struct ust_shm_buf *shm_buf(const struct shm_map *m, unsigned int chan,
			    unsigned int cpu);
const uint8_t *shm_slot(const struct shm_map *m, unsigned int chan,
			unsigned int cpu, uint64_t subbuf);
const struct ust_shm_header *shm_header(const struct shm_map *m);

/*
 * Thread buffers (I14): how many regions the process published, checked
 * against the memfd's size (at most `max`, the caller's last count being
 * `known`); and region `i` mapped (munmap it with m->region_size bytes).
 * The count only grows: a lower one, or one past the file, returns -1
 * with a reason in `err`.
 */
int shm_threads_published(const struct shm_map *m, uint64_t known,
			  uint64_t *nr, char *err, size_t errlen);
struct ust_shm_tbuf *shm_thread_map(const struct shm_map *m, uint64_t i);

/*
 * Find the shared memory of running process `pid` (its memfd
 * "ust-trace", through /proc/PID/fd), map it read-write and validate it.
 * Needs the right to ptrace `pid` (same user, or root).  Returns 0, or
 * -errno with a one-line reason in `err` (-ENOENT: `pid` is not traced
 * by libust; -EACCES/-EPERM: not allowed; -ESRCH: no such process).
 */
int shm_map_attach(struct shm_map *m, pid_t pid, char *err, size_t errlen);
/*
 * Only open the memfd "ust-trace" that process `pid` holds (the traced
 * process, or its consumer), without mapping it.  Returns the fd or
 * -errno with a reason in `err`, as shm_map_attach().
 */
int shm_memfd_open(pid_t pid, char *err, size_t errlen);
/* The same, keeping the memfd open in *fd (for the control lock). */
int shm_map_attach_fd(struct shm_map *m, pid_t pid, int *fd, char *err,
		      size_t errlen);

/*
 * The control area of a mapped process, after checking that the header
 * places it inside the mapping; NULL with a one-line reason in `err`.
 */
struct ust_ctl_area *shm_ctl_area(const struct shm_map *m, char *err,
				  size_t errlen);

#endif /* UST_SHM_MAP_H */
