/*
 * analysis.c - what the report's sections share: headings, time and
 * duration formats, payload field access.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "tasks.h"

void report_heading(FILE *out, const char *title)
{
	fprintf(out, "\n== %s ==\n", title);
}

const char *report_time(const struct report_ctx *c, int64_t ns, char *buf)
{
	struct rd_out o;

	rd_out_init(&o, NULL);
	rd_out_time(&o, ns, c->gmt);
	snprintf(buf, 32, "%.*s", (int)o.len, o.buf);
	rd_out_release(&o);
	return buf;
}

int64_t report_span(const struct report_ctx *c)
{
	int64_t span;

	if (c->last_ns < c->first_ns)
		return 0;
	if (__builtin_sub_overflow(c->last_ns, c->first_ns, &span))
		return INT64_MAX;
	return span;
}

const char *report_secs(int64_t ns, char *buf)
{
	uint64_t a = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;

	snprintf(buf, 32, "%s%" PRIu64 ".%09" PRIu64, ns < 0 ? "-" : "",
		 a / 1000000000, a % 1000000000);
	return buf;
}

const char *report_usecs(double ns, char *buf)
{
	snprintf(buf, 32, "%.3f", ns / 1000.0);
	return buf;
}

int64_t report_int(const struct rd_value *v, int idx, int64_t dflt)
{
	if (!v || idx < 0 || idx >= REPORT_MAX_FIELDS || v[idx].kind != RD_VAL_INT)
		return dflt;
	return v[idx].i;
}

const char *report_str(const struct rd_value *v, int idx, char *buf, size_t size)
{
	if (!v || idx < 0 || idx >= REPORT_MAX_FIELDS || v[idx].kind != RD_VAL_STRING)
		return "";
	snprintf(buf, size, "%.*s", (int)v[idx].len, v[idx].str);
	return buf;
}

bool export_keep(const struct report_ctx *c, int64_t tid, int64_t begin,
		 int64_t end, bool instant)
{
	if (c->only_tid && tid != c->tid)
		return false;
	if (c->window && (end < c->begin_ns || begin > c->end_ns))
		return false;
	if (instant)
		return c->min_dur_ns == 0;
	return end - begin >= c->min_dur_ns;
}

bool report_is_kernel(const struct rd_trace *t)
{
	const struct rd_env *d = rd_metadata_env(rd_trace_metadata(t), "domain");

	return d && d->str && !strcmp(d->str, "kernel");
}

int64_t report_pid(const struct report_ctx *c, const struct rd_trace *t, int64_t tid)
{
	const struct rd_env *e = rd_metadata_env(rd_trace_metadata(t), "vpid");
	const struct task *k;

	if (!report_is_kernel(t))
		return e && !e->str ? e->num : -1;
	k = tasks_find(c->tasks, tid);
	return k ? k->pid : tid;	/* its own process until known */
}

const char *report_comm(const struct report_ctx *c, const struct rd_trace *t,
			int64_t tid)
{
	const struct rd_env *e = rd_metadata_env(rd_trace_metadata(t), "procname");
	const struct task *k;

	if (!report_is_kernel(t))
		return e && e->str ? e->str : "";
	k = tasks_find(c->tasks, tid);
	return k ? k->comm : "";
}

int report_every_class(void *a, const struct rd_trace *t,
		       const struct rd_event_class *ec, bool *fields)
{
	(void)a;
	(void)t;
	(void)ec;
	(void)fields;
	return 1;
}

static void out_of_memory(void)
{
	fputs("ust: out of memory\n", stderr);
	abort();
}

void *report_zalloc(size_t size)
{
	void *p = calloc(1, size);

	if (!p)
		out_of_memory();
	return p;
}

void *report_realloc(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		out_of_memory();
	p = realloc(p, nmemb * size);
	if (!p)
		out_of_memory();
	return p;
}

void *report_name_index(void *v, size_t *nr, size_t size, const char *name,
			size_t *index)
{
	char *elems = v;
	size_t i;

	for (i = 0; i < *nr; i++) {
		if (!strcmp(*(const char **)(elems + i * size), name)) {
			*index = i;
			return v;
		}
	}
	elems = report_realloc(v, *nr + 1, size);
	memset(elems + i * size, 0, size);
	*(const char **)(elems + i * size) = name;
	*index = (*nr)++;
	return elems;
}
