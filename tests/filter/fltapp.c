/*
 * fltapp.c - the program the filter tests trace.
 *
 *	fltapp once		emit the ten rounds (n = 0..9) of every
 *				fa: event and fb:note once, then exit
 *	fltapp serve ANSWER	write "pid PID" to ANSWER (a FIFO), then
 *				for each line "emit BASE" of its input emit
 *				the ten rounds with n = BASE + 0..9 and
 *				answer "ok" ("fork BASE": the same in a
 *				child process, waited for); exit at end of
 *				input
 *	fltapp threads T N R	T threads each emit N fa:ints then N
 *				fa:floats, in R rounds 1.1 s apart,
 *				n = 1000000 thread + 1000 round + 0..N-1
 *	fltapp edges		emit four fa:text whose strings end where
 *				their page ends, an inaccessible page after
 *				(a read past a NUL faults): n = 0 "hello
 *				edge", other ""; n = 1 "", count 7; n = 2
 *				3000 'x'; n = 3 "hello", other "tail";
 *				after = 100 + n
 *
 * Round i holds values a test can compute: ints i8 = 25i - 100, u8 = 28i,
 * i16 = 7000i - 32000, u16 = 7000i, i32 = 400000000i - 2000000000,
 * u32 = 470000000i, i64 = (i - 5) 10^18, u64 = 2 10^18 i (above INT64_MAX
 * from i = 5), be32 = -1000i, be64 = i << 40; floats f = i / 2,
 * d = 1.25 (i - 4.5); text count = i, text = texts[i], after = i * i,
 * other = others[i]; enums s = states[i % 4], d = i % 3 - 1; arrays
 * mac[j] = 10i + j, matrix[r][c] = i (r + 1) - c, names = {texts[i],
 * odd/even, "x"}, tail = i; seqs vals = {10i, 10i + 1, ...} of i % 4,
 * words = {texts[i], "w1"} of i % 3, tail = i; structs origin = {i, -i},
 * box = {texts[i], {{i, i + 1}, {-i, 2i}}, 0x10000 i}, tail = i;
 * variants kind NUM, TEXT, PAIR for i % 3 = 0, 1, 2, value 1000i,
 * texts[i] or {i, -i}, tail = i.
 *
 * With FLTAPP_MARKER set, it creates that file first: a test checks that
 * a refused command line started nothing.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "fa_tp.h"
#include "fb_tp.h"

static const char *const texts[10] = {
	"alpha", "beta", "gamma", "delta", "epsilon", "a*b", "", "hello world",
	"hello*", "zeta",
};
static const char *const others[10] = {
	"alpha", "x", "gamma", "y", "epsilon", "a*b", "", "z", "hello*", NULL,
};
static const enum fa_state states[4] = {
	FA_STATE_IDLE, FA_STATE_BUSY, FA_STATE_BLOCKED, FA_STATE_DEAD,
};
static const enum fa_kind kinds[3] = { FA_KIND_NUM, FA_KIND_TEXT, FA_KIND_PAIR };

static void emit_scalars(uint32_t n, int i)
{
	trace_fa_ints(n, (int8_t)(25 * i - 100), (uint8_t)(28 * i),
		      (int16_t)(7000 * i - 32000), (uint16_t)(7000 * i),
		      (int32_t)(400000000ll * i - 2000000000), 470000000u * (uint32_t)i,
		      (int64_t)(i - 5) * 1000000000000000000ll,
		      2000000000000000000ull * (uint64_t)i, -1000 * i,
		      (uint64_t)i << 40);
	trace_fa_floats(n, (float)i / 2, 1.25 * (i - 4.5));
	trace_fa_text(n, i, texts[i], (uint32_t)(i * i), others[i]);
	trace_fb_note(texts[i], n);
	trace_fa_enums(n, states[i % 4], (enum fa_delta)(i % 3 - 1));
}

static void emit_compounds(uint32_t n, int i)
{
	uint8_t mac[6];
	int16_t matrix[2][3];
	const char *names[3] = { texts[i], i % 2 ? "odd" : "even", "x" };
	int32_t vals[3];
	const char *words[2] = { texts[i], "w1" };
	struct fa_point origin = { (int16_t)i, (int16_t)-i };
	struct fa_structs_box box = {
		texts[i], { { (int16_t)i, (int16_t)(i + 1) },
			    { (int16_t)-i, (int16_t)(2 * i) } },
		0x10000u * (uint32_t)i,
	};
	union fa_variants_value v;
	int j, r;

	for (j = 0; j < 6; j++)
		mac[j] = (uint8_t)(10 * i + j);
	for (r = 0; r < 2; r++)
		for (j = 0; j < 3; j++)
			matrix[r][j] = (int16_t)(i * (r + 1) - j);
	for (j = 0; j < 3; j++)
		vals[j] = 10 * i + j;
	trace_fa_arrays(n, mac, matrix, names, i);
	trace_fa_seqs(n, (size_t)(i % 4), vals, (size_t)(i % 3), words, i);
	trace_fa_structs(n, &origin, &box, (int16_t)i);
	if (i % 3 == 0)
		v.NUM = 1000 * i;
	else if (i % 3 == 1)
		v.TEXT = texts[i];
	else
		v.PAIR = origin;
	trace_fa_variants(n, kinds[i % 3], &v, (uint8_t)i);
}

static void emit_rounds(uint32_t base)
{
	int i;

	for (i = 0; i < 10; i++) {
		emit_scalars(base + (uint32_t)i, i);
		emit_compounds(base + (uint32_t)i, i);
	}
}

/* A fork child traces into a session of its own, with its parent's filters. */
static int emit_in_child(uint32_t base)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		emit_rounds(base);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return 0;
}

