/*
 * session.c - start-up, the shared mapping, the companion consumer, fork.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Without UST_TRACE the constructor returns after one getenv(): no file,
 * thread, process or mapping.  With it, the constructor lays out a memfd
 * (abi/shm.h), opens packet 0 of every buffer, starts
 * ust-consumerd as a sibling of the program (clone with CLONE_PARENT:
 * never a child the program could wait() for, and nothing to wait for;
 * spawn_consumer() says when it detaches with a double fork instead),
 * and publishes the session.  A fork child gets its own
 * session and consumer from the pthread_atfork child handler; exec starts
 * afresh because every descriptor is close-on-exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <ust/ust.h>

#include "abi/consumerd.h"
#include "abi/env.h"
#include "session.h"
#include "statedump.h"
#include "threadbuf.h"
#include "untraced.h"

extern char **environ;

struct ust_session *ust__session_current;

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static uint32_t possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	unsigned int lo, hi = 0;
	char sep;
	int n = 0;

	if (f) {
		/* "0-N", "0", or a list such as "0-3,8-11": the last max. */
		while (fscanf(f, "%u%c", &lo, &sep) >= 1) {
			hi = lo > hi ? lo : hi;
			n++;
			if (sep == '\n')
				break;
		}
		fclose(f);
	}
	if (!n) {
		long c = sysconf(_SC_NPROCESSORS_CONF);

		return c > 0 && c < UST_MAX_CPUS ? (uint32_t)c : 1;
	}
	return hi + 1 < UST_MAX_CPUS ? hi + 1 : UST_MAX_CPUS;
}

static void make_uuid(uint8_t uuid[16])
{
	if (getrandom(uuid, 16, GRND_NONBLOCK) != 16) {
		uint64_t a = ust__clock_read(UST_CLOCK_MONOTONIC) ^
			     ((uint64_t)getpid() << 32);
		uint64_t b = (uint64_t)(uintptr_t)uuid ^ a * 0x9e3779b97f4a7c15ull;

		memcpy(uuid, &a, 8);
		memcpy(uuid + 8, &b, 8);
	}
	uuid[6] = (uuid[6] & 0x0f) | 0x40;	/* version 4 */
	uuid[8] = (uuid[8] & 0x3f) | 0x80;	/* RFC 4122 variant */
}

/*
 * A new session's ctx_gen (session.h): unique in the high 32 bits.  Only
 * the constructor and a fork child's single thread create sessions.
 */
static uint64_t next_ctx_generation(void)
{
	static uint64_t sessions;

	return ++sessions << 32;
}

/* The channels of a session: the events', and in flight mode the state's. */
static uint32_t plan_channels(struct ust_shm_channel *c,
			      const struct ust_config *cfg)
{
	snprintf(c[0].name, sizeof(c[0].name), "ust");
	c[0].stream_id = 0;
	c[0].mode = cfg->mode;
	c[0].subbuf_size = cfg->subbuf_size;
	c[0].subbuf_count = cfg->subbuf_count;
	c[0].event_context = cfg->event_context;
	c[0].flags = cfg->per_thread ? UST_CHAN_PER_THREAD : 0;
	if (cfg->mode != UST_MODE_FLIGHT)
		return 1;
	snprintf(c[1].name, sizeof(c[1].name), "state");
	c[1].stream_id = 1;
	c[1].mode = UST_MODE_DISCARD;
	c[1].subbuf_size = UST_STATE_SUBBUF_SIZE;
	c[1].subbuf_count = UST_STATE_SUBBUF_COUNT;
	/* Few events: they keep the thread id whatever else is chosen. */
	c[1].event_context = cfg->event_context | UST_CTX_VTID;
	return 2;
}

/* Compute every offset of the mapping; returns its total size. */
static uint64_t plan_layout(struct ust_shm_header *h,
			    struct ust_shm_channel *c, uint32_t nr_channels,
			    uint32_t nr_cpus)
{
	uint64_t off;
	uint32_t i;

	h->channels_offset = sizeof(*h);
	off = align_up(h->channels_offset + nr_channels * sizeof(*c), 64);
	for (i = 0; i < nr_channels; i++) {
		if (c[i].flags & UST_CHAN_PER_THREAD)
			continue;	/* its buffers are the threads' (I14) */
		c[i].bufs_offset = off;
		off += (uint64_t)nr_cpus * sizeof(struct ust_shm_buf);
	}
	h->meta_offset = align_up(off, UST_SHM_PAGE);
	h->meta_size = UST_META_SIZE;
	h->ctl_offset = align_up(h->meta_offset + h->meta_size, UST_SHM_PAGE);
	h->ctl_size = sizeof(struct ust_ctl_area);
	off = align_up(h->ctl_offset + h->ctl_size, UST_SHM_PAGE);
	for (i = 0; i < nr_channels; i++) {
		if (c[i].flags & UST_CHAN_PER_THREAD) {
			h->threads_offset = off;	/* page aligned */
			continue;
		}
		c[i].data_offset = off;
		off += (uint64_t)nr_cpus * c[i].subbuf_size * c[i].subbuf_count;
	}
	return off;
}

