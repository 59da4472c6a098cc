/*
 * storm.c - the traced workload of the storm tests (tests/storm/).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   storm MODE [-t THREADS] [-n EVENTS] [-d MS] [-g FILE] [-r RATE] [-y] [-s]
 *              [-p FILE] [-L DIR] [-c COUNT] [-k EVENTS] [-S SEED]
 *
 * THREADS long-lived workers (default 4) record storm:tick (with -s,
 * every 8th one is storm:text) with their index and a sequence number,
 * EVENTS each, or until MS milliseconds have passed (-d) or FILE exists
 * (-g, 60 s at most), at most RATE
 * events per millisecond each (-r; they sleep, or spin with -y).
 *
 * Modes, each adding a load to the workers:
 *   crash    nothing; with -p FILE, after each trace call returns the
 *            thread stores its count of returned calls in FILE (a shared
 *            mapping, one uint64 per thread), so that a test that
 *            SIGKILLs us knows which events had been recorded
 *   signal   every worker arms a CLOCK_MONOTONIC timer of 50 us aimed at
 *            itself (SIGEV_THREAD_ID); the handler records storm:handler,
 *            noting whether it interrupted a trace call
 *   churn    COUNT short-lived threads, at most 8 alive at once, each
 *            recording EVENTS (-k) storm:churn
 *   fork     COUNT children, at most 4 alive at once, forked while the
 *            workers trace; each records -k events from its one thread;
 *            every second one then execs /proc/self/exe (mode `exec`,
 *            whose comm is "exe") which records -k events from 2 threads
 *   hostile  once the consumer has released a sub-buffer, a thread
 *            scribbles over libust's shared memory every millisecond while
 *            the workers trace, SEED choosing what and where (-S; with
 *            per-thread buffers, the thread buffers too); at the end
 *            it breaks the magic of every buffer's open packet, so that
 *            the consumer has at least that to report
 *
 * With -L DIR, each process writes DIR/<comm>-<pid> at exit: one line
 * "EVENT THREAD COUNT" per thread, the number of trace calls made.
 * Prints one summary line on stdout.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "abi/shm.h"
#include "ctf/format.h"
#include "progress_map.h"
#include "storm_tp.h"

#define MAX_THREADS	64
#define MAX_CHURN	100000
#define CHURN_WAVE	8
#define FORK_WAVE	4
#define TIMER_NS	50000	/* 20 kHz per thread */

struct opts {
	const char *mode;
	unsigned int threads;
	uint64_t events;
	unsigned int duration_ms;
	const char *gate;	/* -g: run until this file exists */
	uint64_t rate;
	int spin, text;
	const char *ledger_dir;
	unsigned int count;
	uint64_t child_events;
	unsigned long seed;
};

static struct opts o = { .threads = 4 };
static volatile uint64_t *progress;
static int stop;			/* atomic: workers stop when set */
static uint64_t ticks[MAX_THREADS];	/* per worker, once it ended */
static uint64_t handlers[MAX_THREADS];
static uint64_t nested_total;		/* atomic */
static uint64_t *churned;		/* per churn thread */

static uint64_t overruns;		/* atomic: expirations merged */
static __thread timer_t self_timer;
static __thread uint32_t self;
static __thread uint64_t handler_seq;
static __thread volatile sig_atomic_t in_call;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* With -r: wait while `done` events are ahead of the rate. */
static void pace(uint64_t done, uint64_t start)
{
	struct timespec pause = { 0, 100000 };

	while (o.rate && done * 1000000 / o.rate > now_ns() - start &&
	       !__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		if (!o.spin)
			nanosleep(&pause, NULL);
	}
}

static void on_timer(int sig)
{
	(void)sig;
	int missed = timer_getoverrun(self_timer);

	trace_storm_handler(self, handler_seq++, (uint8_t)in_call);
	if (missed > 0)
		__atomic_fetch_add(&overruns, (uint64_t)missed, __ATOMIC_RELAXED);
	if (in_call)
		__atomic_fetch_add(&nested_total, 1, __ATOMIC_RELAXED);
}

static int timer_start(timer_t *timer)
{
	struct sigevent sev;
	struct itimerspec its = { { 0, TIMER_NS }, { 0, TIMER_NS } };

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGRTMIN;
	sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_MONOTONIC, &sev, timer) ||
	    timer_settime(*timer, 0, &its, NULL)) {
		perror("storm: timer");
		exit(1);
	}
	return 0;
}

