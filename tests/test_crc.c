/*
 * test_crc.c - CRC-32 and CRC-32C.
 *
 *  1. known answers from tests/vectors/crc_kat.txt (CRC catalogue check
 *     values, RFC 3720 B.4, zlib-generated strings, 1e6 x "a"), through the
 *     public API with every implementation, in one call and chained;
 *  2. the family's own self-tests (ic_kat_crc32/ic_kat_crc32c, ic_selftest);
 *  3. the portable op against a bit-at-a-time CRC written here from the
 *     definition, so a wrong slice-by-8 table entry cannot hide;
 *  4. differential: every available implementation against the portable one
 *     (the table's last entry, needs == 0, called directly): random lengths
 *     0..4096 and large ones, all alignments 0..15, random initial
 *     registers, chaining split at random points;
 *  5. combine on random splits, huge lengths (associativity), len2 == 0;
 *  6. zlib itself, loaded with dlopen("libz.so.1"): crc32() and
 *     crc32_combine64() on random data/lengths.  On native x86-64 zlib must
 *     be there (a failed dlopen is a failure); on the QEMU cross legs the
 *     target's libz is usually absent, and the comparison is reported as not
 *     run (and counts nothing) - the known answers still decide correctness;
 *  7. edge cases of the zlib conventions (NULL buffer, zero length) and reads
 *     ending at a PROT_NONE guard page (no read past buf + len).
 */
#define _GNU_SOURCE   /* MAP_ANONYMOUS, dlopen */
#include "testlib.h"
#include "core/internal.h"
#include "crc/crc_impl.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct {
    const char *prim;     /* registry name, also the KAT field name */
    ic_prim id;
    uint32_t poly;        /* reflected polynomial */
    uint32_t (*crc)(uint32_t, const uint8_t *, size_t);
    uint32_t (*combine)(uint32_t, uint32_t, uint64_t);
    const ic_impl *impls;
    size_t nimpls;
} fam;

static fam fams[2];

#define BIG (1u << 20)
static uint8_t *rnd;      /* BIG + 64 random bytes */

/* ---- independent references ------------------------------------------ */

/* Bit-at-a-time CRC straight from the definition (raw register in/out). */
static uint32_t crc_bitwise(uint32_t poly, uint32_t reg, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        reg ^= p[i];
        for (int b = 0; b < 8; b++)
            reg = (reg >> 1) ^ ((reg & 1) ? poly : 0);
    }
    return reg;
}

/* The portable implementation, called directly: the reference for (4). */
static const ic_crc_ops *ref_ops(const fam *f)
{
    return (const ic_crc_ops *)f->impls[f->nimpls - 1].ops;
}
static uint32_t ref_crc(const fam *f, uint32_t crc, const uint8_t *p, size_t n)
{
    return ~ref_ops(f)->update(~crc, p, n);
}

/* Up to here every length is tried at every alignment: over four 8-chunk
 * batches of a vpmsumd/PCLMUL folding loop, plus head and tail. */
#define EXHAUST_LEN 600
#define MID_LEN 10240

static size_t rand_len(void)
{
    return tl_rand_below(4097);
}

/* ---- 1. known answers ---------------------------------------------------- */

#define MAX_KATS 32
typedef struct {
    uint8_t *msg;
    size_t len;
    uint32_t want[2];     /* CRC32, CRC32C */
    long line;
} kat;
static kat kats[MAX_KATS];
static int nkats;

