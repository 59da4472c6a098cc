/*
 * check_session.c - unit tests of libust/session.c: the shared mapping
 * ust__session_map() lays out (abi/shm.h), as the consumer's checks
 * (shm/map.c) accept it, every buffer's packet 0 (ctf/format.h), and the
 * command line, descriptors and environment the consumer is started with
 * (abi/consumerd.h), seen by a stand-in consumer.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_run.h"
#include "abi/consumerd.h"
#include "abi/env.h"
#include "shm/map.h"
#include "unit.h"

#define PROCNAME "unit-session"

static struct ust_config cfg;
static struct ust_session *session;
static int session_fd = -1;
static uint64_t mapped_after;	/* clock read after the mapping */

static void map_session(uint32_t mode, uint32_t subbuf_size, uint32_t subbuf_count)
{
	unit_config(&cfg, "*", mode, subbuf_size, subbuf_count);
	ck_assert_int_eq(prctl(PR_SET_NAME, PROCNAME), 0);
	session = ust__session_map(&cfg, &session_fd);
	ck_assert_ptr_nonnull(session);
	mapped_after = ust__clock_read(session->clock_kind);
}

static void teardown(void)
{
	ust__session_destroy(session);
	session = NULL;
	if (session_fd >= 0)
		close(session_fd);
	session_fd = -1;
	unit_config_free(&cfg);
	unit_env_clear();
}

