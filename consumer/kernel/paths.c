/*
 * paths.c - the file names of open(), openat(), openat2() and creat(),
 * which ftrace's system call events carry as bare user pointers.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * lttng-modules copies a system call's path argument into its
 * syscall_entry_* event; ftrace records the pointer only.  The bridge
 * attaches a small BPF program (hand-assembled below, no compiler
 * needed) to the same tracepoints: at each call it copies the string
 * from the caller's memory with bpf_probe_read_user_str() into a BPF
 * ring buffer, with the thread and the pointer.  When the bridge
 * converts the ftrace event it takes the string of the same thread and
 * pointer (they were written by the same system call entry, one after
 * the other) and writes it as the event's `filename`, a string, as
 * LTTng does.  A record not there yet gets one more read of the BPF
 * ring; a name still missing (BPF unavailable, ring full, the page not
 * resident) is written "(unavailable)".
 *
 * The BPF ring is read with the acquire/release protocol of the kernel's
 * BPF ring buffer: producer_pos (acquire) pairs with the kernel's
 * release when it reserves, a record's header (acquire) with its submit,
 * and our consumer_pos (release) hands the space back.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <event-parse.h>

#include "kerneld.h"

#define PATH_COPY	((unsigned int)KD_PATH_MAX)	/* bytes copied, NUL included */
#define REC_HDR		16u		/* u32 tid, s32 len, u64 ptr */
#define RING_SIZE	(4u << 20)	/* a power of two, in pages */
#define QUEUE_MAX	65536u		/* names kept per thread, unmatched */
#define TABLE_SIZE	4096u		/* threads with names waiting */
#define UNAVAILABLE	"(unavailable)"

/* The system calls whose path argument is copied, and its field. */
static const char *const path_syscalls[][2] = {
	{ "sys_enter_openat", "filename" },
	{ "sys_enter_open", "filename" },
	{ "sys_enter_openat2", "filename" },
	{ "sys_enter_creat", "pathname" },
};

/* One name copied at a call, waiting for its ftrace event. */
struct path_entry {
	uint64_t ptr;
	uint64_t pass;		/* kd_paths_drain() count when read */
	char *name;
};

/* Names of one thread, oldest first. */
struct path_queue {
	int32_t tid;		/* 0: free slot */
	unsigned int n, cap;
	struct path_entry *e;
};

struct kd_paths {
	int map_fd, prog_fd;
	int *perf_fds;
	unsigned int nr_perf;
	uint64_t *consumer_pos;	/* ours, shared with the kernel */
	const uint64_t *producer_pos;
	const uint8_t *data;	/* mapped twice: records never wrap */
	struct path_queue *table;
	uint64_t pass;
};

static struct bpf_insn insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	return (struct bpf_insn){ .code = code, .dst_reg = dst, .src_reg = src,
				  .off = off, .imm = imm };
}

/*
 * The program, for a tracepoint whose path pointer is at `off` in the
 * record:
 *	r6 = ctx
 *	r0 = ringbuf_reserve(map, REC_HDR + PATH_COPY, 0); if !r0 goto out
 *	r7 = r0
 *	r0 = get_current_pid_tgid(); *(u32 *)(r7 + 0) = r0	(the thread)
 *	r1 = *(u64 *)(r6 + off); *(u64 *)(r7 + 8) = r1		(the pointer)
 *	r0 = probe_read_user_str(r7 + 16, PATH_COPY, r1)
 *	*(u32 *)(r7 + 4) = r0					(length or -errno)
 *	ringbuf_submit(r7, 0)
 * out:	return 0
 */
static size_t program(struct bpf_insn *p, int map_fd, int16_t off)
{
	size_t n = 0;

	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	p[n++] = insn(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map_fd);
	p[n++] = insn(0, 0, 0, 0, 0);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, REC_HDR + PATH_COPY);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, 0);
	p[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_ringbuf_reserve);
	p[n++] = insn(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 13, 0);	/* to out */
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_7, BPF_REG_0, 0, 0);
	p[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_pid_tgid);
	p[n++] = insn(BPF_STX | BPF_MEM | BPF_W, BPF_REG_7, BPF_REG_0, 0, 0);
	p[n++] = insn(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_3, BPF_REG_6, off, 0);
	p[n++] = insn(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_7, BPF_REG_3, 8, 0);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_7, 0, 0);
	p[n++] = insn(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, REC_HDR);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, PATH_COPY);
	p[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_probe_read_user_str);
	p[n++] = insn(BPF_STX | BPF_MEM | BPF_W, BPF_REG_7, BPF_REG_0, 4, 0);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_7, 0, 0);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 0);
	p[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_ringbuf_submit);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);	/* out */
	p[n++] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return n;
}

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return (int)syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int load_program(int map_fd, int16_t off)
{
	struct bpf_insn prog[32];
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_TRACEPOINT;
	a.insns = (uint64_t)(uintptr_t)prog;
	a.insn_cnt = (uint32_t)program(prog, map_fd, off);
	a.license = (uint64_t)(uintptr_t)"GPL";
	return sys_bpf(BPF_PROG_LOAD, &a);
}

