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
 * thread (ftrace's common_pid) as `tid`.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "ctf/tsdl.h"
#include "kerneld.h"

static const char tsdl_env[] =
	"env {\n"
	"\thostname = \"%s\";\n"
	"\tdomain = \"kernel\";\n"
	"\tsysname = \"%s\";\n"
	"\tkernel_release = \"%s\";\n"
	"\ttracer_name = \"ust\";\n"
	"\ttracer_major = %d;\n"
	"\ttracer_minor = %d;\n"
	"};\n"
	"\n";

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
	"\t\tint32_t tid;\n"
	"\t} align(8);\n"
	"};\n"
	"\n";

static void field_tsdl(FILE *f, const struct kfield *k)
{
	switch (k->kind) {
	case KF_CHARS:
	case KF_DYN_CHARS:
		fprintf(f, "\t\tstring %s;\n", k->name);
		break;
	case KF_INT_ARRAY:
		fprintf(f, "\t\t%sint%u_t %s[%u];\n", k->is_signed ? "" : "u",
			k->size * 8, k->name, k->count);
		break;
	default:
		fprintf(f, "\t\t%sint%u_t %s;\n", k->is_signed ? "" : "u",
			k->size * 8, k->name);
		break;
	}
}

static void event_tsdl(FILE *f, const struct kclass *c)
{
	unsigned int i;

	fprintf(f, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n"
		"\tfields := struct {\n", c->name, c->ctf_id);
	for (i = 0; i < c->nr_fields; i++)
		field_tsdl(f, &c->fields[i]);
	fputs("\t};\n};\n\n", f);
}

static int metadata_text(const struct kerneld *kd, char **text, size_t *len)
{
	char uuid[37], host[256];
	struct utsname u;
	int major = 0, minor = 0;
	unsigned int i;
	FILE *f;

	f = open_memstream(text, len);
	if (!f)
		return -ENOMEM;
	ctf_uuid_format(kd->uuid, uuid);
	if (gethostname(host, sizeof(host)))
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	ctf_tsdl_literal_sanitize(host);
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	ctf_tsdl_literal_sanitize(u.sysname);
	ctf_tsdl_literal_sanitize(u.release);
	sscanf(PACKAGE_VERSION, "%d.%d", &major, &minor);

	ctf_tsdl_prelude(f, uuid);
	fprintf(f, tsdl_env, host, u.sysname, u.release, major, minor);
	ctf_tsdl_clock(f, &kd->clock);
	ctf_tsdl_packet_context(f);
	fputs(tsdl_stream, f);
	for (i = 0; i < kd->classes.nr; i++)
		event_tsdl(f, kd->classes.all[i]);
	return fclose(f) ? -ENOMEM : 0;
}

/*
 * Write DIR/kernel/metadata whole: a hidden temporary, then renamed; and
 * to the relay when the session streams there.
 */
int kd_metadata_write(struct kerneld *kd)
{
	size_t len, done = 0;
	char *text;
	int fd, ret;

	ret = metadata_text(kd, &text, &len);
	if (ret)
		return ret;
	fd = openat(kd->dir_fd, ".metadata", O_WRONLY | O_CREAT | O_EXCL |
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
	if (!ret && renameat(kd->dir_fd, ".metadata", kd->dir_fd, "metadata"))
		ret = -errno;
	if (ret)
		unlinkat(kd->dir_fd, ".metadata", 0);
	else
		ret = kd_relay_metadata(kd, text, len);
	free(text);
	return ret;
}