/* Block the timer signal first, so no handler runs after we count. */
static void timer_stop(timer_t timer)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	timer_delete(timer);
}

static int keep_going(uint64_t i, uint64_t limit)
{
	if (limit)
		return i < limit;
	return !__atomic_load_n(&stop, __ATOMIC_RELAXED);
}

static void trace_one(uint32_t t, uint64_t i)
{
	/*
	 * in_call tells the signal handler that it interrupted a trace
	 * call; the compiler barriers keep the flag around the call.
	 */
	in_call = 1;
	__asm__ __volatile__("" ::: "memory");
	if (o.text && i % 8 == 0)
		trace_storm_text(t, i, "a text payload");
	else
		trace_storm_tick(t, i);
	__asm__ __volatile__("" ::: "memory");
	in_call = 0;
}

static void *worker(void *arg)
{
	uint32_t t = (uint32_t)(uintptr_t)arg;
	int with_timer = !strcmp(o.mode, "signal");
	uint64_t i, start = now_ns();

	self = t;
	if (with_timer)
		timer_start(&self_timer);
	for (i = 0; keep_going(i, o.events); i++) {
		if (i % 32 == 0)
			pace(i, start);
		trace_one(t, i);
		/* Release: the count is stored after the call returned. */
		if (progress)
			__atomic_store_n(&progress[t], i + 1, __ATOMIC_RELEASE);
	}
	if (with_timer) {
		timer_stop(self_timer);
		handlers[t] = handler_seq;
	}
	ticks[t] = i;
	return NULL;
}

static void *churn_thread(void *arg)
{
	uint32_t t = (uint32_t)(uintptr_t)arg;
	uint64_t i;

	for (i = 0; i < o.child_events; i++)
		trace_storm_churn(t, i);
	churned[t] = i;
	return NULL;
}

static void write_ledger(void)
{
	char comm[17] = "", path[4200];
	unsigned int t;
	FILE *f;

	if (!o.ledger_dir)
		return;
	prctl(PR_GET_NAME, comm);
	snprintf(path, sizeof(path), "%s/%s-%d", o.ledger_dir, comm, (int)getpid());
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	for (t = 0; t < o.threads; t++) {
		fprintf(f, "tick %u %llu\n", t, (unsigned long long)ticks[t]);
		if (!strcmp(o.mode, "signal"))
			fprintf(f, "handler %u %llu\n", t, (unsigned long long)handlers[t]);
	}
	for (t = 0; churned && t < o.count; t++)
		fprintf(f, "churn %u %llu\n", t, (unsigned long long)churned[t]);
	if (fclose(f)) {
		perror(path);
		exit(1);
	}
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* --- the loads added to the workers ---------------------------------- */

static void churn_load(void)
{
	pthread_t th[CHURN_WAVE];
	unsigned int i, j, n;

	churned = calloc(o.count, sizeof(*churned));
	if (!churned)
		exit(1);
	for (i = 0; i < o.count; i += n) {
		n = o.count - i < CHURN_WAVE ? o.count - i : CHURN_WAVE;
		for (j = 0; j < n; j++) {
			if (pthread_create(&th[j], NULL, churn_thread,
					   (void *)(uintptr_t)(i + j))) {
				fprintf(stderr, "storm: pthread_create failed\n");
				exit(1);
			}
		}
		for (j = 0; j < n; j++)
			pthread_join(th[j], NULL);
	}
}

/*
 * In a fork child: -k events from the forking thread (the only one; no
 * new thread, which ThreadSanitizer cannot follow after a fork of a
 * threaded process), then maybe exec.
 */
static void child_main(unsigned int c)
{
	char events[32], *argv[10];
	int i = 0;

	o.threads = 1;
	o.events = o.child_events;
	o.rate = 0;
	o.mode = "crash";
	o.duration_ms = 0;
	o.gate = NULL;
	memset(ticks, 0, sizeof(ticks));
	worker((void *)0);
	write_ledger();
	if (c % 2 == 0)
		_exit(0);
	snprintf(events, sizeof(events), "%llu", (unsigned long long)o.child_events);
	argv[i++] = "storm";
	argv[i++] = "exec";
	argv[i++] = "-t";
	argv[i++] = "2";
	argv[i++] = "-n";
	argv[i++] = events;
	argv[i++] = "-L";
	argv[i++] = (char *)o.ledger_dir;
	argv[i] = NULL;
	execv("/proc/self/exe", argv);
	perror("storm: execv");
	_exit(1);
}

/*
 * Wait for the worker `pid`.  Not wait(): an exec'd worker's consumer is
 * our child too (libust starts it as its traced process's sibling), so
 * counting wait() calls would count consumers and leave workers running
 * (doc/consumer.md).
 */
static void reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("storm: waitpid");
			exit(1);
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "storm: a child failed (status 0x%x)\n", status);
		exit(1);
	}
}

