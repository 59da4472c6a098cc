/*
 * rescue.c - consumers that die before finishing their trace: keep
 * their memfd from the start, start another on it, and say what
 * happened (rescue.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "abi/consumerd.h"
#include "abi/env.h"
#include "cli.h"
#include "common/parse.h"
#include "reader/reader.h"
#include "rescue.h"
#include "shm/map.h"

extern char **environ;

/* One consumer seen starting. */
struct cli_rescue_entry {
	pid_t consumer;
	int memfd;		/* the buffers it drains, kept; -1 when let go */
	uint64_t traced;	/* its process (pid= of its summary) */
	char *dir;		/* its trace directory (dir=), NULL when none */
	char *relay_path;	/* its trace on lttng-relayd (relay_path=), or NULL */
	uint64_t relay_live;	/* its live timer (relay_live=), 0: not live */
	int status;		/* its wait status, once it died */
	bool died;		/* reaped before it completed its summary */
	pid_t rescuer;		/* the consumer started in its place, or 0 */
	char *why_not;		/* why no consumer took its place */
};

const char *cli_consumerd_path(void)
{
	const char *env = getenv(UST_ENV_CONSUMERD);

	return env && *env ? env : PKGLIBEXECDIR "/" UST_CONSUMERD_NAME;
}

static struct cli_rescue_entry *entry_of(struct cli_rescue *r, pid_t consumer)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		if (r->v[i].consumer == consumer)
			return &r->v[i];
	}
	return NULL;
}

static struct cli_rescue_entry *entry_add(struct cli_rescue *r, pid_t consumer, int memfd)
{
	struct cli_rescue_entry *v = realloc(r->v, (r->nr + 1) * sizeof(*v));

	if (!v)
		return NULL;
	r->v = v;
	memset(&v[r->nr], 0, sizeof(v[r->nr]));
	v[r->nr].consumer = consumer;
	v[r->nr].memfd = memfd;
	return &v[r->nr++];
}

static void entry_let_go(struct cli_rescue_entry *e)
{
	if (e->memfd >= 0)
		close(e->memfd);
	e->memfd = -1;
}

/* ".<pid>.summary.tmp": the summary a consumer began; 0 if not one. */
static pid_t begun_summary(const char *name)
{
	const char *suffix = UST_SUMMARY_SUFFIX ".tmp";
	size_t len = strlen(name), slen = strlen(suffix);
	char digits[16];
	uint64_t pid;

	if (name[0] != '.' || len <= slen + 1 || len - slen - 1 >= sizeof(digits) ||
	    strcmp(name + len - slen, suffix))
		return 0;
	memcpy(digits, name + 1, len - slen - 1);
	digits[len - slen - 1] = '\0';
	return ust__parse_u64(digits, &pid) || !pid || pid > INT_MAX ? 0 : (pid_t)pid;
}

/* A consumer began its summary: keep its memfd from now on. */
static void track(struct cli_rescue *r, pid_t consumer)
{
	char err[256];
	int fd;

	if (entry_of(r, consumer))
		return;
	fd = shm_memfd_open(consumer, err, sizeof(err));
	if (!entry_add(r, consumer, fd < 0 ? -1 : fd) && fd >= 0)
		close(fd);
}

static void on_inotify(void *arg)
{
	struct cli_rescue *r = arg;
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	const struct inotify_event *ev;
	ssize_t n;
	char *p;

	while ((n = read(r->ino, buf, sizeof(buf))) > 0) {
		for (p = buf; p < buf + n; p += sizeof(*ev) + ev->len) {
			pid_t consumer;

			ev = (const struct inotify_event *)p;
			consumer = ev->len ? begun_summary(ev->name) : 0;
			if (consumer)
				track(r, consumer);
		}
	}
}

/*
 * What a consumer's begun summary says (pid=, dir=, relay_path=,
 * relay_live=, end=).  Returns 1
 * when it is there and incomplete (the consumer did not finish), 0 when
 * it is gone or complete, -errno when unreadable.
 */
static int begun_read(const struct cli_rescue *r, struct cli_rescue_entry *e)
{
	char path[PATH_MAX], *line = NULL, *v;
	bool complete = false;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/.%d" UST_SUMMARY_SUFFIX ".tmp", r->sumdir,
		 (int)e->consumer);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		v = strchr(line, '=');
		if (!v)
			continue;
		*v++ = '\0';
		if (!strcmp(line, UST_SUMMARY_KEY_PID))
			ust__parse_u64(v, &e->traced);
		else if (!strcmp(line, UST_SUMMARY_KEY_DIR) && *v && !e->dir)
			e->dir = strdup(v);
		else if (!strcmp(line, UST_SUMMARY_KEY_RELAY_PATH) && *v && !e->relay_path)
			e->relay_path = strdup(v);
		else if (!strcmp(line, UST_SUMMARY_KEY_RELAY_LIVE))
			ust__parse_u64(v, &e->relay_live);
		else if (!strcmp(line, UST_SUMMARY_KEY_END))
			complete = true;
	}
	free(line);
	fclose(f);
	return !complete;
}

