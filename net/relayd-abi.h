/*
 * relayd-abi.h - what lttng-relayd (2.11 to 2.13) expects on its control,
 * data and live ports, as sizes and offsets.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Learnt from lttng-tools 2.13's src/common/sessiond-comm/relayd.h,
 * src/common/relayd/relayd.c, src/bin/lttng-relayd/{main,live,session,
 * stream}.c, src/common/index/ctf-index.h and lttng-viewer-abi.h.  Every
 * integer on these ports is big endian; every structure is packed.
 *
 * Control port (one connection per consumer): a 24-byte header
 *	u64 circuit_id (0), u64 data_size, u32 cmd, u32 cmd_version (0)
 * then `data_size` bytes of payload; the relay answers every command but
 * SEND_METADATA.  If a command is malformed or comes in the wrong state
 * (e.g. ADD_STREAM before CREATE_SESSION), the relay does not answer: it
 * closes the connection.
 *
 * Data port (one connection per consumer): per packet, a 32-byte header
 *	u64 circuit_id (0), u64 relay stream handle, u64 net_seq_num,
 *	u32 data_size, u32 padding_size
 * then `data_size` bytes; the relay appends them and `padding_size` zero
 * bytes of its own to the stream's file.  Nothing is answered.
 */
#ifndef UST_NET_RELAYD_ABI_H
#define UST_NET_RELAYD_ABI_H

/* Protocol version we speak: the 2.11 variants of the commands. */
#define RELAYD_PROTO_MAJOR		2
#define RELAYD_PROTO_MINOR		11

/* Control commands (lttng's enum lttcomm_relayd_command). */
enum relayd_cmd {
	RELAYD_CMD_ADD_STREAM		= 1,
	RELAYD_CMD_CREATE_SESSION	= 2,
	RELAYD_CMD_VERSION		= 5,
	RELAYD_CMD_SEND_METADATA	= 6,
	RELAYD_CMD_CLOSE_STREAM		= 7,
	RELAYD_CMD_DATA_PENDING		= 8,
	RELAYD_CMD_QUIESCENT_CONTROL	= 9,
	RELAYD_CMD_SEND_INDEX		= 13,
	RELAYD_CMD_STREAMS_SENT		= 16,
	RELAYD_CMD_ROTATE_STREAMS	= 18,
	RELAYD_CMD_CREATE_TRACE_CHUNK	= 19,
};

/* Reply codes (lttng's enum lttng_error_code). */
#define RELAYD_OK			10
#define RELAYD_ERR_UNK			11
#define RELAYD_ERR_FATAL		25

#define RELAYD_CTRL_HDR_SIZE		24
#define RELAYD_DATA_HDR_SIZE		32
/* The relay refuses a control payload above this (lttng's default). */
#define RELAYD_CTRL_MAX_PAYLOAD		(128u << 20)

/*
 * VERSION: payload and reply are both u32 major, u32 minor.  The relay
 * answers its own version and then speaks min(its minor, ours).
 */
#define RELAYD_VERSION_SIZE		8

/*
 * CREATE_SESSION, 2.11 form (59 bytes then the three names):
 *	u32 session_name_len, u32 hostname_len, u32 base_path_len (each
 *	counting its NUL), u32 live_timer (us, 0 = not live), u8 snapshot,
 *	u8 session_name_contains_creation_time, u8 sessiond_uuid[16],
 *	u64 session_id, u64 creation_time (s since the epoch),
 *	u8 current_chunk_id.is_set, u64 current_chunk_id.value,
 *	then session_name\0 hostname\0 base_path\0.
 * The relay's output directory for it is HOSTNAME/BASE_PATH when a base
 * path is given, else HOSTNAME/SESSION_NAME-YYYYMMDD-HHMMSS (creation
 * time, relay's local time).  The uuid must not be all zeros.
 * Reply (16 bytes then the path): u64 relay session id, u32 ret_code,
 * u32 output_path_len (with its NUL), output_path.
 */
#define RELAYD_CREATE_SESSION_FIXED	59
#define RELAYD_CREATE_SESSION_REPLY	16

/*
 * CREATE_TRACE_CHUNK (20 bytes then the name): u64 chunk_id,
 * u64 creation_timestamp, u32 override_name_len (0: no name).
 * Streams can only be added once the session has a current trace chunk.
 * The relay keeps one chunk per (sessiond uuid, session id, chunk id):
 * a second connection announcing the same triple shares the first one's
 * chunk, hence its directory.  That is how several consumers write ONE
 * session, as lttng's 32-bit, 64-bit and kernel consumers do.  The
 * first chunk of a session writes in the session directory itself.
 * Reply: u32 ret_code.
 */
