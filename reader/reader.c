/*
 * reader.c - opening traces, walking their packets and events, and
 * merging every stream by time as babeltrace2's muxer does.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Order: by ns from origin; equal times by trace UUID, trace name,
 * stream class id, then stream id (babeltrace2 2.0's
 * common_muxing_compare_messages()).  Within a stream, file order.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode.h"
#include "plan.h"

#define CTF_MAGIC	0xC1FC1FC1u

struct rd_reader {
	struct rd_trace **traces;
	size_t nr_traces;
	struct rd_stream **streams;
	size_t nr_streams;
	struct rd_stream **heap;
	size_t heap_len;
	struct rd_stream *cur;		/* stream of the last message */
	bool has_limit;			/* rd_reader_set_limit() */
	int64_t limit;
	const struct rd_live *live;	/* following traces being written */
	char err[512];
};

static int set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- paths ---- */

/* `path` made absolute and normalized lexically, like babeltrace2. */
static char *normalize_path(const char *path)
{
	char cwd[4096], *full, *out, *seg, *save = NULL;
	size_t n = 0;

	if (path[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		return NULL;
	if (asprintf(&full, "%s/%s", path[0] == '/' ? "" : cwd, path) < 0)
		return NULL;
	out = malloc(strlen(full) + 2);
	if (!out) {
		free(full);
		return NULL;
	}
	for (seg = strtok_r(full, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
		if (!strcmp(seg, "."))
			continue;
		if (!strcmp(seg, "..")) {
			while (n > 0 && out[--n] != '/')
				;
			continue;
		}
		n += sprintf(out + n, "/%s", seg);
	}
	if (!n)
		out[n++] = '/';
	out[n] = '\0';
	free(full);
	return out;
}

/* ---- traces ---- */

static int read_file(const char *path, char **text, size_t *len)
{
	struct stat sb;
	ssize_t got;
	int fd, ret = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) == 0 && sb.st_size < (64 << 20)) {
		*text = malloc(sb.st_size + 1);
		if (*text) {
			got = read(fd, *text, sb.st_size);
			if (got == sb.st_size) {
				*len = got;
				(*text)[got] = '\0';
				ret = 0;
			} else {
				free(*text);
			}
		}
	}
	close(fd);
	return ret ? -EIO : 0;
}

/* "host:proc:(vpid) ", babeltrace2's default trace fields. */
static char *trace_prefix(const struct rd_metadata *md)
{
	const struct rd_env *e;
	struct rd_out o;
	bool any = false;

	rd_out_init(&o, NULL);
	if ((e = rd_metadata_env(md, "hostname")) && e->str) {
		rd_out_str(&o, e->str);
		any = true;
	}
	if ((e = rd_metadata_env(md, "procname")) && e->str) {
		if (any)
			rd_out_char(&o, ':');
		rd_out_str(&o, e->str);
		any = true;
	}
	if ((e = rd_metadata_env(md, "vpid")) && !e->str) {
		if (any)
			rd_out_char(&o, ':');
		rd_out_str(&o, "(");
		rd_out_i64(&o, e->num);
		rd_out_str(&o, ")");
		any = true;
	}
	if (any)
		rd_out_char(&o, ' ');
	rd_out_char(&o, '\0');
	return o.buf;
}

static char *trace_name(const struct rd_metadata *md, const char *root,
			const char *dir)
{
	const struct rd_env *host = rd_metadata_env(md, "hostname");
	const char *rel = dir + strlen(root);
	char *name;

	while (*rel == '/')
		rel++;
	if (asprintf(&name, "%s%s%s", host && host->str ? host->str : "",
		     host && host->str && *rel ? "/" : "", rel) < 0)
		return NULL;
	return name;
}

static void trace_free(struct rd_trace *t)
{
	if (!t)
		return;
	rd_metadata_release(&t->md);
	free(t->path);
	free(t->name);
	free(t->prefix);
	free(t);
}

/* `*plan` for struct `t`: true when the fast path covers it. */
static bool plan_scope(const struct rd_type *t, bool tid_role, struct rd_plan **plan)
{
	*plan = t ? rd_plan_build(t, tid_role) : NULL;
	return !t || *plan;
}

/* "prefix" "name: " in a buffer readable for RD_OUT_PAD more bytes. */
static char *event_head(const char *prefix, const char *name, size_t *len)
{
	char *head;

	if (!prefix)
		return NULL;
	*len = strlen(prefix) + strlen(name) + 2;
	head = calloc(1, *len + RD_OUT_PAD + 1);
	if (head)
		sprintf(head, "%s%s: ", prefix, name);
	return head;
}

/* Add plan `p` (if any) to an event's whole-line printing. */
static void print_fixed_add(struct rd_event_class *ec, const struct rd_plan *p)
{
	if (!p)
		return;
	ec->print_fixed &= p->print_fixed;
	ec->print_max += p->print_max + 2;	/* and ", " */
}

/* Whether rd_plan_print() prints all of the line of `ec`, and its size. */
static void print_fixed_plan(const struct rd_stream_class *sc, struct rd_event_class *ec)
{
	ec->print_fixed = sc->fast && ec->fast && ec->head;
	ec->print_max = ec->head_len + 2 + 1;	/* the packet context's ", ", '\n' */
	print_fixed_add(ec, sc->plan_context);
	print_fixed_add(ec, ec->plan_context);
	print_fixed_add(ec, ec->plan_fields);
}

/*
 * The fast paths of every event (plan.h), where they apply, and the
 * start of each event's line, `prefix` and name.
 */
static void plan_metadata(struct rd_metadata *md, const char *prefix)
{
	size_t i, j;

	for (i = 0; i < md->nr_streams; i++) {
		struct rd_stream_class *sc = &md->streams[i];

		sc->plan_header = rd_header_plan_build(sc->event_header);
		sc->fast = plan_scope(sc->event_context, true, &sc->plan_context);
		for (j = 0; j < sc->nr_events; j++) {
			struct rd_event_class *ec = sc->events[j];

			if (!ec)
				continue;
			ec->fast = plan_scope(ec->context, false, &ec->plan_context);
			ec->fast &= plan_scope(ec->fields, false, &ec->plan_fields);
			ec->head = event_head(prefix, ec->name, &ec->head_len);
			print_fixed_plan(sc, ec);
		}
	}
}

static int trace_load(struct rd_reader *r, const char *root, const char *dir,
		      char *err, size_t errlen)
{
	struct rd_trace *t, **grown;
	char *path, *text = NULL, perr[256];
	size_t len = 0;
	int ret;

	if (asprintf(&path, "%s/metadata", dir) < 0)
		return set_err(err, errlen, "out of memory");
	ret = read_file(path, &text, &len);
	if (ret) {
		set_err(err, errlen, "%s: %s", path, strerror(-ret));
		free(path);
		return -1;
	}
	t = calloc(1, sizeof(*t));
	grown = realloc(r->traces, (r->nr_traces + 1) * sizeof(*grown));
	if (!t || !grown) {
		free(t);
		free(text);
		free(path);
		return set_err(err, errlen, "out of memory");
	}
	r->traces = grown;
	ret = rd_metadata_parse(&t->md, text, len, perr, sizeof(perr));
	free(text);
	if (ret) {
		set_err(err, errlen, "%s: %s", path, perr);
		free(path);
		free(t);
		return -1;
	}
	free(path);
	t->path = strdup(dir);
	t->name = trace_name(&t->md, root, dir);
	t->prefix = trace_prefix(&t->md);
	plan_metadata(&t->md, t->prefix);
	r->traces[r->nr_traces++] = t;
	if (!t->path || !t->name || !t->prefix)
		return set_err(err, errlen, "out of memory");
	return 0;
}

/* ---- stream files ---- */

static struct rd_walk walk_init(struct rd_stream *st, enum rd_scope scope,
				uint64_t pos, uint64_t end)
{
	struct rd_walk w = {
		.base = st->map + st->pkt_off, .pos = pos, .end = end,
		.st = st, .scope = scope, .roles = true, .vtid = -1,
	};

	return w;
}

/*
 * Decode the header and context of the packet at `off`, check its sizes
 * and set the stream's packet state.  On error returns -1 with `err`.
 */
static int packet_read(struct rd_stream *st, size_t off, char *err, size_t errlen)
{
	const struct rd_metadata *md = &st->trace->md;
	uint64_t avail = (uint64_t)(st->size - off) * 8;
	const struct rd_stream_class *sc;
	struct rd_walk w;

	st->pkt_off = off;
	st->has_ts_begin = st->has_ts_end = st->has_seq = st->has_discarded = false;
	st->pkt_bits = st->content_bits = UINT64_MAX;
	st->cpu = -1;
	st->tid = -1;
	w = walk_init(st, SCOPE_PACKET_HEADER, 0, avail);
	if (md->packet_header && rd_walk_struct(&w, md->packet_header, true))
		goto bad;
	if (w.has_magic && w.magic != CTF_MAGIC)
		return set_err(err, errlen, "%s: offset %zu: bad CTF magic number 0x%08" PRIx64,
			       st->path, off, w.magic);
	sc = rd_metadata_stream(md, w.has_stream_id ? w.stream_id : 0);
	if (!sc)
		return set_err(err, errlen, "%s: offset %zu: no stream class %" PRIu64 " in the metadata",
			       st->path, off, w.stream_id);
	if (st->sc && sc != st->sc)
		return set_err(err, errlen, "%s: offset %zu: stream class changes within the file",
			       st->path, off);
	st->sc = sc;
	st->stream_id = sc->id;
	if (w.has_instance_id)
		st->instance_id = w.instance_id;
	st->has_instance_id = w.has_instance_id;
	w.scope = SCOPE_PACKET_CONTEXT;
	st->pctx.len = 0;
	w.o = &st->pctx;
	if (sc->packet_context && rd_walk_struct(&w, sc->packet_context, true))
		goto bad;
	if (st->pkt_bits == UINT64_MAX)
		st->pkt_bits = avail;
	if (st->content_bits == UINT64_MAX)
		st->content_bits = st->pkt_bits;
	if (st->pkt_bits % 8 || st->pkt_bits < w.pos)
		return set_err(err, errlen, "%s: offset %zu: bad packet size %" PRIu64 " bits",
			       st->path, off, st->pkt_bits);
	if (st->pkt_bits > avail)
		return set_err(err, errlen, "%s: offset %zu: packet size %" PRIu64
			       " runs past the end of the file (%zu bytes)",
			       st->path, off, st->pkt_bits / 8, st->size);
	if (st->content_bits > st->pkt_bits || st->content_bits < w.pos)
		return set_err(err, errlen, "%s: offset %zu: content size %" PRIu64
			       " bits is not within the packet (%" PRIu64 " bits)",
			       st->path, off, st->content_bits, st->pkt_bits);
	st->pos = w.pos;
	if (st->has_ts_begin)
		st->clock = st->ts_begin;
	return 0;
bad:
	return set_err(err, errlen, "%s: offset %zu: packet header: %s",
		       st->path, off + (size_t)(w.pos / 8), w.err);
}

/*
 * Check every packet of the file once, before any event is read.  When
 * `live`, a bad packet is the end of what is written so far: the file
 * ends there for now.
 */
static int stream_index(struct rd_stream *st, bool live, char *err, size_t errlen)
{
	size_t off = st->start;

	while (off < st->size) {
		if (packet_read(st, off, err, errlen)) {
			if (!live)
				return -1;
			st->size = off;
			break;
		}
		if (st->has_ts_end) {
			st->has_complete = true;
			st->complete_end = st->ts_end;
		}
		off += st->pkt_bits / 8;
	}
	st->sc = NULL;
	return 0;
}

static void stream_free(struct rd_stream *st)
{
	if (!st)
		return;
	if (st->map)
		munmap((void *)st->map, st->size);
	rd_out_release(&st->pctx);
	free(st->path);
	free(st);
}

/* A live stream starts after what an earlier pass read (0: failure). */
static int stream_resume(const struct rd_reader *r, struct rd_stream *st)
{
	const struct rd_stream_pos *pos = r->live->find(r->live->arg, st->path);

	if (!pos)
		return 0;
	if (pos->offset > st->size)
		return -1;	/* the file shrank: not ours to follow */
	st->start = pos->offset;
	st->skip = pos->skip;
	st->prev = pos->prev;
	st->has_complete = pos->has_complete;
	st->complete_end = pos->complete_end;
	return 0;
}

void rd_reader_stream_pos(const struct rd_reader *r, size_t i,
			  struct rd_stream_pos *pos)
{
	const struct rd_stream *st = r->streams[i];

	if (st->exhausted || st->first_packet) {
		/* first_packet: not even started (a failed open) */
		pos->offset = st->exhausted ? st->size : st->start;
		pos->skip = st->exhausted ? 0 : st->skip;
		pos->prev = st->prev;
	} else {
		pos->offset = st->pkt_off;
		pos->skip = st->taken;
		pos->prev = st->pkt_prev;
	}
	pos->has_complete = st->has_complete;
	pos->complete_end = st->complete_end;
}

void rd_reader_set_limit(struct rd_reader *r, int64_t ns)
{
	r->has_limit = true;
	r->limit = ns;
}

/*
 * A stream without stream_instance_id gets babeltrace2's automatic id:
 * how many such streams of its trace and stream class came before it
 * (files in name order).
 */
static uint64_t auto_stream_id(const struct rd_reader *r, const struct rd_stream *st)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < r->nr_streams; i++) {
		const struct rd_stream *o = r->streams[i];

		n += o->trace == st->trace && o->stream_id == st->stream_id &&
		     !o->has_instance_id;
	}
	return n;
}