static int serve(const char *answer_path)
{
	FILE *answer = fopen(answer_path, "w");
	char line[64];
	unsigned int base;

	if (!answer)
		return 1;
	fprintf(answer, "pid %d\n", (int)getpid());
	fflush(answer);
	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "emit %u", &base) == 1)
			emit_rounds(base);
		else if (sscanf(line, "fork %u", &base) != 1 || emit_in_child(base))
			return 1;
		fprintf(answer, "ok\n");
		fflush(answer);
	}
	return 0;
}

static unsigned int per_thread, rounds;

static void *thread_main(void *arg)
{
	struct timespec pause = { 1, 100000000 };
	uint32_t r, k;

	for (r = 0; r < rounds; r++) {
		uint32_t base = 1000000u * (uint32_t)(uintptr_t)arg + 1000u * r;

		if (r)
			nanosleep(&pause, NULL);	/* a new window of the limit */
		for (k = 0; k < per_thread; k++)
			trace_fa_ints(base + k, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
		for (k = 0; k < per_thread; k++)
			trace_fa_floats(base + k, 0, 0);
	}
	return NULL;
}

static int threads(unsigned int nr)
{
	pthread_t t[16];
	unsigned int i;

	if (nr > 16)
		return 1;
	for (i = 0; i < nr; i++)
		if (pthread_create(&t[i], NULL, thread_main, (void *)(uintptr_t)(i + 1)))
			return 1;
	for (i = 0; i < nr; i++)
		pthread_join(t[i], NULL);
	return 0;
}

/*
 * A copy of `str` ending where its page ends, the next page inaccessible;
 * exits on failure.  Never unmapped (the program ends soon).
 */
static const char *at_page_end(const char *str)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = strlen(str) + 1;
	size_t pages = (len + page - 1) / page + 1;
	char *m = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED || mprotect(m + (pages - 1) * page, page, PROT_NONE)) {
		perror("fltapp: mmap");
		exit(1);
	}
	return memcpy(m + (pages - 1) * page - len, str, len);
}

static int edges(void)
{
	static char xs[3001];

	memset(xs, 'x', 3000);
	trace_fa_text(0, 0, at_page_end("hello edge"), 100, at_page_end(""));
	trace_fa_text(1, 7, at_page_end(""), 101, at_page_end("o"));
	trace_fa_text(2, 0, at_page_end(xs), 102, at_page_end("o"));
	trace_fa_text(3, 0, at_page_end("hello"), 103, at_page_end("tail"));
	return 0;
}

int main(int argc, char **argv)
{
	const char *marker = getenv("FLTAPP_MARKER");

	if (marker) {
		FILE *f = fopen(marker, "w");

		if (f)
			fclose(f);
	}
	if (argc == 2 && !strcmp(argv[1], "once")) {
		emit_rounds(0);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "edges"))
		return edges();
	if (argc == 3 && !strcmp(argv[1], "serve"))
		return serve(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "threads")) {
		per_thread = (unsigned int)atoi(argv[3]);
		rounds = (unsigned int)atoi(argv[4]);
		return threads((unsigned int)atoi(argv[2]));
	}
	fprintf(stderr, "usage: fltapp once | serve ANSWER | threads T N R | edges\n");
	return 2;
}