#define RELAYD_CREATE_CHUNK_SIZE	20

/*
 * ADD_STREAM, 2.11 form (32 bytes then the names): u32 channel_name_len,
 * u32 pathname_len (with NULs), u64 tracefile_size (0 = one file),
 * u64 tracefile_count, u64 trace_chunk_id, then channel_name\0 path\0.
 * The stream's file is SESSION_DIR/PATH/CHANNEL_NAME; a channel named
 * "metadata" is the metadata stream of the trace at PATH.  The index of
 * a data stream goes to SESSION_DIR/PATH/index/CHANNEL_NAME.idx.
 * Reply (12 bytes): u64 stream handle, u32 ret_code.
 */
#define RELAYD_ADD_STREAM_FIXED		32
#define RELAYD_ADD_STREAM_REPLY		12
#define RELAYD_METADATA_CHANNEL		"metadata"
#define RELAYD_STREAM_NAME_MAX		264	/* channel name, NUL included */

/*
 * STREAMS_SENT: no payload.  Publishes the streams added so far on this
 * connection to live viewers.  Reply: u32 ret_code.
 */

/*
 * SEND_METADATA: u64 stream handle, u32 padding_size, then the bytes.
 * The relay appends them (and `padding_size` zeros) to the metadata file.
 * No reply.
 */
#define RELAYD_METADATA_HDR_SIZE	12

/*
 * SEND_INDEX (80 bytes, index format 1.1): u64 relay stream handle,
 * u64 net_seq_num (of the data packet it describes), u64 packet_size
 * (bits, padding included), u64 content_size (bits), u64 timestamp_begin,
 * u64 timestamp_end, u64 events_discarded, u64 stream_id (CTF stream
 * class), u64 stream_instance_id, u64 packet_seq_num.
 * The relay pairs it with the data packet of the same net_seq_num
 * (either may come first) and writes the index entry once both are in.
 * A live "beacon" is an index with packet_size 0: "nothing in this
 * stream up to timestamp_end"; the relay keeps it only for a stream that
 * already has data, and lets viewers go past the quiet stream.
 * Reply: u32 ret_code.
 */
#define RELAYD_INDEX_SIZE		80

/*
 * CLOSE_STREAM: u64 stream handle, u64 last_net_seq_num (the last one
 * sent; the relay closes once it has received the data up to it).
 * DATA_PENDING: the same two fields; reply u32 1 while the relay has not
 * written (data and index) up to that packet, 0 once it has.
 * QUIESCENT_CONTROL: u64 stream handle; reply u32 ret_code once every
 * earlier command of the connection was handled.
 */
#define RELAYD_CLOSE_STREAM_SIZE	16
#define RELAYD_DATA_PENDING_SIZE	16
#define RELAYD_QUIESCENT_SIZE		8

#define RELAYD_GENERIC_REPLY		4

/*
 * ROTATE_STREAMS (13 bytes then 16 per stream): u32 stream_count,
 * u8 new_chunk_id.is_set, u64 new_chunk_id.value (packed), then per
 * stream u64 stream handle, u64 rotate_at_seq_num (the CTF packet_seq_num
 * of the first packet of the next chunk; ignored for metadata).
 * Rotating to no chunk (is_set 0) is how a session ends cleanly: a live
 * viewer still reading a stream keeps reading the chunk it was in to
 * its end.  Without it, closing a stream (CLOSE_STREAM, or the control
 * connection going away) drops that stream's chunk, and a viewer that
 * has not read everything yet is told the stream hung up: lttng's
 * `destroy` rotates to no chunk for the same reason.
 * Reply: u32 ret_code.
 */
#define RELAYD_ROTATE_FIXED		13

/*
 * Live port (lttng-viewer-abi.h): a 16-byte header
 *	u64 data_size, u32 cmd, u32 cmd_version (0)
 * then the request, whose size is fixed per command (the relay ignores
 * data_size and reads exactly that many bytes).
 */
#define VIEWER_CMD_HDR_SIZE		16

enum viewer_cmd {
	VIEWER_CMD_CONNECT		= 1,
	VIEWER_CMD_LIST_SESSIONS	= 2,
	VIEWER_CMD_ATTACH_SESSION	= 3,
	VIEWER_CMD_GET_NEXT_INDEX	= 4,
	VIEWER_CMD_GET_PACKET		= 5,
	VIEWER_CMD_GET_METADATA		= 6,
	VIEWER_CMD_GET_NEW_STREAMS	= 7,
	VIEWER_CMD_CREATE_SESSION	= 8,
	VIEWER_CMD_DETACH_SESSION	= 9,
};

