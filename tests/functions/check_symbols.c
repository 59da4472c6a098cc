/*
 * check_symbols.c - unit tests of the symbolizer (analysis/symbols.c) on
 * real objects: this PIE program and the shared library libcallee.so,
 * described as libust's statedump would describe them.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "callee.h"
#include "check_run.h"
#include "analysis/symbols.h"

/* What the statedump records for one loaded object. */
struct loaded {
	const char *want;	/* substring of the path to find */
	uint64_t baddr, memsz;
	char path[4096];
};

static int find_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct loaded *l = arg;
	uint64_t lo = UINT64_MAX, hi = 0;
	int i;

	if (l->want[0] ? !strstr(info->dlpi_name, l->want) : info->dlpi_name[0] != '\0')
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		lo = ph->p_vaddr < lo ? ph->p_vaddr : lo;
		hi = ph->p_vaddr + ph->p_memsz > hi ? ph->p_vaddr + ph->p_memsz : hi;
	}
	l->baddr = info->dlpi_addr + lo;
	l->memsz = hi - lo;
	if (l->want[0])
		snprintf(l->path, sizeof(l->path), "%s", info->dlpi_name);
	else
		l->path[readlink("/proc/self/exe", l->path, sizeof(l->path) - 1)] = '\0';
	return 1;
}

static struct loaded loaded(const char *want)
{
	struct loaded l = { .want = want };

	ck_assert_int_eq(dl_iterate_phdr(find_object, &l), 1);
	return l;
}

int main_for_test(void);

static __attribute__((noinline)) int local_function(int x)
{
	return x + 2;
}

static struct sym_table *table_with(const struct loaded *l)
{
	struct sym_table *t = sym_table_new();

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(sym_table_add(t, l->baddr, l->memsz, l->path, true), 0);
	return t;
}

static const char *fmt(struct sym_table *t, uint64_t addr)
{
	static char buf[512];

	sym_format(t, addr, buf, sizeof(buf));
	return buf;
}

START_TEST(shared_library_function)
{
	struct loaded l = loaded("libcallee.so");
	struct sym_table *t = table_with(&l);
	uint64_t addr = (uintptr_t)&callee_work;
	struct sym_info si;

	ck_assert_str_eq(fmt(t, addr), "callee_work");
	ck_assert_str_eq(fmt(t, addr + 3), "callee_work+0x3");
	ck_assert_int_eq(sym_resolve(t, addr, &si), 0);
	ck_assert_str_eq(si.object, l.path);
	sym_table_free(t);
}
END_TEST

START_TEST(pie_program_function)
{
	struct loaded l = loaded("");
	struct sym_table *t = table_with(&l);

	ck_assert_str_eq(fmt(t, (uintptr_t)&local_function), "local_function");
	ck_assert_str_eq(fmt(t, (uintptr_t)&main_for_test), "main_for_test");
	sym_table_free(t);
}
END_TEST

START_TEST(unknown_address)
{
	struct loaded l = loaded("libcallee.so");
	struct sym_table *t = table_with(&l);

	char want[32];

	ck_assert_str_eq(fmt(t, 0x10), "0x10");
	/* After a dlclose, the library's addresses belong to nothing. */
	sym_table_remove(t, l.baddr);
	snprintf(want, sizeof(want), "0x%" PRIx64, (uint64_t)(uintptr_t)&callee_work);
	ck_assert_str_eq(fmt(t, (uintptr_t)&callee_work), want);
	sym_table_free(t);
}
END_TEST

START_TEST(build_id_mismatch_is_not_trusted)
{
	struct loaded l = loaded("libcallee.so");
	struct sym_table *t = table_with(&l);
	uint64_t addr = (uintptr_t)&callee_work;
	static const uint8_t wrong[20] = { 0xde, 0xad };
	char want[128];

	/* The file on disk is not the one that was loaded: no symbols from it. */
	sym_table_set_build_id(t, l.baddr, wrong, sizeof(wrong));
	snprintf(want, sizeof(want), "libcallee.so+0x%" PRIx64, addr - l.baddr);
	ck_assert_str_eq(fmt(t, addr), want);
	sym_table_free(t);
}
END_TEST

START_TEST(object_moved_to_another_address)
{
	struct loaded l = loaded("libcallee.so");
	struct sym_table *t = table_with(&l);
	uint64_t addr = (uintptr_t)&callee_work;

	ck_assert_str_eq(fmt(t, addr), "callee_work");
	/* dlclose then dlopen elsewhere: the same file, a new address. */
	sym_table_remove(t, l.baddr);
	ck_assert_int_eq(sym_table_add(t, l.baddr + 0x100000, l.memsz, l.path,
				       true), 0);
	ck_assert_str_eq(fmt(t, addr + 0x100000), "callee_work");
	sym_table_free(t);
}
END_TEST

int main_for_test(void)
{
	return local_function(1) + callee_work(1);
}

int main(void)
{
	const struct check_case cases[] = {
		{ "resolve", NULL, NULL, 0, {
			shared_library_function, pie_program_function,
			unknown_address, build_id_mismatch_is_not_trusted,
			object_moved_to_another_address, NULL } },
	};

	return CHECK_RUN_CASES("symbols", cases);
}