static int stream_open(struct rd_reader *r, struct rd_trace *t, const char *name,
		       char *err, size_t errlen)
{
	struct rd_stream *st, **grown;
	struct stat sb;
	int fd;

	st = calloc(1, sizeof(*st));
	grown = realloc(r->streams, (r->nr_streams + 1) * sizeof(*grown));
	if (grown)
		r->streams = grown;
	if (!st || !grown || asprintf(&st->path, "%s/%s", t->path, name) < 0) {
		free(st);
		return set_err(err, errlen, "out of memory");
	}
	st->trace = t;
	st->first_packet = true;
	rd_out_init(&st->pctx, NULL);
	fd = open(st->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb)) {
		set_err(err, errlen, "%s: %s", st->path, strerror(errno));
		goto fail;
	}
	st->size = sb.st_size;
	st->map = mmap(NULL, st->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	fd = -1;
	if (st->map == MAP_FAILED) {
		st->map = NULL;
		set_err(err, errlen, "%s: %s", st->path, strerror(errno));
		goto fail;
	}
	if (r->live && stream_resume(r, st)) {
		set_err(err, errlen, "%s: shorter than when last read", st->path);
		goto fail;
	}
	if (stream_index(st, r->live != NULL, err, errlen))
		goto fail;
	if (!st->has_instance_id)
		st->instance_id = auto_stream_id(r, st);
	r->streams[r->nr_streams++] = st;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	stream_free(st);
	return -1;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The entries of `dir` that are not hidden, sorted; `want_dirs` picks
 * directories, else non-empty regular files other than `metadata`.
 */
static int list_dir(const char *dir, bool want_dirs, char ***names, size_t *nr,
		    char *err, size_t errlen)
{
	struct dirent *de;
	char **v = NULL, **grown, *p;
	struct stat sb;
	size_t n = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return set_err(err, errlen, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		bool ok;

		if (de->d_name[0] == '.' || asprintf(&p, "%s/%s", dir, de->d_name) < 0)
			continue;
		ok = !stat(p, &sb) && (want_dirs ? S_ISDIR(sb.st_mode) :
		     S_ISREG(sb.st_mode) && sb.st_size > 0 && strcmp(de->d_name, "metadata"));
		free(p);
		if (!ok)
			continue;
		grown = realloc(v, (n + 1) * sizeof(*v));
		if (!grown || !(grown[n] = strdup(de->d_name))) {
			v = grown ? grown : v;
			break;
		}
		v = grown;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), name_cmp);
	*names = v;
	*nr = n;
	return 0;
}

