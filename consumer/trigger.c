/*
 * trigger.c - `ust record --trigger 'EVENT[ if FILTER]'` on a user
 * event (UST_TRIGGER): at each tick the consumer looks at the records
 * committed to the flight channel since its last look, and for the
 * first one that matches asks itself for a snapshot cut at it, the way
 * `ust snapshot` does (abi/flight.h), at most one per
 * UST_TRIGGER_HOLDOFF seconds; the snapshot, and its kernel part when
 * there is a kernel bridge, are written at the same tick.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Looking reads the shared memory without consuming: each sub-buffer
 * from the last position to the committed offset (acquire, I2) is copied
 * and walked with the layout walker, as the snapshot does; a copy that a
 * writer overwrote meanwhile is skipped, its records unseen (a flight
 * channel that laps in less than a tick loses matches, not events).
 * A filter's fields are the event's top-level integers and strings, read
 * from the event's TSDL in the metadata log; a field after one of
 * another type (array, structure, float...) cannot be filtered on, and
 * an event so filtered never matches (said once).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/env.h"
#include "abi/flight.h"
#include "consumer.h"
#include "trigger/trigger.h"

#define MAX_FIELDS	32

/* One top-level field the filter may read. */
struct trig_field {
	char name[64];
	bool is_str;
	unsigned int size;	/* integer bytes */
	bool is_signed;
};

/* A class that matches the trigger's event. */
struct trig_class {
	char *name;
	struct trig_field f[MAX_FIELDS];
	unsigned int nr;	/* fields readable, in order */
	bool warned;
};

struct cd_trigger {
	struct trigger spec;
	uint64_t holdoff, last;		/* clock ticks; last: 0 for none */
	struct trig_class **by_id;	/* flight channel's event ids */
	uint32_t nr_ids;
	uint64_t *scan_sub, *scan_used;	/* per stream: where we stopped */
	uint8_t *scratch;
	size_t scratch_size;
	size_t skip_before;		/* records below this offset were seen */
	const struct trig_class *cls;	/* of the record being evaluated */
	const uint8_t *payload;
	size_t payload_size;
	uint64_t match_ts;
	char reason[UST_FLIGHT_REASON_MAX];
};

int cd_trigger_init(struct consumer *c)
{
	const char *spec = getenv(UST_ENV_TRIGGER), *h = getenv(UST_ENV_TRIGGER_HOLDOFF);
	char err[TRIG_ERROR_MAX];
	struct cd_trigger *t;
	unsigned int i;

	if (!spec || !*spec || c->shm.chan[0].mode != UST_MODE_FLIGHT)
		return 0;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	if (trig_parse(spec, &t->spec, err, sizeof(err)) || !trig_is_user(&t->spec)) {
		fprintf(stderr, CONSUMER_NAME ": %s '%s' ignored: %s\n", UST_ENV_TRIGGER, spec,
			trig_is_user(&t->spec) ? err : "not a user event");
		trig_free(&t->spec);
		free(t);
		return 0;
	}
	t->holdoff = (uint64_t)((h && *h ? strtod(h, NULL) : 1.0) * (double)c->clock.freq);
	for (i = 0; i < c->shm.nr_channels; i++) {
		if (c->shm.chan[i].subbuf_size > t->scratch_size)
			t->scratch_size = c->shm.chan[i].subbuf_size;
	}
	t->scratch = malloc(t->scratch_size);
	c->trigger = t;
	return t->scratch ? 0 : -ENOMEM;
}

void cd_trigger_release(struct consumer *c)
{
	struct cd_trigger *t = c->trigger;
	uint32_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_ids; i++) {
		if (t->by_id[i])
			free(t->by_id[i]->name);
		free(t->by_id[i]);
	}
	free(t->by_id);
	free(t->scan_sub);
	free(t->scan_used);
	free(t->scratch);
	trig_free(&t->spec);
	free(t);
	c->trigger = NULL;
}

/* ---- the fields of a class, from its TSDL ---- */

static bool tsdl_int(const char *decl, unsigned int *size, bool *is_signed)
{
	unsigned int bits = 0;
	const char *p;

	if (sscanf(decl, "int%u_t", &bits) == 1 || sscanf(decl, "uint%u_t", &bits) == 1) {
		*is_signed = decl[0] == 'i';
	} else if (!strncmp(decl, "integer {", 9)) {
		p = strstr(decl, "size = ");
		if (!p || sscanf(p + 7, "%u", &bits) != 1)
			return false;
		p = strstr(decl, "signed = ");
		*is_signed = p && (!strncmp(p + 9, "true", 4) || p[9] == '1');
	} else {
		return false;
	}
	*size = bits / 8;
	return bits && bits % 8 == 0 && bits <= 64;
}