static void load_kat_file(void)
{
    tl_rsp *r = tl_rsp_openf("%s/crc_kat.txt", tl_data_dir());
    tl_rec rec;
    while (tl_rsp_next(r, &rec) && nkats < MAX_KATS) {
        const char *mhex = tl_get(&rec, "MSG"), *rep = tl_get(&rec, "REPEAT");
        const char *c32 = tl_get(&rec, "CRC32"), *c32c = tl_get(&rec, "CRC32C");
        if (!CHECK(mhex && rep && c32 && c32c, "crc_kat.txt line %ld: incomplete record", rec.line))
            continue;
        size_t mlen;
        uint8_t *m = tl_hex_alloc(mhex, &mlen);
        long n = strtol(rep, NULL, 10);
        if (!CHECK(m && n > 0, "crc_kat.txt line %ld: bad MSG/REPEAT", rec.line)) {
            free(m);
            continue;
        }
        kat *k = &kats[nkats++];
        k->len = mlen * (size_t)n;
        k->msg = malloc(k->len + 1);
        for (long i = 0; i < n; i++)
            memcpy(k->msg + (size_t)i * mlen, m, mlen);
        k->want[0] = (uint32_t)strtoul(c32, NULL, 16);
        k->want[1] = (uint32_t)strtoul(c32c, NULL, 16);
        k->line = rec.line;
        free(m);
    }
    tl_rsp_close(r);
    CHECK(nkats == 14, "crc_kat.txt: %d records read, 14 expected", nkats);
}

static void kat_impl(const fam *f, const char *impl)
{
    int c = f->id == IC_PRIM_CRC32C;
    for (int i = 0; i < nkats; i++) {
        const kat *k = &kats[i];
        uint32_t got = f->crc(0, k->msg, k->len);
        CHECK(got == k->want[c], "%s/%s crc_kat.txt line %ld one call: got %08x want %08x",
              f->prim, impl, k->line, got, k->want[c]);
        size_t cut = tl_rand_below((uint32_t)k->len + 1);
        got = f->crc(f->crc(0, k->msg, cut), k->msg + cut, k->len - cut);
        CHECK(got == k->want[c], "%s/%s crc_kat.txt line %ld chained at %zu: got %08x want %08x",
              f->prim, impl, k->line, cut, got, k->want[c]);
    }
}

/* ---- 2. self-tests ------------------------------------------------------- */

static void selftest_impl(const fam *f, const char *impl)
{
    int fails = f->id == IC_PRIM_CRC32 ? ic_kat_crc32() : ic_kat_crc32c();
    CHECK(fails == 0, "ic_kat_%s with %s: %d failures", f->prim, impl, fails);
    CHECK(ic_selftest(f->prim) == IC_OK, "ic_selftest(%s) with %s", f->prim, impl);
}

/* ---- 3. portable vs bit-at-a-time ---------------------------------------- */

static void test_portable_vs_bitwise(const fam *f)
{
    const ic_impl *last = &f->impls[f->nimpls - 1];
    CHECK(last->needs == 0 && strcmp(last->name, "slice8") == 0,
          "%s: last table entry is the portable slice8 (got %s, needs %llx)",
          f->prim, last->name, (unsigned long long)last->needs);
    /* Every single byte value with a random register: covers all of T[0],
     * then blocks of 8..64 bytes, which reach every T[k] at random indexes. */
    for (unsigned b = 0; b < 256; b++) {
        uint8_t byte = (uint8_t)b;
        uint32_t reg = (uint32_t)tl_rand64();
        CHECK(ref_ops(f)->update(reg, &byte, 1) == crc_bitwise(f->poly, reg, &byte, 1),
              "%s portable byte %02x", f->prim, b);
    }
    for (int i = 0; i < 400; i++) {
        size_t n = i < 100 ? (size_t)i : rand_len();
        size_t off = tl_rand_below(16);
        uint32_t reg = (uint32_t)tl_rand64();
        uint32_t got = ref_ops(f)->update(reg, rnd + off, n);
        uint32_t want = crc_bitwise(f->poly, reg, rnd + off, n);
        CHECK(got == want, "%s portable vs bitwise len %zu off %zu: %08x vs %08x",
              f->prim, n, off, got, want);
    }
}

/* ---- 4. differential ----------------------------------------------------- */