static void free_names(char **v, size_t n)
{
	while (n--)
		free(v[n]);
	free(v);
}

static int open_trace_dir(struct rd_reader *r, const char *root, const char *dir,
			  char *err, size_t errlen)
{
	char **names;
	size_t n, i;
	int ret = 0;

	if (trace_load(r, root, dir, err, errlen))
		return r->live ? 0 : -1;	/* live: its metadata is not written yet */
	if (list_dir(dir, false, &names, &n, err, errlen))
		return -1;
	for (i = 0; i < n && !ret; i++)
		ret = stream_open(r, r->traces[r->nr_traces - 1], names[i], err, errlen);
	free_names(names, n);
	return ret;
}

/* Every directory under `dir` holding a `metadata` file is a trace. */
static int find_traces(struct rd_reader *r, const char *root, const char *dir,
		       int depth, char *err, size_t errlen)
{
	char **names, *p;
	struct stat sb;
	size_t n, i;
	int ret = 0;

	if (asprintf(&p, "%s/metadata", dir) < 0)
		return set_err(err, errlen, "out of memory");
	ret = stat(p, &sb);
	free(p);
	if (!ret)
		return open_trace_dir(r, root, dir, err, errlen);
	if (depth > 16 || list_dir(dir, true, &names, &n, err, errlen))
		return depth > 16 ? 0 : -1;
	ret = 0;
	for (i = 0; i < n && !ret; i++) {
		if (asprintf(&p, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", names[i]) < 0)
			return set_err(err, errlen, "out of memory");
		ret = find_traces(r, root, p, depth + 1, err, errlen);
		free(p);
	}
	free_names(names, n);
	return ret;
}

/* ---- per-stream messages ---- */

static void queue_msg(struct rd_stream *st, enum rd_msg_kind kind, uint64_t count,
		      uint64_t begin, uint64_t end)
{
	const struct rd_clock *c = &st->trace->md.clock;
	struct rd_msg *m = &st->pending[st->nr_pending++];

	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->stream = st;
	m->count = count;
	m->begin_ns = rd_clock_ns(c, begin);
	m->end_ns = rd_clock_ns(c, end);
	m->ns = m->begin_ns;
	m->vtid = -1;
	m->cpu = st->cpu;
}

/* babeltrace2's discarded-events and discarded-packets reports. */
static void packet_reports(struct rd_stream *st)
{
	struct rd_packet_prev *prev = &st->prev;

	if (st->has_discarded && st->has_ts_begin && st->has_ts_end) {
		if (!prev->valid && st->discarded)
			queue_msg(st, RD_MSG_DISCARDED_EVENTS, UINT64_MAX,
				  st->ts_begin, st->ts_end);
		else if (prev->valid && st->discarded != prev->discarded)
			queue_msg(st, RD_MSG_DISCARDED_EVENTS,
				  st->discarded - prev->discarded,
				  prev->end, st->ts_end);
	}
	if (st->has_seq && prev->valid && st->has_ts_begin &&
	    st->seq != prev->seq + 1)
		queue_msg(st, RD_MSG_DISCARDED_PACKETS, st->seq - prev->seq - 1,
			  prev->end, st->ts_begin);
	*prev = (struct rd_packet_prev){ .valid = true, .end = st->ts_end,
					 .seq = st->seq, .discarded = st->discarded };
}

/*
 * The contexts and payload of an event by their plans, from
 * st->ev_ctx_pos; printed as rd_reader_print_event() does when `o`.
 * On success *end_pos and *vtid are set; -1 leaves `o` as it was for
 * the generic walker, which then says what is wrong.
 */
static int event_plan_walk(struct rd_stream *st, const struct rd_stream_class *sc,
			   const struct rd_event_class *ec, uint64_t *end_pos,
			   int64_t *vtid, struct rd_out *o)
{
	const uint8_t *base = st->map + st->pkt_off;
	uint64_t pos = st->ev_ctx_pos, end = st->content_bits;
	size_t len = o ? o->len : 0;
	int64_t tid = -1;

	if ((sc->plan_context && (rd_plan_walk(sc->plan_context, base, &pos, end, &tid, o) ||
				  (o && (rd_out_mem(o, ", ", 2), 0)))) ||
	    (ec->plan_context && (rd_plan_walk(ec->plan_context, base, &pos, end, &tid, o) ||
				  (o && (rd_out_mem(o, ", ", 2), 0)))) ||
	    (ec->plan_fields && rd_plan_walk(ec->plan_fields, base, &pos, end, &tid, o))) {
		if (o)
			o->len = len;
		return -1;
	}
	*end_pos = pos;
	*vtid = tid;
	return 0;
}

/* The event of class `ec` at `cycles`, read up to end_pos. */
static void event_queue(struct rd_stream *st, const struct rd_event_class *ec,
			uint64_t cycles, uint64_t end_pos, int64_t vtid)
{
	struct rd_msg *m = &st->pending[st->nr_pending++];

	m->kind = RD_MSG_EVENT;
	m->stream = st;
	m->ns = rd_clock_ns(&st->trace->md.clock, cycles);
	m->ec = ec;
	m->cycles = cycles;
	/* A record's own thread id, else its per-thread stream's. */
	m->vtid = vtid >= 0 ? vtid : st->tid;
	m->cpu = st->cpu;
	m->count = 0;
	m->begin_ns = m->end_ns = 0;
	st->pos = end_pos;
}

/*
 * The fast path of event_read(): header, contexts and payload by their
 * plans.  -1 when the generic walker must decode the event.
 */
static int event_read_fast(struct rd_stream *st)
{
	const struct rd_stream_class *sc = st->sc;
	const struct rd_event_class *ec;
	uint64_t pos = st->pos, id;
	int64_t vtid;

	if (!sc->plan_header || !sc->fast ||
	    rd_header_walk(sc->plan_header, st, &pos, st->content_bits, &id) ||
	    id >= sc->nr_events || !(ec = sc->events[id]) || !ec->fast)
		return -1;
	st->ev_ctx_pos = pos;
	if (event_plan_walk(st, sc, ec, &pos, &vtid, NULL))
		return -1;
	event_queue(st, ec, st->clock, pos, vtid);
	return 0;
}

/* Decode the next event of the current packet into st->pending. */
static int event_read(struct rd_stream *st, char *err, size_t errlen)
{
	const struct rd_stream_class *sc = st->sc;
	const struct rd_event_class *ec;
	uint64_t start = st->pos, cycles;
	struct rd_walk w;

	if (!event_read_fast(st))
		return 0;
	/* the generic walker (a clock field applied twice is the same) */
	w = walk_init(st, SCOPE_EVENT_HEADER, st->pos, st->content_bits);
	if (sc->event_header && rd_walk_struct(&w, sc->event_header, true))
		goto bad;
	if (!w.has_id && sc->nr_events > 1) {
		snprintf(w.err, sizeof(w.err), "event header without an id");
		goto bad;
	}
	if (w.id >= sc->nr_events || !(ec = sc->events[w.id])) {
		set_err(err, errlen, "%s: offset %zu: no event class with id %" PRIu64
			" in stream class %" PRIu64, st->path,
			st->pkt_off + (size_t)(start / 8), w.id, sc->id);
		return -1;
	}
	cycles = st->clock;	/* the header's time */
	st->ev_ctx_pos = w.pos;
	w.scope = SCOPE_STREAM_EVENT_CONTEXT;
	w.depth = 0;
	if (sc->event_context && rd_walk_struct(&w, sc->event_context, true))
		goto bad;
	w.scope = SCOPE_OTHER;
	if ((ec->context && rd_walk_struct(&w, ec->context, true)) ||
	    (ec->fields && rd_walk_struct(&w, ec->fields, true)))
		goto bad;
	if (w.pos == start) {
		snprintf(w.err, sizeof(w.err), "empty event record");
		goto bad;
	}
	event_queue(st, ec, cycles, w.pos, w.vtid);
	return 0;
bad:
	return set_err(err, errlen, "%s: offset %zu: event: %s", st->path,
		       st->pkt_off + (size_t)(w.pos / 8), w.err);
}

/* Refill st->pending: 0 with messages, 1 at the end of the stream. */
static int stream_fill(struct rd_stream *st, char *err, size_t errlen)
{
	st->nr_pending = st->next_pending = 0;
	for (;;) {
		if (!st->in_packet) {
			size_t off = st->first_packet ? st->start : st->pkt_off + st->pkt_bits / 8;

			if (off >= st->size) {
				st->exhausted = true;
				return 1;
			}
			if (packet_read(st, off, err, errlen))
				return -1;
			st->first_packet = false;
			st->in_packet = true;
			st->pkt_prev = st->prev;
			st->taken = 0;
			packet_reports(st);
		}
		if (st->pos < st->content_bits) {
			if (event_read(st, err, errlen))
				return -1;
		} else {
			st->in_packet = false;
		}
		if (st->nr_pending)
			return 0;
	}
}

/*
 * stream_fill(), past the messages an earlier live pass delivered
 * (st->skip, counted from the packet it resumes at).
 */
static int stream_advance(struct rd_stream *st, char *err, size_t errlen)
{
	int ret;

	for (;;) {
		ret = stream_fill(st, err, errlen);
		if (ret || !st->skip)
			return ret;
		while (st->skip && st->next_pending < st->nr_pending) {
			st->skip--;
			st->taken++;
			st->next_pending++;
		}
		if (st->next_pending < st->nr_pending)
			return 0;
	}
}

/* ---- merge ---- */

static int stream_cmp(const struct rd_stream *a, const struct rd_stream *b)
{
	const struct rd_msg *ma = &a->pending[a->next_pending];
	const struct rd_msg *mb = &b->pending[b->next_pending];
	int c;

	if (ma->ns != mb->ns)
		return ma->ns < mb->ns ? -1 : 1;
	if (a->trace != b->trace) {
		c = memcmp(a->trace->md.uuid, b->trace->md.uuid, 16);
		if (c)
			return c;
		c = strcmp(a->trace->name, b->trace->name);
		if (c)
			return c;
	}
	if (a->stream_id != b->stream_id)
		return a->stream_id < b->stream_id ? -1 : 1;
	if (a->instance_id != b->instance_id)
		return a->instance_id < b->instance_id ? -1 : 1;
	return a < b ? -1 : a > b;
}

static void heap_down(struct rd_reader *r, size_t i)
{
	struct rd_stream **h = r->heap;

	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < r->heap_len && stream_cmp(h[l], h[m]) < 0)
			m = l;
		if (l + 1 < r->heap_len && stream_cmp(h[l + 1], h[m]) < 0)
			m = l + 1;
		if (m == i)
			return;
		struct rd_stream *tmp = h[i];
		h[i] = h[m];
		h[m] = tmp;
		i = m;
	}
}