static void fork_load(void)
{
	pid_t wave[FORK_WAVE];
	unsigned int c;
	pid_t pid;

	for (c = 0; c < o.count; c++) {
		if (c >= FORK_WAVE)
			reap(wave[c % FORK_WAVE]);	/* the oldest alive */
		fflush(stdout);
		pid = fork();
		if (pid < 0) {
			perror("storm: fork");
			exit(1);
		}
		if (pid == 0)
			child_main(c);
		wave[c % FORK_WAVE] = pid;
	}
	for (c = o.count > FORK_WAVE ? o.count - FORK_WAVE : 0; c < o.count; c++)
		reap(wave[c % FORK_WAVE]);
}

/* --- hostile: scribbling over the shared memory ---------------------- */

struct shm_view {
	uint8_t *base;
	uint64_t size;
	struct ust_shm_header *hdr;
	struct ust_shm_channel *chan;
	struct ust_shm_buf *bufs;
	uint8_t *data;
	uint64_t meta_offset, meta_size;
	uint32_t nr_cpus, subbuf_size, subbuf_count;
	/* A per-thread channel: the thread area, through a mapping of our own. */
	int per_thread;
	int fd;				/* the memfd */
	uint8_t *whole;			/* all of it, up to THREAD_AREA_MAX */
	uint64_t threads_offset, region_size;
};

#define THREAD_AREA_MAX		(1ull << 32)

/*
 * The thread area grows with the memfd: map the memfd again, reserving
 * room for its growth; a region is touched only once it lies inside the
 * file (or the access would fault).
 */
static int shm_map_threads(struct shm_view *v)
{
	char path[64], target[128];
	ssize_t n;
	int fd;

	for (fd = 0; fd < 1024; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strstr(target, "memfd:ust-trace"))
			break;
	}
	if (fd == 1024)
		return -1;
	v->fd = fd;
	v->whole = mmap(NULL, THREAD_AREA_MAX, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (v->whole == MAP_FAILED)
		return -1;
	v->threads_offset = v->hdr->threads_offset;
	v->region_size = UST_TBUF_REGION_SIZE(v->subbuf_size, v->subbuf_count);
	return 0;
}

static int shm_find(struct shm_view *v)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long start = 0, end = 0;
	char line[512];

	/* The mapping of offset 0 (libust also maps thread buffers alone). */
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long off = 1;

		if (strstr(line, "memfd:ust-trace") &&
		    sscanf(line, "%lx-%lx %*s %lx", &start, &end, &off) == 3 && off == 0)
			break;
		start = end = 0;
	}
	if (f)
		fclose(f);
	if (!start)
		return -1;
	/* Read the layout once, before anything is broken. */
	v->base = (uint8_t *)start;
	v->size = end - start;
	v->hdr = (struct ust_shm_header *)v->base;
	v->chan = (struct ust_shm_channel *)(v->base + v->hdr->channels_offset);
	v->bufs = (struct ust_shm_buf *)(v->base + v->chan->bufs_offset);
	v->data = v->base + v->chan->data_offset;
	v->meta_offset = v->hdr->meta_offset;
	v->meta_size = v->hdr->meta_size;
	v->nr_cpus = v->hdr->nr_cpus;
	v->subbuf_size = v->chan->subbuf_size;
	v->subbuf_count = v->chan->subbuf_count;
	v->per_thread = !!(v->chan->flags & UST_CHAN_PER_THREAD);
	return v->per_thread ? shm_map_threads(v) : 0;
}