/* The possible CPUs as the kernel lists them ("0-3", "0,2-5"): last + 1. */
static uint32_t possible_cpus(void)
{
	char buf[256], *p;
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	p = buf + strlen(buf);
	while (p > buf && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return (uint32_t)atoi(p) + 1;
}

/* The consumer's checks accept the mapping, and read it as it was meant. */
static void map_as_consumer(struct shm_map *m)
{
	char err[160] = "";

	ck_assert_msg(shm_map_open(m, session_fd, err, sizeof(err)) == 0,
		      "shm_map_open: %s", err);
}

START_TEST(test_consumer_accepts)
{
	struct shm_map m;
	char err[160];

	map_session(UST_MODE_DISCARD, 8192, 4);
	map_as_consumer(&m);
	ck_assert_uint_eq(m.nr_cpus, possible_cpus());
	ck_assert_uint_eq(m.nr_cpus, session->nr_cpus);
	ck_assert_uint_eq(m.nr_channels, 1);
	ck_assert_int_eq(m.pid, getpid());
	ck_assert_str_eq(m.procname, PROCNAME);
	ck_assert_uint_eq(m.clock_kind, cfg.clock_kind);
	ck_assert_mem_eq(m.uuid, session->uuid, 16);
	ck_assert_str_eq(m.chan[0].name, "ust");
	ck_assert_uint_eq(m.chan[0].stream_id, 0);
	ck_assert_uint_eq(m.chan[0].mode, UST_MODE_DISCARD);
	ck_assert_uint_eq(m.chan[0].subbuf_size, 8192);
	ck_assert_uint_eq(m.chan[0].subbuf_count, 4);
	ck_assert_uint_eq(m.chan[0].subbuf_shift, 13);
	ck_assert_uint_eq(m.chan[0].table.event_context, UST_CTX_VTID);
	ck_assert_uint_eq(m.meta_size, UST_META_SIZE);
	ck_assert_ptr_eq(shm_ctl_area(&m, err, sizeof(err)),
			 m.base + session->hdr->ctl_offset);
	/* The consumer seals the size: the process can no longer shrink it. */
	ck_assert_int_ne(fcntl(session_fd, F_GET_SEALS) & F_SEAL_SHRINK, 0);
	ck_assert_int_eq(ftruncate(session_fd, 4096), -1);
	ck_assert_int_eq(errno, EPERM);
	shm_map_close(&m);
}
END_TEST

START_TEST(test_header)
{
	const struct ust_shm_header *h;
	const struct ust_shm_channel *c;
	struct ust_ctl_area zero_ctl;
	struct stat st;
	uint64_t data_len;

	map_session(UST_MODE_OVERWRITE, 4096, 8);
	h = session->hdr;
	c = (const struct ust_shm_channel *)((const uint8_t *)session->base +
					     h->channels_offset);
	ck_assert_uint_eq(h->magic, UST_SHM_MAGIC);
	ck_assert_uint_eq(h->version, UST_SHM_VERSION);
	ck_assert_int_eq(fstat(session_fd, &st), 0);
	ck_assert_uint_eq(h->total_size, (uint64_t)st.st_size);
	ck_assert_uint_eq(h->total_size, session->size);
	ck_assert_int_eq(h->pid, getpid());
	ck_assert_str_eq(h->procname, PROCNAME);
	ck_assert_uint_eq(h->clock_kind, cfg.clock_kind);
	ck_assert_mem_eq(h->trace_uuid, session->uuid, 16);
	/* A random (version 4, RFC 4122 variant) uuid. */
	ck_assert_uint_eq(session->uuid[6] >> 4, 4);
	ck_assert_uint_eq(session->uuid[8] >> 6, 2);
	ck_assert_uint_eq(h->channels_offset, sizeof(*h));
	ck_assert_uint_eq(c->bufs_offset % 64, 0);
	ck_assert_uint_ge(c->bufs_offset, h->channels_offset + sizeof(*c));
	/* Metadata log, then control area, then data, page aligned. */
	ck_assert_uint_eq(h->meta_offset % UST_SHM_PAGE, 0);
	ck_assert_uint_ge(h->meta_offset, c->bufs_offset +
			  session->nr_cpus * sizeof(struct ust_shm_buf));
	ck_assert_uint_eq(h->meta_size, UST_META_SIZE);
	ck_assert_uint_eq(h->meta_used, 0);
	ck_assert_uint_eq(h->meta_dropped, 0);
	ck_assert_uint_eq(h->ctl_offset % UST_SHM_PAGE, 0);
	ck_assert_uint_ge(h->ctl_offset, h->meta_offset + h->meta_size);
	ck_assert_uint_eq(h->ctl_size, sizeof(struct ust_ctl_area));
	ck_assert_ptr_eq(session->ctl, (uint8_t *)session->base + h->ctl_offset);
	memset(&zero_ctl, 0, sizeof(zero_ctl));
	ck_assert_mem_eq(session->ctl, &zero_ctl, sizeof(zero_ctl));
	ck_assert_uint_eq(c->data_offset % UST_SHM_PAGE, 0);
	ck_assert_uint_ge(c->data_offset, h->ctl_offset + h->ctl_size);
	/* The data of every CPU ends the mapping. */
	data_len = (uint64_t)session->nr_cpus * 4096 * 8;
	ck_assert_uint_eq(c->data_offset + data_len, h->total_size);
	ck_assert_uint_eq(h->flight.state, 0);
	ck_assert_uint_eq(c->flags, 0);
	ck_assert_uint_eq(h->threads_offset, 0);
}
END_TEST

/* Packet 0 of every buffer of channel `i` is open, empty and consistent. */
static void check_packet_zero(uint32_t i)
{
	const struct ust_channel *ch = &session->chan[i];
	uint32_t cpu;

	for (cpu = 0; cpu < session->nr_cpus; cpu++) {
		const struct ust_packet_header *ph = (const struct ust_packet_header *)
			(ch->data + cpu * ch->buf_size);
		const struct ust_shm_buf *b = &ch->bufs[cpu];

		ck_assert_uint_eq(ph->magic, UST_CTF_MAGIC);
		ck_assert_mem_eq(ph->uuid, session->uuid, 16);
		ck_assert_uint_eq(ph->stream_id, ch->stream_id);
		ck_assert_uint_eq(ph->stream_instance_id, cpu);
		ck_assert_uint_eq(ph->cpu_id, cpu);
		ck_assert_uint_eq(ph->packet_seq_num, 0);
		ck_assert_uint_le(ph->timestamp_begin, mapped_after);
		ck_assert_uint_gt(ph->timestamp_begin, 0);
		ck_assert_uint_eq(ph->packet_size, (uint64_t)ch->subbuf_size * 8);
		/* Closing fields: filled when the packet is closed (I5). */
		ck_assert_uint_eq(ph->timestamp_end, 0);
		ck_assert_uint_eq(ph->content_size, 0);
		ck_assert_uint_eq(ph->events_discarded, 0);
		ck_assert_uint_eq(b->commit.offset, UST_PACKET_HEADER_SIZE);
		ck_assert_uint_eq(b->commit.last_ts, ph->timestamp_begin);
		ck_assert_uint_eq(b->consumed, 0);
		ck_assert_uint_eq(b->lost_full + b->lost_big, 0);
	}
}

START_TEST(test_packet_zero)
{
	map_session(UST_MODE_DISCARD, 4096, 2);
	ck_assert_uint_eq(session->chan[0].buf_size, 8192);
	ck_assert_uint_eq(session->chan[0].ctx_size, UST_CTX_VTID_SIZE);
	check_packet_zero(0);
}
END_TEST

START_TEST(test_flight_geometry)
{
	struct shm_map m;

	unit_env_clear();
	map_session(UST_MODE_FLIGHT, 16384, 8);
	ck_assert_uint_eq(session->nr_channels, 2);
	ck_assert_uint_eq(session->state_chan, 1);
	ck_assert_uint_eq(session->chan[0].blocking, 0);
	/* The state channel waits for the consumer rather than lose events. */
	ck_assert_uint_eq(session->chan[1].blocking, 1);
	check_packet_zero(0);
	check_packet_zero(1);
	map_as_consumer(&m);
	ck_assert_uint_eq(m.nr_channels, 2);
	ck_assert_str_eq(m.chan[0].name, "ust");
	ck_assert_uint_eq(m.chan[0].mode, UST_MODE_FLIGHT);
	ck_assert_uint_eq(m.chan[0].subbuf_size, 16384);
	ck_assert_uint_eq(m.chan[0].subbuf_count, 8);
	ck_assert_str_eq(m.chan[1].name, "state");
	ck_assert_uint_eq(m.chan[1].stream_id, 1);
	ck_assert_uint_eq(m.chan[1].mode, UST_MODE_DISCARD);
	ck_assert_uint_eq(m.chan[1].subbuf_size, 64 << 10);
	ck_assert_uint_eq(m.chan[1].subbuf_count, 4);
	ck_assert_uint_eq(m.chan[1].table.event_context, UST_CTX_VTID);
	shm_map_close(&m);
}
END_TEST

/* UST_CONTEXT=none: the events' channel only; the state channel keeps the tid. */
START_TEST(test_no_context)
{
	struct shm_map m;

	unit_config(&cfg, "*", UST_MODE_FLIGHT, 4096, 4);
	cfg.event_context = 0;
	session = ust__session_map(&cfg, &session_fd);
	ck_assert_ptr_nonnull(session);
	ck_assert_uint_eq(session->chan[0].ctx_size, 0);
	ck_assert_uint_eq(session->chan[1].ctx_size, UST_CTX_VTID_SIZE);
	map_as_consumer(&m);
	ck_assert_uint_eq(m.chan[0].table.event_context, 0);
	ck_assert_uint_eq(m.chan[1].table.event_context, UST_CTX_VTID);
	shm_map_close(&m);
	ust__session_destroy(session);
	close(session_fd);

	/* Other contexts: the state channel has them too, and the vtid. */
	cfg.event_context = UST_CTX_VPID | UST_CTX_IP;
	session = ust__session_map(&cfg, &session_fd);
	ck_assert_ptr_nonnull(session);
	ck_assert_uint_eq(session->chan[0].ctx_size, 12);
	ck_assert_uint_eq(session->chan[0].ctx_img_size, 4);
	ck_assert_uint_eq(session->chan[1].ctx_size, 16);
	ck_assert_uint_eq(session->chan[1].ctx_img_size, 8);
	map_as_consumer(&m);
	ck_assert_uint_eq(m.chan[0].table.event_context, UST_CTX_VPID | UST_CTX_IP);
	ck_assert_uint_eq(m.chan[1].table.event_context,
			  UST_CTX_VTID | UST_CTX_VPID | UST_CTX_IP);
	shm_map_close(&m);
}
END_TEST

START_TEST(test_blocking)
{
	unit_config(&cfg, "*", UST_MODE_DISCARD, 4096, 4);
	cfg.blocking = 1;
	session = ust__session_map(&cfg, &session_fd);
	ck_assert_ptr_nonnull(session);
	ck_assert_uint_eq(session->nr_channels, 1);
	ck_assert_uint_eq(session->state_chan, 0);
	ck_assert_uint_eq(session->chan[0].blocking, 1);
}
END_TEST

/* `ust ctl`, `ust list` and `ust snapshot` find the memfd by its name. */
START_TEST(test_memfd_found)
{
	char path[64], target[64];
	struct shm_map m;
	char err[160] = "";
	ssize_t n;
	int fd = -1;

	map_session(UST_MODE_DISCARD, 4096, 4);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", session_fd);
	n = readlink(path, target, sizeof(target) - 1);
	ck_assert_int_gt(n, 0);
	target[n] = '\0';
	ck_assert_str_eq(target, "/memfd:" UST_SHM_MEMFD_NAME " (deleted)");
	ck_assert_int_ne(fcntl(session_fd, F_GETFD) & FD_CLOEXEC, 0);
	ck_assert_msg(shm_map_attach_fd(&m, getpid(), &fd, err, sizeof(err)) == 0,
		      "attach: %s", err);
	ck_assert_mem_eq(m.uuid, session->uuid, 16);
	shm_map_close(&m);
	close(fd);
}
END_TEST

/*
 * The stand-in consumer: a script that writes its arguments, where its
 * descriptors 3 and 4 lead, its parent and two variables of its
 * environment into $UNIT_OUT, then exits.
 */
static const char fake_consumer[] =
	"#!/bin/sh\n"
	"{ for a; do echo \"$a\"; done\n"
	"  echo \"fd3=$(readlink /proc/self/fd/3)\"\n"
	"  echo \"fd4=$(readlink /proc/self/fd/4)\"\n"
	"  echo \"ppid=$PPID\"\n"
	"  echo \"UST_TRACE=${UST_TRACE-unset} UNIT_MARK=${UNIT_MARK-unset}\"\n"
	"} >\"$UNIT_OUT.tmp\" && mv \"$UNIT_OUT.tmp\" \"$UNIT_OUT\"\n";

static char dir[] = "/tmp/ust-check-session.XXXXXX";
static char consumer_path[PATH_MAX], out_path[PATH_MAX];

static void consumer_setup(void)
{
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(consumer_path, sizeof(consumer_path), "%s/ust-consumerd", dir);
	snprintf(out_path, sizeof(out_path), "%s/out", dir);
	f = fopen(consumer_path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(fake_consumer, f);
	fclose(f);
	ck_assert_int_eq(chmod(consumer_path, 0755), 0);
	setenv("UNIT_OUT", out_path, 1);
	setenv("UNIT_MARK", "kept", 1);
	setenv(UST_ENV_TRACE, "*", 1);
}

static void consumer_teardown(void)
{
	unlink(consumer_path);
	unlink(out_path);
	rmdir(dir);
	unsetenv("UNIT_OUT");
	unsetenv("UNIT_MARK");
	teardown();
}

/* What the stand-in consumer wrote (at most 10 s to wait), to be freed. */
static char *consumer_report(void)
{
	struct timespec nap = { 0, 10000000 };
	char *text = calloc(1, 4096);
	FILE *f = NULL;
	int i;

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < 1000 && !(f = fopen(out_path, "re")); i++)
		nanosleep(&nap, NULL);
	ck_assert_msg(f != NULL, "the consumer did not run");
	ck_assert_uint_gt(fread(text, 1, 4095, f), 0);
	fclose(f);
	return text;
}

/*
 * Start the stand-in consumer for `cfg` as libust does, and check what
 * it was given: the options every consumer gets, then `options`.
 */
static void check_consumer(bool sibling, const char *options, pid_t parent)
{
	char want[1024], *got;

	free(cfg.consumerd);
	cfg.consumerd = strdup(consumer_path);
	setenv(UST_ENV_TRACE, "*", 1);	/* ours; never the consumer's */
	session = ust__session_create(&cfg, sibling);
	ck_assert_ptr_nonnull(session);
	ck_assert_int_ge(session->shm_fd, 0);
	got = consumer_report();
	snprintf(want, sizeof(want),
		 "--shm-fd\n3\n--pid-fd\n4\n--pid\n%d\n--output\n%s\n"
		 "--read-timer\n%u\n%s"
		 "fd3=/memfd:ust-trace (deleted)\nfd4=anon_inode:[pidfd]\n"
		 "ppid=%d\nUST_TRACE=unset UNIT_MARK=kept\n",
		 (int)getpid(), cfg.output, cfg.read_timer_us, options,
		 (int)parent);
	ck_assert_str_eq(got, want);
	free(got);
	/* The program has no child to wait for. */
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}

/* At start-up: a sibling (our parent's child) that stays in the foreground. */
START_TEST(test_consumer_sibling)
{
	unit_config(&cfg, "*", UST_MODE_DISCARD, 4096, 4);
	check_consumer(true, "--foreground\n", getppid());
}
END_TEST

/* In a fork child: started (and reaped) by us, it detaches itself. */
START_TEST(test_consumer_detaching)
{
	setenv(UST_ENV_READ_TIMER, "2500", 1);
	setenv(UST_ENV_SESSION_CLOCK, "mono:1000000000:5:0:", 1);
	setenv(UST_ENV_SUMMARY_DIR, "/sum/dir", 1);
	setenv(UST_ENV_OUTPUT, "/out/dir", 1);
	ck_assert_int_eq(ust__config_load(&cfg), 0);
	ck_assert_str_eq(cfg.output, "/out/dir");
	ck_assert_uint_eq(cfg.read_timer_us, 2500);
	check_consumer(false, "--clock\nmono:1000000000:5:0:\n"
		       "--summary-dir\n/sum/dir\n", getpid());
}
END_TEST

/* No consumer to start: one message, no session, no descriptor left. */
static void check_missing_consumer(bool sibling)
{
	struct ust_session *s;
	int lowest_free = dup(0);
	char *err;

	close(lowest_free);
	unit_config(&cfg, "*", UST_MODE_DISCARD, 4096, 4);
	free(cfg.consumerd);
	cfg.consumerd = strdup("/nonexistent/ust-consumerd");
	unit_stderr_begin();
	s = ust__session_create(&cfg, sibling);
	err = unit_stderr_end();
	ck_assert_ptr_null(s);
	ck_assert_str_eq(err, "ust: cannot start '/nonexistent/ust-consumerd': "
			 "No such file or directory; tracing disabled\n");
	free(err);
	ck_assert_int_eq(dup(0), lowest_free);
	close(lowest_free);
	unit_config_free(&cfg);
}

START_TEST(test_consumer_missing)
{
	check_missing_consumer(true);
	check_missing_consumer(false);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "mapping", NULL, teardown, 0, {
			test_consumer_accepts, test_header, test_packet_zero,
			test_flight_geometry, test_no_context, test_blocking,
			test_memfd_found, NULL } },
		{ "consumer", consumer_setup, consumer_teardown, 30, {
			test_consumer_sibling, test_consumer_detaching,
			test_consumer_missing, NULL } },
	};

	return CHECK_RUN_CASES("session", cases);
}