static int heap_build(struct rd_reader *r, char *err, size_t errlen)
{
	size_t i;
	int ret;

	r->heap = calloc(r->nr_streams + 1, sizeof(*r->heap));
	if (!r->heap)
		return set_err(err, errlen, "out of memory");
	for (i = 0; i < r->nr_streams; i++) {
		ret = stream_advance(r->streams[i], err, errlen);
		if (ret < 0)
			return -1;
		if (ret == 0)
			r->heap[r->heap_len++] = r->streams[i];
	}
	for (i = r->heap_len / 2; i-- > 0;)
		heap_down(r, i);
	return 0;
}

int rd_reader_next(struct rd_reader *r, struct rd_msg *m)
{
	struct rd_stream *st;
	int ret;

	/* Move the stream of the previous message to its next one. */
	if (r->cur) {
		st = r->cur;
		r->cur = NULL;
		if (++st->next_pending >= st->nr_pending) {
			ret = stream_advance(st, r->err, sizeof(r->err));
			if (ret < 0)
				return -1;
			if (ret > 0) {
				r->heap[0] = r->heap[--r->heap_len];
			}
		}
		if (r->heap_len)
			heap_down(r, 0);
	}
	if (!r->heap_len)
		return 0;
	st = r->heap[0];
	if (r->has_limit && st->pending[st->next_pending].ns >= r->limit)
		return 0;
	*m = st->pending[st->next_pending];
	r->cur = st;
	st->taken++;
	return 1;
}

