/*
 * test_hash_diff.c - every hardware implementation of SHA-1, SHA-256,
 * SHA-512, CRC-32 and CRC-32C against the portable one, byte by byte:
 *
 *  1. every length 0..2048 at every alignment 0..63 (one call each; the
 *     reference is computed once per length, from the same bytes copied to
 *     an aligned buffer, so a backend that depends on its alignment shows);
 *  2. random lengths up to 4 MiB at random alignments;
 *  3. streaming, split at random points into up to 17 pieces;
 *  4. CRC: ic_crc*_combine over random splits and huge lengths (its mulmod
 *     is the selected implementation's), and an empty input returns the
 *     register without reading memory (the pointer is a PROT_NONE page).
 *
 * The reference is the table's last entry ("port" / "slice8", needs == 0):
 * SHA digests through the public API with that entry selected, CRCs by its
 * op called directly.  tests/test_sha.c and tests/test_crc.c do the known
 * answers and the edge cases; this file is the exhaustive sweep over lengths
 * and split points, for every architecture's backends.
 *
 * Environment: INCORE_TEST_EMULATED=1 (make test-x86emu: an emulator runs
 * ~100x slower) sweeps alignments 0 and 61 only and random lengths up to 64
 * KiB; INCORE_TEST_IMPLS="prim/impl,..." restricts the implementations
 * under test (that leg: the AVX-512 ones).  Both are printed when used.
 */
#define _GNU_SOURCE   /* MAP_ANONYMOUS */
#include "testlib.h"
#include "core/internal.h"
#include "crc/crc_impl.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAXLEN 2048
#define NALIGN 64
#define BIGMAX (4u << 20)

static uint8_t *data;        /* big_max() + 128 random bytes */
static uint8_t *work;        /* as many, for misaligned copies */
static int emulated;
static const char *only;

static size_t big_max(void) { return emulated ? 65536 : BIGMAX; }

/* The alignments swept for each length. */
static int align_ok(size_t a)
{
    return !emulated || a == 0 || a == 61;
}

static int wanted(const char *prim, const char *impl)
{
    char key[64];
    if (!only)
        return 1;
    snprintf(key, sizeof key, "%s/%s", prim, impl);
    size_t n = strlen(key);
    for (const char *s = only; (s = strstr(s, key)) != NULL; s += n)
        if ((s == only || s[-1] == ',') && (s[n] == 0 || s[n] == ','))
            return 1;
    return 0;
}

/* Run fn with each available implementation of prim selected, except the
 * portable last entry and those INCORE_TEST_IMPLS leaves out; only those
 * run are recorded as exercised.  Returns how many ran. */
static int each_impl(const char *prim, void (*fn)(const char *impl, void *arg), void *arg)
{
    int ran = 0;
    size_t n = ic_impl_count(prim);
    for (size_t i = 0; i + 1 < n; i++) {
        const char *name = ic_impl_name(prim, i);
        if (!ic_impl_available(prim, i) || !wanted(prim, name))
            continue;
        if (!CHECK(ic_impl_select(prim, name) == IC_OK, "select %s/%s", prim, name))
            continue;
        fn(name, arg);
        tl_exercised(prim, name);
        printf("%s/%s: swept\n", prim, name);
        ran++;
    }
    CHECK(ic_impl_select(prim, NULL) == IC_OK, "%s: back to automatic selection", prim);
    return ran;
}

/* ---- SHA ------------------------------------------------------------------ */

typedef struct {
    const char *prim;
    ic_hash_alg alg;      /* the variant swept (one per compression function) */
    const char *port;
} shafam;

static const shafam shas[] = {
    { "sha1", IC_HASH_SHA1, "port" },
    { "sha256", IC_HASH_SHA256, "port" },
    { "sha512", IC_HASH_SHA512, "port" },
};