/* Thread region `i`, when it lies inside the file now; else NULL. */
static struct ust_shm_tbuf *region_of(const struct shm_view *v, uint64_t i)
{
	uint64_t off = v->threads_offset + i * v->region_size;
	struct stat st;

	if (off + v->region_size > THREAD_AREA_MAX || fstat(v->fd, &st) ||
	    off + v->region_size > (uint64_t)st.st_size)
		return NULL;
	return (struct ust_shm_tbuf *)(v->whole + off);
}

/* How many regions to pick from: libust's count as we last trusted it. */
static uint64_t regions_seen(const struct shm_view *v)
{
	static uint64_t seen;
	uint64_t n = __atomic_load_n(&v->hdr->threads_published, __ATOMIC_ACQUIRE);

	/* The count may be one of our own scribbles: believe small steps. */
	if (n > seen && n <= seen + 64)
		seen = n;
	return seen;
}

static uint64_t rnd64(unsigned int *seed)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v = v << 16 ^ (uint64_t)(rand_r(seed) & 0xffff);
	return v;
}

/* A nasty value for a 64-bit offset or count that holds `cur`. */
static uint64_t nasty(unsigned int *seed, uint64_t cur, uint32_t unit)
{
	switch (rand_r(seed) % 6) {
	case 0: return 0;
	case 1: return UINT64_MAX - (uint64_t)(rand_r(seed) % 4096);
	case 2: return cur + (uint64_t)unit * (1 + rand_r(seed) % 64);
	case 3: return cur - (uint64_t)(rand_r(seed) % (unit ? unit : 1));
	case 4: return cur ^ (1ull << (rand_r(seed) % 64));
	default: return rnd64(seed);
	}
}

static const char *const act_names[] = {
	"header", "channel", "name", "commit", "consumed", "lost",
	"packet-header", "records", "metadata",
	/* per-thread channels only: */
	"thread-state", "thread-count", "published",
};
#define NR_ACTS (sizeof(act_names) / sizeof(act_names[0]))
static unsigned long acts[NR_ACTS];

static uint8_t *slot_of(const struct shm_view *v, uint32_t cpu, uint32_t n)
{
	return v->data + ((uint64_t)cpu * v->subbuf_count + n) * v->subbuf_size;
}

static void scribble(uint8_t *p, size_t len, unsigned int *seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		__atomic_store_n(&p[i], (uint8_t)rand_r(seed), __ATOMIC_RELAXED);
}