/*
 * The line of an event whose every part has a print_fixed plan, with
 * one room check and a local cursor (stores through `char *` may alias
 * o->len, which would then be reloaded after each).  -1, with nothing
 * written, when the event runs past the packet.
 */
static int print_event_fixed(const struct rd_stream *st, const struct rd_event_class *ec,
			     struct rd_out *o)
{
	const struct rd_stream_class *sc = st->sc;
	const uint8_t *base = st->map + st->pkt_off;
	size_t at = (size_t)(st->ev_ctx_pos / 8), stop = (size_t)(st->content_bits / 8);
	char *start = rd_out_room(o, ec->print_max + st->pctx.len), *q = start;

	if (st->ev_ctx_pos % 8)
		return -1;
	memcpy(q, ec->head, ec->head_len);
	q += ec->head_len;
	if (sc->packet_context) {
		memcpy(q, st->pctx.buf, st->pctx.len);
		memcpy(q + st->pctx.len, ", ", 2);
		q += st->pctx.len + 2;
	}
	if (sc->plan_context) {
		if (!(q = rd_plan_print(sc->plan_context, base, &at, stop, q)))
			return -1;
		memcpy(q, ", ", 2);
		q += 2;
	}
	if (ec->plan_context) {
		if (!(q = rd_plan_print(ec->plan_context, base, &at, stop, q)))
			return -1;
		memcpy(q, ", ", 2);
		q += 2;
	}
	if (ec->plan_fields && !(q = rd_plan_print(ec->plan_fields, base, &at, stop, q)))
		return -1;
	if (!ec->fields && o->len + (size_t)(q - start) >= 2)
		q -= 2;	/* no payload: drop the last ", " */
	*q++ = '\n';
	o->len += q - start;
	return 0;
}

