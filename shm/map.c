/*
 * shm/map.c - map a traced process's shared memory and validate it.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * The header and channel table are copied into private memory before
 * they are checked, and only the copies are used afterwards, so a
 * process that rewrites them later cannot move the consumer outside the
 * mapping.  Every region (channel table, control blocks, metadata log,
 * data) must lie inside the mapping and not overlap another.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/parse.h"
#include "abi/control.h"
#include "shm/map.h"

struct region {
	uint64_t start;
	uint64_t len;
	const char *what;
};

int shm_fail_msg(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* [start, start + len) inside [0, size), without overflow. */
static bool range_ok(uint64_t start, uint64_t len, uint64_t size)
{
	return start <= size && len <= size - start;
}

/* A NUL within `len` bytes, and only [A-Za-z0-9_-] before it. */
static bool name_ok(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && s[i]; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-'))
			return false;
	}
	return i > 0 && i < len;
}

static int regions_disjoint(const struct region *r, unsigned int n,
			    char *err, size_t errlen)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			if (r[i].start < r[j].start + r[j].len &&
			    r[j].start < r[i].start + r[i].len)
				return shm_fail_msg(err, errlen, "%s overlaps %s",
						  r[i].what, r[j].what);
		}
	}
	return 0;
}

static void chan_info_fill(struct chan_info *ci, const struct ust_shm_channel *ch)
{
	memset(ci, 0, sizeof(*ci));
	memcpy(ci->name, ch->name, sizeof(ci->name));
	ci->stream_id = ch->stream_id;
	ci->mode = ch->mode;
	ci->subbuf_size = ch->subbuf_size;
	ci->subbuf_count = ch->subbuf_count;
	ci->subbuf_shift = (unsigned int)__builtin_ctz(ch->subbuf_size);
	ci->bufs_offset = ch->bufs_offset;
	ci->data_offset = ch->data_offset;
	ci->flags = ch->flags;
	ci->table.event_context = ch->event_context;
}

/*
 * A per-thread channel (I14): no per-CPU buffer, at most
 * UST_TBUF_MAX_SLOTS sub-buffers, no flight mode, and only one such
 * channel.  Its regions are checked when the thread area is.
 */
static int thread_channel_check(struct shm_map *m, const struct ust_shm_channel *ch,
				unsigned int i, struct chan_info *ci,
				struct region *r, char *err, size_t errlen)
{
	if (ch->bufs_offset || ch->data_offset)
		return shm_fail_msg(err, errlen, "channel %u: per-thread with per-CPU buffers", i);
	if (ch->subbuf_count > UST_TBUF_MAX_SLOTS)
		return shm_fail_msg(err, errlen, "channel %u: %u sub-buffers per thread (at most %u)",
				  i, ch->subbuf_count, UST_TBUF_MAX_SLOTS);
	if (ch->mode == UST_MODE_FLIGHT)
		return shm_fail_msg(err, errlen, "channel %u: per-thread in flight mode", i);
	if (m->thread_chan >= 0)
		return shm_fail_msg(err, errlen, "channels %d and %u both per-thread",
				  m->thread_chan, i);
	chan_info_fill(ci, ch);
	m->thread_chan = (int)i;
	m->region_size = UST_TBUF_REGION_SIZE(ch->subbuf_size, ch->subbuf_count);
	/* Nothing in the fixed part: two empty regions overlap nothing. */
	r[0] = (struct region){ 0, 0, "control blocks" };
	r[1] = (struct region){ 0, 0, "ring buffer data" };
	return 0;
}