static void diff_impl(const fam *f, const char *impl)
{
    const ic_crc_ops *ops = (const ic_crc_ops *)ic_ops(f->id);

    /* Raw op, every alignment, random lengths and registers. */
    for (size_t off = 0; off < 16; off++) {
        for (int i = 0; i < 40; i++) {
            size_t n = i < 20 ? (size_t)i * 7 : rand_len();
            uint32_t reg = (uint32_t)tl_rand64();
            uint32_t got = ops->update(reg, rnd + off, n);
            uint32_t want = ref_ops(f)->update(reg, rnd + off, n);
            CHECK(got == want, "%s/%s raw off %zu len %zu reg %08x: %08x vs %08x",
                  f->prim, impl, off, n, reg, got, want);
        }
    }
    /* Every length 0..EXHAUST_LEN at every alignment 0..15: folding
     * backends switch paths at a length threshold, at the first 16-byte
     * boundary, at each 16-byte chunk and at their batch size (8 chunks =
     * 128 bytes for vpmsumd: one batch, a batch plus a partial one, several
     * batches plus single chunks plus a tail), so every combination of
     * head, batches, single chunks and tail is hit. */
    int bad = 0;
    for (size_t off = 0; off < 16; off++)
        for (size_t n = 0; n <= EXHAUST_LEN; n++) {
            uint32_t reg = (uint32_t)tl_rand64();
            if (ops->update(reg, rnd + off, n) != ref_ops(f)->update(reg, rnd + off, n) && bad++ < 5)
                printf("  %s/%s: len %zu off %zu reg %08x wrong\n", f->prim, impl, n, off, reg);
        }
    CHECK(bad == 0, "%s/%s: %d of %d length/alignment pairs wrong", f->prim, impl, bad,
          16 * (EXHAUST_LEN + 1));

    /* Every length from there to MID_LEN at one random alignment each:
     * blocked loops switch on lengths far above EXHAUST_LEN (the fused
     * CRC-32C loop of crc_x86_vpclmul.c takes blocks of 1..16 steps of
     * 272 bytes, 528 to 4608 bytes and more, then a smaller block). */
    bad = 0;
    for (size_t n = EXHAUST_LEN + 1; n <= MID_LEN; n++) {
        size_t off = tl_rand_below(16);
        uint32_t reg = (uint32_t)tl_rand64();
        if (ops->update(reg, rnd + off, n) != ref_ops(f)->update(reg, rnd + off, n) && bad++ < 5)
            printf("  %s/%s: len %zu off %zu reg %08x wrong\n", f->prim, impl, n, off, reg);
    }
    CHECK(bad == 0, "%s/%s: %d of %d lengths %d..%d wrong", f->prim, impl, bad, MID_LEN - EXHAUST_LEN,
          EXHAUST_LEN + 1, MID_LEN);

    /* Public API, large sizes. */
    static const size_t big[] = { 65536 + 13, 65536, 100003, BIG, BIG - 1 };
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        size_t off = tl_rand_below(16);
        if (big[i] + off > BIG + 64)
            off = 0;
        uint32_t got = f->crc(0, rnd + off, big[i]), want = ref_crc(f, 0, rnd + off, big[i]);
        CHECK(got == want, "%s/%s len %zu off %zu: %08x vs %08x", f->prim, impl, big[i], off, got, want);
    }
    /* In-place is meaningless for a CRC (it writes nothing); instead:
     * streaming, split at random points into up to 9 pieces. */
    for (int i = 0; i < 200; i++) {
        size_t n = i < 150 ? rand_len() : 65536 + tl_rand_below(65536);
        size_t off = tl_rand_below(16);
        uint32_t init = i & 1 ? (uint32_t)tl_rand64() : 0;
        uint32_t c = init;
        size_t pos = 0;
        int pieces = 1 + (int)tl_rand_below(9);
        for (int p = 0; p < pieces - 1; p++) {
            size_t step = tl_rand_below((uint32_t)(n - pos) + 1);
            c = f->crc(c, rnd + off + pos, step);
            pos += step;
        }
        c = f->crc(c, rnd + off + pos, n - pos);
        uint32_t want = ref_crc(f, init, rnd + off, n);
        CHECK(c == want, "%s/%s streamed len %zu in %d pieces: %08x vs %08x",
              f->prim, impl, n, pieces, c, want);
    }
    /* Every split point of one short message. */
    uint32_t whole = ref_crc(f, 0, rnd + 3, 100);
    bad = 0;
    for (size_t cut = 0; cut <= 100; cut++)
        bad += f->crc(f->crc(0, rnd + 3, cut), rnd + 3 + cut, 100 - cut) != whole;
    CHECK(bad == 0, "%s/%s: %d of 101 split points wrong", f->prim, impl, bad);
}

