/*
 * metadata.c - the trace's TSDL metadata, and following the metadata log.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The `metadata` file starts with the fixed part (types, trace, env,
 * clock, one stream class per channel), written once.  libust appends an
 * entry to the metadata log in shared memory whenever it registers an
 * event class; each entry read here becomes one `event { }` block
 * appended to the file, and its payload layout goes into the channel's
 * layout table so the drain can check records of that event.
 *
 * The declarations below mirror ctf/format.h byte for byte: the packet
 * header and context are struct ust_packet_header, the event header is
 * the compact/extended header.  Every integer is byte aligned except
 * the 5-bit id and 27-bit timestamp of the compact header, which share
 * one little-endian 32-bit word.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "consumer.h"
#include "ctf/tsdl.h"


/* env.tracer_major/minor: the LTTng-UST version whose traces we write. */
#define UST_TRACER_NAME		"lttng-ust"
#define UST_TRACER_MAJOR	2
#define UST_TRACER_MINOR	13
#define UST_TRACER_PATCHLEVEL	0

/*
 * The trace's environment, as LTTng-UST 2.13 writes it for a per-process
 * buffer (`lttng enable-channel --buffers-pid`), in its order: Trace
 * Compass and babeltrace2 recognise the trace and its version by these
 * keys, doc/compatibility.md says which tool reads which.  ust_version
 * is ours: which ust wrote the trace.
 */
static const char tsdl_env[] =
	"env {\n"
	"\tdomain = \"ust\";\n"
	"\ttracer_name = \"" UST_TRACER_NAME "\";\n"
	"\ttracer_major = %d;\n"
	"\ttracer_minor = %d;\n"
	"\ttracer_buffering_scheme = \"pid\";\n"
	"\ttracer_buffering_id = %d;\n"
	"\tarchitecture_bit_width = %u;\n"
	"\ttrace_name = \"%s\";\n"
	"\ttrace_creation_datetime = \"%s\";\n"
	"\thostname = \"%s\";\n"
	"\ttracer_patchlevel = %d;\n"
	"\tvpid = %d;\n"
	"\tprocname = \"%s\";\n"
	"\tvpid_datetime = \"%s\";\n"
	"\tust_version = \"%s\";\n"
	"};\n"
	"\n";

/*
 * The compact header is one LE word: id in bits 0..4, timestamp in bits
 * 5..31.  The extended option's struct is byte aligned, so after the 5
 * id bits it starts at byte 1: id in bytes 1..4, timestamp in 5..12.
 */
static const char tsdl_stream_types[] =
	"struct event_header {\n"
	"\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
	"\tvariant <id> {\n"
	"\t\tstruct {\n"
	"\t\t\tuint27_clock_ust_t timestamp;\n"
	"\t\t} compact;\n"
	"\t\tstruct {\n"
	"\t\t\tuint32_t id;\n"
	"\t\t\tuint64_clock_ust_t timestamp;\n"
	"\t\t} align(8) extended;\n"
	"\t} v;\n"
	"} align(8);\n"
	"\n";

/*
 * A stream class, up to its event context (the channel's set); a
 * per-thread channel's packets carry the thread id (ctf/tsdl.c).
 */
static const char tsdl_stream[] =
	"stream {\n"
	"\tid = %u;\n"
	"\tpacket.context := struct packet_context%s;\n"
	"\tevent.header := struct event_header;\n";

/*
 * The stream event context fields (ctf/format.h), in record order, with
 * LTTng-UST's names and types.
 */
static const char *const tsdl_context_fields[UST_CTX_NR] = {
	"\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _vtid;\n",
	"\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _vpid;\n",
	"\t\tinteger { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; } _procname[17];\n",
	"\t\tinteger { size = 64; align = 8; signed = 0; encoding = none; base = 10; } _pthread_id;\n",
	"\t\tinteger { size = 64; align = 8; signed = 0; encoding = none; base = 10; } _ip;\n",
};
_Static_assert(UST_CTX_PROCNAME_SIZE == 17, "the TSDL says _procname[17]");