/*
 * One declaration "TYPE NAME" (no ';'): a field the filter can read;
 * false for any other type, after which offsets are unknown.
 */
static bool tsdl_field(char *decl, struct trig_field *f)
{
	char *name = decl + strlen(decl);

	while (name > decl && (name[-1] == ' ' || name[-1] == '\t' || name[-1] == '\n'))
		*--name = '\0';
	while (name > decl && name[-1] != ' ' && name[-1] != '\t' && name[-1] != '}')
		name--;
	if (name == decl || strchr(name, '['))
		return false;	/* an array */
	snprintf(f->name, sizeof(f->name), "%s", name[0] == '_' ? name + 1 : name);
	decl += strspn(decl, " \t\n");
	if (!strncmp(decl, "string", 6)) {
		f->is_str = true;
		return true;
	}
	return tsdl_int(decl, &f->size, &f->is_signed);
}

/* The fields of an event's TSDL: "TYPE NAME; TYPE NAME; ..." (tpgen's). */
static void class_fields(struct trig_class *k, const char *tsdl)
{
	const char *p = tsdl, *end;
	char decl[512];
	int depth = 0;

	for (end = p; *end && k->nr < MAX_FIELDS; end++) {
		if (*end == '{')
			depth++;
		else if (*end == '}' && depth-- == 0)
			break;
		if (*end != ';' || depth)
			continue;
		snprintf(decl, sizeof(decl), "%.*s", (int)(end - p), p);
		if (!tsdl_field(decl, &k->f[k->nr]))
			return;
		k->nr++;
		p = end + 1;
	}
}

void cd_trigger_class(struct consumer *c, unsigned int chan, uint32_t id, const char *name,
		      const char *tsdl)
{
	struct cd_trigger *t = c->trigger;
	struct trig_class **v, *k;

	if (!t || chan != 0 || !trig_event_matches(&t->spec, name))
		return;
	if (id >= t->nr_ids) {
		v = realloc(t->by_id, (id + 1) * sizeof(*v));
		if (!v)
			return;
		memset(v + t->nr_ids, 0, (id + 1 - t->nr_ids) * sizeof(*v));
		t->by_id = v;
		t->nr_ids = id + 1;
	}
	k = calloc(1, sizeof(*k));
	if (!k || !(k->name = strdup(name))) {
		free(k);
		return;
	}
	class_fields(k, tsdl);
	t->by_id[id] = k;
}

/* ---- evaluation ---- */

static int get_field(void *arg, const char *name, struct trig_value *v)
{
	struct cd_trigger *t = arg;
	const struct trig_class *k = t->cls;
	size_t pos = 0, n;
	unsigned int i;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < k->nr; i++) {
		const struct trig_field *f = &k->f[i];

		if (f->is_str) {
			n = strnlen((const char *)t->payload + pos, t->payload_size - pos);
			if (pos + n >= t->payload_size)
				return -1;
		} else {
			n = f->size;
			if (pos + n > t->payload_size)
				return -1;
		}
		if (!strcmp(f->name, name)) {
			v->is_str = f->is_str;
			v->s = (const char *)t->payload + pos;
			v->len = n;
			if (!f->is_str) {
				memcpy(&v->i, t->payload + pos, n);	/* little endian */
				if (f->is_signed && n < 8 && (v->i >> (8 * n - 1)) & 1)
					v->i |= (int64_t)(~0ull << (8 * n));
			}
			return 0;
		}
		pos += n + f->is_str;
	}
	return -1;
}

static int missing_field(void *arg, const char *name, int column)
{
	struct cd_trigger *t = arg;
	struct trig_value v;

	(void)column;
	return get_field(t, name, &v);
}

static int on_record(const struct ust_record_view *rec, void *arg)
{
	struct cd_trigger *t = arg;
	struct trig_class *k;

	if (rec->offset < t->skip_before || rec->id >= t->nr_ids || !(k = t->by_id[rec->id]))
		return 0;
	if (t->last && rec->timestamp < t->last + t->holdoff)
		return 0;	/* a storm: one snapshot per hold-off */
	t->cls = k;
	t->payload = rec->payload;
	t->payload_size = rec->payload_size;
	if (trig_eval(&t->spec, get_field, t) != 1) {
		if (!k->warned && trig_fields(&t->spec, missing_field, t)) {
			fprintf(stderr, CONSUMER_NAME ": --trigger: %s has no field the filter "
				"names that it can read; it never matches\n", k->name);
			k->warned = true;
		}
		return 0;
	}
	t->match_ts = rec->timestamp;
	/* The cause: the event's name (the flight request holds 31 bytes). */
	snprintf(t->reason, sizeof(t->reason), "%s", k->name);
	return 1;	/* the first match: the walk stops */
}