int rd_reader_print_event(struct rd_reader *r, const struct rd_msg *m,
			  struct rd_out *o)
{
	struct rd_stream *st = (struct rd_stream *)m->stream;
	const struct rd_stream_class *sc = st->sc;
	struct rd_walk w;
	uint64_t end_pos;
	int64_t vtid;

	if (m->ec->print_fixed && !print_event_fixed(st, m->ec, o))
		return 0;
	if (m->ec->head) {
		rd_out_padded(o, m->ec->head, m->ec->head_len);
	} else {
		rd_out_str(o, st->trace->prefix);
		rd_out_str(o, m->ec->name);
		rd_out_str(o, ": ");
	}
	if (st->sc->packet_context) {
		if (st->pctx.cap >= RD_OUT_PAD)	/* readable that far */
			rd_out_padded(o, st->pctx.buf, st->pctx.len);
		else
			rd_out_mem(o, st->pctx.buf, st->pctx.len);
		rd_out_mem(o, ", ", 2);
	}
	if (sc->fast && m->ec->fast && !event_plan_walk(st, sc, m->ec, &end_pos, &vtid, o))
		goto done;
	w = walk_init(st, SCOPE_OTHER, st->ev_ctx_pos, st->content_bits);
	w.roles = false;
	w.o = o;
	if ((sc->event_context && (rd_walk_struct(&w, sc->event_context, true) ||
				   (rd_out_str(o, ", "), 0))) ||
	    (m->ec->context && (rd_walk_struct(&w, m->ec->context, true) ||
				(rd_out_str(o, ", "), 0))) ||
	    (m->ec->fields && rd_walk_struct(&w, m->ec->fields, true)))
		return set_err(r->err, sizeof(r->err), "%s: offset %zu: event: %s",
			       st->path, st->pkt_off + (size_t)(w.pos / 8), w.err);
done:
	if (!m->ec->fields && o->len >= 2)
		o->len -= 2;	/* no payload: drop the last ", " */
	rd_out_char(o, '\n');
	return 0;
}

