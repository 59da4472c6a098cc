/*
 * fake-app.c - play a traced process for ust-consumerd, without libust.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   fake-app -s SCENARIO -c CONSUMERD -o OUTDIR [-S SUMMARY_DIR] [-e EXPECT]
 *            [-k CLOCK] [-n COUNT] [-b SUBBUF_COUNT] [-V VICTIM] [-d] [-B WHAT]
 *            [-l] [-N]
 *
 * It builds the shared memory as libust would (fakeshm.c), forks a child
 * that stands for the traced process (its pidfd goes to the consumer),
 * starts `ust-consumerd --foreground` (or detached with -d), writes the
 * scenario's records, kills the child and waits for the consumer.  The
 * records the trace must hold are listed in EXPECT ("cpu seq ts id vtid
 * value"), for check_trace.py.  Prints "consumer_status=N".
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fakeshm.h"

#define TS0		1000000000ull	/* 1 s */
#define EV_INT		0u		/* test:ev, one int32 */
#define EV_STR		40u		/* test:str, string + int32: extended */
#define EV_BLOB		1u		/* test:blob, int32 + 996 bytes */
#define EV_BAD_ID	29u		/* never declared */
#define BLOB_SIZE	1000

struct opts {
	const char *scenario;
	const char *consumerd;
	const char *output;
	const char *summary_dir;
	const char *expect;
	const char *clock;
	const char *victim;
	const char *breakage;
	long count;
	unsigned int subbuf_count;
	int detach;
	int blobs;		/* records of ~1 KiB: a switch every 3 */
	int unsealable;		/* memfd without MFD_ALLOW_SEALING */
};

struct run {
	struct opts o;
	struct fake_shm f;
	pid_t child;
	pid_t consumer;
	int pidfd;
	char *expect_buf;
	size_t expect_len;
	uint64_t ts[8];		/* per-CPU clock */
	long written;
};