static void fill_header(struct ust_shm_header *h, const struct ust_config *cfg,
			uint32_t nr_cpus, uint32_t nr_channels,
			uint64_t total, const uint8_t uuid[16])
{
	h->magic = UST_SHM_MAGIC;
	h->version = UST_SHM_VERSION;
	h->total_size = total;
	h->nr_cpus = nr_cpus;
	h->nr_channels = nr_channels;
	h->pid = getpid();
	h->clock_kind = cfg->clock_kind;
	prctl(PR_GET_NAME, h->procname);
	h->procname[sizeof(h->procname) - 1] = '\0';
	memcpy(h->trace_uuid, uuid, 16);
}

static void init_channel(struct ust_session *s, uint32_t i,
			 const struct ust_shm_channel *c)
{
	struct ust_channel *ch = &s->chan[i];
	uint64_t now = ust__clock_read(s->clock_kind);
	uint32_t cpu;

	ch->ctx_set = c->event_context;
	ch->ctx_size = (uint32_t)ctf_ev_context_size(c->event_context);
	ch->ctx_img_size = (uint32_t)ctf_ev_context_image_size(c->event_context);
	s->ctx_union |= c->event_context;

	ch->subbuf_size = c->subbuf_size;
	ch->buf_size = (uint64_t)c->subbuf_size * c->subbuf_count;
	ch->mode = c->mode;
	ch->stream_id = c->stream_id;
	if (c->flags & UST_CHAN_PER_THREAD) {
		ch->per_thread = 1;	/* threadbuf.c: no per-CPU buffer */
		return;
	}
	ch->bufs = (struct ust_shm_buf *)((uint8_t *)s->base + c->bufs_offset);
	ch->data = (uint8_t *)s->base + c->data_offset;
	for (cpu = 0; cpu < s->nr_cpus; cpu++)
		ust__ringbuf_init_buffer(s, ch, cpu, now);
}

/*
 * Create the mapping and initialise it.  The memfd is returned in `fd`
 * for the consumer; ust__session_create() then keeps it in s->shm_fd.
 */
struct ust_session *ust__session_map(const struct ust_config *cfg, int *fd)
{
	struct ust_shm_header h;
	struct ust_shm_channel c[UST_MAX_SESSION_CHANNELS];
	uint32_t nr_cpus = possible_cpus(), nr_channels, i;
	struct ust_session *s;
	uint64_t total;
	void *base;

	memset(&h, 0, sizeof(h));
	memset(c, 0, sizeof(c));
	nr_channels = plan_channels(c, cfg);
	total = plan_layout(&h, c, nr_channels, nr_cpus);

	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	*fd = memfd_create(UST_SHM_MEMFD_NAME, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (*fd < 0)
		goto err_free;
	if (ftruncate(*fd, (off_t)total) < 0)
		goto err_close;
	base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (base == MAP_FAILED)
		goto err_close;

	s->base = base;
	s->size = total;
	s->shm_fd = -1;
	s->hdr = base;
	s->ctl = (struct ust_ctl_area *)((uint8_t *)base + h.ctl_offset);
	s->nr_cpus = nr_cpus;
	s->pid = getpid();
	s->clock_kind = cfg->clock_kind;
	s->nr_channels = nr_channels;
	s->state_chan = nr_channels - 1;
	s->vpid = getpid();
	s->ctx_gen = next_ctx_generation();
	make_uuid(s->uuid);
	fill_header(&h, cfg, nr_cpus, nr_channels, total, s->uuid);
	memcpy((uint8_t *)base + h.channels_offset, c, nr_channels * sizeof(c[0]));
	for (i = 0; i < nr_channels; i++)
		init_channel(s, i, &c[i]);
	s->chan[0].blocking = cfg->blocking;
	/* The state channel loses nothing while the consumer keeps up. */
	s->chan[s->state_chan].blocking |= s->state_chan != 0;
	s->wake_fd = -1;
	if (s->chan[0].per_thread && ust__threads_init(s, h.threads_offset))
		goto err_unmap;
	/* The header goes last: a consumer that checks the magic sees the rest. */
	memcpy(base, &h, sizeof(h));
	return s;

err_unmap:
	munmap(base, total);
err_close:
	close(*fd);
err_free:
	free(s);
	return NULL;
}

void ust__session_destroy(struct ust_session *s)
{
	if (!s)
		return;
	ust__threads_release(s);
	munmap(s->base, s->size);
	if (s->shm_fd >= 0)
		close(s->shm_fd);
	if (s->wake_fd >= 0)
		close(s->wake_fd);
	free(s);
}

/* Which descriptors the consumer gets besides the memfd. */
struct consumer_fds {
	bool pid;	/* a pidfd of ours, else it opens one from --pid */
	bool wake;	/* our eventfd (I16) */
};

/*
 * The consumer's argument vector; strings live in `store`.  `detached`:
 * it was started as our sibling and must not fork again.
 */
static void consumer_args(char *argv[], char store[][32],
			  const struct ust_config *cfg, bool detached,
			  struct consumer_fds fds)
{
	int n = 0;