/* The writers update these words atomically: so do we (no ordering). */
static uint64_t get64(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static void put64(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/*
 * A per-thread channel's buffer to break: a region's control block and
 * one of its slots, or NULL when no region is there yet.  Its own acts
 * (state, record counts, the published count) are done here.
 */
static struct ust_shm_buf *thread_target(const struct shm_view *v, unsigned int *seed,
					 unsigned int a, uint8_t **slot)
{
	uint64_t nr = regions_seen(v);
	struct ust_shm_tbuf *t = nr ? region_of(v, (uint64_t)rand_r(seed) % nr) : NULL;

	if (!t)
		return NULL;
	*slot = (uint8_t *)t + UST_TBUF_CTL_SIZE +
		(uint64_t)(rand_r(seed) % v->subbuf_count) * v->subbuf_size;
	if (a == 9)
		__atomic_store_n(&t->state, rand_r(seed) % 2 ? (uint32_t)rand_r(seed) % 6 :
				 (uint32_t)rand_r(seed), __ATOMIC_RELAXED);
	else if (a == 10)
		__atomic_store_n(&t->records[rand_r(seed) % v->subbuf_count],
				 (uint32_t)nasty(seed, t->records[0], 1), __ATOMIC_RELAXED);
	else if (a == 11)
		put64(&v->hdr->threads_published,
		      nasty(seed, get64(&v->hdr->threads_published), 1));
	return &t->buf;
}

static void vandal_act(const struct shm_view *v, unsigned int *seed)
{
	unsigned int a = (unsigned int)rand_r(seed) % (v->per_thread ? NR_ACTS : 9);
	uint32_t cpu = (uint32_t)rand_r(seed) % v->nr_cpus;
	struct ust_shm_buf *b = v->per_thread ? NULL : &v->bufs[cpu];
	uint8_t *slot = v->per_thread ? NULL :
			slot_of(v, cpu, (uint32_t)rand_r(seed) % v->subbuf_count);

	if (v->per_thread && !(b = thread_target(v, seed, a, &slot)))
		return;		/* no thread buffer yet */

	acts[a]++;
	switch (a) {
	case 0:	/* anything in the header page's fixed part */
		scribble((uint8_t *)v->hdr + rand_r(seed) % sizeof(*v->hdr),
			 1 + rand_r(seed) % 8, seed);
		break;
	case 1:
		scribble((uint8_t *)v->chan + rand_r(seed) % sizeof(*v->chan),
			 1 + rand_r(seed) % 8, seed);
		break;
	case 2:	/* a stream file name that leaves the trace directory */
		memcpy(v->chan->name, "../../escaped", 14);
		break;
	case 3:
		put64(&b->commit.offset, nasty(seed, get64(&b->commit.offset), v->subbuf_size));
		break;
	case 4:
		put64(&b->consumed, nasty(seed, get64(&b->consumed), v->subbuf_size));
		break;
	case 5:
		put64(rand_r(seed) % 2 ? &b->lost_full : &b->lost_big,
		      nasty(seed, get64(&b->lost_full), 1));
		break;
	case 6:
		scribble(slot + rand_r(seed) % sizeof(struct ust_packet_header),
			 1 + rand_r(seed) % 8, seed);
		break;
	case 7:
		scribble(slot + rand_r(seed) % v->subbuf_size, 1 + rand_r(seed) % 16, seed);
		break;
	case 9:
	case 10:
	case 11:
		break;		/* done by thread_target() */
	default:
		scribble(v->base + v->meta_offset + rand_r(seed) % v->meta_size,
			 1 + rand_r(seed) % 16, seed);
		break;
	}
}

static int consumer_live(const struct shm_view *v)
{
	uint32_t cpu;
	uint64_t i;

	for (i = 0; v->per_thread && i < regions_seen(v); i++) {
		struct ust_shm_tbuf *t = region_of(v, i);

		if (t && __atomic_load_n(&t->buf.consumed, __ATOMIC_ACQUIRE))
			return 1;
	}
	for (cpu = 0; !v->per_thread && cpu < v->nr_cpus; cpu++) {
		if (__atomic_load_n(&v->bufs[cpu].consumed, __ATOMIC_ACQUIRE))
			return 1;
	}
	return 0;
}

static void *vandal(void *arg)
{
	struct shm_view *v = arg;
	unsigned int seed = (unsigned int)o.seed;
	struct timespec pause = { 0, 1000000 };

	/*
	 * Corrupt a live session only: wait until the consumer released a
	 * sub-buffer (it validated the memory and is draining it).
	 */
	while (!consumer_live(v) && !__atomic_load_n(&stop, __ATOMIC_RELAXED))
		nanosleep(&pause, NULL);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		vandal_act(v, &seed);
		nanosleep(&pause, NULL);
	}
	return NULL;
}

/* Once the workers are done: break every buffer's open packet. */
static void break_open_packets(const struct shm_view *v)
{
	uint32_t cpu;
	uint64_t i;

	for (i = 0; v->per_thread && i < regions_seen(v); i++) {
		struct ust_shm_tbuf *t = region_of(v, i);
		uint64_t off;

		if (!t)
			continue;
		off = get64(&t->buf.commit.offset);
		__atomic_store_n((uint32_t *)((uint8_t *)t + UST_TBUF_CTL_SIZE +
					      (off / v->subbuf_size % v->subbuf_count) *
					      v->subbuf_size),
				 0xbadc0de5u, __ATOMIC_RELAXED);
	}
	if (v->per_thread)
		return;

	for (cpu = 0; cpu < v->nr_cpus; cpu++) {
		uint64_t off = get64(&v->bufs[cpu].commit.offset);
		uint8_t *slot = slot_of(v, cpu, (uint32_t)((off / v->subbuf_size) %
							   v->subbuf_count));

		__atomic_store_n((uint32_t *)slot, 0xbadc0de5u, __ATOMIC_RELAXED);
	}
}

static void print_acts(void)
{
	unsigned int i;

	printf("seed=%lu acts:", o.seed);
	for (i = 0; i < NR_ACTS; i++)
		printf(" %s=%lu", act_names[i], acts[i]);
	printf("\n");
}

/* --- main ------------------------------------------------------------ */

/* -g FILE: until FILE exists, 60 s at most. */
static void wait_gate(void)
{
	unsigned int i;

	for (i = 0; i < 6000 && access(o.gate, F_OK); i++)
		sleep_ms(10);
}

static void run_workers(void)
{
	pthread_t th[MAX_THREADS], vth;
	int hostile = !strcmp(o.mode, "hostile");
	struct shm_view v;
	unsigned int i;

	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	for (i = 0; i < o.threads; i++) {
		if (pthread_create(&th[i], NULL, worker, (void *)(uintptr_t)i)) {
			fprintf(stderr, "storm: pthread_create failed\n");
			exit(1);
		}
	}
	if (hostile) {
		sleep_ms(5);	/* every event class is registered by now */
		if (shm_find(&v)) {
			fprintf(stderr, "storm: no ust-trace mapping\n");
			exit(1);
		}
		pthread_create(&vth, NULL, vandal, &v);
	}
	if (!strcmp(o.mode, "churn"))
		churn_load();
	else if (!strcmp(o.mode, "fork"))
		fork_load();
	if (o.duration_ms)
		sleep_ms(o.duration_ms);
	if (o.gate)
		wait_gate();
	/* Without -n: the workers run until the load, -d or -g is over
	 * (crash: forever, it waits for its SIGKILL). */
	if (!o.events && (o.duration_ms || o.gate || strcmp(o.mode, "crash")))
		__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < o.threads; i++)
		pthread_join(th[i], NULL);
	if (hostile) {
		__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
		pthread_join(vth, NULL);
		break_open_packets(&v);
		print_acts();
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: storm crash|signal|churn|fork|hostile [-t N] [-n N] [-d MS] "
		"[-g FILE] [-r RATE] [-y] [-s] [-p FILE] [-L DIR] [-c N] [-k N] [-S SEED]\n");
	exit(2);
}