static void die(const char *what)
{
	perror(what);
	exit(99);
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The traced process: does nothing until killed (or its parent dies). */
static pid_t start_child(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	return pid;
}

static void start_consumer(struct run *r)
{
	char pid[16], *argv[24];
	int n = 0, shm, pfd;

	snprintf(pid, sizeof(pid), "%d", (int)r->child);
	argv[n++] = (char *)r->o.consumerd;
	argv[n++] = (char *)"--shm-fd";
	argv[n++] = (char *)"3";
	argv[n++] = (char *)"--pid-fd";
	argv[n++] = (char *)"4";
	argv[n++] = (char *)"--pid";
	argv[n++] = pid;
	argv[n++] = (char *)"--output";
	argv[n++] = (char *)r->o.output;
	argv[n++] = (char *)"--read-timer";
	argv[n++] = (char *)"1000";
	if (!r->o.detach)
		argv[n++] = (char *)"--foreground";
	if (r->o.clock) {
		argv[n++] = (char *)"--clock";
		argv[n++] = (char *)r->o.clock;
	}
	if (r->o.summary_dir) {
		argv[n++] = (char *)"--summary-dir";
		argv[n++] = (char *)r->o.summary_dir;
	}
	argv[n] = NULL;

	r->consumer = fork();
	if (r->consumer < 0)
		die("fork");
	if (r->consumer)
		return;
	shm = fcntl(r->f.fd, F_DUPFD, 10);
	pfd = fcntl(r->pidfd, F_DUPFD, 10);
	if (shm < 0 || pfd < 0 || dup2(shm, 3) < 0 || dup2(pfd, 4) < 0)
		die("dup");
	execv(argv[0], argv);
	die(argv[0]);
}

/* Wait for the consumer; returns its exit status (128 + signal if killed). */
static int wait_consumer(struct run *r)
{
	int status;

	if (waitpid(r->consumer, &status, 0) < 0)
		die("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void add_events(struct run *r)
{
	if (fake_shm_add_event(&r->f, EV_INT, "test:ev", "F4", "int32_t v;", -1) ||
	    fake_shm_add_event(&r->f, EV_STR, "test:str", "S F4",
			       "string s; int32_t n;", 13) ||
	    fake_shm_add_event(&r->f, EV_BLOB, "test:blob", "F1000",
			       "int32_t v; uint8_t pad[996];", -1))
		die("metadata log");
}

/*
 * Per-CPU time: mostly small steps; every 50th a step that crosses 2^27
 * boundaries with compact headers, every 97th a gap that needs an
 * extended header.
 */
static uint64_t next_ts(struct run *r, uint32_t cpu, long i)
{
	if (i % 97 == 96)
		r->ts[cpu] += 200000000;
	else if (i % 50 == 49)
		r->ts[cpu] += 100000000;
	else
		r->ts[cpu] += 1000 + (uint64_t)(i % 7);
	return r->ts[cpu];
}

/*
 * Record number `i` on `cpu`: test:ev {v = i}, or every 7th test:str;
 * with -l, test:blob {v = i} (filled with i's low byte).
 */
static int write_one(struct run *r, uint32_t cpu, long i)
{
	uint8_t buf[BLOB_SIZE];
	int32_t v = (int32_t)i;
	uint64_t ts = next_ts(r, cpu, i);
	int len;

	if (r->o.blobs) {
		memset(buf, (int)(i & 0xff), sizeof(buf));
		memcpy(buf, &v, 4);
		return fake_shm_write(&r->f, cpu, EV_BLOB, ts, 1000 + (int32_t)cpu,
				      buf, sizeof(buf), i);
	}
	if (i % 7 == 3) {
		len = snprintf((char *)buf, sizeof(buf), "str%ld", i) + 1;
		memcpy(buf + len, &v, 4);
		return fake_shm_write(&r->f, cpu, EV_STR, ts, 1000 + (int32_t)cpu,
				      buf, (size_t)len + 4, i);
	}
	return fake_shm_write(&r->f, cpu, EV_INT, ts, 1000 + (int32_t)cpu,
			      &v, 4, i);
}

/* `count` records spread round-robin over the first `cpus` CPUs. */
static void write_many(struct run *r, uint32_t cpus, long count)
{
	long i;

	for (i = 0; i < count; i++, r->written++) {
		int ret = write_one(r, (uint32_t)(r->written % cpus), r->written);

		if (ret && ret != -ENOBUFS)
			fprintf(stderr, "fake-app: write: %s\n", strerror(-ret));
	}
}

/* Corrupt scenario: poke packets just before the switch publishes them. */
static void corrupt_on_switch(struct fake_shm *f, uint32_t cpu, uint64_t seq)
{
	if (cpu == 0 && seq == 2)
		fake_shm_packet(f, 0, 2)->magic = 0xdeadbeef;
	if (cpu == 1 && seq == 5) {
		/* Packet 4 is closing: its first record gets an unknown id. */
		uint8_t *rec = (uint8_t *)fake_shm_packet(f, 1, 4) +
			       sizeof(struct ust_packet_header);

		rec[0] = (uint8_t)((rec[0] & ~0x1f) | EV_BAD_ID);
	}
}

/* A malformed metadata log entry: a layout the walker cannot use. */
static void add_bad_event(struct run *r)
{
	if (fake_shm_add_event(&r->f, 7, "test:bad", "X9", "int32_t x;", -1))
		die("metadata log");
}

static void lose_big(struct run *r, uint32_t cpu, int n)
{
	static uint8_t big[8192];

	while (n--)
		fake_shm_write(&r->f, cpu, EV_INT, r->ts[cpu], 1000 + (int32_t)cpu,
			       big, sizeof(big), 0);
}

/*
 * Scenario "lost": 2000 records on cpus 0 and 1; cpu 1 loses 2 records
 * at four points after its first packet (8 in all, the last ones after
 * its last record), cpu 2 loses 3 and writes nothing, cpu 3 is idle.
 */
static void scenario_lost(struct run *r)
{
	long i;

	for (i = 0; i < 2000; i++, r->written++) {
		write_one(r, (uint32_t)(i % 2), r->written);
		if (i == 999 || i == 1299 || i == 1599 || i == 1999)
			lose_big(r, 1, 2);
	}
	lose_big(r, 2, 3);
}

/* Symlinks in OUTDIR for every name the consumer may pick in 4 s. */
static void plant_symlinks(struct run *r)
{
	char name[512];
	time_t now = time(NULL), t;
	struct tm tm;
	int s;

	for (t = now; t < now + 4; t++) {
		localtime_r(&t, &tm);
		for (s = 0; s < 2; s++) {
			int n = snprintf(name, sizeof(name),
					 "%s/fakeapp-%d-%04d%02d%02d-%02d%02d%02d",
					 r->o.output, (int)r->child, tm.tm_year + 1900,
					 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
					 tm.tm_min, tm.tm_sec);
			if (s)
				snprintf(name + n, sizeof(name) - (size_t)n, "-1");
			if (symlink(r->o.victim, name) && errno != EEXIST)
				die("symlink");
		}
	}
}

/* Break the header in one of a few ways before the consumer sees it. */
static void break_shm(struct run *r)
{
	const char *b = r->o.breakage;

	if (!strcmp(b, "magic"))
		r->f.hdr->magic = 0x12345678;
	else if (!strcmp(b, "subbuf"))
		r->f.chan->subbuf_size = 5000;
	else if (!strcmp(b, "offset"))
		r->f.chan->data_offset = r->f.size;
	else if (!strcmp(b, "overlap"))
		r->f.hdr->meta_offset = r->f.chan->data_offset;
	else if (!strcmp(b, "cpus"))
		r->f.hdr->nr_cpus = 100000;
	else if (!strcmp(b, "name"))
		memcpy(r->f.chan->name, "../x", 5);
	else
		die("unknown breakage");
}

/* Wait (10 s at most) for the detached consumer's summary file. */
/*
 * Wait (20 s at most) until the consumer released every closed
 * sub-buffer: a slow consumer (sanitizers, a loaded machine) may not
 * even have mapped the memory after a fixed nap.
 */
static void wait_drained(struct run *r)
{
	uint32_t cpu;
	int tries;

	for (cpu = 0; cpu < r->f.nr_cpus; cpu++) {
		const struct ust_shm_buf *b = &r->f.bufs[cpu];
		uint64_t closed = b->commit.offset / r->f.subbuf_size * r->f.subbuf_size;

		/* Acquire: pairs with the consumer's store-release of consumed. */
		for (tries = 0; tries < 20000 &&
		     __atomic_load_n(&b->consumed, __ATOMIC_ACQUIRE) < closed; tries++)
			nap_ms(1);
	}
}

static void wait_summary(struct run *r)
{
	char path[512];
	int i;

	snprintf(path, sizeof(path), "%s/%d.summary", r->o.summary_dir, (int)r->child);
	for (i = 0; i < 1000 && access(path, F_OK); i++)
		nap_ms(10);
}

static void finish_child(struct run *r)
{
	kill(r->child, SIGKILL);
	waitpid(r->child, NULL, 0);
}

static int run_scenario(struct run *r)
{
	const char *s = r->o.scenario;
	uint32_t mode = strncmp(s, "overwrite", 9) ? UST_MODE_DISCARD : UST_MODE_OVERWRITE;
	uint32_t cpus = !strcmp(s, "lost") ? 4 : !strcmp(s, "fulldisk") ? 1 : 2;
	int status;

	if (fake_shm_create(&r->f, cpus, 4096, r->o.subbuf_count, mode, r->child,
			    "fakeapp", TS0, !r->o.unsealable))
		die("fake shm");
	for (uint32_t c = 0; c < 8; c++)
		r->ts[c] = TS0 + c * 10;
	r->f.expect = open_memstream(&r->expect_buf, &r->expect_len);
	add_events(r);
	if (!strcmp(s, "corrupt")) {
		r->f.on_switch = corrupt_on_switch;
		add_bad_event(r);
	}
	if (r->o.breakage)
		break_shm(r);
	if (r->o.victim)
		plant_symlinks(r);
	if (!strcmp(s, "overwrite")) {
		/* Lap the (not yet started) consumer on cpu 0 only. */
		for (long i = 0; i < r->o.count; i++, r->written++)
			write_one(r, i < r->o.count / 8 ? 1 : 0, r->written);
		start_consumer(r);
		nap_ms(100);
	} else {
		start_consumer(r);
		if (!strcmp(s, "lost"))
			scenario_lost(r);
		else
			write_many(r, cpus, r->o.count);
	}
	if (!strcmp(s, "shrink")) {
		/* Cut the data off under the consumer, once it drained. */
		wait_drained(r);
		printf("shrink=%s\n", ftruncate(r->f.fd, UST_SHM_PAGE * 2) ?
		       strerror(errno) : "done");
	}
	if (!strcmp(s, "sigterm")) {
		nap_ms(50);
		kill(r->consumer, SIGTERM);
		status = wait_consumer(r);
		finish_child(r);
		return status;
	}
	nap_ms(20);
	finish_child(r);
	status = wait_consumer(r);
	if (r->o.detach)
		wait_summary(r);
	return status;
}

static void write_expect(struct run *r)
{
	FILE *out;

	fclose(r->f.expect);
	if (!r->o.expect)
		return;
	out = fopen(r->o.expect, "w");
	if (!out || fwrite(r->expect_buf, 1, r->expect_len, out) != r->expect_len ||
	    fclose(out))
		die(r->o.expect);
}

static void parse(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->count = 3000;
	o->subbuf_count = 4;
	while ((c = getopt(argc, argv, "s:c:o:S:e:k:n:b:V:dB:lN")) != -1) {
		switch (c) {
		case 's': o->scenario = optarg; break;
		case 'c': o->consumerd = optarg; break;
		case 'o': o->output = optarg; break;
		case 'S': o->summary_dir = optarg; break;
		case 'e': o->expect = optarg; break;
		case 'k': o->clock = optarg; break;
		case 'n': o->count = atol(optarg); break;
		case 'b': o->subbuf_count = (unsigned int)atoi(optarg); break;
		case 'V': o->victim = optarg; break;
		case 'd': o->detach = 1; break;
		case 'B': o->breakage = optarg; break;
		case 'l': o->blobs = 1; break;
		case 'N': o->unsealable = 1; break;
		default: exit(2);
		}
	}
	if (!o->scenario || !o->consumerd || !o->output) {
		fprintf(stderr, "usage: fake-app -s SCENARIO -c CONSUMERD -o OUTDIR ...\n");
		exit(2);
	}
}

int main(int argc, char **argv)
{
	struct run r;
	int status;

	memset(&r, 0, sizeof(r));
	parse(argc, argv, &r.o);
	alarm(120);	/* a hung consumer fails the test instead of hanging it */
	r.child = start_child();
	r.pidfd = pidfd_open(r.child, 0);
	if (r.pidfd < 0)
		die("pidfd_open");
	status = run_scenario(&r);
	write_expect(&r);
	free(r.expect_buf);
	munmap(r.f.base, r.f.size);
	close(r.f.fd);
	printf("consumer_status=%d\nchild_pid=%d\n", status, (int)r.child);
	return 0;
}
