/*
 * fuzz_common.h - what every libFuzzer target of tests/fuzz/ shares: a
 * reader that turns the fuzzer's bytes into parameters, a deterministic
 * expander for long messages, the walk over a primitive's implementations,
 * and the failure report.
 *
 * Everything here is endian-clean on purpose: the committed corpus is
 * replayed on big-endian ppc64 too, so a multi-byte parameter is always
 * assembled from bytes in a fixed order, never read through a pointer cast.
 * A failure prints what went wrong and calls abort(): libFuzzer (and the
 * native replay program) report that as a crash and keep the input.
 */
#ifndef INCORE_FUZZ_COMMON_H
#define INCORE_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "incore/incore.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- failure ------------------------------------------------------------ */

#define FZ_FAIL(...)                                                              \
    do {                                                                          \
        fprintf(stderr, "FUZZ CHECK FAILED at %s:%d: ", __FILE__, __LINE__);       \
        fprintf(stderr, __VA_ARGS__);                                             \
        fputc('\n', stderr);                                                      \
        abort();                                                                  \
    } while (0)

#define FZ_CHECK(cond, ...)                                                       \
    do {                                                                          \
        if (!(cond))                                                              \
            FZ_FAIL(__VA_ARGS__);                                                 \
    } while (0)

/* Byte comparison that dumps the first difference. */
static inline void fz_check_mem(const void *got, const void *want, size_t n, const char *file,
                                int line, const char *what)
{
    const uint8_t *a = (const uint8_t *)got, *b = (const uint8_t *)want;
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            fprintf(stderr, "FUZZ CHECK FAILED at %s:%d: %s: %zu bytes differ from byte %zu "
                            "(got %02x, want %02x)\n", file, line, what, n, i, a[i], b[i]);
            abort();
        }
    }
}
#define FZ_CHECK_MEM(got, want, n, what) fz_check_mem((got), (want), (n), __FILE__, __LINE__, (what))

/* ---- reading the input ---------------------------------------------------
 * Parameters are taken from the front of the input; an exhausted input
 * reads as zeros, so every input is valid and short ones still run.      */
typedef struct {
    const uint8_t *p;
    size_t n;
} fz_in;

static inline uint8_t fz_u8(fz_in *in)
{
    if (in->n == 0)
        return 0;
    in->n--;
    return *in->p++;
}

static inline uint32_t fz_u16(fz_in *in)
{
    uint32_t lo = fz_u8(in);
    return lo | (uint32_t)fz_u8(in) << 8;
}

static inline uint32_t fz_u32(fz_in *in)
{
    uint32_t lo = fz_u16(in);
    return lo | fz_u16(in) << 16;
}

static inline uint64_t fz_u64(fz_in *in)
{
    uint64_t lo = fz_u32(in);
    return lo | (uint64_t)fz_u32(in) << 32;
}

/* A value in 0..max. */
static inline size_t fz_upto(fz_in *in, size_t max)
{
    uint32_t v = max < 256 ? fz_u8(in) : fz_u16(in);
    return (size_t)(v % ((uint32_t)max + 1));
}

/* Copy n bytes (zeros past the end of the input). */
static inline void fz_take(fz_in *in, uint8_t *out, size_t n)
{
    size_t k = n < in->n ? n : in->n;
    if (k)
        memcpy(out, in->p, k);
    if (n > k)
        memset(out + k, 0, n - k);
    in->p += k;
    in->n -= k;
}

/* ---- messages ------------------------------------------------------------
 * A message is either the rest of the input (short, fuzzer-shaped bytes)
 * or, when the fuzzer asks for it, a long one expanded from a seed by
 * xorshift64*, so that the corpus stays small while the bulk paths (8 and
 * 16 blocks in flight, GCM's 4 KiB chunks, CRC folding) still run.       */
#define FZ_MAX_EXPANDED 20000

static inline uint64_t fz_xs(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * UINT64_C(0x2545F4914F6CDD1D);
}

static inline void fz_expand(uint8_t *out, size_t n, uint64_t seed)
{
    uint64_t s = seed | 1;
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)(fz_xs(&s) >> 56);
}

/* The message: malloc'd (at least 1 byte, so callers may index it), its
 * length in *len.  Consumes the rest of the input in the short form. */