	argv[n++] = (char *)UST_CONSUMERD_NAME;
	argv[n++] = (char *)"--" UST_CONSUMERD_OPT_SHM_FD;
	argv[n++] = (char *)UST_CONSUMERD_STR(UST_CONSUMERD_SHM_FD);
	if (fds.pid) {
		argv[n++] = (char *)"--" UST_CONSUMERD_OPT_PID_FD;
		argv[n++] = (char *)UST_CONSUMERD_STR(UST_CONSUMERD_PID_FD);
	}
	argv[n++] = (char *)"--" UST_CONSUMERD_OPT_PID;
	snprintf(store[0], 32, "%d", (int)getpid());
	argv[n++] = store[0];
	argv[n++] = (char *)"--" UST_CONSUMERD_OPT_OUTPUT;
	argv[n++] = cfg->output;
	argv[n++] = (char *)"--" UST_CONSUMERD_OPT_READ_TIMER;
	snprintf(store[1], 32, "%u", cfg->read_timer_us);
	argv[n++] = store[1];
	if (cfg->session_clock) {
		argv[n++] = (char *)"--" UST_CONSUMERD_OPT_CLOCK;
		argv[n++] = cfg->session_clock;
	}
	if (cfg->summary_dir) {
		argv[n++] = (char *)"--" UST_CONSUMERD_OPT_SUMMARY_DIR;
		argv[n++] = cfg->summary_dir;
	}
	if (fds.wake)
		argv[n++] = (char *)"--" UST_CONSUMERD_OPT_WAKE_FD "="
			    UST_CONSUMERD_STR(UST_CONSUMERD_WAKE_FD);
	if (detached)
		argv[n++] = (char *)"--" UST_CONSUMERD_OPT_FOREGROUND;
	argv[n] = NULL;
}

static int spawn_attrs(posix_spawnattr_t *attr, posix_spawn_file_actions_t *fa,
		       int shm_fd, int pid_fd, int wake_fd)
{
	sigset_t none, all;

	sigemptyset(&none);
	sigfillset(&all);
	if (posix_spawnattr_init(attr))
		return -1;
	/* The program's signal mask and handlers are not the consumer's. */
	posix_spawnattr_setsigmask(attr, &none);
	posix_spawnattr_setsigdefault(attr, &all);
	posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETSIGDEF);
	if (posix_spawn_file_actions_init(fa))
		return -1;
	posix_spawn_file_actions_adddup2(fa, shm_fd, UST_CONSUMERD_SHM_FD);
	if (pid_fd >= 0)
		posix_spawn_file_actions_adddup2(fa, pid_fd, UST_CONSUMERD_PID_FD);
	if (wake_fd >= 0)
		posix_spawn_file_actions_adddup2(fa, wake_fd, UST_CONSUMERD_WAKE_FD);
	return 0;
}

/*
 * The consumer's environment: ours without UST_TRACE, so that a consumer
 * started with libust preloaded (LD_PRELOAD=libust-cyg-profile.so is
 * inherited) never traces itself and starts a consumer of its own.
 * Returns a malloc'd vector of our strings, or NULL.
 */
static char **consumer_environ(void)
{
	size_t n = 0, kept = 0, i;
	char **env;

	while (environ[n])
		n++;
	env = malloc((n + 1) * sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0; i < n; i++) {
		if (strncmp(environ[i], UST_ENV_TRACE "=", sizeof(UST_ENV_TRACE)))
			env[kept++] = environ[i];
	}
	env[kept] = NULL;
	return env;
}

/*
 * What the child of spawn_sibling() needs, prepared before clone() and
 * only read by it; `err` is its report if execve() fails.
 */