/* How many consumers died for process `traced` so far. */
static unsigned int deaths_of(const struct cli_rescue *r, uint64_t traced)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < r->nr; i++)
		n += r->v[i].died && r->v[i].traced == traced;
	return n;
}

/*
 * Whether the rescuer goes on with e's trace directory (--resume), or
 * starts a new one in the output directory: when it made none (it
 * streamed to lttng-relayd and had not fallen back to a directory: the
 * trace falls back now, the output directory being the relay's fallback
 * directory too), and when its directory is the fallback of a live relay
 * session, whose packets are numbered by live piece, not by sub-buffer
 * (consumer/relay.c), so that where to resume cannot be told from them.
 */
static bool resumable(const struct cli_rescue_entry *e)
{
	return e->dir && !e->relay_live;
}

/* The rescuer's command line; strings in `store`. */
static void rescuer_args(const struct cli_rescue *r, const struct cli_rescue_entry *e,
			 bool with_pidfd, char *argv[], char store[][24])
{
	const char *clock = getenv(UST_ENV_SESSION_CLOCK);
	const char *timer = getenv(UST_ENV_READ_TIMER);
	int n = 0;

	argv[n++] = (char *)UST_CONSUMERD_NAME;
	argv[n++] = (char *)"--" UST_CONSUMERD_OPT_SHM_FD;
	argv[n++] = (char *)UST_CONSUMERD_STR(UST_CONSUMERD_SHM_FD);
	if (with_pidfd) {
		argv[n++] = (char *)"--" UST_CONSUMERD_OPT_PID_FD;
		argv[n++] = (char *)UST_CONSUMERD_STR(UST_CONSUMERD_PID_FD);
	}
	argv[n++] = (char *)"--" UST_CONSUMERD_OPT_PID;
	snprintf(store[0], 24, "%" PRIu64, e->traced);
	argv[n++] = store[0];
	argv[n++] = (char *)(resumable(e) ? "--" UST_CONSUMERD_OPT_RESUME :
			     "--" UST_CONSUMERD_OPT_OUTPUT);
	argv[n++] = resumable(e) ? e->dir : r->outdir;
	argv[n++] = (char *)"--" UST_CONSUMERD_OPT_SUMMARY_DIR;
	argv[n++] = r->sumdir;
	argv[n++] = (char *)"--" UST_CONSUMERD_OPT_FOREGROUND;
	if (clock && *clock) {
		argv[n++] = (char *)"--" UST_CONSUMERD_OPT_CLOCK;
		argv[n++] = (char *)clock;
	}
	if (timer && *timer) {
		argv[n++] = (char *)"--" UST_CONSUMERD_OPT_READ_TIMER;
		argv[n++] = (char *)timer;
	}
	argv[n] = NULL;
}

/*
 * Start a consumer on `memfd` for e's process, with a pidfd of it when it
 * is still there.  Returns its pid, or -errno.
 */
static pid_t rescuer_start(const struct cli_rescue *r, const struct cli_rescue_entry *e,
			   int memfd)
{
	char *argv[24], store[1][24];
	posix_spawn_file_actions_t fa;
	int pidfd, hi_mem, hi_pid = -1, ret;
	pid_t pid = -1;

	pidfd = pidfd_open((pid_t)e->traced, 0);
	/* Above 3 and 4 first, so that neither dup2 undoes the other. */
	hi_mem = fcntl(memfd, F_DUPFD_CLOEXEC, 10);
	if (pidfd >= 0)
		hi_pid = fcntl(pidfd, F_DUPFD_CLOEXEC, 10);
	ret = hi_mem < 0 || (pidfd >= 0 && hi_pid < 0) ? errno :
	      posix_spawn_file_actions_init(&fa);
	if (!ret) {
		ret = posix_spawn_file_actions_adddup2(&fa, hi_mem, UST_CONSUMERD_SHM_FD);
		if (!ret && hi_pid >= 0)
			ret = posix_spawn_file_actions_adddup2(&fa, hi_pid, UST_CONSUMERD_PID_FD);
		rescuer_args(r, e, hi_pid >= 0, argv, store);
		if (!ret)
			ret = posix_spawn(&pid, r->consumerd, &fa, NULL, argv, environ);
		posix_spawn_file_actions_destroy(&fa);
	}
	if (hi_mem >= 0)
		close(hi_mem);
	if (hi_pid >= 0)
		close(hi_pid);
	if (pidfd >= 0)
		close(pidfd);
	return ret ? -ret : pid;
}