static inline uint8_t *fz_message(fz_in *in, size_t *len)
{
    uint8_t mode = fz_u8(in);
    uint8_t *m;
    if (mode & 1) {
        size_t n = fz_u16(in) % (FZ_MAX_EXPANDED + 1);
        uint64_t seed = fz_u64(in);
        m = (uint8_t *)malloc(n + 1);
        if (m == NULL)
            abort();
        fz_expand(m, n, seed);
        *len = n;
    } else {
        size_t n = in->n;
        m = (uint8_t *)malloc(n + 1);
        if (m == NULL)
            abort();
        fz_take(in, m, n);
        *len = n;
    }
    return m;
}

/* ---- split points ---------------------------------------------------------
 * Up to FZ_MAX_CUTS cut positions in 0..len, sorted, for streaming a
 * message in pieces; pieces may be empty.  With `align` > 1 every cut is
 * rounded down to a multiple of it (modes whose calls chain only on whole
 * blocks).                                                                  */
#define FZ_MAX_CUTS 8

typedef struct {
    size_t cut[FZ_MAX_CUTS + 2];   /* cut[0] = 0, ..., cut[n + 1] = len */
    size_t n;
} fz_splits;

static inline void fz_read_splits(fz_in *in, fz_splits *s, size_t len, size_t align)
{
    size_t n = fz_u8(in) % (FZ_MAX_CUTS + 1);
    s->n = n;
    s->cut[0] = 0;
    for (size_t i = 1; i <= n; i++) {
        size_t c = len ? (size_t)(fz_u32(in) % (len + 1)) : 0;
        if (align > 1)
            c -= c % align;
        s->cut[i] = c;
    }
    s->cut[n + 1] = len;
    /* insertion sort: n <= 8 */
    for (size_t i = 2; i <= n; i++)
        for (size_t j = i; j > 1 && s->cut[j - 1] > s->cut[j]; j--) {
            size_t t = s->cut[j];
            s->cut[j] = s->cut[j - 1];
            s->cut[j - 1] = t;
        }
}

/* The usual tail of an input: the bytes of one split (read first, so the
 * message may take all the rest), then the message; returns the message
 * and its cuts at byte granularity. */
static inline uint8_t *fz_split_message(fz_in *in, size_t *len, fz_splits *s)
{
    uint8_t cutbytes[1 + 4 * FZ_MAX_CUTS];
    fz_take(in, cutbytes, sizeof cutbytes);
    uint8_t *msg = fz_message(in, len);
    fz_in cin = { cutbytes, sizeof cutbytes };
    fz_read_splits(&cin, s, *len, 1);
    return msg;
}

/* Pieces: for (i = 0; i <= s.n; i++) piece [s.cut[i], s.cut[i+1]). */
#define FZ_PIECE_OFF(s, i) ((s)->cut[(i)])
#define FZ_PIECE_LEN(s, i) ((s)->cut[(i) + 1] - (s)->cut[(i)])

/* ---- implementations -----------------------------------------------------
 * The portable implementation is the last entry of every table. */
static inline size_t fz_portable(const char *prim)
{
    size_t n = ic_impl_count(prim);
    FZ_CHECK(n > 0, "primitive %s has no implementation", prim);
    FZ_CHECK(ic_impl_available(prim, n - 1), "portable %s not available", prim);
    return n - 1;
}

static inline void fz_select(const char *prim, size_t i)
{
    const char *name = ic_impl_name(prim, i);
    int rc = ic_impl_select(prim, name);
    FZ_CHECK(rc == IC_OK, "ic_impl_select(%s, %s) = %d", prim, name ? name : "(null)", rc);
}

static inline void fz_select_auto(const char *prim)
{
    int rc = ic_impl_select(prim, "auto");
    FZ_CHECK(rc == IC_OK, "ic_impl_select(%s, auto) = %d", prim, rc);
}

#define FZ_CANARY 0xA5

/* Buffers at a fuzzer-chosen misalignment: a malloc'd block of len + 64
 * bytes, *base to free, the returned pointer at base + off (off < 64). */
static inline uint8_t *fz_alloc_at(size_t len, unsigned off, uint8_t **base)
{
    *base = (uint8_t *)malloc(len + 64);
    if (*base == NULL)
        abort();
    memset(*base, FZ_CANARY, len + 64);
    return *base + (off % 64);
}

/* Nothing of such a block was written outside [off, off + len). */
static inline void fz_check_canary(const uint8_t *base, unsigned off, size_t len, const char *what)
{
    off %= 64;
    for (size_t i = 0; i < (size_t)len + 64; i++)
        if ((i < off || i >= off + len) && base[i] != FZ_CANARY)
            FZ_FAIL("%s: byte %zd relative to the output (of %zu bytes) was written",
                    what, (ptrdiff_t)i - (ptrdiff_t)off, len);
}

#endif
