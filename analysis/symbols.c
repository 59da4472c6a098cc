/*
 * symbols.c - code addresses to function names, with libdwfl.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The table is the list of objects the trace says were loaded.  Each
 * object is reported to one Dwfl session with dwfl_report_elf() at the
 * address it was loaded at, so PIE programs and shared libraries resolve
 * wherever they were mapped; libdwfl finds the symbol table in the file
 * or in separate debug info (build id, .gnu_debuglink) by itself.  Any
 * change to the list only marks the session stale: the objects are
 * reported again (libdwfl keeps the modules it already knows) before the
 * next lookup.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

#include "reader/payload.h"
#include "symbols.h"

#define DEBUG_BUILD_ID_DIR	"/usr/lib/debug/.build-id"

struct object {
	uint64_t baddr, memsz;
	char *path;		/* as recorded */
	char *file;		/* the file symbols are read from, NULL: none */
	bool file_chosen;	/* `file` is up to date */
	bool is_pic;
	uint8_t build_id[SYM_BUILD_ID_MAX];
	size_t build_id_len;
};

struct sym_table {
	struct object *objs;
	size_t nr, cap;
	Dwfl *dwfl;
	bool stale;		/* objs changed since the last report */
	char *debuginfo_path;	/* NULL: libdwfl's default */
};

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

struct sym_table *sym_table_new(void)
{
	struct sym_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->dwfl = dwfl_begin(&dwfl_callbacks);
	if (!t->dwfl) {
		free(t);
		return NULL;
	}
	return t;
}

static void object_release(struct object *o)
{
	free(o->path);
	free(o->file);
}

void sym_table_free(struct sym_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr; i++)
		object_release(&t->objs[i]);
	free(t->objs);
	dwfl_end(t->dwfl);
	free(t);
}

static struct object *object_at(struct sym_table *t, uint64_t baddr)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		if (t->objs[i].baddr == baddr)
			return &t->objs[i];
	}
	return NULL;
}

void sym_table_remove(struct sym_table *t, uint64_t baddr)
{
	struct object *o = object_at(t, baddr);

	if (!o)
		return;
	object_release(o);
	*o = t->objs[--t->nr];
	t->stale = true;
}

int sym_table_add(struct sym_table *t, uint64_t baddr, uint64_t memsz,
		  const char *path, bool is_pic)
{
	struct object *o;

	sym_table_remove(t, baddr);	/* a new object at the same place */
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		struct object *v = realloc(t->objs, cap * sizeof(*v));

		if (!v)
			return -1;
		t->objs = v;
		t->cap = cap;
	}
	o = &t->objs[t->nr];
	memset(o, 0, sizeof(*o));
	o->path = strdup(path);
	if (!o->path)
		return -1;
	o->baddr = baddr;
	o->memsz = memsz;
	o->is_pic = is_pic;
	t->nr++;
	t->stale = true;
	return 0;
}

void sym_table_set_build_id(struct sym_table *t, uint64_t baddr,
			    const uint8_t *id, size_t len)
{
	struct object *o = object_at(t, baddr);

	if (!o || !len || len > SYM_BUILD_ID_MAX)
		return;
	memcpy(o->build_id, id, len);
	o->build_id_len = len;
	o->file_chosen = false;
	t->stale = true;
}

/* 1 when the ELF file at `path` carries build id `id`, 0 when not, -1 no file. */
static int file_has_build_id(const char *path, const uint8_t *id, size_t len)
{
	const void *found;
	ssize_t n;
	Elf *elf;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(fd);
		return -1;
	}
	n = dwelf_elf_gnu_build_id(elf, &found);
	ret = n == (ssize_t)len && !memcmp(found, id, len);
	elf_end(elf);
	close(fd);
	return ret;
}

/* /usr/lib/debug/.build-id/xx/yyyy.debug for the object's build id. */
static char *debug_file_path(const struct object *o)
{
	char hex[2 * SYM_BUILD_ID_MAX + 1], *path;
	size_t i;

	for (i = 0; i < o->build_id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", o->build_id[i]);
	if (asprintf(&path, DEBUG_BUILD_ID_DIR "/%.2s/%s.debug", hex,
		     hex + 2) < 0)
		return NULL;
	return path;
}

/*
 * The file to read the object's symbols from: its own path while that is
 * still the file that was loaded (same build id, or no build id known),
 * else the separate debug file of its build id, else none.
 */
static void object_choose_file(struct object *o)
{
	char *debug;

	free(o->file);
	o->file = NULL;
	o->file_chosen = true;
	if (!o->build_id_len) {
		if (access(o->path, R_OK) == 0)
			o->file = strdup(o->path);
		return;
	}
	if (file_has_build_id(o->path, o->build_id, o->build_id_len) == 1) {
		o->file = strdup(o->path);
		return;
	}
	debug = debug_file_path(o);
	if (debug && file_has_build_id(debug, o->build_id, o->build_id_len) == 1)
		o->file = debug;
	else
		free(debug);
}

/* Report every object again; libdwfl keeps the modules it knew. */
static void table_refresh(struct sym_table *t)
{
	size_t i;

	if (!t->stale)
		return;
	dwfl_report_begin(t->dwfl);
	for (i = 0; i < t->nr; i++) {
		struct object *o = &t->objs[i];

		if (!o->file_chosen)
			object_choose_file(o);
		if (o->file)
			dwfl_report_elf(t->dwfl, o->path, o->file, -1,
					o->is_pic ? o->baddr : 0, false);
	}
	dwfl_report_end(t->dwfl, NULL, NULL);
	t->stale = false;
}

static const struct object *object_covering(const struct sym_table *t,
					    uint64_t addr)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		const struct object *o = &t->objs[i];

		if (addr >= o->baddr && addr - o->baddr < o->memsz)
			return o;
	}
	return NULL;
}