struct sibling_spawn {
	const char *path;
	char **argv, **env;
	int shm_fd;
	int pid_fd, wake_fd;	/* > UST_CONSUMERD_WAKE_FD: moving shm_fd cannot clobber them */
	volatile int err;
};

/* dup2 `fd` to `to`, and clear close-on-exec also when they are equal. */
static long child_dup(int fd, int to)
{
	if (fd == to)
		return syscall(SYS_fcntl, fd, F_SETFD, 0);
	return syscall(SYS_dup2, fd, to);
}

/*
 * The child of clone(CLONE_VM | CLONE_VFORK): it runs in our memory, on
 * its own stack, while we are suspended, so it makes only raw system
 * calls and keeps every signal blocked (no handler of the program may run
 * here).  The consumer sets its own mask and handlers first thing.
 */
static int sibling_child(void *arg)
{
	struct sibling_spawn *sp = arg;
	long ret;

	ret = child_dup(sp->shm_fd, UST_CONSUMERD_SHM_FD);
	if (ret >= 0 && sp->pid_fd >= 0)
		ret = child_dup(sp->pid_fd, UST_CONSUMERD_PID_FD);
	if (ret >= 0 && sp->wake_fd >= 0)
		ret = child_dup(sp->wake_fd, UST_CONSUMERD_WAKE_FD);
	if (ret >= 0)
		ret = syscall(SYS_setsid);
	if (ret >= 0)
		ret = syscall(SYS_execve, sp->path, sp->argv, sp->env);
	/* The raw syscall() returned -1 and set errno in our shared TLS. */
	sp->err = errno;
	syscall(SYS_exit, 127);
	return 127;
}

/*
 * Start the consumer as our sibling: CLONE_PARENT makes it a child of our
 * parent, so it is never a child the program could wait() for, and
 * nothing here waits for a process to exit (the double fork below costs
 * a whole exec, fork and exit on the program's start-up: about 0.6 ms
 * here, bench/README.md).  Returns 0, or -errno; -EINVAL when the kernel
 * refuses CLONE_PARENT (we are the init of a PID namespace).
 */