static void sha_ref(const shafam *f, const char *impl, uint8_t *out, const uint8_t *m, size_t len)
{
    CHECK(ic_impl_select(f->prim, f->port) == IC_OK, "select %s/%s", f->prim, f->port);
    int st = ic_hash(f->alg, out, IC_HASH_MAX_DIGEST_SIZE, m, len);
    if (st != IC_OK)
        CHECK(0, "%s/port len %zu: status %d", f->prim, len, st);
    CHECK(ic_impl_select(f->prim, impl) == IC_OK, "select %s/%s", f->prim, impl);
}

static void sha_stream(ic_hash_alg alg, uint8_t *out, const uint8_t *m, size_t len)
{
    ic_hash_ctx c;
    size_t pos = 0;
    int pieces = 1 + (int)tl_rand_below(17);
    int st = ic_hash_init(&c, alg);
    for (int i = 0; st == IC_OK && i < pieces - 1 && pos < len; i++) {
        size_t step = tl_rand_below(4) == 0 ? tl_rand_below(300) : tl_rand_below((uint32_t)(len - pos) + 1);
        if (step > len - pos)
            step = len - pos;
        st = ic_hash_update(&c, m + pos, step);
        pos += step;
    }
    if (st == IC_OK)
        st = ic_hash_update(&c, m + pos, len - pos);
    if (st == IC_OK)
        st = ic_hash_final(&c, out, IC_HASH_MAX_DIGEST_SIZE);
    CHECK(st == IC_OK, "streamed len %zu: status %d", len, st);
}

static void sha_impl(const char *impl, void *arg)
{
    const shafam *f = arg;
    size_t dn = ic_hash_digest_size(f->alg);
    uint8_t want[IC_HASH_MAX_DIGEST_SIZE], got[IC_HASH_MAX_DIGEST_SIZE];
    int bad = 0;

    /* 1. every length at every alignment */
    for (size_t len = 0; len <= MAXLEN; len++) {
        sha_ref(f, impl, want, data, len);
        for (size_t a = 0; a < NALIGN; a++) {
            if (!align_ok(a))
                continue;
            memmove(work + a, data, len);
            int st = ic_hash(f->alg, got, sizeof got, work + a, len);
            if ((st != IC_OK || memcmp(got, want, dn) != 0) && bad++ < 5)
                printf("  %s/%s: len %zu align %zu wrong\n", f->prim, impl, len, a);
        }
    }
    CHECK(bad == 0, "%s/%s: %d length/alignment pairs wrong (0..%d x 0..%d)", f->prim, impl, bad,
          MAXLEN, NALIGN - 1);
    /* 2, 3. random lengths, one call and streamed */
    for (int i = 0; i < 12; i++) {
        size_t len = i < 4 ? tl_rand_below((uint32_t)big_max() + 1) : tl_rand_below(70000);
        size_t a = tl_rand_below(NALIGN);
        sha_ref(f, impl, want, data + a, len);
        CHECK(ic_hash(f->alg, got, sizeof got, data + a, len) == IC_OK, "%s/%s len %zu", f->prim,
              impl, len);
        CHECK_MEM(got, want, dn, "%s/%s len %zu align %zu", f->prim, impl, len, a);
        sha_stream(f->alg, got, data + a, len);
        CHECK_MEM(got, want, dn, "%s/%s streamed len %zu align %zu", f->prim, impl, len, a);
    }
    for (int i = 0; i < 200; i++) {
        size_t len = tl_rand_below(5000), a = tl_rand_below(NALIGN);
        sha_ref(f, impl, want, data + a, len);
        sha_stream(f->alg, got, data + a, len);
        CHECK_MEM(got, want, dn, "%s/%s streamed len %zu align %zu", f->prim, impl, len, a);
    }
}

/* ---- CRC ------------------------------------------------------------------ */

typedef struct {
    const char *prim;
    ic_prim id;
    uint32_t (*crc)(uint32_t, const uint8_t *, size_t);
    uint32_t (*combine)(uint32_t, uint32_t, uint64_t);
    const ic_impl *impls;
    size_t nimpls;
} crcfam;

static crcfam crcs[2];

static const ic_crc_ops *port_ops(const crcfam *f)
{
    return (const ic_crc_ops *)f->impls[f->nimpls - 1].ops;
}