/* Everything that runs once per implementation, with it selected. */
static void per_impl(const char *impl, void *arg)
{
    const fam *f = arg;
    CHECK(strcmp(ic_impl_selected(f->prim), impl) == 0, "%s: %s selected", f->prim, impl);
    kat_impl(f, impl);
    selftest_impl(f, impl);
    diff_impl(f, impl);
}

/* ---- 5. combine ------------------------------------------------------------ */

static void test_combine(const fam *f)
{
    for (int i = 0; i < 300; i++) {
        size_t n = i < 250 ? rand_len() : BIG - tl_rand_below(1000);
        size_t cut = tl_rand_below((uint32_t)n + 1);
        uint32_t a = f->crc(0, rnd, cut), b = f->crc(0, rnd + cut, n - cut);
        uint32_t got = f->combine(a, b, n - cut), want = ref_crc(f, 0, rnd, n);
        CHECK(got == want, "%s combine len %zu cut %zu: %08x vs %08x", f->prim, n, cut, got, want);
    }
    /* Empty second part: combine(c, crc(empty) = 0, 0) == c. */
    uint32_t c = (uint32_t)tl_rand64();
    CHECK(f->combine(c, 0, 0) == c, "%s combine with empty B", f->prim);
    /* Empty first part: CRC(B) = combine(0, CRC(B), |B|). */
    uint32_t cb = f->crc(0, rnd, 777);
    CHECK(f->combine(0, cb, 777) == cb, "%s combine with empty A", f->prim);
    /* Huge lengths (never materialised): (A|B)|C == A|(B|C). */
    for (int i = 0; i < 50; i++) {
        uint32_t a = (uint32_t)tl_rand64(), b = (uint32_t)tl_rand64(), cc = (uint32_t)tl_rand64();
        uint64_t lb = tl_rand64() >> (1 + tl_rand_below(63)), lc = tl_rand64() >> (1 + tl_rand_below(63));
        uint32_t left = f->combine(f->combine(a, b, lb), cc, lc);
        uint32_t right = f->combine(a, f->combine(b, cc, lc), lb + lc);
        CHECK(left == right, "%s combine associativity lb %llu lc %llu", f->prim,
              (unsigned long long)lb, (unsigned long long)lc);
    }
    /* Zeros: appending n zero bytes to A equals combine with CRC(n zeros). */
    static uint8_t zeros[5000];
    uint32_t a = f->crc(0, rnd, 1000);
    CHECK(f->combine(a, f->crc(0, zeros, sizeof zeros), sizeof zeros) ==
          f->crc(a, zeros, sizeof zeros), "%s combine with zeros", f->prim);
}

/* ---- 6. zlib via dlopen ------------------------------------------------- */

typedef unsigned long (*zcrc_fn)(unsigned long, const unsigned char *, unsigned);
typedef unsigned long (*zcomb64_fn)(unsigned long, unsigned long, int64_t);

