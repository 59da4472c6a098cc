/*
 * statedump.c - describe the loaded objects in the trace, so that code
 * addresses (function tracing, call sites) resolve to symbols offline.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Statedumps are for traces that record code addresses: they start when
 * the preload library (cyg-profile.c) calls ust_statedump_enable()
 * (public, <ust/ust.h>) from its constructor, or when the recording asks
 * for the ip context (session.c), so that other traces keep exactly the
 * events their programs emit.  From then on, at each session start (now,
 * and in every fork child) libust walks the loaded objects with
 * dl_iterate_phdr() and records, for each one backed by a file:
 *
 *	lttng_ust_statedump:start
 *	lttng_ust_statedump:procname   {procname[17]}
 *	lttng_ust_statedump:bin_info   {baddr, memsz, path, is_pic,
 *					has_build_id, has_debug_link}
 *	lttng_ust_statedump:build_id   {baddr, build_id[20]}
 *	lttng_ust_statedump:debug_link {baddr, crc, filename}
 *	lttng_ust_statedump:thread_name {tid, name}   (each thread; also
 *					when pthread_setname_np renames one)
 *	lttng_ust_statedump:end
 *
 * Later loads and unloads are found by ust_statedump_dl_sync(), which the
 * preload library (cyg-profile.c) calls after every dlopen()/dlclose() it
 * interposes: it compares the current objects with the ones already
 * described and records lttng_ust_dl:dlopen / build_id / debug_link /
 * dlclose, and lttng_ust_lib:load / build_id / debug_link / unload, as
 * LTTng-UST with liblttng-ust-dl preloaded does.  The names, fields and
 * types are LTTng-UST 2.13's (doc/compatibility.md says what differs and
 * why).  None of this is on a hot path: it allocates, takes a mutex and
 * reads /proc/self/exe.
 */
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ust/tracepoint.h>
#include <ust/ust.h>

#include "builtin.h"
#include "common/fs.h"
#include "session.h"
#include "functions.h"
#include "statedump.h"

#define BUILD_ID_MAX	64	/* longer build-id notes are not recorded */

/*
 * LTTng-UST gives these events no log level, which its metadata writes
 * as 13 (TRACE_DEBUG_LINE, its default): so do we.
 */
#define LTTNG_DEFAULT_LOGLEVEL	13
#define EVENT(var, ev_name, fields, lay)				\
	UST_BUILTIN_EVENT_LEVEL(var, ev_name, LTTNG_DEFAULT_LOGLEVEL,	\
				fields, lay, NULL)

/*
 * The fields of each event are LTTng-UST 2.13's, in its order and with
 * its types (doc/compatibility.md): Trace Compass and babeltrace2's
 * debug-info filter read them by name.
 */
#define BIN_FIELDS \
	UST_TSDL_U64_HEX " _baddr; " UST_TSDL_U64_DEC " _memsz; string _path; "
#define HAS_FIELDS \
	UST_TSDL_U8_DEC " _has_build_id; " UST_TSDL_U8_DEC " _has_debug_link;"
/* A sequence of bytes whose length is a 64-bit integer (a size_t). */
#define BUILD_ID_FIELDS \
	UST_TSDL_U64_HEX " _baddr; " UST_TSDL_U64_DEC " __build_id_length; " \
	UST_TSDL_U8_HEX " _build_id[__build_id_length];"
#define BUILD_ID_LAYOUT "F8 Q8[F1]"
#define DEBUG_LINK_FIELDS \
	UST_TSDL_U64_HEX " _baddr; " UST_TSDL_U32_DEC " _crc; string _filename;"
#define DEBUG_LINK_LAYOUT "F12 S"
#define BADDR_FIELDS UST_TSDL_U64_HEX " _baddr;"

/* lttng_ust_statedump: the objects loaded when a session starts. */
EVENT(ev_start, "start", "", "");
EVENT(ev_procname, "procname",
      UST_TSDL_CHAR_UTF8 " _procname[17];", "F17");
EVENT(ev_bin_info, "bin_info",
      BIN_FIELDS UST_TSDL_U8_DEC " _is_pic; " HAS_FIELDS, "F16 S F3");
EVENT(ev_build_id, "build_id", BUILD_ID_FIELDS, BUILD_ID_LAYOUT);
EVENT(ev_debug_link, "debug_link", DEBUG_LINK_FIELDS, DEBUG_LINK_LAYOUT);
/* Not LTTng's: the name of each thread (its /proc comm) at the dump. */
EVENT(ev_thread_name, "thread_name", UST_TSDL_S32_DEC " _tid; string _name;", "F4 S");
EVENT(ev_end, "end", "", "");