/* A walker at the payload of event `m`: its contexts skipped. */
static int walk_to_payload(const struct rd_msg *m, struct rd_walk *w)
{
	struct rd_stream *st = (struct rd_stream *)m->stream;
	const struct rd_stream_class *sc = st->sc;

	*w = walk_init(st, SCOPE_OTHER, st->ev_ctx_pos, st->content_bits);
	w->roles = false;
	if ((sc->event_context && rd_walk_struct(w, sc->event_context, true)) ||
	    (m->ec->context && rd_walk_struct(w, m->ec->context, true)))
		return -1;
	return 0;
}

static int payload_error(struct rd_reader *r, const struct rd_walk *w)
{
	return set_err(r->err, sizeof(r->err), "%s: offset %zu: event: %s",
		       w->st->path, w->st->pkt_off + (size_t)(w->pos / 8), w->err);
}

int rd_reader_print_payload(struct rd_reader *r, const struct rd_msg *m,
			    struct rd_out *o)
{
	struct rd_walk w;

	if (walk_to_payload(m, &w))
		return payload_error(r, &w);
	w.o = o;
	if (m->ec->fields && rd_walk_struct(&w, m->ec->fields, true))
		return payload_error(r, &w);
	return 0;
}

int rd_reader_event_fields(struct rd_reader *r, const struct rd_msg *m,
			   struct rd_value *v, size_t n)
{
	struct rd_walk w;