static int spawn_sibling(struct sibling_spawn *sp)
{
	const size_t stack_size = 64 * 1024;
	sigset_t all, old;
	void *stack;
	pid_t pid;
	int err;

	stack = mmap(NULL, stack_size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return -errno;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	sp->err = 0;
	pid = clone(sibling_child, (uint8_t *)stack + stack_size,
		    CLONE_VM | CLONE_VFORK | CLONE_PARENT | SIGCHLD, sp);
	err = pid < 0 ? errno : sp->err;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	munmap(stack, stack_size);
	return -err;
}

/*
 * The fallback, and what a fork child uses (its consumer must not become
 * a child of the process that forked it): posix_spawn; the consumer forks
 * once more and the process we started exits at once; we reap it here,
 * so the program never sees a child it did not create.
 */
static int spawn_detaching(const char *path, char **argv, char **env,
			   int shm_fd, int pid_fd, int wake_fd)
{
	posix_spawnattr_t attr;
	posix_spawn_file_actions_t fa;
	int ret, status;
	pid_t pid;

	ret = spawn_attrs(&attr, &fa, shm_fd, pid_fd, wake_fd);
	if (!ret)
		ret = -posix_spawn(&pid, path, &fa, &attr, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (ret)
		return ret;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return 0;
}

/*
 * `fd` numbered above the consumer's descriptors (see struct
 * sibling_spawn); -errno when `fd` is.
 */
static int fd_above_consumer_fds(int fd)
{
	int moved;

	if (fd < 0 || fd > UST_CONSUMERD_WAKE_FD)
		return fd < 0 ? -errno : fd;
	moved = fcntl(fd, F_DUPFD_CLOEXEC, UST_CONSUMERD_WAKE_FD + 1);
	close(fd);
	return moved < 0 ? -errno : moved;
}

/* A pidfd on ourselves for the consumer. */
static int own_pidfd(void)
{
	return fd_above_consumer_fds((int)syscall(SYS_pidfd_open, getpid(), 0));
}

/*
 * Start the consumer on `shm_fd`: as our sibling at process start
 * (`sibling`), else, or when the kernel refuses that, detaching.
 */
static int spawn_consumer(const struct ust_config *cfg, int shm_fd,
			  int wake_fd, bool sibling)
{
	char *argv[18], store[2][32], **env = consumer_environ();
	struct consumer_fds fds;
	struct sibling_spawn sp;
	int pid_fd, ret = -EINVAL;

	if (!env)
		return -ENOMEM;
	pid_fd = own_pidfd();
	/*
	 * Without pidfd_open (valgrind does not know it), the consumer
	 * opens one from --pid itself.
	 */
	if (pid_fd == -ENOSYS) {
		pid_fd = -1;
	} else if (pid_fd < 0) {
		free(env);
		return pid_fd;
	}
	fds = (struct consumer_fds){ .pid = pid_fd >= 0, .wake = wake_fd >= 0 };
	consumer_args(argv, store, cfg, sibling, fds);
	if (sibling) {
		sp = (struct sibling_spawn){ .path = cfg->consumerd, .argv = argv,
					     .env = env, .shm_fd = shm_fd,
					     .pid_fd = pid_fd, .wake_fd = wake_fd };
		ret = spawn_sibling(&sp);
	}
	if (ret == -EINVAL) {
		consumer_args(argv, store, cfg, false, fds);
		ret = spawn_detaching(cfg->consumerd, argv, env, shm_fd, pid_fd,
				      wake_fd);
	}
	free(env);
	if (pid_fd >= 0)
		close(pid_fd);
	return ret;
}

/* Tracing is off for this process: say why, here and to ust record. */
static struct ust_session *session_failed(const struct ust_config *cfg,
					  const char *why)
{
	fprintf(stderr, "ust: %s; tracing disabled\n", why);
	ust__untraced_report(cfg->summary_dir, why);
	return NULL;
}

struct ust_session *ust__session_create(const struct ust_config *cfg,
				       bool sibling)
{
	struct ust_session *s;
	char why[512];
	int fd = -1, ret;

	s = ust__session_map(cfg, &fd);
	if (!s) {
		snprintf(why, sizeof(why), "cannot create the trace buffers: %s",
			 strerror(errno));
		return session_failed(cfg, why);
	}
	/* Blocked writers ring it (I16); without it the consumer only polls. */
	if (cfg->blocking)
		s->wake_fd = fd_above_consumer_fds(eventfd(0, EFD_NONBLOCK |
							   EFD_CLOEXEC));
	if (s->wake_fd < -1)
		s->wake_fd = -1;
	ret = spawn_consumer(cfg, fd, s->wake_fd, sibling);
	/*
	 * Kept open (close-on-exec): `ust snapshot`, `ust ctl` and `ust
	 * list PID` find the shared memory through /proc/PID/fd
	 * (shm/attach.c); `ust ctl` also locks it (registry.c).
	 */
	s->shm_fd = fd;
	if (ret) {
		snprintf(why, sizeof(why), "cannot start '%s': %s",
			 cfg->consumerd, strerror(-ret));
		ust__session_destroy(s);
		return session_failed(cfg, why);
	}
	return s;
}

/* Make `s` the session writers use; NULL stops tracing. */
void ust__session_publish(struct ust_session *s)
{
	/*
	 * Release: the mapping's initialisation (every buffer's packet 0,
	 * the channel table) before the pointer.  Partner: the writers'
	 * acquire load (ringbuf.c, flight.c, registry.c).
	 */
	__atomic_store_n(&ust__session_current, s, __ATOMIC_RELEASE);
	if (s) {
		ust__registry_session_started(s);
		ust__statedump_run();
		ust__flight_session_started(s);
	}
}

static void atfork_prepare(void)
{
	ust__registry_lock();
}

static void atfork_parent(void)
{
	ust__registry_unlock();
}

/*
 * The child must not write into its parent's buffers: forget them, then
 * give the child a session and consumer of its own.
 */
static void atfork_child(void)
{
	struct ust_session *old = ust__session_current, *s;

	/* Relaxed: the child has one thread; NULL publishes nothing. */
	__atomic_store_n(&ust__session_current, NULL, __ATOMIC_RELAXED);
	ust__thread_forget();
	ust__threads_forget();
	ust__registry_unlock();
	ust__statedump_atfork_child();
	s = ust__session_create(&ust__config, false);
	if (s && old)
		ust__registry_inherit_control(s, old);	/* `ust ctl` state */
	ust__session_destroy(old);
	ust__session_publish(s);
}

UST_EXPORT int ust_tracing_active(void)
{
	/* Relaxed: a yes or no; nothing is read through the pointer. */
	return __atomic_load_n(&ust__session_current, __ATOMIC_RELAXED) != NULL;
}

static void __attribute__((constructor)) ust_init(void)
{
	if (ust__config_load(&ust__config))
		return;
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
	ust__session_publish(ust__session_create(&ust__config, true));
	/* Call sites are addresses: describe the objects they are in. */
	if (ust__config.event_context & UST_CTX_IP)
		ust_statedump_enable();
}