static int make_ring(struct kd_paths *p)
{
	long page = sysconf(_SC_PAGESIZE);
	union bpf_attr a;
	void *cons, *prod;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_RINGBUF;
	a.max_entries = RING_SIZE;
	p->map_fd = sys_bpf(BPF_MAP_CREATE, &a);
	if (p->map_fd < 0)
		return -errno;
	cons = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, p->map_fd, 0);
	if (cons == MAP_FAILED)
		return -errno;
	p->consumer_pos = cons;
	prod = mmap(NULL, (size_t)page + 2 * RING_SIZE, PROT_READ, MAP_SHARED, p->map_fd, page);
	if (prod == MAP_FAILED)
		return -errno;
	p->producer_pos = prod;
	p->data = (const uint8_t *)prod + page;
	return 0;
}

/*
 * A perf event on tracepoint `id` running the program.  The program is
 * the tracepoint's (its prog_array), run wherever the tracepoint fires,
 * so one event, on the first CPU that takes it, registers it for all.
 */
static int attach(struct kd_paths *p, struct kerneld *kd, int id, int prog_fd)
{
	struct perf_event_attr pa;
	unsigned int cpu;
	int *fds = realloc(p->perf_fds, (p->nr_perf + 1) * sizeof(*fds));
	int fd = -1;

	if (!fds)
		return -ENOMEM;
	p->perf_fds = fds;
	memset(&pa, 0, sizeof(pa));
	pa.type = PERF_TYPE_TRACEPOINT;
	pa.size = sizeof(pa);
	pa.config = (uint64_t)id;
	pa.sample_period = 1;
	pa.wakeup_events = 1;
	for (cpu = 0; cpu < kd->nr_cpus && fd < 0; cpu++)
		fd = (int)syscall(__NR_perf_event_open, &pa, -1, (int)cpu, -1,
				  PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	p->perf_fds[p->nr_perf++] = fd;
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		return -errno;
	return 0;
}

/* Attach to the path system calls the trace records. */
static int attach_all(struct kd_paths *p, struct kerneld *kd)
{
	size_t i;
	int ret;

	for (i = 0; i < sizeof(path_syscalls) / sizeof(*path_syscalls); i++) {
		struct tep_event *ev = tep_find_event_by_name(kd->tep, "syscalls",
							      path_syscalls[i][0]);
		struct tep_format_field *f = ev ? tep_find_field(ev, path_syscalls[i][1]) : NULL;
		int prog;

		if (!f || f->size != 8 || ev->id < 0 || ev->id > kd->classes.max_id ||
		    !kd->classes.by_id[ev->id])
			continue;
		prog = load_program(p->map_fd, (int16_t)f->offset);
		if (prog < 0)
			return -errno;
		ret = attach(p, kd, ev->id, prog);
		close(prog);	/* the perf events hold it */
		if (ret)
			return ret;
	}
	return 0;
}

void kd_paths_close(struct kerneld *kd)
{
	struct kd_paths *p = kd->paths;
	long page = sysconf(_SC_PAGESIZE);
	unsigned int i, j;

	if (!p)
		return;
	for (i = 0; i < p->nr_perf; i++)
		close(p->perf_fds[i]);
	free(p->perf_fds);
	if (p->consumer_pos)
		munmap(p->consumer_pos, (size_t)page);
	if (p->producer_pos)
		munmap((void *)p->producer_pos, (size_t)page + 2 * RING_SIZE);
	if (p->map_fd >= 0)
		close(p->map_fd);
	for (i = 0; p->table && i < TABLE_SIZE; i++) {
		for (j = 0; j < p->table[i].n; j++)
			free(p->table[i].e[j].name);
		free(p->table[i].e);
	}
	free(p->table);
	free(p);
	kd->paths = NULL;
}

int kd_paths_open(struct kerneld *kd)
{
	struct kd_paths *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return -ENOMEM;
	p->map_fd = -1;
	kd->paths = p;
	p->table = calloc(TABLE_SIZE, sizeof(*p->table));
	ret = p->table ? make_ring(p) : -ENOMEM;
	if (!ret)
		ret = attach_all(p, kd);
	if (ret) {
		fprintf(stderr, "ust record: kernel events: no file names for open() "
			"(BPF: %s); they read \"" UNAVAILABLE "\"\n", strerror(-ret));
		kd_paths_close(kd);
	}
	return 0;	/* the trace goes on without names */
}

static struct path_queue *queue_of(struct kd_paths *p, int32_t tid, bool create)
{
	unsigned int h = (uint32_t)tid * 2654435761u % TABLE_SIZE, i;

	for (i = 0; i < TABLE_SIZE; i++, h = (h + 1) % TABLE_SIZE) {
		struct path_queue *q = &p->table[h];

		if (q->tid == tid)
			return q;
		if (!q->tid)
			break;
	}
	if (!create || i == TABLE_SIZE)
		return NULL;	/* full: this name is lost, not another one */
	p->table[h].tid = tid;
	return &p->table[h];
}

static void queue_drop_front(struct path_queue *q, unsigned int k)
{
	unsigned int j;

	for (j = 0; j < k; j++)
		free(q->e[j].name);
	memmove(q->e, q->e + k, (q->n - k) * sizeof(*q->e));
	q->n -= k;
}

static void queue_push(struct kd_paths *p, int32_t tid, uint64_t ptr, const char *s,
		       int32_t len)
{
	struct path_queue *q = queue_of(p, tid, true);
	struct path_entry *e;

	if (!q)
		return;
	if (q->n == QUEUE_MAX)
		queue_drop_front(q, 1);
	if (q->n == q->cap) {
		e = realloc(q->e, (q->cap ? 2 * q->cap : 16) * sizeof(*e));
		if (!e)
			return;
		q->e = e;
		q->cap = q->cap ? 2 * q->cap : 16;
	}
	q->e[q->n++] = (struct path_entry){ .ptr = ptr, .pass = p->pass,
		.name = len > 1 ? strndup(s, (size_t)len - 1) : strdup(UNAVAILABLE) };
}

/*
 * Names read before the previous pass will never be asked for: their
 * call's ftrace event was converted already, or is not in the trace (a
 * thread outside the traced process tree).
 */
static void forget_old(struct kd_paths *p)
{
	unsigned int i, k;

	for (i = 0; i < TABLE_SIZE; i++) {
		struct path_queue *q = &p->table[i];

		for (k = 0; k < q->n && q->e[k].pass + 1 < p->pass; k++)
			;
		if (k)
			queue_drop_front(q, k);
	}
}

/* Move every submitted record of the BPF ring into the queues. */
static void read_ring(struct kd_paths *p)
{
	/* Pairs with the kernel's release when it reserves a record. */
	uint64_t prod = __atomic_load_n(p->producer_pos, __ATOMIC_ACQUIRE);
	uint64_t cons = *p->consumer_pos;

	while (cons < prod) {
		const uint8_t *rec = p->data + (cons & (RING_SIZE - 1));
		/* Pairs with the kernel's release in bpf_ringbuf_submit(). */
		uint32_t len = __atomic_load_n((const uint32_t *)rec, __ATOMIC_ACQUIRE);
		uint32_t size = len & ~(uint32_t)(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
		int32_t tid, n;
		uint64_t ptr;

		if (len & BPF_RINGBUF_BUSY_BIT)
			break;		/* being written: the next read gets it */
		if (!(len & BPF_RINGBUF_DISCARD_BIT) && size >= REC_HDR) {
			rec += BPF_RINGBUF_HDR_SZ;
			memcpy(&tid, rec, 4);
			memcpy(&n, rec + 4, 4);
			memcpy(&ptr, rec + 8, 8);
			if (n > (int32_t)PATH_COPY)
				n = 0;
			queue_push(p, tid, ptr, (const char *)rec + REC_HDR, n);
		}
		cons += (size + BPF_RINGBUF_HDR_SZ + 7) & ~7ull;
		/* The space back to the kernel, after our reads of it. */
		__atomic_store_n(p->consumer_pos, cons, __ATOMIC_RELEASE);
	}
}

/* The name thread `tid` passed as `ptr`, malloc'ed, or NULL. */
static char *take(struct kd_paths *p, int32_t tid, uint64_t ptr)
{
	struct path_queue *q = queue_of(p, tid, false);
	unsigned int i;
	char *name;

	for (i = 0; q && i < q->n; i++) {
		if (q->e[i].ptr != ptr)
			continue;
		name = q->e[i].name;
		q->e[i].name = NULL;
		queue_drop_front(q, i + 1);	/* older ones will never match */
		return name;
	}
	return NULL;
}

char *kd_paths_take(struct kerneld *kd, int32_t tid, uint64_t ptr)
{
	struct kd_paths *p = kd->paths;
	char *name;

	if (!p)
		return strdup(UNAVAILABLE);
	name = take(p, tid, ptr);
	if (!name) {
		read_ring(p);
		name = take(p, tid, ptr);
	}
	return name ? name : strdup(UNAVAILABLE);
}

bool kd_paths_field(const char *sys, const char *event, const char *field)
{
	size_t i;

	if (strcmp(sys, "syscalls"))
		return false;
	for (i = 0; i < sizeof(path_syscalls) / sizeof(*path_syscalls); i++) {
		if (!strcmp(event, path_syscalls[i][0]) && !strcmp(field, path_syscalls[i][1]))
			return true;
	}
	return false;
}

void kd_paths_drain(struct kerneld *kd)
{
	struct kd_paths *p = kd->paths;

	if (!p)
		return;
	p->pass++;
	/* In flight mode the ftrace events wait for a snapshot: keep all. */
	if (!kd->opts.flight)
		forget_old(p);
	read_ring(p);
}