/* lttng_ust_dl: what liblttng-ust-dl records after dlopen and dlclose. */
EVENT(ev_dlopen, "dlopen",
      UST_TSDL_U64_HEX " _baddr; " UST_TSDL_U64_DEC " _memsz; "
      UST_TSDL_S32_HEX " _flags; string _path; " HAS_FIELDS,
      "F20 S F2");
EVENT(ev_dl_build_id, "build_id", BUILD_ID_FIELDS, BUILD_ID_LAYOUT);
EVENT(ev_dl_debug_link, "debug_link", DEBUG_LINK_FIELDS, DEBUG_LINK_LAYOUT);
EVENT(ev_dlclose, "dlclose", BADDR_FIELDS, "F8");

/*
 * lttng_ust_lib: what liblttng-ust itself records when the loaded
 * objects change; Trace Compass follows these for LTTng-UST 2.9 and
 * later, babeltrace2 both.
 */
EVENT(ev_lib_load, "load", BIN_FIELDS HAS_FIELDS, "F16 S F2");
EVENT(ev_lib_build_id, "build_id", BUILD_ID_FIELDS, BUILD_ID_LAYOUT);
EVENT(ev_lib_debug_link, "debug_link", DEBUG_LINK_FIELDS, DEBUG_LINK_LAYOUT);
EVENT(ev_lib_unload, "unload", BADDR_FIELDS, "F8");

static struct ust_event_desc *const statedump_events[] = {
	&ev_start, &ev_procname, &ev_bin_info, &ev_build_id, &ev_debug_link,
	&ev_thread_name, &ev_end,
};
static struct ust_event_desc *const dl_events[] = {
	&ev_dlopen, &ev_dl_build_id, &ev_dl_debug_link, &ev_dlclose,
};
static struct ust_event_desc *const lib_events[] = {
	&ev_lib_load, &ev_lib_build_id, &ev_lib_debug_link, &ev_lib_unload,
};

UST_BUILTIN_PROVIDER(statedump_provider, "lttng_ust_statedump",
		     "objects loaded when the session started",
		     statedump_events);
UST_BUILTIN_PROVIDER(dl_provider, "lttng_ust_dl",
		     "objects loaded and unloaded by dlopen and dlclose",
		     dl_events);
UST_BUILTIN_PROVIDER(lib_provider, "lttng_ust_lib",
		     "objects loaded and unloaded after the session started",
		     lib_events);

/* One loaded object, as described in the trace. */
struct object {
	uint64_t baddr;		/* lowest PT_LOAD address */
	uint64_t memsz;		/* up to the end of the highest PT_LOAD */
	const char *path;	/* dlpi_name, or /proc/self/exe for the program */
	const uint8_t *build_id;	/* in the mapped note, or NULL */
	uint64_t build_id_len;
	const char *debug_link;	/* .gnu_debuglink file name, or NULL */
	uint32_t debug_crc;
	uint8_t is_pic;
	uint8_t seen;		/* scratch for the diff */
};

/* The base addresses already described in this process's trace. */
static pthread_mutex_t known_mutex = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *known;
static size_t nr_known, known_cap;
static unsigned long long known_adds, known_subs;

/* The GNU build-id note of one PT_NOTE segment (*len bytes), or NULL. */
static const uint8_t *note_build_id(const uint8_t *p, size_t size,
				    uint64_t *len)
{
	while (size >= sizeof(ElfW(Nhdr))) {
		const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
		size_t name_sz = (n->n_namesz + 3) & ~3u;
		size_t desc_sz = (n->n_descsz + 3) & ~3u;
		size_t total = sizeof(*n) + name_sz + desc_sz;

		if (total > size)
			return NULL;
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
		    !memcmp(p + sizeof(*n), "GNU", 4) &&
		    n->n_descsz && n->n_descsz <= BUILD_ID_MAX) {
			*len = n->n_descsz;
			return p + sizeof(*n) + name_sz;
		}
		p += total;
		size -= total;
	}
	return NULL;
}

/*
 * The .gnu_debuglink section of the ELF file at `path` (a file name, NUL,
 * padding, a CRC-32): it is not in any loaded segment, so it is read from
 * the file, with pread only.  Returns 0 with `name` (NUL-terminated) and
 * *crc set, -1 when the file has none or cannot be read.
 */