static uint32_t ref_crc(const crcfam *f, uint32_t crc, const uint8_t *p, size_t n)
{
    return ~port_ops(f)->update(~crc, p, n);
}

static void crc_impl(const char *impl, void *arg)
{
    const crcfam *f = arg;
    const ic_crc_ops *ops = (const ic_crc_ops *)ic_ops(f->id);
    int bad = 0;

    /* 1. every length at every alignment, raw register; the reference
     * grows one byte per length */
    for (size_t a = 0; a < NALIGN; a++) {
        if (!align_ok(a))
            continue;
        uint32_t reg = (uint32_t)tl_rand64(), want = reg;
        memcpy(work + a, data, MAXLEN);
        for (size_t len = 0; len <= MAXLEN; len++) {
            if (ops->update(reg, work + a, len) != want && bad++ < 5)
                printf("  %s/%s: len %zu align %zu wrong\n", f->prim, impl, len, a);
            want = port_ops(f)->update(want, data + len, 1);
        }
    }
    CHECK(bad == 0, "%s/%s: %d length/alignment pairs wrong (0..%d x 0..%d)", f->prim, impl, bad,
          MAXLEN, NALIGN - 1);
    /* 2. random lengths up to BIGMAX */
    for (int i = 0; i < 40; i++) {
        size_t len = i < 8 ? tl_rand_below((uint32_t)big_max() + 1) : tl_rand_below(200000);
        size_t a = tl_rand_below(NALIGN);
        uint32_t init = (uint32_t)tl_rand64();
        uint32_t got = f->crc(init, data + a, len), want = ref_crc(f, init, data + a, len);
        CHECK(got == want, "%s/%s len %zu align %zu: %08x vs %08x", f->prim, impl, len, a, got, want);
    }
    /* crc32c/vpclmul512 from 2 KiB: 256 bytes, then blocks of up to 16
     * steps of 376 bytes (256 folded, 3 x 40 on CRC32 chains), joined into
     * the next 256 bytes, which must follow; every seventh length from 2
     * to 11 KiB (every block size, and one or two blocks), then lengths
     * around whole blocks of 16 and a long one */
    for (size_t len = 2048; len < 11264 && len <= big_max(); len += 7) {
        size_t a = len % NALIGN;
        uint32_t init = (uint32_t)len * 0x9E3779B9u;
        uint32_t got = f->crc(init, data + a, len), want = ref_crc(f, init, data + a, len);
        if (!CHECK(got == want, "%s/%s len %zu align %zu: %08x vs %08x", f->prim, impl, len, a, got, want))
            break;
    }
    static const size_t blocks[] = { 2047, 2048, 6527, 6528, 6529, 12544, 12545, 18560, 200013 };
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        size_t len = blocks[i];
        if (len > big_max())
            continue;
        uint32_t init = (uint32_t)tl_rand64();
        uint32_t got = f->crc(init, data + 3, len), want = ref_crc(f, init, data + 3, len);
        CHECK(got == want, "%s/%s len %zu: %08x vs %08x", f->prim, impl, len, got, want);
    }
    /* 3. streamed */
    for (int i = 0; i < 300; i++) {
        size_t len = i < 20 ? tl_rand_below((uint32_t)big_max() + 1) : tl_rand_below(9000);
        size_t a = tl_rand_below(NALIGN), pos = 0;
        uint32_t c = 0;
        int pieces = 1 + (int)tl_rand_below(17);
        for (int k = 0; k < pieces - 1; k++) {
            size_t step = tl_rand_below((uint32_t)(len - pos) + 1);
            c = f->crc(c, data + a + pos, step);
            pos += step;
        }
        c = f->crc(c, data + a + pos, len - pos);
        uint32_t want = ref_crc(f, 0, data + a, len);
        CHECK(c == want, "%s/%s streamed len %zu in %d pieces: %08x vs %08x", f->prim, impl, len,
              pieces, c, want);
    }
    /* 4. combine over random splits, with this implementation's mulmod */
    for (int i = 0; i < 300; i++) {
        size_t len = i < 10 ? tl_rand_below((uint32_t)big_max() + 1) : tl_rand_below(10000);
        size_t cut = tl_rand_below((uint32_t)len + 1);
        uint32_t a = f->crc(0, data, cut), b = f->crc(0, data + cut, len - cut);
        uint32_t got = f->combine(a, b, len - cut), want = ref_crc(f, 0, data, len);
        CHECK(got == want, "%s/%s combine len %zu cut %zu: %08x vs %08x", f->prim, impl, len, cut,
              got, want);
    }
    if (ops->mulmod) {
        /* the carry-less mulmod against the portable one: the same combine
         * with the portable entry selected, for lengths up to 2^63 */
        const char *port = f->impls[f->nimpls - 1].name;
        for (int i = 0; i < 200; i++) {
            uint32_t a = (uint32_t)tl_rand64(), b = (uint32_t)tl_rand64();
            uint64_t l2 = tl_rand64() >> tl_rand_below(64);
            uint32_t got = f->combine(a, b, l2);
            CHECK(ic_impl_select(f->prim, port) == IC_OK, "select %s/%s", f->prim, port);
            uint32_t want = f->combine(a, b, l2);
            CHECK(ic_impl_select(f->prim, impl) == IC_OK, "select %s/%s", f->prim, impl);
            CHECK(got == want, "%s/%s combine len2 %llu: %08x vs %08x", f->prim, impl,
                  (unsigned long long)l2, got, want);
        }
    }
    /* 4. empty input: the register back, memory untouched */
    long pg = sysconf(_SC_PAGESIZE);
    uint8_t *none = mmap(NULL, (size_t)pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (CHECK(none != MAP_FAILED, "mmap")) {
        for (int i = 0; i < 8; i++) {
            uint32_t reg = (uint32_t)tl_rand64();
            CHECK(ops->update(reg, none + i, 0) == reg, "%s/%s empty input", f->prim, impl);
            CHECK(f->crc(reg, none + i, 0) == reg, "%s/%s API empty input", f->prim, impl);
        }
        munmap(none, (size_t)pg);
    }
}