static void parse_args(int argc, char **argv)
{
	int opt;

	if (argc < 2)
		usage();
	o.mode = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "t:n:d:g:r:ysp:L:c:k:S:")) != -1) {
		switch (opt) {
		case 't': o.threads = (unsigned int)atoi(optarg); break;
		case 'n': o.events = strtoull(optarg, NULL, 10); break;
		case 'd': o.duration_ms = (unsigned int)atoi(optarg); break;
		case 'g': o.gate = optarg; break;
		case 'r': o.rate = strtoull(optarg, NULL, 10); break;
		case 'y': o.spin = 1; break;
		case 's': o.text = 1; break;
		case 'p': progress = progress_map(optarg); break;
		case 'L': o.ledger_dir = optarg; break;
		case 'c': o.count = (unsigned int)atoi(optarg); break;
		case 'k': o.child_events = strtoull(optarg, NULL, 10); break;
		case 'S': o.seed = strtoul(optarg, NULL, 10); break;
		default: usage();
		}
	}
	if (o.threads < 1 || o.threads > MAX_THREADS || o.count > MAX_CHURN)
		usage();
	if (strcmp(o.mode, "crash") && strcmp(o.mode, "signal") &&
	    strcmp(o.mode, "churn") && strcmp(o.mode, "fork") &&
	    strcmp(o.mode, "exec") && strcmp(o.mode, "hostile"))
		usage();
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	uint64_t start, total = 0, h = 0;
	unsigned int t;

	parse_args(argc, argv);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_timer;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGRTMIN, &sa, NULL);

	start = now_ns();
	run_workers();
	for (t = 0; t < o.threads; t++) {
		total += ticks[t];
		h += handlers[t];
	}
	write_ledger();
	printf("mode=%s ticks=%llu handlers=%llu nested=%llu elapsed_ms=%llu",
	       o.mode, (unsigned long long)total, (unsigned long long)h,
	       (unsigned long long)__atomic_load_n(&nested_total, __ATOMIC_RELAXED),
	       (unsigned long long)((now_ns() - start) / 1000000));
	if (h)
		printf(" signal_rate_hz=%llu timer_overruns=%llu",
		       (unsigned long long)(h * 1000000000ull / (now_ns() - start)),
		       (unsigned long long)__atomic_load_n(&overruns, __ATOMIC_RELAXED));
	printf("\n");
	return 0;
}