/* ---- looking at the flight channel ---- */

/*
 * Sub-buffer `n` of stream `s` into the scratch, the current one (whose
 * offset is `off`) closed in the copy; its length, 0 when torn or empty.
 */
static size_t take(struct consumer *c, struct cd_trigger *t, const struct stream *s,
		   uint64_t n, uint64_t off)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];
	const struct ust_shm_buf *buf = shm_buf(&c->shm, s->chan, s->cpu);
	const uint8_t *slot = shm_slot(&c->shm, s->chan, s->cpu, n);
	uint64_t used = off & (ci->subbuf_size - 1);
	size_t len;

	if (off >> ci->subbuf_shift == n) {
		if (used <= UST_PACKET_HEADER_SIZE)
			return 0;
		memcpy(t->scratch, slot, used);
		len = used;
		/* I2: after the offset (acquire in the caller), as in snapshot.c. */
		ctf_put_le64(t->scratch + UST_PACKET_OFF(timestamp_end),
			     __atomic_load_n(&buf->commit.last_ts, __ATOMIC_RELAXED));
		ctf_put_le64(t->scratch + UST_PACKET_OFF(content_size), used * 8);
	} else {
		memcpy(t->scratch, slot, ci->subbuf_size);
		len = ctf_get_le64(t->scratch + UST_PACKET_OFF(content_size)) / 8;
		if (len > ci->subbuf_size)
			return 0;
	}
	ctf_put_le64(t->scratch + UST_PACKET_OFF(packet_size), (uint64_t)len * 8);
	return cd_packet_copy_state(c, s, n, slot) == COPY_TORN ? 0 : len;
}

/* The records of stream `i` since the last look; 1 on a match. */
static int look(struct consumer *c, struct cd_trigger *t, unsigned int i)
{
	const struct stream *s = &c->streams[i];
	const struct chan_info *ci = &c->shm.chan[s->chan];
	const struct ust_shm_buf *buf = shm_buf(&c->shm, s->chan, s->cpu);
	struct ust_walk_result res;
	uint64_t off, cur, n, first;
	size_t len;
	int hit = 0;

	/* I2, acquire: the records below the offset are visible to our copy. */
	off = __atomic_load_n(&buf->commit.offset, __ATOMIC_ACQUIRE);
	cur = off >> ci->subbuf_shift;
	first = cur + 1 >= ci->subbuf_count ? cur + 1 - ci->subbuf_count : 0;
	if (t->scan_sub[i] > first)
		first = t->scan_sub[i];
	for (n = first; n <= cur && !hit; n++) {
		len = take(c, t, s, n, off);
		/* Skip what the last look saw of this sub-buffer. */
		t->skip_before = n == t->scan_sub[i] ? t->scan_used[i] : 0;
		if (len)
			hit = shm_packet_walk(t->scratch, len, c->shm.uuid, ci->stream_id,
					      &ci->table, on_record, t, &res) == 1;
	}
	t->scan_sub[i] = cur;
	t->scan_used[i] = off & (ci->subbuf_size - 1);
	return hit;
}

/*
 * The matches up to `cut`, the cut of the last snapshot request, are the
 * dead consumer's (it may have fired on them), and its hold-off runs
 * from there: as if we had fired at `cut`.
 */
void cd_trigger_resume(struct consumer *c, uint64_t cut)
{
	if (c->trigger && cut)
		c->trigger->last = cut;
}

void cd_trigger_scan(struct consumer *c)
{
	struct cd_trigger *t = c->trigger;
	struct ust_flight *f;
	unsigned int i;

	if (!t)
		return;
	if (!t->scan_sub) {	/* the streams exist from the first tick on */
		t->scan_sub = calloc(c->nr_streams + 1, sizeof(*t->scan_sub));
		t->scan_used = calloc(c->nr_streams + 1, sizeof(*t->scan_used));
		if (!t->scan_sub || !t->scan_used)
			return;
	}
	for (i = 0; i < c->nr_streams; i++) {
		if (c->streams[i].broken || c->shm.chan[c->streams[i].chan].mode != UST_MODE_FLIGHT ||
		    !look(c, t, i))
			continue;
		/* Ask ourselves, as `ust snapshot` would (abi/flight.h). */
		f = &((struct ust_shm_header *)c->shm.base)->flight;
		if (ust__flight_claim(f)) {
			ust__flight_publish(f, t->match_ts, t->reason, "");
			t->last = t->match_ts;
			fprintf(stderr, CONSUMER_NAME ": trigger: %s\n", t->reason);
		}
		return;		/* one snapshot per look */
	}
}