static void why_not(struct cli_rescue_entry *e, const char *why)
{
	free(e->why_not);
	e->why_not = strdup(why);
}

/* Consumer `e` died: start another in its place, if we can. */
static void replace(struct cli_rescue *r, struct cli_rescue_entry *e)
{
	size_t idx = (size_t)(e - r->v);
	char err[256], path[PATH_MAX];
	int memfd = e->memfd;
	pid_t pid;

	if (deaths_of(r, e->traced) > CLI_RESCUE_MAX) {
		why_not(e, "too many of its consumers died");
		return;
	}
	if (memfd < 0)
		memfd = shm_memfd_open((pid_t)e->traced, err, sizeof(err));
	if (memfd < 0) {
		why_not(e, "its process and its buffers were gone");
		return;
	}
	pid = rescuer_start(r, e, memfd);
	if (pid < 0) {
		snprintf(err, sizeof(err), "cannot start '%s': %s", r->consumerd, strerror(-pid));
		why_not(e, err);
	} else {
		e->rescuer = pid;
		/*
		 * A new one that resumes the trace has its own summary: this
		 * one's is done with.  Else it is all that says where the first
		 * part of the trace went (a directory, a relay).
		 */
		snprintf(path, sizeof(path), "%s/.%d" UST_SUMMARY_SUFFIX ".tmp", r->sumdir,
			 (int)e->consumer);
		if (resumable(e) || (!e->dir && !e->relay_path))
			unlink(path);
		(void)entry_add(r, pid, fcntl(memfd, F_DUPFD_CLOEXEC, 0));
		e = &r->v[idx];		/* realloc may have moved it */
	}
	if (memfd != e->memfd)
		close(memfd);
	entry_let_go(e);
}

static void on_child_exited(void *arg, pid_t pid, int status, bool consumer)
{
	struct cli_rescue *r = arg;
	struct cli_rescue_entry *e;
	int begun;

	if (!consumer)
		return;
	e = entry_of(r, pid);
	if (!e)
		e = entry_add(r, pid, -1);	/* missed: its memfd is gone */
	if (!e)
		return;
	begun = begun_read(r, e);
	if (begun <= 0) {
		entry_let_go(e);	/* finished: its buffers may go */
		return;
	}
	e->died = true;
	e->status = status;
	replace(r, e);
}

/* Whether process `pid` is a live ust-consumerd (a zombie is not). */
static bool consumer_alive(pid_t pid)
{
	char path[64], buf[256], *paren;
	bool alive = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f) && (paren = strrchr(buf, ')')) && paren[1] == ' ')
		alive = paren[2] != 'Z' &&
			!strncmp(strchr(buf, '(') + 1, UST_CONSUMERD_NAME ")",
				 strlen(UST_CONSUMERD_NAME) + 1);
	fclose(f);
	return alive;
}

/* Consumers with a begun, incomplete summary that are still running. */
static int begun_running(const struct cli_rescue *r)
{
	struct cli_rescue_entry e;
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(r->sumdir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		memset(&e, 0, sizeof(e));
		e.consumer = begun_summary(de->d_name);
		if (e.consumer && begun_read(r, &e) > 0 && consumer_alive(e.consumer))
			n++;
		free(e.dir);
		free(e.relay_path);
	}
	closedir(d);
	return n;
}

int cli_rescue_wait_begun(const struct cli_rescue *r, unsigned int timeout_s)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < timeout_s * 10 && r->sumdir; i++) {
		n = begun_running(r);
		if (!n)
			return 0;
		usleep(100000);
	}
	return n;
}

int cli_rescue_init(struct cli_rescue *r, const char *sumdir, const char *outdir)
{
	memset(r, 0, sizeof(*r));
	r->consumerd = cli_consumerd_path();
	r->sumdir = strdup(sumdir);
	r->outdir = strdup(outdir);
	if (!r->sumdir || !r->outdir)
		return -ENOMEM;
	r->ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (r->ino < 0)
		return -errno;
	if (inotify_add_watch(r->ino, sumdir, IN_CREATE | IN_MOVED_TO) < 0) {
		int ret = -errno;

		close(r->ino);
		r->ino = -1;
		return ret;
	}
	return 0;
}

void cli_rescue_hooks(struct cli_rescue *r, struct cli_supervise_hooks *h)
{
	h->fd = r->ino;
	h->fd_ready = on_inotify;
	h->child_exited = on_child_exited;
	h->arg = r;
}