/* Validate channel `i` (a private copy) and fill `ci`. */
static int channel_check(struct shm_map *m,
			 const struct ust_shm_channel *ch, unsigned int i,
			 struct chan_info *ci, struct region *r,
			 char *err, size_t errlen)
{
	uint64_t bufs_len, data_len;

	if (!name_ok(ch->name, sizeof(ch->name)))
		return shm_fail_msg(err, errlen, "channel %u: bad name", i);
	if (ch->mode > UST_MODE_FLIGHT)
		return shm_fail_msg(err, errlen, "channel %u: bad mode %u", i, ch->mode);
	if (ch->event_context & ~UST_CTX_ALL)
		return shm_fail_msg(err, errlen, "channel %u: bad event context 0x%x",
				i, ch->event_context);
	if (ch->flags & ~UST_CHAN_FLAGS_ALL)
		return shm_fail_msg(err, errlen, "channel %u: bad flags 0x%x", i, ch->flags);
	if (!ust__is_pow2(ch->subbuf_size) || ch->subbuf_size < UST_SUBBUF_MIN ||
	    ch->subbuf_size > UST_SUBBUF_MAX)
		return shm_fail_msg(err, errlen, "channel %u: bad sub-buffer size %u",
				  i, ch->subbuf_size);
	if (!ust__is_pow2(ch->subbuf_count) || ch->subbuf_count < UST_SUBBUF_COUNT_MIN ||
	    ch->subbuf_count > UST_SUBBUF_COUNT_MAX)
		return shm_fail_msg(err, errlen, "channel %u: bad sub-buffer count %u",
				  i, ch->subbuf_count);
	if (ch->flags & UST_CHAN_PER_THREAD)
		return thread_channel_check(m, ch, i, ci, r, err, errlen);
	/* nr_cpus <= 2^12, size <= 2^30, count <= 2^16: no overflow. */
	data_len = (uint64_t)ch->subbuf_size * ch->subbuf_count * m->nr_cpus;
	bufs_len = (uint64_t)sizeof(struct ust_shm_buf) * m->nr_cpus;
	if (ch->bufs_offset % 64 || !range_ok(ch->bufs_offset, bufs_len, m->size))
		return shm_fail_msg(err, errlen, "channel %u: control blocks outside the mapping", i);
	if (ch->data_offset % UST_SHM_PAGE ||
	    !range_ok(ch->data_offset, data_len, m->size))
		return shm_fail_msg(err, errlen, "channel %u: data outside the mapping", i);

	chan_info_fill(ci, ch);
	r[0] = (struct region){ ch->bufs_offset, bufs_len, "control blocks" };
	r[1] = (struct region){ ch->data_offset, data_len, "ring buffer data" };
	return 0;
}

static int channels_check(struct shm_map *m, const struct ust_shm_header *h,
			  struct region *r, unsigned int *nr,
			  char *err, size_t errlen)
{
	struct ust_shm_channel ch;
	unsigned int i, j;
	int ret;

	for (i = 0; i < m->nr_channels; i++) {
		/* Copy first: the process may rewrite the table at any time. */
		memcpy(&ch, m->base + h->channels_offset + i * sizeof(ch), sizeof(ch));
		ret = channel_check(m, &ch, i, &m->chan[i], &r[*nr], err, errlen);
		if (ret)
			return ret;
		*nr += 2;
		for (j = 0; j < i; j++) {
			if (m->chan[j].stream_id == m->chan[i].stream_id)
				return shm_fail_msg(err, errlen, "channels %u and %u share stream id %u",
						  j, i, m->chan[i].stream_id);
			if (!strcmp(m->chan[j].name, m->chan[i].name))
				return shm_fail_msg(err, errlen, "channels %u and %u share name '%s'",
						  j, i, m->chan[i].name);
		}
	}
	return 0;
}

/*
 * The thread area (I14): after everything else, page aligned, and only
 * with a per-thread channel.
 */
static int threads_check(struct shm_map *m, const struct ust_shm_header *h,
			 char *err, size_t errlen)
{
	m->threads_offset = h->threads_offset;
	if (m->thread_chan < 0)
		return h->threads_offset ?
		       shm_fail_msg(err, errlen, "thread area without a per-thread channel") : 0;
	if (h->threads_offset % UST_SHM_PAGE || h->threads_offset < m->size ||
	    h->threads_offset > (1ull << 62))
		return shm_fail_msg(err, errlen, "thread area at %llu invalid",
				  (unsigned long long)h->threads_offset);
	return 0;
}