/* The `event.context` line of a stream whose records carry `set`. */
static void tsdl_event_context(FILE *f, uint32_t set)
{
	unsigned int i;

	if (!set)
		return;
	fputs("\tevent.context := struct {\n", f);
	for (i = 0; i < UST_CTX_NR; i++)
		if (set & (1u << i))
			fputs(tsdl_context_fields[i], f);
	fputs("\t};\n", f);
}

/* LTTng's date format: local time, ISO 8601 basic, "20240131T235959+0100". */
static void env_datetime(time_t t, char *out, size_t len)
{
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(out, len, "%Y%m%dT%H%M%S%z", &tm))
		snprintf(out, len, "unknown");
}

/*
 * env.trace_name: what plays the part of LTTng's session: the relay
 * session when the trace streams to a relay, else the name of the
 * directory the traces of the recording go to (`ust record -o DIR`); a
 * resumed trace keeps the name it had (resume.c).
 */
static void env_trace_name(const struct consumer *c, char *name, size_t len)
{
	const char *session = c->resume_name[0] ? c->resume_name : cd_relay_session_name(c);
	const char *out_path = c->out_path ? c->out_path : "";
	const char *end = strrchr(out_path, '/'), *start = end;

	if (session) {
		snprintf(name, len, "%s", session);
		ctf_tsdl_literal_sanitize(name);
		return;
	}

	while (start && start > out_path && start[-1] != '/')
		start--;
	if (!end || start == end)
		snprintf(name, len, "ust");
	else
		snprintf(name, len, "%.*s", (int)(end - start), start);
	ctf_tsdl_literal_sanitize(name);
}

/* The env block of process `pid`'s trace. */
static void metadata_env(FILE *f, const struct consumer *c, int pid)
{
	char host[256], proc[sizeof(c->shm.procname)], when[40], name[256];

	if (gethostname(host, sizeof(host)))
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	ctf_tsdl_literal_sanitize(host);
	memcpy(proc, c->shm.procname, sizeof(proc));
	ctf_tsdl_literal_sanitize(proc);
	env_datetime(c->created, when, sizeof(when));
	env_trace_name(c, name, sizeof(name));
	fprintf(f, tsdl_env, UST_TRACER_MAJOR, UST_TRACER_MINOR, pid,
		(unsigned int)(sizeof(void *) * 8), name, when, host,
		UST_TRACER_PATCHLEVEL, pid, proc, when, PACKAGE_VERSION);
}

/* The fixed part of the metadata, as one string. */
int cd_metadata_header_text(const struct consumer *c, int pid, char **text,
			    size_t *len)
{
	unsigned int i;
	FILE *f;

	f = ctf_tsdl_open(c->shm.uuid, text, len);
	if (!f)
		return -ENOMEM;
	metadata_env(f, c, pid);
	ctf_tsdl_clock(f, &c->clock);
	ctf_tsdl_packet_context(f);
	if (c->shm.thread_chan >= 0)
		ctf_tsdl_packet_context_thread(f);
	fputs(tsdl_stream_types, f);
	for (i = 0; i < c->shm.nr_channels; i++) {
		fprintf(f, tsdl_stream, c->shm.chan[i].stream_id,
			c->shm.chan[i].flags & UST_CHAN_PER_THREAD ? "_thread" : "");
		tsdl_event_context(f, c->shm.chan[i].table.event_context);
		fputs("};\n\n", f);
	}
	return fclose(f) ? -ENOMEM : 0;
}

/*
 * Start `metadata` with its fixed part.  When it cannot be written to a
 * trace directory, the directory is removed again: the trace cannot start.
 */
int cd_metadata_write_header(struct consumer *c, int pid)
{
	size_t len;
	char *text;
	int ret;

	ret = cd_metadata_header_text(c, pid, &text, &len);
	if (ret)
		return ret;
	ret = cd_output_metadata(c, text, len);
	if (ret && c->meta_fd >= 0) {
		close(c->meta_fd);
		c->meta_fd = -1;
	}
	if (ret && !c->relay && c->out_fd >= 0)
		cd_output_remove_trace_dir(c, META_FILE);
	free(text);
	return ret;
}