int main(void)
{
    emulated = getenv("INCORE_TEST_EMULATED") != NULL;
    only = getenv("INCORE_TEST_IMPLS");
    if (only && !*only)
        only = NULL;
    if (emulated)
        printf("INCORE_TEST_EMULATED: alignments 0 and 61 only; random lengths up to 64 KiB\n");
    if (only)
        printf("INCORE_TEST_IMPLS: only %s\n", only);

    data = malloc(big_max() + 128);
    work = malloc(big_max() + 128);
    tl_rand_bytes(data, big_max() + 128);

    int ran = 0;
    for (size_t i = 0; i < sizeof shas / sizeof shas[0]; i++)
        ran += each_impl(shas[i].prim, sha_impl, (void *)&shas[i]);

    crcs[0] = (crcfam){ "crc32", IC_PRIM_CRC32, ic_crc32, ic_crc32_combine, ic_impls_crc32,
                        ic_nimpls_crc32 };
    crcs[1] = (crcfam){ "crc32c", IC_PRIM_CRC32C, ic_crc32c, ic_crc32c_combine, ic_impls_crc32c,
                        ic_nimpls_crc32c };
    for (int i = 0; i < 2; i++)
        ran += each_impl(crcs[i].prim, crc_impl, &crcs[i]);
    /* A restricted run must have found what it was told to test. */
    CHECK(!only || ran > 0, "INCORE_TEST_IMPLS=%s: none of them available", only ? only : "");
    printf("%d implementations swept\n", ran);

    /* the portable entries themselves: one sanity check each, so a build
     * with no hardware backend still counts checks */
    CHECK(ic_crc32(0, (const uint8_t *)"123456789", 9) == IC_CRC32_CHECK, "crc32 check value");
    CHECK(ic_crc32c(0, (const uint8_t *)"123456789", 9) == IC_CRC32C_CHECK, "crc32c check value");
    free(data);
    free(work);
    return tl_finish();
}
