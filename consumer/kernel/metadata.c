/*
 * metadata.c - DIR/kernel/metadata: the kernel trace's TSDL.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The prelude, the clock block and the packet context are the session's
 * (ctf/tsdl.c), so the kernel trace and the user-space traces
 * share one clock.  Every event class is known before tracing starts,
 * so the file is written once, whole.
 *
 * Kernel streams use a larger event header than user space: a 16-bit id
 * (hundreds of syscall classes) and a 32-bit timestamp, or id 65535 then
 * a 32-bit id and the 64-bit timestamp.  The stream event context is the
 * thread (ftrace's common_pid) and its process, named `_tid` and `_pid`
 * as LTTng's `add-context -k -t tid -t pid` names them.  The env is
 * lttng-modules 2.13's, for the tools that key on it, plus ours: which
 * ust wrote it and whether it holds the whole system or the traced
 * process tree (doc/compatibility.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ctf/tsdl.h"
#include "kerneld.h"

/* The lttng-modules version whose kernel traces ours are written like. */
#define LTTNG_MODULES_MAJOR	2
#define LTTNG_MODULES_MINOR	13
#define LTTNG_MODULES_PATCHLEVEL	0

static const char tsdl_env[] =
	"env {\n"
	"\thostname = \"%s\";\n"
	"\tdomain = \"kernel\";\n"
	"\tsysname = \"%s\";\n"
	"\tkernel_release = \"%s\";\n"
	"\tkernel_version = \"%s\";\n"
	"\ttracer_name = \"lttng-modules\";\n"
	"\ttracer_major = %d;\n"
	"\ttracer_minor = %d;\n"
	"\ttracer_patchlevel = %d;\n"
	"\ttrace_buffering_scheme = \"global\";\n"
	"\ttrace_name = \"%s\";\n"
	"\ttrace_creation_datetime = \"%s\";\n"
	"\tust_version = \"%s\";\n"
	"\tust_kernel_scope = \"%s\";\n";

static const char tsdl_stream[] =
	"struct event_header_large {\n"
	"\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
	"\tvariant <id> {\n"
	"\t\tstruct {\n"
	"\t\t\tuint32_clock_ust_t timestamp;\n"
	"\t\t} compact;\n"
	"\t\tstruct {\n"
	"\t\t\tuint32_t id;\n"
	"\t\t\tuint64_clock_ust_t timestamp;\n"
	"\t\t} extended;\n"
	"\t} v;\n"
	"} align(8);\n"
	"\n"
	"stream {\n"
	"\tid = 0;\n"
	"\tpacket.context := struct packet_context;\n"
	"\tevent.header := struct event_header_large;\n"
	"\tevent.context := struct {\n"
	"\t\tint32_t _tid;\n"
	"\t\tint32_t _pid;\n"
	"\t} align(8);\n"
	"};\n"
	"\n";

/* An integer of `k`'s size and sign, printed in its base. */
static void int_tsdl(FILE *f, const struct kfield *k)
{
	if (k->base == 10 && !k->network_order) {
		fprintf(f, "%sint%u_t", k->is_signed ? "" : "u", k->size * 8);
		return;
	}
	fprintf(f, "integer { size = %u; align = 8; signed = %d; base = %u;%s }",
		k->size * 8, k->is_signed, k->base,
		k->network_order ? " byte_order = network;" : "");
}

static void field_tsdl(FILE *f, const struct kfield *k)
{
	switch (k->kind) {
	case KF_CHARS:
	case KF_DYN_CHARS:
	case KF_USER_PATH:
		fprintf(f, "\t\tstring %s;\n", k->name);
		break;
	case KF_INT_ARRAY:
		fputs("\t\t", f);
		int_tsdl(f, k);
		fprintf(f, " %s[%u];\n", k->name, k->count);
		break;
	default:
		fputs("\t\t", f);
		int_tsdl(f, k);
		fprintf(f, " %s;\n", k->name);
		break;
	}
}