static int read_debug_link(const char *path, char *name, size_t len,
			   uint32_t *crc)
{
	static const char want[] = ".gnu_debuglink";
	ElfW(Ehdr) eh;
	ElfW(Shdr) sh, names;
	char sname[sizeof(want)];
	int fd, ret = -1;
	ElfW(Half) i;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_shentsize != sizeof(sh) || eh.e_shstrndx >= eh.e_shnum ||
	    pread(fd, &names, sizeof(names),
		  (off_t)(eh.e_shoff + eh.e_shstrndx * sizeof(sh))) != sizeof(names))
		goto out;
	for (i = 0; i < eh.e_shnum; i++) {
		if (pread(fd, &sh, sizeof(sh), (off_t)(eh.e_shoff + i * sizeof(sh))) !=
		    sizeof(sh))
			goto out;
		if (sh.sh_name >= names.sh_size ||
		    pread(fd, sname, sizeof(sname),
			  (off_t)(names.sh_offset + sh.sh_name)) != sizeof(sname) ||
		    memcmp(sname, want, sizeof(want)))
			continue;
		/* name, NUL, padding to 4, then the 4-byte CRC. */
		if (sh.sh_size < 8 || sh.sh_size > len ||
		    pread(fd, name, sh.sh_size, (off_t)sh.sh_offset) !=
		    (ssize_t)sh.sh_size ||
		    memchr(name, '\0', sh.sh_size - 4) == NULL)
			goto out;
		memcpy(crc, name + sh.sh_size - 4, 4);
		ret = 0;
		break;
	}
out:
	close(fd);
	return ret;
}

/* Fill `o` from one dl_iterate_phdr entry; 0 when it has a file. */
static int object_from_phdr(const struct dl_phdr_info *info, struct object *o,
			    char *exe, size_t exe_len, char rel[PATH_MAX])
{
	uint64_t lo = UINT64_MAX, hi = 0;
	ElfW(Half) i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD) {
			lo = ph->p_vaddr < lo ? ph->p_vaddr : lo;
			if (ph->p_vaddr + ph->p_memsz > hi)
				hi = ph->p_vaddr + ph->p_memsz;
		} else if (ph->p_type == PT_NOTE && !o->build_id) {
			o->build_id = note_build_id((const uint8_t *)
						    (info->dlpi_addr + ph->p_vaddr),
						    ph->p_memsz,
						    &o->build_id_len);
		}
	}
	if (lo == UINT64_MAX)
		return -1;
	o->baddr = info->dlpi_addr + lo;
	o->memsz = hi - lo;
	/* The ELF header sits at the start of the first PT_LOAD. */
	o->is_pic = ((const ElfW(Ehdr) *)(uintptr_t)o->baddr)->e_type == ET_DYN;
	if (info->dlpi_name && info->dlpi_name[0] == '/') {
		o->path = info->dlpi_name;
		return 0;
	}
	if (info->dlpi_name && strchr(info->dlpi_name, '/')) {
		/* dlopen("dir/lib.so"): relative to the current directory. */
		if (!realpath(info->dlpi_name, rel))
			return -1;
		o->path = rel;
		return 0;
	}
	if (info->dlpi_name && info->dlpi_name[0])
		return -1;	/* the vDSO: no file to read symbols from */
	/* The program itself has an empty name. */
	if (!exe[0]) {
		ssize_t n = readlink("/proc/self/exe", exe, exe_len - 1);

		if (n <= 0)
			return -1;
		exe[n] = '\0';
	}
	o->path = exe;
	return 0;
}

static void write_bin_info(const struct object *o)
{
	uint8_t flags[3] = { o->is_pic, o->build_id != NULL, o->debug_link != NULL };
	struct ust_seg segs[3] = {
		{ &o->baddr, 16 },	/* baddr, memsz: adjacent in struct object */
		{ o->path, strlen(o->path) + 1 },
		{ flags, sizeof(flags) },
	};

	ust__state_event_write(&ev_bin_info, segs, 3,
			segs[0].len + segs[1].len + segs[2].len);
}

static void write_dlopen(const struct object *o, int32_t dl_flags)
{
	uint8_t flags[2] = { o->build_id != NULL, o->debug_link != NULL };
	struct ust_seg segs[4] = {
		{ &o->baddr, 16 },
		{ &dl_flags, 4 },
		{ o->path, strlen(o->path) + 1 },
		{ flags, sizeof(flags) },
	};

	ust__state_event_write(&ev_dlopen, segs, 4,
			segs[0].len + segs[1].len + segs[2].len + segs[3].len);
}

static void write_lib_load(const struct object *o)
{
	uint8_t flags[2] = { o->build_id != NULL, o->debug_link != NULL };
	struct ust_seg segs[3] = {
		{ &o->baddr, 16 },
		{ o->path, strlen(o->path) + 1 },
		{ flags, sizeof(flags) },
	};

	ust__state_event_write(&ev_lib_load, segs, 3,
			segs[0].len + segs[1].len + segs[2].len);
}