int sym_resolve(struct sym_table *t, uint64_t addr, struct sym_info *out)
{
	const struct object *o;
	Dwfl_Module *mod;
	GElf_Off off = 0;
	GElf_Sym sym;

	memset(out, 0, sizeof(*out));
	table_refresh(t);
	o = object_covering(t, addr);
	if (!o)
		return -1;
	out->object = o->path;
	out->offset = addr - o->baddr;
	mod = dwfl_addrmodule(t->dwfl, addr);
	if (mod) {
		out->func = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL,
						 NULL, NULL);
		if (out->func)
			out->offset = off;
	}
	return 0;
}

void sym_format(struct sym_table *t, uint64_t addr, char *buf, size_t len)
{
	struct sym_info si;
	const char *base;

	if (sym_resolve(t, addr, &si)) {
		snprintf(buf, len, "0x%" PRIx64, addr);
		return;
	}
	if (si.func) {
		if (si.offset)
			snprintf(buf, len, "%s+0x%" PRIx64, si.func, si.offset);
		else
			snprintf(buf, len, "%s", si.func);
		return;
	}
	base = strrchr(si.object, '/');
	snprintf(buf, len, "%s+0x%" PRIx64, base ? base + 1 : si.object,
		 si.offset);
}

/* ---- from the trace ---- */

/* The NUL-terminated string at *pos in p[0..len), advancing *pos. */
static const char *payload_string(const uint8_t *p, size_t len, size_t *pos)
{
	const char *s = (const char *)p + *pos;
	const uint8_t *nul;

	if (*pos >= len)
		return NULL;
	nul = memchr(p + *pos, '\0', len - *pos);
	if (!nul)
		return NULL;
	*pos = (size_t)(nul - p) + 1;
	return s;
}

/* bin_info {baddr, memsz, path, is_pic, ...}; dlopen {baddr, memsz, flags, path, ...} */
static int observe_object(struct sym_table *t, const uint8_t *p, size_t len,
			  bool is_dlopen)
{
	size_t pos = is_dlopen ? 20 : 16;
	const char *path;
	bool is_pic = true;	/* a dlopen'ed object always is */

	if (len < pos)
		return -1;
	path = payload_string(p, len, &pos);
	if (!path || len - pos < (is_dlopen ? 2u : 3u))
		return -1;
	if (!is_dlopen)
		is_pic = p[pos] != 0;
	return sym_table_add(t, rd_le64(p), rd_le64(p + 8), path, is_pic);
}

int sym_table_observe(struct sym_table *t, const struct rd_msg *m)
{
	const char *name = m->ec->name;
	const uint8_t *p;
	size_t len;

	if (strncmp(name, "lttng_ust_statedump:", 20) &&
	    strncmp(name, "lttng_ust_dl:", 13))
		return 0;
	if (rd_event_payload(m, &p, &len))
		return -1;
	if (!strcmp(name, "lttng_ust_statedump:start")) {
		while (t->nr)
			sym_table_remove(t, t->objs[0].baddr);
		return 0;
	}
	if (!strcmp(name, "lttng_ust_statedump:bin_info"))
		return observe_object(t, p, len, false);
	if (!strcmp(name, "lttng_ust_dl:dlopen"))
		return observe_object(t, p, len, true);
	if (!strcmp(name, "lttng_ust_statedump:build_id") ||
	    !strcmp(name, "lttng_ust_dl:build_id")) {
		/* baddr, then the byte sequence: its 64-bit length first */
		if (len < 16 || rd_le64(p + 8) != len - 16 || len == 16)
			return -1;
		sym_table_set_build_id(t, rd_le64(p), p + 16, len - 16);
		return 0;
	}
	if (!strcmp(name, "lttng_ust_dl:dlclose")) {
		if (len < 8)
			return -1;
		sym_table_remove(t, rd_le64(p));
	}
	return 0;
}
