/*
 * relay-dir.c - send a finished trace directory (ust's packets) over a
 * relay connection: ust_relay_send_dir() (net/relay.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * For what is written whole before it is sent: flight-recorder snapshots.
 * The streams are added, the metadata sent, then the packets of every
 * stream in timestamp_begin order; a full queue is waited for (this is
 * not a traced program's path: the snapshot is on disk already).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctf/format.h"
#include "net/relay.h"

struct dir_file {
	struct ust_relay_stream *rs;
	uint8_t *bytes;
	size_t len, at;
};

/* The whole file `name` of directory `dfd`; NULL on error. */
static uint8_t *slurp(int dfd, const char *name, size_t *len)
{
	struct stat st;
	uint8_t *p = NULL;
	size_t done = 0;
	ssize_t n;
	int fd;

	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		p = malloc((size_t)st.st_size + 1);
	while (p && done < (size_t)st.st_size) {
		n = read(fd, p + done, (size_t)st.st_size - done);
		if (n <= 0) {
			free(p);
			p = NULL;
			break;
		}
		done += (size_t)n;
	}
	close(fd);
	*len = done;
	return p;
}

/* The size of the whole packet at f->at, 0 when there is none. */
static size_t next_packet(const struct dir_file *f, struct ust_relay_index *ix)
{
	const uint8_t *p = f->bytes + f->at;
	size_t left = f->len - f->at;

	if (left < UST_PACKET_HEADER_SIZE || ctf_get_le32(p + UST_PACKET_OFF(magic)) != UST_CTF_MAGIC)
		return 0;
	ust_relay_index_of(p, ix);
	if (ix->packet_size % 8 || ix->packet_size / 8 < UST_PACKET_HEADER_SIZE ||
	    ix->packet_size / 8 > left)
		return 0;
	return ix->packet_size / 8;
}

/* Send, waiting (bounded) while the queues are full. */
static int send_waiting(struct ust_relay *r, struct dir_file *f, size_t len,
			const struct ust_relay_index *ix, int timeout_ms)
{
	int ret;

	while ((ret = ust_relay_send_packet(f->rs, f->bytes + f->at, len, ix, 0)) == UST_RELAY_FULL)
		if (ust_relay_flush(r, timeout_ms) != UST_RELAY_OK && !ust_relay_broken(r))
			return UST_RELAY_FULL;
	return ret;
}

/* Every packet of every file, oldest timestamp_begin first. */
static int send_packets(struct ust_relay *r, struct dir_file *files, size_t n, int timeout_ms,
			uint64_t *packets)
{
	struct ust_relay_index ix, best_ix;
	struct dir_file *best;
	size_t i, len, best_len = 0;
	int ret;

	for (;;) {
		best = NULL;
		for (i = 0; i < n; i++) {
			if (files[i].at >= files[i].len || !(len = next_packet(&files[i], &ix)))
				continue;
			if (!best || ix.timestamp_begin < best_ix.timestamp_begin) {
				best = &files[i];
				best_ix = ix;
				best_len = len;
			}
		}
		if (!best)
			return UST_RELAY_OK;
		ret = send_waiting(r, best, best_len, &best_ix, timeout_ms);
		if (ret)
			return ret;
		best->at += best_len;
		(*packets)++;
	}
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* The stream files of `dir` (regular, not hidden, not metadata), added. */
static int add_files(struct ust_relay *r, int dfd, const char *dir, const char *path,
		     struct dir_file **files, size_t *n)
{
	struct dirent **names;
	int nr, i, ret = 0;

	nr = scandir(dir, &names, NULL, by_name);
	if (nr < 0)
		return -errno;
	*files = calloc((size_t)nr + 1, sizeof(**files));
	for (i = 0; i < nr; i++) {
		const char *name = names[i]->d_name;
		struct dir_file *f = &(*files)[*n];

		if (!ret && *files && names[i]->d_type == DT_REG && name[0] != '.' &&
		    strcmp(name, "metadata")) {
			f->bytes = slurp(dfd, name, &f->len);
			f->rs = f->bytes ? ust_relay_add_stream(r, path, name) : NULL;
			ret = !f->bytes ? -EIO : !f->rs ? UST_RELAY_BROKEN : 0;
			(*n)++;
		}
		free(names[i]);
	}
	free(names);
	return *files ? ret : -ENOMEM;
}

int ust_relay_send_dir(struct ust_relay *r, const char *dir, const char *path, int timeout_ms,
		       uint64_t *packets)
{
	struct ust_relay_stream *meta;
	struct dir_file *files = NULL;
	size_t n = 0, i, mlen = 0;
	uint8_t *text = NULL;
	int dfd, ret;

	*packets = 0;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	text = slurp(dfd, "metadata", &mlen);
	meta = text ? ust_relay_add_stream(r, path, "metadata") : NULL;
	ret = !text ? -EIO : !meta ? UST_RELAY_BROKEN : 0;
	if (!ret)
		ret = add_files(r, dfd, dir, path, &files, &n);
	if (!ret)
		ret = ust_relay_streams_sent(r);
	if (!ret)
		ret = ust_relay_send_metadata_wait(meta, text, mlen, timeout_ms);
	if (!ret)
		ret = send_packets(r, files, n, timeout_ms, packets);
	if (!ret)
		ret = ust_relay_flush(r, timeout_ms);
	for (i = 0; i < n; i++)
		free(files[i].bytes);
	free(files);
	free(text);
	close(dfd);
	return ret;
}