/* The viewer protocol version we speak (what babeltrace2 2.0 sends). */
#define VIEWER_PROTO_MAJOR		2
#define VIEWER_PROTO_MINOR		4

/*
 * CONNECT (20 bytes, both ways): u64 viewer_session_id (set by the
 * relay in its reply), u32 major, u32 minor, u32 type (1 = command).
 */
#define VIEWER_CONNECT_SIZE		20
#define VIEWER_CLIENT_COMMAND		1

/* CREATE_SESSION: no request; reply u32 status (1 = ok). */
#define VIEWER_CREATE_SESSION_OK	1

/*
 * LIST_SESSIONS: no request; reply u32 count, then per session (339
 * bytes): u64 id, u32 live_timer, u32 clients, u32 streams,
 * char hostname[64], char session_name[255].  A session whose control
 * connection closed is not listed.
 */
#define VIEWER_SESSION_SIZE		339
#define VIEWER_HOST_NAME_MAX		64
#define VIEWER_NAME_MAX			255

/*
 * ATTACH_SESSION (20 bytes): u64 session id, u64 offset (unused),
 * u32 seek (1 = from the beginning, 2 = from now).  Reply (8 bytes):
 * u32 status, u32 streams_count, then per stream (4371 bytes): u64 id,
 * u64 ctf_trace_id, u32 metadata_flag, char path_name[4096],
 * char channel_name[255].
 * GET_NEW_STREAMS (8 bytes): u64 session id; reply like ATTACH's.
 */
#define VIEWER_ATTACH_SIZE		20
#define VIEWER_STREAMS_REPLY		8
#define VIEWER_STREAM_SIZE		4371
#define VIEWER_PATH_MAX			4096
#define VIEWER_SEEK_BEGINNING		1

enum viewer_attach_status {
	VIEWER_ATTACH_OK		= 1,
	VIEWER_ATTACH_ALREADY		= 2,
	VIEWER_ATTACH_UNK		= 3,
	VIEWER_ATTACH_NOT_LIVE		= 4,
	VIEWER_ATTACH_SEEK_ERR		= 5,
	VIEWER_ATTACH_NO_SESSION	= 6,
};

enum viewer_new_streams_status {
	VIEWER_NEW_STREAMS_OK		= 1,
	VIEWER_NEW_STREAMS_NO_NEW	= 2,
	VIEWER_NEW_STREAMS_ERR		= 3,
	VIEWER_NEW_STREAMS_HUP		= 4,
};

/*
 * GET_NEXT_INDEX (8 bytes): u64 stream id.  Reply (64 bytes):
 * u64 offset (bytes, in the stream file), u64 packet_size (bits),
 * u64 content_size (bits), u64 timestamp_begin, u64 timestamp_end,
 * u64 events_discarded, u64 stream_id (CTF class), u32 status, u32 flags.
 */
#define VIEWER_INDEX_REPLY		64

enum viewer_index_status {
	VIEWER_INDEX_OK			= 1,
	VIEWER_INDEX_RETRY		= 2,	/* nothing yet */
	VIEWER_INDEX_HUP		= 3,	/* the stream ended */
	VIEWER_INDEX_ERR		= 4,
	VIEWER_INDEX_INACTIVE		= 5,	/* beacon: quiet up to timestamp_end */
	VIEWER_INDEX_EOF		= 6,
};

#define VIEWER_FLAG_NEW_METADATA	(1u << 0)
#define VIEWER_FLAG_NEW_STREAM		(1u << 1)

/*
 * GET_PACKET (20 bytes): u64 stream id, u64 offset, u32 len (bytes).
 * Reply (12 bytes then len bytes when ok): u32 status, u32 len, u32 flags.
 */
#define VIEWER_GET_PACKET_SIZE		20
#define VIEWER_PACKET_REPLY		12

enum viewer_packet_status {
	VIEWER_PACKET_OK		= 1,
	VIEWER_PACKET_RETRY		= 2,
	VIEWER_PACKET_ERR		= 3,
	VIEWER_PACKET_EOF		= 4,
};

/*
 * GET_METADATA (8 bytes): u64 metadata stream id.  Reply (12 bytes then
 * len bytes): u64 len, u32 status.  "No new metadata" comes before a
 * closed metadata stream is forgotten; after that the stream id is
 * unknown and the status is ERR.
 */
#define VIEWER_METADATA_REPLY		12

enum viewer_metadata_status {
	VIEWER_METADATA_OK		= 1,
	VIEWER_METADATA_NO_NEW		= 2,
	VIEWER_METADATA_ERR		= 3,
};

#endif /* UST_NET_RELAYD_ABI_H */