/*
 * The fields of an event class must stay inside their `struct { }`:
 * printable text, balanced braces outside string literals, closed
 * literals and no comments (which could swallow the rest of the file).
 */
int cd_meta_tsdl_check(const char *s, char *err, size_t errlen)
{
	bool quoted = false;
	int depth = 0;
	size_t i;

	for (i = 0; s[i]; i++) {
		if ((s[i] < 0x20 || s[i] > 0x7e) && s[i] != '\n' && s[i] != '\t')
			return shm_fail_msg(err, errlen, "unprintable byte 0x%02x in fields",
					(unsigned char)s[i]);
	}
	for (i = 0; s[i]; i++) {
		char ch = s[i];

		if (quoted) {
			if (ch == '\\' && s[i + 1])
				i++;
			else if (ch == '"')
				quoted = false;
			continue;
		}
		if (ch == '"')
			quoted = true;
		else if (ch == '/' && (s[i + 1] == '*' || s[i + 1] == '/'))
			return shm_fail_msg(err, errlen, "comment in fields");
		else if (ch == '{')
			depth++;
		else if (ch == '}' && --depth < 0)
			return shm_fail_msg(err, errlen, "unbalanced '}' in fields");
	}
	if (quoted || depth)
		return shm_fail_msg(err, errlen, "unterminated %s in fields",
				quoted ? "string" : "'{'");
	return 0;
}

/* An event name: "facility:event" of [A-Za-z0-9_.-] on each side. */
static bool event_name_ok(const char *s)
{
	const char *colon = strchr(s, ':');
	size_t i;

	if (!colon || colon == s || colon[1] == '\0')
		return false;
	for (i = 0; s[i]; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' ||
		      ch == '-' || ch == ':'))
			return false;
	}
	return true;
}

/* One log entry, parsed from a private copy. */
struct meta_entry {
	struct ust_meta_event ev;
	const char *name;
	const char *layout;
	const char *tsdl;
	const char *desc;	/* the event's description, "" for none */
	const char *fac_desc;	/* its facility's */
};

/* The string of `len` bytes at `p`: NUL-terminated exactly at its end. */
static const char *entry_string(const uint8_t *p, uint32_t len)
{
	if (len == 0 || p[len - 1] != '\0' || memchr(p, '\0', len) != p + len - 1)
		return NULL;
	return (const char *)p;
}

/*
 * The two descriptions at `p` (`len` bytes: two NUL-terminated strings,
 * or none at all when `len` is 0, from an older libust).
 */
static int entry_descriptions(const uint8_t *p, uint32_t len,
			      struct meta_entry *e)
{
	const uint8_t *nul = len ? memchr(p, '\0', len) : NULL;

	e->desc = e->fac_desc = "";
	if (!len)
		return 0;
	if (!nul)
		return -1;
	e->desc = (const char *)p;
	e->fac_desc = entry_string(nul + 1, len - (uint32_t)(nul + 1 - p));
	return e->fac_desc ? 0 : -1;
}

/*
 * Check the entry copied to `p` (`ev.size` bytes, fixed part already
 * bounds-checked) and point `e` at its strings.
 */
static int meta_entry_parse(const struct consumer *c, const uint8_t *p,
			    struct meta_entry *e, char *err, size_t errlen)
{
	const struct ust_meta_event *ev = &e->ev;
	const uint8_t *s = p + sizeof(*ev);
	const struct ust_layout_table *t;

