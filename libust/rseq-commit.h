/*
 * rseq-commit.h - copy a record into a per-CPU buffer and commit it in one
 * restartable sequence (x86-64).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * How invariants I2 and I3 of abi/shm.h are kept.  Why rseq: a per-CPU
 * buffer is written only by threads running on that CPU.  A restartable sequence (rseq(2)) is a block of instructions the
 * kernel aborts, by moving the instruction pointer to an abort handler,
 * whenever the thread is preempted, migrated or interrupted by a signal
 * inside it.  So a block that
 *
 *	1. checks it still runs on the CPU whose buffer it writes,
 *	2. checks the buffer's committed offset is still the one it read,
 *	3. copies the whole record to that offset,
 *	4. stores the new {offset, last_ts} pair with ONE instruction,
 *
 * either runs from 1 to 4 without any other writer of that buffer running
 * in between, or has no visible effect at all (the bytes it copied lie
 * above the committed offset, where the next writer overwrites them).
 * There is no LOCK-prefixed instruction, and there is never a record that
 * is reserved but incomplete: a thread killed at any instruction leaves
 * the buffer consistent, and a signal handler that traces simply makes the
 * interrupted writer retry.
 *
 * The commit store (step 4) is a 16-byte `movdqa`, a single instruction,
 * so the pair can never be half written as seen from this CPU.  It is
 * I2's release: its partner is the consumer's acquire load of `offset`
 * (consumer/drain.c, consumer/snapshot.c):
 * on x86-64 stores become visible in program order, so a consumer that
 * sees the new offset also sees the record bytes copied before it.
 *
 * The descriptor (struct rseq_cs) lives in a writable data section and the
 * abort handler in a separate text section, preceded by the RSEQ_SIG
 * signature the kernel checks before it jumps there.
 */
#ifndef UST_RSEQ_COMMIT_H
#define UST_RSEQ_COMMIT_H

#include <stddef.h>
#include <stdint.h>
#include <emmintrin.h>
#include <sys/rseq.h>

#include <ust/tracepoint.h>

/*
 * Start of a sequence: its descriptor (struct rseq_cs: version, flags,
 * start, length, abort address) in a data section, arming it by storing
 * the descriptor's address in the rseq area, then the two checks.  Label
 * 1 is the start; any preemption, migration or signal between 1 and 2
 * sends the thread to 4, the abort handler.
 */
#define UST_RSEQ_BEGIN							\
	".pushsection __ust_rseq_cs, \"aw\"\n\t"				\
	".balign 32\n\t"							\
	"3:\n\t"								\
	".long 0, 0\n\t"							\
	".quad 1f, (2f - 1f), 4f\n\t"					\
	".popsection\n\t"							\
	"leaq 3b(%%rip), %%rax\n\t"						\
	"movq %%rax, %c[cs_off](%[rs])\n\t"	/* arm the sequence */	\
	"1:\n\t"								\
	"cmpl %[cpu], %c[cpu_off](%[rs])\n\t"	/* still on this CPU? */	\
	"jnz %l[abort]\n\t"							\
	"cmpq %[expect], (%[commit])\n\t"	/* nobody committed since? */	\
	"jnz %l[abort]\n\t"

/*
 * End of a sequence: the commit, one 16-byte store, is its last
 * instruction (label 2 follows it); the abort handler sits in its own text
 * section behind the RSEQ_SIG signature the kernel checks.
 */
#define UST_RSEQ_COMMIT_END						\
	"movdqa %[pair], (%[commit])\n\t"	/* commit: one store */		\
	"2:\n\t"								\
	".pushsection __ust_rseq_failure, \"ax\"\n\t"			\
	".byte 0x0f, 0xb9, 0x3d\n\t"		/* ud1 with the signature */	\
	".long 0x53053053\n\t"						\
	"4:\n\t"								\
	"jmp %l[abort]\n\t"							\
	".popsection\n\t"

/* The operands both sequences read; the copy plan is their only memory input. */
#define UST_RSEQ_INPUTS							\
	[rs] "r" (rs), [cpu] "r" (cpu), [commit] "r" (commit),		\
	[expect] "r" (expect), [pair] "x" (pair), [plan] "r" (plan),	\
	[cs_off] "i" (offsetof(struct rseq, rseq_cs)),			\
	[cpu_off] "i" (offsetof(struct rseq, cpu_id))

/* What one record commit copies: a header built on the stack, then the
 * caller's payload segments, all contiguous at `dst`. */
struct ust_copy_plan {
	void *dst;
	const void *hdr;
	size_t hdr_len;
	const struct ust_seg *segs;
	size_t nr_segs;
};

/*
 * What a packet switch writes: first the new packet's sequence number,
 * with one 8-byte store, so that a switch aborted half-way through the
 * header always leaves a header that differs from the slot's previous
 * one (the consumer's torn-copy check in overwrite mode compares them);
 * then two blocks to two places.
 */