static void write_build_id(struct ust_event_desc *ev, const struct object *o)
{
	struct ust_seg segs[3] = {
		{ &o->baddr, 8 },
		{ &o->build_id_len, 8 },
		{ o->build_id, o->build_id_len },
	};

	ust__state_event_write(ev, segs, 3, 16 + o->build_id_len);
}

static void write_debug_link(struct ust_event_desc *ev, const struct object *o)
{
	struct ust_seg segs[3] = {
		{ &o->baddr, 8 },
		{ &o->debug_crc, 4 },
		{ o->debug_link, strlen(o->debug_link) + 1 },
	};

	ust__state_event_write(ev, segs, 3, 12 + segs[2].len);
}

/* The object's build id and debug link events, those it has and enabled. */
static void write_ids(struct ust_event_desc *build_ev,
		      struct ust_event_desc *link_ev, const struct object *o)
{
	if (o->build_id && UST_EVENT_ENABLED(build_ev))
		write_build_id(build_ev, o);
	if (o->debug_link && UST_EVENT_ENABLED(link_ev))
		write_debug_link(link_ev, o);
}

static void write_thread_name(int32_t tid, const char *name)
{
	struct ust_seg segs[2] = {
		{ &tid, 4 },
		{ name, strlen(name) + 1 },
	};

	ust__state_event_write(&ev_thread_name, segs, 2, 4 + segs[1].len);
}

/* Every thread of the process with its name, from /proc/self/task. */
static void dump_thread_names(void)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *d;

	if (!dir)
		return;
	while ((d = readdir(dir))) {
		char path[64], comm[32];
		int tid = atoi(d->d_name);

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%d/comm", tid);
		if (ust__read_small_file(path, comm, sizeof(comm)))
			continue;	/* the thread ended meanwhile */
		comm[strcspn(comm, "\n")] = '\0';
		write_thread_name(tid, comm);
	}
	closedir(dir);
}

/* The process's name, as the session header has it (session.c). */
static void write_procname(void)
{
	/* Acquire: pairs with the store-release publishing the session. */
	struct ust_session *s = __atomic_load_n(&ust__session_current,
						__ATOMIC_ACQUIRE);
	char name[17] = "";

	if (!s)
		return;
	memcpy(name, s->hdr->procname, sizeof(s->hdr->procname));
	name[sizeof(name) - 1] = '\0';
	ust__state_event_write(&ev_procname, &(struct ust_seg){ name, 17 },
			       1, 17);
}

static void write_empty(struct ust_event_desc *ev)
{
	ust__state_event_write(ev, NULL, 0, 0);
}

static int known_add(uint64_t baddr)
{
	if (nr_known == known_cap) {
		size_t cap = known_cap ? known_cap * 2 : 64;
		uint64_t *v = realloc(known, cap * sizeof(*v));

		if (!v)
			return -1;
		known = v;
		known_cap = cap;
	}
	known[nr_known++] = baddr;
	return 0;
}

static ssize_t known_find(uint64_t baddr)
{
	size_t i;

	for (i = 0; i < nr_known; i++) {
		if (known[i] == baddr)
			return (ssize_t)i;
	}
	return -1;
}

struct walk {
	int dl;			/* 0: session start; 1: after dlopen/dlclose */
	int32_t dl_flags;
	uint8_t *seen;		/* [nr_known] on a dl walk */
	char exe[PATH_MAX];
	char rel[PATH_MAX];	/* an object loaded by a relative path */
	char link[PATH_MAX];	/* its .gnu_debuglink */
};

/* dl_iterate_phdr callback: describe the objects not described yet. */
static int visit(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct walk *w = arg;
	struct object o;
	ssize_t k;

	known_adds = info->dlpi_adds;
	known_subs = info->dlpi_subs;
	if (object_from_phdr(info, &o, w->exe, sizeof(w->exe), w->rel))
		return 0;
	k = known_find(o.baddr);
	if (k >= 0) {
		if (w->seen)
			w->seen[k] = 1;
		return 0;
	}
	if (known_add(o.baddr))
		return 0;
	if (!read_debug_link(o.path, w->link, sizeof(w->link), &o.debug_crc))
		o.debug_link = w->link;
	if (!w->dl) {
		if (UST_EVENT_ENABLED(&ev_bin_info))
			write_bin_info(&o);
		write_ids(&ev_build_id, &ev_debug_link, &o);
		return 0;
	}
	if (UST_EVENT_ENABLED(&ev_dlopen))
		write_dlopen(&o, w->dl_flags);
	write_ids(&ev_dl_build_id, &ev_dl_debug_link, &o);
	/* Then, as liblttng-ust does after liblttng-ust-dl, the lib events. */
	if (UST_EVENT_ENABLED(&ev_lib_load))
		write_lib_load(&o);
	write_ids(&ev_lib_build_id, &ev_lib_debug_link, &o);
	return 0;
}

