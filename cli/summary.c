/*
 * summary.c - reading the consumers' summary files and printing what a
 * `ust record` session wrote.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "abi/consumerd.h"
#include "common/parse.h"
#include "summary.h"

/* Remove every entry of the open directory `dfd` (closed on return). */
static void empty_dir(int dfd)
{
	struct dirent *de;
	DIR *d;

	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

void cli_summary_dir_remove(const char *path)
{
	int dfd;

	dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return;
	empty_dir(dfd);
	rmdir(path);
}

/*
 * An earlier process with our pid may have left its directory behind.
 * Reuse only a real directory that we own: in a shared, sticky output
 * directory, anything else may be another user's trap.
 */
static int reclaim_stale(const struct ust_safe_dir *out, const char *name,
			 const char *path)
{
	struct stat st;

	if (fstatat(out->fd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return -EEXIST;
	cli_summary_dir_remove(path);
	return mkdirat(out->fd, name, 0700) ? -errno : 0;
}

int cli_summary_dir_create(const struct ust_safe_dir *out, char **path)
{
	char name[32], *p;
	int ret = 0;

	snprintf(name, sizeof(name), ".ust-record-%ld", (long)getpid());
	if (asprintf(&p, "%s%s%s", out->path, strcmp(out->path, "/") ? "/" : "", name) < 0)
		return -ENOMEM;
	if (mkdirat(out->fd, name, 0700))
		ret = errno == EEXIST ? reclaim_stale(out, name, p) : -errno;
	if (ret) {
		free(p);
		return ret;
	}
	*path = p;
	return 0;
}

/* Append `msg` to the trace's error text, "; " between messages. */
int cli_summary_add_error(struct cli_trace_summary *t, const char *msg)
{
	char *joined;

	if (!t->error) {
		t->error = strdup(msg);
		return t->error ? 0 : -ENOMEM;
	}
	if (asprintf(&joined, "%s; %s", t->error, msg) < 0)
		return -ENOMEM;
	free(t->error);
	t->error = joined;
	return 0;
}

/* Append `line` to the "\n"-terminated lines of `*list`. */
static int add_line(char **list, const char *line)
{
	char *joined;

	if (asprintf(&joined, "%s%s\n", *list ? *list : "", line) < 0)
		return -ENOMEM;
	free(*list);
	*list = joined;
	return 0;
}

/*
 * "COUNT NAME" of a rate_limited or no_program line: added to the
 * trace's total and kept as a line to print.
 */
static int add_not_recorded(struct cli_trace_summary *t, const char *key,
			    char *value)
{
	bool rate = !strcmp(key, UST_SUMMARY_KEY_RATE_LIMITED);
	char *name = strchr(value, ' '), *line;
	uint64_t n;
	int ret;

	if (!name || !name[1])
		return cli_summary_add_error(t, "malformed summary line");
	*name++ = '\0';
	if (ust__parse_u64(value, &n))
		return cli_summary_add_error(t, "malformed summary line");
	*(rate ? &t->rate_limited : &t->no_program) += n;
	if (asprintf(&line, "%" PRIu64 " event%s of %s %s", n, n == 1 ? "" : "s",
		     name, rate ? "over its rate limit" :
		     "under a filter with no program for its fields") < 0)
		return -ENOMEM;
	ret = add_line(&t->not_recorded, line);
	free(line);
	return ret;
}

int cli_summary_add_note(struct cli_trace_summary *t, const char *msg)
{
	return add_line(&t->notes, msg);
}

/* The counter that `key` names, or NULL. */
static uint64_t *counter_of(struct cli_trace_summary *t, const char *key)
{
	if (!strcmp(key, UST_SUMMARY_KEY_PID))
		return &t->pid;
	if (!strcmp(key, UST_SUMMARY_KEY_EVENTS))
		return &t->events;
	if (!strcmp(key, UST_SUMMARY_KEY_LOST))
		return &t->lost;
	if (!strcmp(key, UST_SUMMARY_KEY_UNWRITTEN))
		return &t->unwritten;
	if (!strcmp(key, UST_SUMMARY_KEY_PACKETS))
		return &t->packets;
	if (!strcmp(key, UST_SUMMARY_KEY_PACKETS_DROPPED))
		return &t->packets_dropped;
	if (!strcmp(key, UST_SUMMARY_KEY_BYTES))
		return &t->bytes;
	if (!strcmp(key, UST_SUMMARY_KEY_RELAY_EVENTS))
		return &t->relay_events;
	if (!strcmp(key, UST_SUMMARY_KEY_RELAY_UNCONFIRMED))
		return &t->relay_unconfirmed;
	if (!strcmp(key, UST_SUMMARY_KEY_RELAY_KEPT))
		return &t->relay_kept;
	if (!strcmp(key, UST_SUMMARY_KEY_RELAY_CUT))
		return &t->relay_cut;
	if (!strcmp(key, UST_SUMMARY_KEY_FILTERED_TIME))
		return &t->filtered[0];
	if (!strcmp(key, UST_SUMMARY_KEY_FILTERED_DEPTH))
		return &t->filtered[1];
	if (!strcmp(key, UST_SUMMARY_KEY_FILTERED_FUNC))
		return &t->filtered[2];
	return NULL;
}

/* The text field that `key` names, or NULL. */
static char **text_of(struct cli_trace_summary *t, const char *key)
{
	if (!strcmp(key, UST_SUMMARY_KEY_DIR))
		return &t->dir;
	if (!strcmp(key, UST_SUMMARY_KEY_RELAY))
		return &t->relay;
	if (!strcmp(key, UST_SUMMARY_KEY_RELAY_PATH))
		return &t->relay_path;
	if (!strcmp(key, UST_SUMMARY_KEY_RELAY_ERROR))
		return &t->relay_error;
	return NULL;
}

/* Apply one "key=value" line (newline already removed). */
static int parse_line(struct cli_trace_summary *t, char *line)
{
	char *value, *msg, **text;
	uint64_t *counter;
	int ret;

	value = strchr(line, '=');
	if (!value)
		return *line ? cli_summary_add_error(t, "malformed summary line") : 0;
	*value++ = '\0';
	if (!strcmp(line, UST_SUMMARY_KEY_ERROR))
		return cli_summary_add_error(t, value);
	if (!strcmp(line, UST_SUMMARY_KEY_END)) {
		t->complete = !strcmp(value, "1");
		return 0;
	}
	if (!strcmp(line, UST_SUMMARY_KEY_SNAPSHOT))
		return add_line(&t->snapshots, value);
	if (!strcmp(line, UST_SUMMARY_KEY_RATE_LIMITED) ||
	    !strcmp(line, UST_SUMMARY_KEY_NO_PROGRAM))
		return add_not_recorded(t, line, value);
	if (!strcmp(line, UST_SUMMARY_KEY_RELAY_SNAPSHOT))
		return add_line(&t->relay_snapshots, value);
	text = text_of(t, line);
	if (text) {
		free(*text);
		*text = strdup(value);
		return *text ? 0 : -ENOMEM;
	}
	counter = counter_of(t, line);
	if (!counter || !ust__parse_u64(value, counter))
		return 0;
	if (asprintf(&msg, "malformed summary value '%s=%s'", line, value) < 0)
		return -ENOMEM;
	ret = cli_summary_add_error(t, msg);
	free(msg);
	return ret;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t len = strlen(s), slen = strlen(suffix);

	return len > slen && !strcmp(s + len - slen, suffix);
}

/* "x.summary", not hidden: a consumer's finished summary. */
static bool is_summary_name(const char *name)
{
	return name[0] != '.' && ends_with(name, UST_SUMMARY_SUFFIX);
}

/* ".<consumer pid>.summary.tmp": one a consumer began; 0 if not. */
static uint64_t begun_summary_consumer(const char *name)
{
	uint64_t pid;
	char *copy;
	int ret;

	if (name[0] != '.' || !ends_with(name, UST_SUMMARY_SUFFIX ".tmp"))
		return 0;
	copy = strndup(name + 1, strlen(name) - 1 - strlen(UST_SUMMARY_SUFFIX ".tmp"));
	if (!copy)
		return 0;
	ret = ust__parse_u64(copy, &pid);
	free(copy);
	return ret ? 0 : pid;
}

/* Read one summary file, `name` in the directory `dfd`. */
static int read_file(int dfd, const char *name, struct cli_trace_summary *t)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int fd, ret = 0;

	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -errno;
	}
	while (!ret && (len = getline(&line, &cap, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
		ret = parse_line(t, line);
	}
	free(line);
	fclose(f);
	if (!ret && !t->dir && is_summary_name(name)) {
		t->dir = strndup(name, strlen(name) - strlen(UST_SUMMARY_SUFFIX));
		if (!t->dir)
			ret = -ENOMEM;
	}
	return ret;
}

static int add_trace(struct ust_summary *sum, int dfd, const char *name)
{
	struct cli_trace_summary *traces;
	int ret;

	traces = realloc(sum->traces, (sum->nr + 1) * sizeof(*traces));
	if (!traces)
		return -ENOMEM;
	sum->traces = traces;
	memset(&traces[sum->nr], 0, sizeof(*traces));
	ret = read_file(dfd, name, &traces[sum->nr]);
	/* Kept even on error, so that release frees what was read. */
	sum->nr++;
	return ret;
}

/* Where the trace is: its directory, else its place on the relay. */
static const char *trace_place(const struct cli_trace_summary *t)
{
	if (t->dir && *t->dir)
		return t->dir;
	return t->relay_path ? t->relay_path : "";
}

static int compare_dirs(const void *a, const void *b)
{
	return strcmp(trace_place(a), trace_place(b));
}

int cli_summary_read(const char *path, struct ust_summary *sum)
{
	struct dirent *de;
	DIR *d;
	int fd, ret = 0;

	memset(sum, 0, sizeof(*sum));
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		ret = errno == ENOENT ? 0 : -errno;
		if (fd >= 0)
			close(fd);
		return ret;
	}
	while (!ret && (de = readdir(d))) {
		uint64_t consumer = begun_summary_consumer(de->d_name);

		if (!is_summary_name(de->d_name) && !consumer)
			continue;
		ret = add_trace(sum, dirfd(d), de->d_name);
		if (!ret && consumer && !sum->traces[sum->nr - 1].complete)
			sum->traces[sum->nr - 1].consumer = consumer;
	}
	closedir(d);
	if (sum->nr)
		qsort(sum->traces, sum->nr, sizeof(*sum->traces), compare_dirs);
	return ret;
}

void cli_summary_release(struct ust_summary *sum)
{
	size_t i;

	for (i = 0; i < sum->nr; i++) {
		free(sum->traces[i].dir);
		free(sum->traces[i].error);
		free(sum->traces[i].snapshots);
		free(sum->traces[i].notes);
		free(sum->traces[i].not_recorded);
		free(sum->traces[i].relay);
		free(sum->traces[i].relay_path);
		free(sum->traces[i].relay_error);
		free(sum->traces[i].relay_snapshots);
	}
	free(sum->traces);
	memset(sum, 0, sizeof(*sum));
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* "512 B", "11.9 MiB": binary units, one decimal. */
static void format_bytes(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	unsigned int i = 0;

	if (bytes < 1024) {
		snprintf(buf, len, "%" PRIu64 " B", bytes);
		return;
	}
	v /= 1024;
	while (v >= 1024 && i + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%.1f %s", v, units[i]);
}

/* A consumer that could make no trace: no directory, no place on a relay. */
static bool no_trace(const struct cli_trace_summary *t)
{
	return !trace_place(t)[0];
}

/*
 * The totals line; *full gets the records the buffers lost (the hint is
 * about them): neither those of packets that could not be written nor
 * those of a packet a relay failure cut.
 */
static void print_totals(const struct ust_summary *sum, FILE *out,
			 uint64_t *full)
{
	uint64_t events = 0, lost = 0, bytes = 0, dropped = 0;
	size_t i, nr = 0;
	char size[32];

	*full = 0;
	for (i = 0; i < sum->nr; i++) {
		const struct cli_trace_summary *t = &sum->traces[i];

		if (no_trace(t))
			continue;
		nr++;
		events += t->events;
		lost += t->lost + t->relay_cut;
		*full += t->lost > t->unwritten ? t->lost - t->unwritten : 0;
		bytes += t->bytes;
		dropped += t->packets_dropped;
	}
	format_bytes(bytes, size, sizeof(size));
	fprintf(out, "%s: %zu trace%s, %" PRIu64 " event%s written, %" PRIu64
		" lost, %s", cli_prog, nr, plural(nr), events,
		plural(events), lost, size);
	if (dropped)
		fprintf(out, ", %" PRIu64 " packet%s dropped", dropped,
			plural(dropped));
	fputc('\n', out);
}

/*
 * A streamed trace that fell back to a directory: what went where, and
 * what may be missing on the relay.
 */
static void print_relay(const struct cli_trace_summary *t, FILE *out)
{
	if (t->relay_error)
		fprintf(out, "%s:     relay failed: %s; %" PRIu64 " event%s went to %s before, "
			"%" PRIu64 " packet%s given back kept here, %" PRIu64 " event%s cut\n",
			cli_prog, t->relay_error, t->relay_events, plural(t->relay_events),
			t->relay_path && *t->relay_path ? t->relay_path : "no relay session",
			t->relay_kept, plural(t->relay_kept), t->relay_cut, plural(t->relay_cut));
	if (t->relay_unconfirmed)
		fprintf(out, "%s:     %" PRIu64 " event%s sent but not confirmed stored by the relay\n",
			cli_prog, t->relay_unconfirmed, plural(t->relay_unconfirmed));
}

/* What the function filters kept out, by filter. */
static void print_filtered(const struct cli_trace_summary *t, FILE *out)
{
	static const char *const by[3] = {
		"--time-filter", "--depth", "--filter-func/--exclude-func",
	};
	const char *sep = "";
	unsigned int k;

	if (!t->filtered[0] && !t->filtered[1] && !t->filtered[2])
		return;
	fprintf(out, "%s:     function events filtered out:", cli_prog);
	for (k = 0; k < 3; k++) {
		if (!t->filtered[k])
			continue;
		fprintf(out, "%s %" PRIu64 " by %s", sep, t->filtered[k], by[k]);
		sep = ",";
	}
	fputc('\n', out);
}

/* "  PLACE  (N events, M lost...)", or "(not counted)" when unknown here. */
static void print_trace_line(const struct cli_trace_summary *t, FILE *out)
{
	uint64_t lost = t->lost + t->relay_cut;
	bool streamed = t->relay && (!t->relay_error || t->uncounted);

	fprintf(out, "%s:   %s  (", cli_prog, trace_place(t));
	if (t->uncounted) {
		fputs("not counted", out);
	} else {
		fprintf(out, "%" PRIu64 " event%s, %" PRIu64 " lost", t->events,
			plural(t->events), lost);
		if (t->unwritten)
			fprintf(out, ", of which %" PRIu64 " not written", t->unwritten);
		if (t->packets_dropped)
			fprintf(out, ", %" PRIu64 " packet%s dropped",
				t->packets_dropped, plural(t->packets_dropped));
		if (t->rate_limited)
			fprintf(out, ", %" PRIu64 " rate-limited", t->rate_limited);
		if (t->no_program)
			fprintf(out, ", %" PRIu64 " with no filter program", t->no_program);
	}
	fprintf(out, ")%s%s\n", streamed ? " on " : "", streamed ? t->relay : "");
}

static void print_trace(const struct cli_trace_summary *t, FILE *out)
{
	const char *p, *nl;

	print_trace_line(t, out);
	if (t->relay && !t->uncounted)
		print_relay(t, out);
	for (p = t->snapshots; p && (nl = strchr(p, '\n')); p = nl + 1)
		fprintf(out, "%s:     snapshot %.*s\n", cli_prog, (int)(nl - p), p);
	for (p = t->relay_snapshots; p && (nl = strchr(p, '\n')); p = nl + 1)
		fprintf(out, "%s:     snapshot on lttng-relayd: %.*s\n", cli_prog, (int)(nl - p), p);
	for (p = t->not_recorded; p && (nl = strchr(p, '\n')); p = nl + 1)
		fprintf(out, "%s:     not recorded: %.*s\n", cli_prog,
			(int)(nl - p), p);
	for (p = t->notes; p && (nl = strchr(p, '\n')); p = nl + 1)
		fprintf(out, "%s:     %.*s\n", cli_prog, (int)(nl - p), p);
	print_filtered(t, out);
}

/* "error: PLACE: message", or "error: process PID: message" without a trace. */
static void print_error(const struct cli_trace_summary *t, FILE *out)
{
	if (!no_trace(t))
		fprintf(out, "%s: error: %s: %s\n", cli_prog, trace_place(t), t->error);
	else if (t->pid)
		fprintf(out, "%s: error: process %" PRIu64 ": %s\n", cli_prog, t->pid,
			t->error ? t->error : "no trace directory");
	else
		fprintf(out, "%s: error: %s\n", cli_prog,
			t->error ? t->error : "a consumer wrote no trace directory");
}

bool cli_summary_failed(const struct ust_summary *sum)
{
	size_t i;

	for (i = 0; i < sum->nr; i++) {
		const struct cli_trace_summary *t = &sum->traces[i];

		if (t->error || no_trace(t) || (t->consumer && !t->complete))
			return true;
	}
	return false;
}

void cli_summary_print(const struct ust_summary *sum, FILE *out,
		       const char *cmd, bool running, bool lost_hint)
{
	size_t i, nr = 0;
	uint64_t lost;

	for (i = 0; i < sum->nr; i++)
		nr += !no_trace(&sum->traces[i]);
	if (!sum->nr && running)
		return;
	if (!sum->nr) {
		fprintf(out, "%s: no trace was written (is '%s' linked with libust?)\n",
			cli_prog, cmd);
		return;
	}
	if (nr)
		print_totals(sum, out, &lost);
	else
		lost = 0;
	for (i = 0; i < sum->nr; i++) {
		if (!no_trace(&sum->traces[i]))
			print_trace(&sum->traces[i], out);
	}
	for (i = 0; i < sum->nr; i++) {
		if (sum->traces[i].error || no_trace(&sum->traces[i]))
			print_error(&sum->traces[i], out);
	}
	if (lost && lost_hint)
		fprintf(out, "%s: %" PRIu64 " event%s lost: the buffers filled up; "
			"raise --subbuf-size or --subbuf-count\n",
			cli_prog, lost, lost == 1 ? " was" : "s were");
}