struct ust_copy2_plan {
	void *dst1;
	const void *src1;
	size_t len1;
	void *dst2;
	const void *src2;
	size_t len2;
	uint64_t *seq_dst;
	uint64_t seq;
};

/*
 * Copy plan->hdr and then each of plan->segs to plan->dst, and store
 * `pair` (new offset, new last timestamp) at `commit`, provided the thread
 * is on `cpu` and *commit still equals `expect`.  Returns 0 when
 * committed, -1 when aborted (the caller re-reads everything and retries).
 */
static inline __attribute__((always_inline))
int ust_rseq_copy_commit(struct rseq *rs, uint32_t cpu, uint64_t *commit,
			 uint64_t expect, __m128i pair,
			 const struct ust_copy_plan *plan)
{
	__asm__ __volatile__ goto(
		UST_RSEQ_BEGIN
		"movq 0(%[plan]), %%rdi\n\t"
		"movq 8(%[plan]), %%rsi\n\t"
		"movq 16(%[plan]), %%rcx\n\t"
		"movq 24(%[plan]), %%r8\n\t"
		"movq 32(%[plan]), %%r9\n\t"
		"5:\n\t"				/* copy rcx bytes rsi -> rdi: */
		"cmpq $16, %%rcx\n\t"			/* 16 at a time, */
		"jb 11f\n\t"
		"movdqu (%%rsi), %%xmm15\n\t"
		"movdqu %%xmm15, (%%rdi)\n\t"
		"addq $16, %%rsi\n\t"
		"addq $16, %%rdi\n\t"
		"subq $16, %%rcx\n\t"
		"jmp 5b\n\t"
		"11:\n\t"				/* then 8, */
		"testb $8, %%cl\n\t"
		"jz 6f\n\t"
		"movq (%%rsi), %%rax\n\t"
		"movq %%rax, (%%rdi)\n\t"
		"addq $8, %%rsi\n\t"
		"addq $8, %%rdi\n\t"
		"6:\n\t"
		"testb $4, %%cl\n\t"			/* 4, */
		"jz 9f\n\t"
		"movl (%%rsi), %%eax\n\t"
		"movl %%eax, (%%rdi)\n\t"
		"addq $4, %%rsi\n\t"
		"addq $4, %%rdi\n\t"
		"9:\n\t"
		"testb $2, %%cl\n\t"			/* 2, */
		"jz 10f\n\t"
		"movw (%%rsi), %%ax\n\t"
		"movw %%ax, (%%rdi)\n\t"
		"addq $2, %%rsi\n\t"
		"addq $2, %%rdi\n\t"
		"10:\n\t"
		"testb $1, %%cl\n\t"			/* 1 */
		"jz 7f\n\t"
		"movb (%%rsi), %%al\n\t"
		"movb %%al, (%%rdi)\n\t"
		"incq %%rdi\n\t"
		"7:\n\t"				/* next segment, if any */
		"testq %%r9, %%r9\n\t"
		"jz 8f\n\t"
		"movq (%%r8), %%rsi\n\t"
		"movq 8(%%r8), %%rcx\n\t"
		"addq $16, %%r8\n\t"
		"decq %%r9\n\t"
		"jmp 5b\n\t"
		"8:\n\t"
		UST_RSEQ_COMMIT_END
		: /* no outputs */
		: UST_RSEQ_INPUTS
		: "memory", "cc", "rax", "rcx", "rsi", "rdi", "r8", "r9", "xmm15"
		: abort);
	return 0;
abort:
	return -1;
}

/*
 * The same sequence for closing a packet: copy two blocks to two places
 * (the new packet's header, the old packet's closing fields) and commit.
 */
static inline int ust_rseq_copy2_commit(struct rseq *rs, uint32_t cpu,
					uint64_t *commit, uint64_t expect,
					__m128i pair,
					const struct ust_copy2_plan *plan)
{
	__asm__ __volatile__ goto(
		UST_RSEQ_BEGIN
		"movq 48(%[plan]), %%rdi\n\t"
		"movq 56(%[plan]), %%rax\n\t"
		"movq %%rax, (%%rdi)\n\t"		/* the new sequence number */
		"movq 0(%[plan]), %%rdi\n\t"
		"movq 8(%[plan]), %%rsi\n\t"
		"movq 16(%[plan]), %%rcx\n\t"
		"rep movsb\n\t"		/* restartable: IP stays in the block */
		"movq 24(%[plan]), %%rdi\n\t"
		"movq 32(%[plan]), %%rsi\n\t"
		"movq 40(%[plan]), %%rcx\n\t"
		"rep movsb\n\t"
		UST_RSEQ_COMMIT_END
		: /* no outputs */
		: UST_RSEQ_INPUTS
		: "memory", "cc", "rax", "rcx", "rsi", "rdi"
		: abort);
	return 0;
abort:
	return -1;
}

#endif /* UST_RSEQ_COMMIT_H */