/* An event whose only field is a base address, when it is enabled. */
static void write_baddr(struct ust_event_desc *ev, uint64_t baddr)
{
	struct ust_seg seg = { &baddr, sizeof(baddr) };

	if (UST_EVENT_ENABLED(ev))
		ust__state_event_write(ev, &seg, 1, sizeof(baddr));
}

/* After a dl walk: the known objects not seen any more were unloaded. */
static void forget_unseen(const uint8_t *seen, size_t n)
{
	size_t i, kept = 0;

	for (i = 0; i < nr_known; i++) {
		if (i < n && !seen[i]) {
			write_baddr(&ev_dlclose, known[i]);
			write_baddr(&ev_lib_unload, known[i]);
			continue;
		}
		known[kept++] = known[i];
	}
	nr_known = kept;
}

/* A fork child: the parent's lock state is meaningless here. */
void ust__statedump_atfork_child(void)
{
	pthread_mutex_init(&known_mutex, NULL);
}

/* Set once the preload library asked for statedumps. */
static int statedump_wanted;

UST_EXPORT void ust_statedump_enable(void)
{
	/*
	 * Process-local: one caller registers the providers.  Acq-rel,
	 * partner: the acquire loads below, so a thread that sees the flag
	 * sees the providers registered.
	 */
	if (__atomic_exchange_n(&statedump_wanted, 1, __ATOMIC_ACQ_REL))
		return;
	ust_provider_register(&statedump_provider);
	ust_provider_register(&dl_provider);
	ust_provider_register(&lib_provider);
	ust__statedump_run();
}

/* Whether a statedump was asked for and this process traces. */
static bool statedump_on(void)
{
	/* Acquire: pairs with ust_statedump_enable()'s exchange. */
	return __atomic_load_n(&statedump_wanted, __ATOMIC_ACQUIRE) &&
	       ust_tracing_active();
}

/* A new walk of the loaded objects, or NULL when there is none to make. */
static struct walk *walk_new(void)
{
	return statedump_on() ? calloc(1, sizeof(struct walk)) : NULL;
}

/* A new session: describe every loaded object from scratch. */
void ust__statedump_run(void)
{
	struct walk *w = walk_new();

	if (!w)
		return;
	pthread_mutex_lock(&known_mutex);
	nr_known = 0;
	if (UST_EVENT_ENABLED(&ev_start))
		write_empty(&ev_start);
	ust__func_statedump();	/* compact function tracing's base */
	if (UST_EVENT_ENABLED(&ev_procname))
		write_procname();
	dl_iterate_phdr(visit, w);
	if (UST_EVENT_ENABLED(&ev_thread_name))
		dump_thread_names();
	if (UST_EVENT_ENABLED(&ev_end))
		write_empty(&ev_end);
	pthread_mutex_unlock(&known_mutex);
	free(w);
}

/*
 * pthread_setname_np() succeeded (threadname.c): record the new name, so
 * that a flight-recorder snapshot names threads renamed after the dump.
 * Another thread's tid is not known from its pthread_t: dump them all.
 */
void ust__statedump_thread_renamed(pthread_t thread, const char *name)
{
	if (!statedump_on() || !UST_EVENT_ENABLED(&ev_thread_name))
		return;
	if (pthread_equal(thread, pthread_self()))
		write_thread_name((int32_t)gettid(), name);
	else
		dump_thread_names();
}

/* The process's objects changed unless both counters are unchanged. */
static int objects_changed(struct dl_phdr_info *info, size_t size, void *arg)
{
	*(int *)arg = info->dlpi_adds != known_adds ||
		      info->dlpi_subs != known_subs;
	return 1;	/* the first entry is enough */
}

UST_EXPORT void ust_statedump_dl_sync(int dl_flags)
{
	struct walk *w = walk_new();
	size_t n;
	int changed = 0;

	if (!w)
		return;
	pthread_mutex_lock(&known_mutex);
	dl_iterate_phdr(objects_changed, &changed);
	n = nr_known;
	if (changed && (w->seen = calloc(n ? n : 1, 1))) {
		w->dl = 1;
		w->dl_flags = dl_flags;
		dl_iterate_phdr(visit, w);
		forget_unseen(w->seen, n);
		free(w->seen);
	}
	pthread_mutex_unlock(&known_mutex);
	free(w);
}