	e->name = entry_string(s, ev->name_len);
	s += ev->name_len;
	e->layout = entry_string(s, ev->layout_len);
	s += ev->layout_len;
	e->tsdl = entry_string(s, ev->tsdl_len);
	s += ev->tsdl_len;
	if (!e->name || !e->layout || !e->tsdl)
		return shm_fail_msg(err, errlen, "string not terminated where its length says");
	if (entry_descriptions(s, ev->desc_len, e))
		return shm_fail_msg(err, errlen, "'%s': descriptions not terminated where their length says",
				e->name);
	if (!event_name_ok(e->name))
		return shm_fail_msg(err, errlen, "bad event name");
	if (ev->channel >= c->shm.nr_channels)
		return shm_fail_msg(err, errlen, "'%s': no channel %u", e->name, ev->channel);
	if (ev->id >= META_MAX_EVENT_ID)
		return shm_fail_msg(err, errlen, "'%s': event id %u too large", e->name, ev->id);
	t = &c->shm.chan[ev->channel].table;
	if (ev->id < t->nr && t->layouts[ev->id])
		return shm_fail_msg(err, errlen, "'%s': event id %u already used", e->name, ev->id);
	if (ev->loglevel < -1)
		return shm_fail_msg(err, errlen, "'%s': bad loglevel %d", e->name, ev->loglevel);
	if (shm_layout_check(e->layout))
		return shm_fail_msg(err, errlen, "'%s': bad payload layout \"%.40s\"",
				 e->name, e->layout);
	return cd_meta_tsdl_check(e->tsdl, err, errlen);
}

/* Grow the table to hold event `id`. */
static int table_grow(struct ust_layout_table *t, uint32_t id)
{
	const char **grown;
	int32_t *fixed;
	uint32_t n = t->nr ? t->nr : 16, i;

	while (n <= id)
		n *= 2;
	grown = realloc(t->layouts, n * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	t->layouts = grown;
	fixed = realloc(t->fixed, n * sizeof(*fixed));
	if (!fixed)
		return -ENOMEM;
	t->fixed = fixed;
	for (i = t->nr; i < n; i++) {
		grown[i] = NULL;
		fixed[i] = -1;
	}
	t->nr = n;
	return 0;
}

/*
 * Record the layout of event `id` (a private copy) and its payload's
 * size when it is fixed (the walk's quick case), growing the table.
 */
static int table_add(struct ust_layout_table *t, uint32_t id, const char *layout)
{
	ssize_t fixed = shm_layout_fixed_size(layout);
	char *copy;

	if (id >= t->nr && table_grow(t, id))
		return -ENOMEM;
	copy = strdup(layout);
	if (!copy)
		return -ENOMEM;
	t->layouts[id] = copy;
	t->fixed[id] = fixed >= 0 && fixed <= INT32_MAX ? (int32_t)fixed : -1;
	return 0;
}

/*
 * A TSDL comment line "what: text" in an event block: babeltrace2 warns
 * of any event attribute it does not know, so descriptions are comments.
 * A comment end in the text gets a space ("* /").
 */
static void tsdl_comment(FILE *f, const char *what, const char *text)
{
	const char *p;

	if (!*text)
		return;
	fprintf(f, "\t/* %s: ", what);
	for (p = text; *p; p++) {
		fputc(*p, f);
		if (*p == '*' && p[1] == '/')
			fputc(' ', f);
	}
	fputs(" */\n", f);
}

/* The `event { }` block of a checked entry. */
static void event_block(FILE *f, const struct consumer *c, const struct meta_entry *e)
{
	fprintf(f, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = %u;\n",
		e->name, e->ev.id, c->shm.chan[e->ev.channel].stream_id);
	if (e->ev.loglevel != -1)
		fprintf(f, "\tloglevel = %d;\n", e->ev.loglevel);
	tsdl_comment(f, "description", e->desc);
	tsdl_comment(f, "facility", e->fac_desc);
	fprintf(f, "\tfields := struct {\n\t\t%s\n\t};\n};\n\n", e->tsdl);
}

/* Bytes the entry `ev` claims, or 0 when that cannot be right. */
static uint64_t entry_size(const struct ust_meta_event *ev, uint64_t avail)
{
	uint64_t need = (uint64_t)sizeof(*ev) + ev->name_len + ev->layout_len +
			ev->tsdl_len + ev->desc_len;

	if (ev->size % 8 || ev->size < need || ev->size > avail)
		return 0;
	return ev->size;
}

/*
 * Read the entry at log position `pos` (`avail` bytes published), add
 * its event class and print its block to `out`.  Returns its size, or 0
 * when the log cannot be followed past it.
 */
static uint64_t meta_read_entry(struct consumer *c, uint64_t pos, uint64_t avail,
				FILE *out)
{
	const uint8_t *log = c->shm.base + c->shm.meta_offset;
	struct meta_entry e;
	uint64_t size;
	uint8_t *copy;
	char err[160];

	if (avail < sizeof(e.ev))
		return 0;
	memcpy(&e.ev, log + pos, sizeof(e.ev));
	size = entry_size(&e.ev, avail);
	if (!size)
		return 0;
	/* Copy the whole entry, then use only the copy (the log is shared). */
	copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, log + pos, size);
	memcpy(&e.ev, copy, sizeof(e.ev));
	if (entry_size(&e.ev, size) != size) {
		free(copy);
		return 0;
	}
	if (meta_entry_parse(c, copy, &e, err, sizeof(err)))
		fprintf(stderr, CONSUMER_NAME ": metadata log entry at %" PRIu64 " skipped: %s\n",
			pos, err);
	else if (table_add(&c->shm.chan[e.ev.channel].table, e.ev.id, e.layout))
		fprintf(stderr, CONSUMER_NAME ": out of memory for event '%s'\n", e.name);
	else {
		event_block(out, c, &e);
		cd_trigger_class(c, e.ev.channel, e.ev.id, e.name, e.tsdl);
	}
	free(copy);
	return size;
}