static void test_zlib(void)
{
    void *h = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
#if defined(__x86_64__)
    CHECK(h != NULL, "native x86-64: cannot dlopen libz.so.1 (%s)", dlerror());
#endif
    if (!h) {
        printf("zlib comparison NOT run: libz.so.1 not loadable here\n");
        return;
    }
    zcrc_fn zcrc = (zcrc_fn)(uintptr_t)dlsym(h, "crc32");
    zcomb64_fn zcomb = (zcomb64_fn)(uintptr_t)dlsym(h, "crc32_combine64");
    if (CHECK(zcrc && zcomb, "libz.so.1 lacks crc32/crc32_combine64")) {
        const fam *f = &fams[0];
        for (int i = 0; i < 400; i++) {
            size_t n = i < 380 ? rand_len() : BIG - tl_rand_below(1000);
            size_t off = tl_rand_below(16);
            uint32_t init = i & 1 ? (uint32_t)tl_rand64() : 0;
            uint32_t got = ic_crc32(init, rnd + off, n);
            uint32_t want = (uint32_t)zcrc(init, rnd + off, (unsigned)n);
            CHECK(got == want, "zlib crc32 len %zu off %zu init %08x: %08x vs %08x",
                  n, off, init, got, want);
        }
        CHECK(ic_crc32(0x1234u, NULL, 10) == (uint32_t)zcrc(0x1234u, NULL, 10),
              "NULL buffer as zlib");
        for (int i = 0; i < 200; i++) {
            uint32_t a = (uint32_t)tl_rand64(), b = (uint32_t)tl_rand64();
            uint64_t len2 = i < 100 ? tl_rand_below(100000) : tl_rand64() >> (1 + tl_rand_below(63));
            uint32_t got = f->combine(a, b, len2);
            uint32_t want = (uint32_t)zcomb(a, b, (int64_t)len2);
            CHECK(got == want, "zlib crc32_combine64 len2 %llu: %08x vs %08x",
                  (unsigned long long)len2, got, want);
        }
        printf("zlib comparison run (crc32, crc32_combine64)\n");
    }
    dlclose(h);
}

/* ---- 7. conventions and bounds -------------------------------------------- */

static void test_edges(const fam *f)
{
    CHECK(f->crc(0, NULL, 0) == 0, "%s(0, NULL, 0) == 0", f->prim);
    CHECK(f->crc(0xdeadbeefu, NULL, 0) == 0, "%s(x, NULL, 0) == 0 (zlib)", f->prim);
    CHECK(f->crc(0xdeadbeefu, NULL, 12345) == 0, "%s(x, NULL, n) == 0 (zlib)", f->prim);
    CHECK(f->crc(0xdeadbeefu, rnd, 0) == 0xdeadbeefu, "%s zero length keeps crc", f->prim);
    CHECK(f->crc(0, (const uint8_t *)"123456789", 9) == (f->id == IC_PRIM_CRC32 ? IC_CRC32_CHECK : IC_CRC32C_CHECK),
          "%s check constant", f->prim);

    /* Message ending exactly at an inaccessible page: an over-read faults. */
    long pg = sysconf(_SC_PAGESIZE);
    uint8_t *map = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!CHECK(map != MAP_FAILED, "mmap"))
        return;
    CHECK(mprotect(map + pg, (size_t)pg, PROT_NONE) == 0, "mprotect");
    memcpy(map, rnd, (size_t)pg);
    /* up to 700: past every short path and into the fused CRC-32C loop */
    for (size_t n = 0; n <= 700 && n <= (size_t)pg; n++) {
        const uint8_t *p = map + pg - n;
        CHECK(f->crc(7, p, n) == ref_crc(f, 7, rnd + pg - n, n), "%s guard len %zu", f->prim, n);
    }
    CHECK(f->crc(7, map, (size_t)pg) == ref_crc(f, 7, rnd, (size_t)pg), "%s guard page", f->prim);
    munmap(map, (size_t)pg * 2);
}

int main(void)
{
    fams[0] = (fam){ "crc32", IC_PRIM_CRC32, 0xEDB88320u, ic_crc32, ic_crc32_combine,
                     ic_impls_crc32, ic_nimpls_crc32 };
    fams[1] = (fam){ "crc32c", IC_PRIM_CRC32C, 0x82F63B78u, ic_crc32c, ic_crc32c_combine,
                     ic_impls_crc32c, ic_nimpls_crc32c };
    rnd = malloc(BIG + 64);
    tl_rand_bytes(rnd, BIG + 64);

    load_kat_file();
    for (int i = 0; i < 2; i++) {
        const fam *f = &fams[i];
        test_portable_vs_bitwise(f);
        CHECK(tl_for_each_impl(f->prim, per_impl, (void *)f) >= 1, "%s: no implementation ran", f->prim);
        test_combine(f);
        test_edges(f);
    }
    test_zlib();
    for (int i = 0; i < nkats; i++)
        free(kats[i].msg);
    free(rnd);
    return tl_finish();
}