static void event_tsdl(FILE *f, const struct kclass *c)
{
	unsigned int i;

	if (c->hidden)
		return;
	fprintf(f, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n"
		"\tfields := struct {\n", c->name, c->ctf_id);
	for (i = 0; i < c->nr_fields; i++)
		field_tsdl(f, &c->fields[i]);
	fputs("\t};\n};\n\n", f);
}

/* LTTng's date format: local time, ISO 8601 basic, "20240131T235959+0100". */
static void datetime(time_t t, char *out, size_t len)
{
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(out, len, "%Y%m%dT%H%M%S%z", &tm))
		snprintf(out, len, "unknown");
}

/* trace_name: the session directory's name (`ust record -o DIR`). */
static void trace_name(const char *dir, char *out, size_t len)
{
	size_t n = strlen(dir);
	const char *base;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	base = memrchr(dir, '/', n);
	base = base ? base + 1 : dir;
	snprintf(out, len, "%.*s", (int)(n - (size_t)(base - dir)), base);
	ctf_tsdl_literal_sanitize(out);
}

static void env_tsdl(FILE *f, const struct kerneld *kd)
{
	char host[256], name[256], date[64];
	struct utsname u;

	if (gethostname(host, sizeof(host)))
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	ctf_tsdl_literal_sanitize(host);
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	ctf_tsdl_literal_sanitize(u.sysname);
	ctf_tsdl_literal_sanitize(u.release);
	ctf_tsdl_literal_sanitize(u.version);
	trace_name(kd->opts.output, name, sizeof(name));
	datetime(kd->created, date, sizeof(date));
	fprintf(f, tsdl_env, host, u.sysname, u.release, u.version,
		LTTNG_MODULES_MAJOR, LTTNG_MODULES_MINOR, LTTNG_MODULES_PATCHLEVEL,
		name, date, PACKAGE_VERSION, kd->opts.root ? "pid" : "all");
	if (kd->root_pid > 0)
		fprintf(f, "\tust_kernel_pid = %d;\n", (int)kd->root_pid);
	fputs("};\n\n", f);
}

static int metadata_text(const struct kerneld *kd, const uint8_t trace_uuid[16],
			 char **text, size_t *len)
{
	unsigned int i;
	FILE *f;

	f = ctf_tsdl_open(trace_uuid, text, len);
	if (!f)
		return -ENOMEM;
	env_tsdl(f, kd);
	ctf_tsdl_clock(f, &kd->clock);
	ctf_tsdl_packet_context(f);
	fputs(tsdl_stream, f);
	for (i = 0; i < kd->classes.nr; i++)
		event_tsdl(f, kd->classes.all[i]);
	return fclose(f) ? -ENOMEM : 0;
}

/* Write `dir_fd`/metadata whole: a hidden temporary, then renamed. */
static int metadata_write(struct kerneld *kd, int dir_fd, const uint8_t uuid[16],
			  bool to_relay)
{
	size_t len, done = 0;
	char *text;
	int fd, ret;

	ret = metadata_text(kd, uuid, &text, &len);
	if (ret)
		return ret;
	fd = openat(dir_fd, ".metadata", O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		free(text);
		return ret;
	}
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		done += n;
	}
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && renameat(dir_fd, ".metadata", dir_fd, "metadata"))
		ret = -errno;
	if (ret)
		unlinkat(dir_fd, ".metadata", 0);
	else if (to_relay)
		ret = kd_relay_metadata(kd, text, len);
	free(text);
	return ret;
}

/*
 * DIR/kernel/metadata; and to the relay when the session streams there
 * (relay.c).
 */
int kd_metadata_write(struct kerneld *kd)
{
	return metadata_write(kd, kd->dir_fd, kd->uuid, true);
}

/* Local only: a flight-recorder snapshot's, or the rewrite with the pid. */
int kd_metadata_write_to(struct kerneld *kd, int dir_fd, const uint8_t uuid[16])
{
	return metadata_write(kd, dir_fd, uuid, false);
}