/* Say when libust had to leave event classes out of a full log. */
static void meta_report_dropped(struct consumer *c)
{
	uint64_t dropped;

	/* I1: a counter for a message only, relaxed. */
	dropped = __atomic_load_n(&shm_header(&c->shm)->meta_dropped, __ATOMIC_RELAXED);
	if (dropped > c->meta_dropped) {
		fprintf(stderr, CONSUMER_NAME ": %" PRIu64 " event classes did not fit in the metadata log\n",
			dropped);
		c->meta_dropped = dropped;
	}
}

/* Read the new entries of [c->meta_pos, used) and append their blocks. */
static void meta_read_new(struct consumer *c, uint64_t used)
{
	uint64_t n;
	size_t len;
	char *text;
	FILE *f;

	f = open_memstream(&text, &len);
	if (!f)
		return;		/* retried on the next tick */
	while (c->meta_pos < used) {
		n = meta_read_entry(c, c->meta_pos, used - c->meta_pos, f);
		if (!n) {
			fprintf(stderr, CONSUMER_NAME ": metadata log corrupt at %" PRIu64
				"; later event classes are ignored\n", c->meta_pos);
			c->meta_broken = true;
			break;
		}
		c->meta_pos += n;
	}
	if (fclose(f) == 0 && len)
		cd_output_metadata(c, text, len);
	free(text);
}

/* Close `metadata` and free the layout tables. */
void cd_metadata_release(struct consumer *c)
{
	unsigned int ch;
	uint32_t id;

	for (ch = 0; ch < c->shm.nr_channels; ch++) {
		struct ust_layout_table *t = &c->shm.chan[ch].table;

		for (id = 0; id < t->nr; id++)
			free((char *)t->layouts[id]);
		free(t->layouts);
		free(t->fixed);
		t->layouts = NULL;
		t->fixed = NULL;
		t->nr = 0;
	}
	if (c->meta_fd >= 0)
		close(c->meta_fd);
	c->meta_fd = -1;
}

/*
 * Append what libust added to the metadata log since the last call.
 * Cheap when nothing changed: one load.
 */
void cd_metadata_update(struct consumer *c)
{
	uint64_t used;

	if (c->meta_broken)
		return;
	/*
	 * I9, acquire: the entries below `used` are complete before we read
	 * them.  Pairs with libust's store-release of meta_used after it
	 * appended an entry under its registry lock.
	 */
	used = __atomic_load_n(&shm_header(&c->shm)->meta_used, __ATOMIC_ACQUIRE);
	if (used == c->meta_pos)
		return;
	if (used < c->meta_pos || used > c->shm.meta_size) {
		fprintf(stderr, CONSUMER_NAME ": metadata log size %" PRIu64
			" invalid; later event classes are ignored\n", used);
		c->meta_broken = true;
		return;
	}
	meta_report_dropped(c);
	meta_read_new(c, used);
}
