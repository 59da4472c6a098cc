/*
 * functions-sqlite.c - the workload of bench/functions.sh: a CPU-bound
 * run of SQLite (the amalgamation, built from source with and without
 * -finstrument-functions) on an in-memory database.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   functions-sqlite ROWS
 *
 * inserts ROWS rows (integer, text, real) in one transaction, indexes the
 * text column, then runs grouping, sorting, LIKE and join queries; prints
 * one checksum so that nothing is optimised away and runs can be compared,
 * and on stderr "cpu USER SYS": its own CPU time in seconds, hooks
 * included, helper processes and threads of a tracer excluded.
 */
#include <stdio.h>
#include <stdlib.h>

#include "report-cpu.h"

#include "sqlite3.h"

static void die(sqlite3 *db, const char *what)
{
	fprintf(stderr, "functions-sqlite: %s: %s\n", what, sqlite3_errmsg(db));
	exit(1);
}

static void exec(sqlite3 *db, const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		die(db, sql);
}

static void fill(sqlite3 *db, long rows)
{
	sqlite3_stmt *st;
	unsigned long long x = 88172645463325252ull;
	char text[32];
	long i;

	exec(db, "CREATE TABLE t(a INTEGER, b TEXT, c REAL)");
	if (sqlite3_prepare_v2(db, "INSERT INTO t VALUES(?, ?, ?)", -1, &st,
			       NULL) != SQLITE_OK)
		die(db, "prepare");
	exec(db, "BEGIN");
	for (i = 0; i < rows; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		snprintf(text, sizeof(text), "k%llu", x % 5000);
		sqlite3_bind_int64(st, 1, (sqlite3_int64)(x % 100000));
		sqlite3_bind_text(st, 2, text, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(st, 3, (double)(x % 1000) / 7.0);
		if (sqlite3_step(st) != SQLITE_DONE)
			die(db, "insert");
		sqlite3_reset(st);
	}
	exec(db, "COMMIT");
	sqlite3_finalize(st);
	exec(db, "CREATE INDEX tb ON t(b)");
}

static double query(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	double sum = 0;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		die(db, sql);
	while (sqlite3_step(st) == SQLITE_ROW)
		sum += sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return sum;
}


int main(int argc, char **argv)
{
	long rows = argc > 1 ? atol(argv[1]) : 100000;
	double sum = 0;
	sqlite3 *db;

	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		die(db, "open");
	fill(db, rows);
	sum += query(db, "SELECT sum(c) FROM t GROUP BY b");
	sum += query(db, "SELECT a FROM t ORDER BY c, a LIMIT 1000");
	sum += query(db, "SELECT count(*) FROM t WHERE b LIKE 'k12%'");
	sum += query(db, "SELECT avg(x.c) FROM t AS x JOIN t AS y ON x.b = y.b "
			 "WHERE x.a < 2000 AND y.a < 2000");
	printf("%.3f\n", sum);
	sqlite3_close(db);
	report_cpu();
	return 0;
}