/*
 * Check the private copy `h` of the header against the mapping size and
 * fill `m`.  Returns 0 or -EINVAL with a reason in `err`.
 */
int shm_header_check(struct shm_map *m, const struct ust_shm_header *h,
		     char *err, size_t errlen)
{
	struct region r[2 + 2 * UST_MAX_CHANNELS];
	unsigned int nr = 0;
	uint64_t chans_len;
	int ret;

	if (h->magic != UST_SHM_MAGIC)
		return shm_fail_msg(err, errlen, "bad magic 0x%08x", h->magic);
	if (h->version != UST_SHM_VERSION)
		return shm_fail_msg(err, errlen, "unsupported version %u (expected %u)",
				  h->version, UST_SHM_VERSION);
	if (h->total_size < UST_SHM_PAGE || h->total_size > m->size)
		return shm_fail_msg(err, errlen, "total size %llu does not match the %llu-byte mapping",
				  (unsigned long long)h->total_size,
				  (unsigned long long)m->size);
	m->size = h->total_size;
	if (h->nr_cpus == 0 || h->nr_cpus > UST_MAX_CPUS)
		return shm_fail_msg(err, errlen, "bad number of CPUs %u", h->nr_cpus);
	if (h->nr_channels == 0 || h->nr_channels > UST_MAX_CHANNELS)
		return shm_fail_msg(err, errlen, "bad number of channels %u", h->nr_channels);
	if (h->clock_kind != UST_CLOCK_TSC && h->clock_kind != UST_CLOCK_MONOTONIC)
		return shm_fail_msg(err, errlen, "unknown clock kind %u", h->clock_kind);
	if (!memchr(h->procname, '\0', sizeof(h->procname)))
		return shm_fail_msg(err, errlen, "process name not terminated");
	chans_len = (uint64_t)h->nr_channels * sizeof(struct ust_shm_channel);
	if (h->channels_offset % 8 || !range_ok(h->channels_offset, chans_len, m->size))
		return shm_fail_msg(err, errlen, "channel table outside the mapping");
	if (h->meta_offset % 8 || !range_ok(h->meta_offset, h->meta_size, m->size))
		return shm_fail_msg(err, errlen, "metadata log outside the mapping");

	m->nr_cpus = h->nr_cpus;
	m->nr_channels = h->nr_channels;
	m->thread_chan = -1;
	m->pid = h->pid;
	m->clock_kind = h->clock_kind;
	memcpy(m->procname, h->procname, sizeof(m->procname));
	memcpy(m->uuid, h->trace_uuid, sizeof(m->uuid));
	m->meta_offset = h->meta_offset;
	m->meta_size = h->meta_size;

	r[nr++] = (struct region){ 0, sizeof(*h), "header" };
	r[nr++] = (struct region){ h->channels_offset, chans_len, "channel table" };
	ret = channels_check(m, h, r, &nr, err, errlen);
	if (ret)
		return ret;
	if (m->meta_size)
		r[nr++] = (struct region){ m->meta_offset, m->meta_size, "metadata log" };
	ret = regions_disjoint(r, nr, err, errlen);
	if (!ret)
		ret = threads_check(m, h, err, errlen);
	return ret;
}

/*
 * Map the shared memory behind `fd` and validate its header.  Sealing
 * the size, where the memfd allows it, keeps the process from shrinking
 * it under us (which would fault our reads); main.c also guards reads
 * against SIGBUS for the case where sealing is not possible.
 */
int shm_map_open(struct shm_map *m, int fd, char *err, size_t errlen)
{
	struct ust_shm_header h;
	struct stat st;
	void *p;
	int ret;

	memset(m, 0, sizeof(*m));
	m->fd = fd;
	m->thread_chan = -1;
	if (fstat(fd, &st))
		return shm_fail_msg(err, errlen, "fstat: %s", strerror(errno));
	if (!S_ISREG(st.st_mode) || st.st_size < (off_t)UST_SHM_PAGE)
		return shm_fail_msg(err, errlen, "not a shared-memory file of a sane size");
	(void)fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
	p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return shm_fail_msg(err, errlen, "mmap: %s", strerror(errno));
	m->base = p;
	m->map_size = (size_t)st.st_size;
	m->size = (uint64_t)st.st_size;
	memcpy(&h, m->base, sizeof(h));
	ret = shm_header_check(m, &h, err, errlen);
	if (ret)
		shm_map_close(m);
	return ret;
}