/* "killed by SIGKILL", "exit status 3" */
static void status_text(int status, char *buf, size_t len)
{
	const char *name;

	if (WIFSIGNALED(status)) {
		name = sigabbrev_np(WTERMSIG(status));
		if (name)
			snprintf(buf, len, "killed by SIG%s", name);
		else
			snprintf(buf, len, "killed by signal %d", WTERMSIG(status));
	} else {
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
	}
}

/*
 * The trace of dead consumer `e`: the one whose directory it was, or,
 * when it had none (it streamed to a relay), its begun summary's.
 */
static struct cli_trace_summary *trace_of(struct ust_summary *sum,
					  const struct cli_rescue_entry *e)
{
	size_t i;

	for (i = 0; i < sum->nr; i++) {
		const struct cli_trace_summary *t = &sum->traces[i];

		if (e->dir ? t->dir && !strcmp(t->dir, e->dir) : t->consumer == (uint64_t)e->consumer)
			return &sum->traces[i];
	}
	return NULL;
}

/* Count what an unfinished trace holds: events, and the losses it says. */
static void count_on_disk(struct cli_trace_summary *t)
{
	const char *paths[1] = { t->dir };
	struct rd_reader *rd;
	struct rd_msg m;
	char err[512];
	int ret;

	if (rd_reader_open(&rd, paths, 1, err, sizeof(err))) {
		cli_summary_add_error(t, err);
		return;
	}
	while ((ret = rd_reader_next(rd, &m)) > 0) {
		if (m.kind == RD_MSG_EVENT)
			t->events++;
		else if (m.kind == RD_MSG_DISCARDED_EVENTS && m.count != UINT64_MAX)
			t->lost += m.count;
	}
	if (ret < 0)
		cli_summary_add_error(t, rd_reader_error(rd));
	rd_reader_close(rd);
}

/*
 * An unfinished trace: counted from its files; what went to a relay is
 * not known here.
 */
static void count_unfinished(struct cli_trace_summary *t)
{
	if (t->dir && t->dir[0])
		count_on_disk(t);
	else if (t->relay)
		t->uncounted = true;
}

/*
 * "consumer 12 killed by SIGKILL; consumer 13 went on with the trace ...".
 * A trace not resumed is what its begun summary says: counted from its
 * files when it has a directory, not counted when it is on a relay.
 */
static void note_replaced(const struct cli_rescue_entry *e, const char *how,
			  struct cli_trace_summary *t)
{
	char line[PATH_MAX + 512];

	if (resumable(e))
		snprintf(line, sizeof(line), "consumer %d %s; consumer %d went on with the "
			 "trace%s%s%s", (int)e->consumer, how, (int)e->rescuer,
			 e->relay_path ? " (it had streamed to lttng-relayd, " : "",
			 e->relay_path ? e->relay_path : "", e->relay_path ? ", before)" : "");
	else
		snprintf(line, sizeof(line), "consumer %d %s%s; consumer %d went on with the "
			 "trace in a new directory", (int)e->consumer, how,
			 e->dir ? "" : " while streaming", (int)e->rescuer);
	cli_summary_add_note(t, line);
	t->consumer = 0;	/* explained */
	if (!resumable(e))
		count_unfinished(t);
}

void cli_rescue_report(const struct cli_rescue *r, struct ust_summary *sum)
{
	struct cli_trace_summary *t;
	char how[64], line[PATH_MAX + 256];
	size_t i;

	for (i = 0; i < r->nr; i++) {
		const struct cli_rescue_entry *e = &r->v[i];

		if (!e->died || !(t = trace_of(sum, e)))
			continue;
		status_text(e->status, how, sizeof(how));
		if (e->rescuer) {
			note_replaced(e, how, t);
			continue;
		}
		snprintf(line, sizeof(line), "its consumer (pid %d) %s and none could take "
			 "its place (%s): the events recorded after that are not counted",
			 (int)e->consumer, how, e->why_not ? e->why_not : "unknown");
		cli_summary_add_error(t, line);
		t->consumer = 0;	/* explained */
		count_unfinished(t);
	}
	/*
	 * Unfinished without a death seen (still running when we gave up).
	 */
	for (i = 0; i < sum->nr; i++) {
		t = &sum->traces[i];
		if (!t->consumer || t->complete)
			continue;
		snprintf(line, sizeof(line), "its consumer (pid %" PRIu64 ") did not finish",
			 t->consumer);
		cli_summary_add_error(t, line);
		count_unfinished(t);
	}
}

void cli_rescue_release(struct cli_rescue *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		entry_let_go(&r->v[i]);
		free(r->v[i].dir);
		free(r->v[i].relay_path);
		free(r->v[i].why_not);
	}
	free(r->v);
	free(r->sumdir);
	free(r->outdir);
	if (r->ino >= 0)
		close(r->ino);
	memset(r, 0, sizeof(*r));
	r->ino = -1;
}