	if (!m->ec->fields)
		return 0;
	if (walk_to_payload(m, &w))
		return payload_error(r, &w);
	w.capture = v;
	w.nr_capture = n;
	if (rd_walk_struct(&w, m->ec->fields, true))
		return payload_error(r, &w);
	return (int)m->ec->fields->u.s.nr;
}

int rd_event_field_index(const struct rd_event_class *ec, const char *name)
{
	size_t i;

	if (!ec->fields)
		return -1;
	for (i = 0; i < ec->fields->u.s.nr; i++) {
		if (!strcmp(ec->fields->u.s.members[i].name, name))
			return (int)i;
	}
	return -1;
}

/* ---- open / close ---- */

int rd_reader_open(struct rd_reader **rp, const char *const *paths, size_t n,
		   char *err, size_t errlen)
{
	return rd_reader_open_live(rp, paths, n, NULL, err, errlen);
}

int rd_reader_open_live(struct rd_reader **rp, const char *const *paths, size_t n,
			const struct rd_live *live, char *err, size_t errlen)
{
	struct rd_reader *r = calloc(1, sizeof(*r));
	size_t i, before;
	struct stat sb;
	char *root;

	*rp = NULL;
	if (!r)
		return set_err(err, errlen, "out of memory");
	r->live = live;
	for (i = 0; i < n; i++) {
		root = normalize_path(paths[i]);
		if (!root) {
			set_err(err, errlen, "%s: %s", paths[i], strerror(errno));
			goto fail;
		}
		before = r->nr_traces;
		if (stat(root, &sb) || !S_ISDIR(sb.st_mode)) {
			set_err(err, errlen, "%s: %s", paths[i],
				errno && !S_ISDIR(sb.st_mode) ? strerror(errno) : "not a directory");
			free(root);
			goto fail;
		}
		if (find_traces(r, root, root, 0, err, errlen)) {
			free(root);
			goto fail;
		}
		free(root);
		if (r->nr_traces == before && !live) {
			set_err(err, errlen, "%s: no trace found (no 'metadata' file)", paths[i]);
			goto fail;
		}
	}
	if (heap_build(r, err, errlen))
		goto fail;
	*rp = r;
	return 0;
fail:
	rd_reader_close(r);
	return -1;
}

const char *rd_reader_error(const struct rd_reader *r)
{
	return r->err;
}

void rd_reader_close(struct rd_reader *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_streams; i++)
		stream_free(r->streams[i]);
	for (i = 0; i < r->nr_traces; i++)
		trace_free(r->traces[i]);
	free(r->streams);
	free(r->traces);
	free(r->heap);
	free(r);
}

const struct rd_trace *rd_stream_trace(const struct rd_stream *s) { return s->trace; }
const char *rd_stream_path(const struct rd_stream *s) { return s->path; }
uint64_t rd_stream_class_id(const struct rd_stream *s) { return s->stream_id; }
uint64_t rd_stream_id(const struct rd_stream *s) { return s->instance_id; }
const struct rd_metadata *rd_trace_metadata(const struct rd_trace *t) { return &t->md; }
const char *rd_trace_name(const struct rd_trace *t) { return t->name; }
size_t rd_reader_nr_streams(const struct rd_reader *r) { return r->nr_streams; }
const struct rd_stream *rd_reader_stream(const struct rd_reader *r, size_t i) { return r->streams[i]; }
size_t rd_reader_nr_traces(const struct rd_reader *r) { return r->nr_traces; }
const struct rd_trace *rd_reader_trace(const struct rd_reader *r, size_t i) { return r->traces[i]; }