void shm_map_close(struct shm_map *m)
{
	if (m->base)
		munmap(m->base, m->map_size);
	m->base = NULL;
}

const struct ust_shm_header *shm_header(const struct shm_map *m)
{
	return (const struct ust_shm_header *)m->base;
}

/* Offsets were validated in shm_header_check(): no check needed here. */
struct ust_shm_buf *shm_buf(const struct shm_map *m, unsigned int chan,
			    unsigned int cpu)
{
	return (struct ust_shm_buf *)(m->base + m->chan[chan].bufs_offset) + cpu;
}

const uint8_t *shm_slot(const struct shm_map *m, unsigned int chan,
			unsigned int cpu, uint64_t subbuf)
{
	const struct chan_info *ci = &m->chan[chan];
	uint64_t slot = subbuf & (ci->subbuf_count - 1);

	return m->base + ci->data_offset +
	       ((uint64_t)cpu * ci->subbuf_count + slot) * ci->subbuf_size;
}

/* The control area of a mapped process (shm/map.h). */
struct ust_ctl_area *shm_ctl_area(const struct shm_map *m, char *err,
				  size_t errlen)
{
	const struct ust_shm_header *h = shm_header(m);
	/* I1: read once; the process may rewrite its header at any time. */
	uint64_t off = __atomic_load_n(&h->ctl_offset, __ATOMIC_RELAXED);
	uint64_t size = __atomic_load_n(&h->ctl_size, __ATOMIC_RELAXED);

	if (!off) {
		shm_fail_msg(err, errlen, "process %d: its libust has no runtime "
			 "control (too old)", (int)m->pid);
		return NULL;
	}
	if (off % 8 || size < sizeof(struct ust_ctl_area) ||
	    off > m->size || sizeof(struct ust_ctl_area) > m->size - off) {
		shm_fail_msg(err, errlen, "process %d: bad runtime control area "
			 "(offset %llu, size %llu)", (int)m->pid,
			 (unsigned long long)off, (unsigned long long)size);
		return NULL;
	}
	return (struct ust_ctl_area *)(m->base + off);
}

int shm_threads_published(const struct shm_map *m, uint64_t known,
			  uint64_t *nr, char *err, size_t errlen)
{
	/*
	 * I14, acquire: the regions below the count are in the file and set
	 * up as CLAIMED or later.  Partner: libust's store-release of the
	 * count after it grew the memfd (libust/threadbuf.c).
	 */
	uint64_t n = __atomic_load_n(&shm_header(m)->threads_published,
				     __ATOMIC_ACQUIRE);
	struct stat st;

	*nr = known;
	if (n == known)
		return 0;
	if (n < known)
		return shm_fail_msg(err, errlen, "thread buffer count went back from %llu to %llu",
				  (unsigned long long)known, (unsigned long long)n);
	if (fstat(m->fd, &st))
		return shm_fail_msg(err, errlen, "fstat: %s", strerror(errno));
	/* I1: every published region inside the file, no overflow. */
	if ((uint64_t)st.st_size < m->threads_offset ||
	    n > ((uint64_t)st.st_size - m->threads_offset) / m->region_size)
		return shm_fail_msg(err, errlen, "%llu thread buffers published, the file holds fewer",
				  (unsigned long long)n);
	*nr = n;
	return 0;
}

struct ust_shm_tbuf *shm_thread_map(const struct shm_map *m, uint64_t i)
{
	void *p = mmap(NULL, m->region_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       m->fd, (off_t)(m->threads_offset + i * m->region_size));

	return p == MAP_FAILED ? NULL : p;
}
