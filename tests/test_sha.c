/*
 * test_sha.c - SHA-1 / SHA-2: the project's FIPS 180-4 known answers
 * (tests/vectors/sha_kat.txt), the differential test of every
 * implementation against the portable one, the generic ic_hash layer
 * (output capacities included), and bad input with exact statuses.
 *
 * The differential reference is explicit: a context initialised normally
 * whose ops pointer is then replaced by the ops of the portable entry of the
 * registry table (the last one, needs == 0, name "port").  The side under
 * test runs with tl_for_each_impl's selection, streaming at random split
 * points from misaligned buffers, so even while "port" is the only
 * implementation the drivers' buffering is checked against a one-shot
 * computation.
 */
#include "testlib.h"
#include "core/internal.h"
#include "sha/sha_impl.h"

#include <stdlib.h>
#include <string.h>

#define PORT "port"

static const ic_hash_alg ALL[IC_HASH_COUNT] = {
    IC_HASH_SHA1, IC_HASH_SHA224, IC_HASH_SHA256, IC_HASH_SHA384,
    IC_HASH_SHA512, IC_HASH_SHA512_224, IC_HASH_SHA512_256,
};

/* The registry primitive that serves alg. */
static const char *prim_of(ic_hash_alg alg)
{
    switch (alg) {
    case IC_HASH_SHA1: return "sha1";
    case IC_HASH_SHA224: case IC_HASH_SHA256: return "sha256";
    default: return "sha512";
    }
}

/* The portable entry: the last of the table, which must need nothing. */
static const ic_impl *port_entry(const ic_impl *t, size_t n, const char *prim)
{
    CHECK(n > 0 && t[n - 1].needs == 0 && strcmp(t[n - 1].name, PORT) == 0,
          "%s: last registry entry must be the portable \"%s\" (needs 0)", prim, PORT);
    return &t[n - 1];
}
static const ic_sha1_ops *port1(void) { return port_entry(ic_impls_sha1, ic_nimpls_sha1, "sha1")->ops; }
static const ic_sha256_ops *port256(void) { return port_entry(ic_impls_sha256, ic_nimpls_sha256, "sha256")->ops; }
static const ic_sha512_ops *port512(void) { return port_entry(ic_impls_sha512, ic_nimpls_sha512, "sha512")->ops; }

/* Reference digest, independent of the drivers: the message padded by hand
 * as FIPS 180-4 5.1 says (0x80, zeros, the bit length big-endian in the
 * last 8 or 16 bytes), every block compressed in one call by the portable
 * function, the words written big-endian and truncated.  Only the initial
 * value is taken from a freshly initialised context (the KATs check it). */
static void ref_digest(ic_hash_alg alg, uint8_t *out, const uint8_t *m, size_t len)
{
    size_t bs = ic_hash_block_size(alg), lb = bs == 64 ? 8 : 16;
    size_t padded = (len + 1 + lb + bs - 1) / bs * bs;
    uint8_t *buf = calloc(padded, 1), full[64];
    ic_hash_ctx c;

    memcpy(buf, m, len);
    buf[len] = 0x80;
    ic_store64_be(buf + padded - 8, (uint64_t)len << 3);
    if (lb == 16)
        ic_store64_be(buf + padded - 16, (uint64_t)len >> 61);
    CHECK(ic_hash_init(&c, alg) == IC_OK, "ref init");
    if (alg == IC_HASH_SHA1) {
        port1()->compress(c.u.sha1.h, buf, padded / bs);
        for (int i = 0; i < 5; i++)
            ic_store32_be(full + 4 * i, c.u.sha1.h[i]);
    } else if (alg == IC_HASH_SHA224 || alg == IC_HASH_SHA256) {
        port256()->compress(c.u.sha256.h, buf, padded / bs);
        for (int i = 0; i < 8; i++)
            ic_store32_be(full + 4 * i, c.u.sha256.h[i]);
    } else {
        port512()->compress(c.u.sha512.h, buf, padded / bs);
        for (int i = 0; i < 8; i++)
            ic_store64_be(full + 8 * i, c.u.sha512.h[i]);
    }
    memcpy(out, full, ic_hash_digest_size(alg));
    free(buf);
}

/* Stream m through ctx in random pieces (sometimes empty, sometimes NULL
 * with length 0, sometimes many blocks at once). */
static int stream_random(ic_hash_ctx *c, const uint8_t *m, size_t len)
{
    size_t off = 0;
    while (off < len) {
        size_t k;
        switch (tl_rand_below(4)) {
        case 0: k = tl_rand_below(4); break;
        case 1: k = tl_rand_below(130); break;
        case 2: k = tl_rand_below(1000); break;
        default: k = len - off; break;
        }
        if (k > len - off)
            k = len - off;
        if (k == 0 && tl_rand_below(2)) {
            if (ic_hash_update(c, NULL, 0) != IC_OK)
                return 0;
            continue;
        }
        if (ic_hash_update(c, m + off, k) != IC_OK)
            return 0;
        off += k;
    }
    return 1;
}

/* ---- known answers from tests/vectors/sha_kat.txt ----------------------- */

static int kat_records;

static void kat_run(const char *impl, void *arg)
{
    const char *prim = arg;
    tl_rsp *r = tl_rsp_openf("%s/sha_kat.txt", tl_data_dir());
    tl_rec rec;
    int n = 0;

    while (tl_rsp_next(r, &rec)) {
        ic_hash_alg alg;
        uint8_t msg[256], want[IC_HASH_MAX_DIGEST_SIZE], got[IC_HASH_MAX_DIGEST_SIZE];
        const char *rep = tl_get(&rec, "Repeat");
        long mlen = tl_hex(msg, sizeof msg, tl_get(&rec, "Msg") ? tl_get(&rec, "Msg") : "x");
        long dlen = tl_hex(want, sizeof want, tl_get(&rec, "MD") ? tl_get(&rec, "MD") : "x");
        if (!CHECK(tl_get(&rec, "Alg") && ic_hash_from_name(&alg, tl_get(&rec, "Alg")) == IC_OK
                   && mlen >= 0 && dlen > 0, "sha_kat.txt line %ld: bad record", rec.line))
            continue;
        if (strcmp(prim_of(alg), prim) != 0)
            continue;
        CHECK(dlen == (long)ic_hash_digest_size(alg), "line %ld: digest size", rec.line);
        unsigned long times = rep ? strtoul(rep, NULL, 10) : 1;
        ic_hash_ctx c;
        int st = ic_hash_init(&c, alg);
        for (unsigned long i = 0; st == IC_OK && i < times; i++)
            st = ic_hash_update(&c, msg, (size_t)mlen);
        CHECK(st == IC_OK, "line %ld: init/update status %d", rec.line, st);
        CHECK(ic_hash_final(&c, got, sizeof got) == IC_OK, "final");
        CHECK_MEM(got, want, (size_t)dlen, "%s/%s %s line %ld (streamed)", prim, impl,
                  ic_hash_name(alg), rec.line);
        if (times == 1) {
            memset(got, 0, sizeof got);
            CHECK(ic_hash(alg, got, sizeof got, msg, (size_t)mlen) == IC_OK, "one-shot");
            CHECK_MEM(got, want, (size_t)dlen, "%s/%s %s line %ld (one-shot)", prim, impl,
                      ic_hash_name(alg), rec.line);
        }
        n++;
    }
    tl_rsp_close(r);
    kat_records += n;
    CHECK(ic_selftest(prim) == IC_OK, "ic_selftest(%s) with %s", prim, impl);
}

static void test_kat(void)
{
    kat_records = 0;
    tl_for_each_impl("sha1", kat_run, "sha1");
    tl_for_each_impl("sha256", kat_run, "sha256");
    tl_for_each_impl("sha512", kat_run, "sha512");
    /* 7 variants x 4 messages, at least once each */
    CHECK(kat_records >= 28, "sha_kat.txt: %d records run, expected >= 28", kat_records);
}

/* ---- differential: every implementation vs the portable one -------------- */

/* Compression function alone: random chaining values, 1..9 blocks from a
 * misaligned pointer, compared word for word. */
static void diff_compress(const char *prim, const void *ops)
{
    uint8_t raw[9 * 128 + 16];
    for (int iter = 0; iter < 50; iter++) {
        size_t off = tl_rand_below(16), nb = 1 + tl_rand_below(9);
        uint8_t *p = raw + off;
        tl_rand_bytes(raw, sizeof raw);
        if (strcmp(prim, "sha1") == 0) {
            uint32_t a[5], b[5];
            tl_rand_bytes(a, sizeof a);
            memcpy(b, a, sizeof a);
            ((const ic_sha1_ops *)ops)->compress(a, p, nb);
            port1()->compress(b, p, nb);
            CHECK_MEM(a, b, sizeof a, "sha1 compress %zu blocks at +%zu", nb, off);
        } else if (strcmp(prim, "sha256") == 0) {
            uint32_t a[8], b[8];
            tl_rand_bytes(a, sizeof a);
            memcpy(b, a, sizeof a);
            ((const ic_sha256_ops *)ops)->compress(a, p, nb);
            port256()->compress(b, p, nb);
            CHECK_MEM(a, b, sizeof a, "sha256 compress %zu blocks at +%zu", nb, off);
        } else {
            uint64_t a[8], b[8];
            tl_rand_bytes(a, sizeof a);
            memcpy(b, a, sizeof a);
            ((const ic_sha512_ops *)ops)->compress(a, p, nb);
            port512()->compress(b, p, nb);
            CHECK_MEM(a, b, sizeof a, "sha512 compress %zu blocks at +%zu", nb, off);
        }
    }
}

static void diff_one(ic_hash_alg alg, const char *impl, const uint8_t *m, size_t len, uint8_t *work)
{
    size_t dn = ic_hash_digest_size(alg), off = tl_rand_below(16);
    uint8_t want[IC_HASH_MAX_DIGEST_SIZE], got[IC_HASH_MAX_DIGEST_SIZE + 16];
    uint8_t *mm = work + off;                /* misaligned copy */
    ic_hash_ctx c;

    memcpy(mm, m, len);
    ref_digest(alg, want, m, len);

    /* streamed, random splits; 16 guard bytes after the digest, inside the
     * capacity given (only the digest size may be written) */
    memset(got, 0xa5, sizeof got);
    CHECK(ic_hash_init(&c, alg) == IC_OK, "init");
    CHECK(stream_random(&c, mm, len), "%s/%s stream len %zu", ic_hash_name(alg), impl, len);
    CHECK(ic_hash_final(&c, got, sizeof got) == IC_OK, "final");
    CHECK_MEM(got, want, dn, "%s/%s streamed len %zu off %zu", ic_hash_name(alg), impl, len, off);
    for (size_t i = dn; i < sizeof got; i++)
        if (!CHECK(got[i] == 0xa5, "%s: final wrote past the digest", ic_hash_name(alg)))
            break;

    /* one-shot, the same guard bytes (the truncated digests are written
     * word by word straight into the output) */
    memset(got, 0xa5, sizeof got);
    CHECK(ic_hash(alg, got, sizeof got, mm, len) == IC_OK, "one-shot");
    CHECK_MEM(got, want, dn, "%s/%s one-shot len %zu off %zu", ic_hash_name(alg), impl, len, off);
    for (size_t i = dn; i < sizeof got; i++)
        if (!CHECK(got[i] == 0xa5, "%s: one-shot wrote past the digest", ic_hash_name(alg)))
            break;

    /* in place: the digest written over the message it was computed from
     * (the message's length is the capacity) */
    if (len >= dn) {
        CHECK(ic_hash(alg, mm, len, mm, len) == IC_OK, "in place");
        CHECK_MEM(mm, want, dn, "%s/%s in place len %zu", ic_hash_name(alg), impl, len);
    }
}

static void diff_run(const char *impl, void *arg)
{
    const char *prim = arg;
    static const size_t big[] = { 65536 + 13, 100000, (1 << 20) + 7 };
    size_t cap = (1 << 20) + 64;
    uint8_t *m = malloc(cap), *work = malloc(cap + 16);

    diff_compress(prim, ic_ops(strcmp(prim, "sha1") == 0 ? IC_PRIM_SHA1
                               : strcmp(prim, "sha256") == 0 ? IC_PRIM_SHA256 : IC_PRIM_SHA512));
    for (int a = 0; a < IC_HASH_COUNT; a++) {
        ic_hash_alg alg = ALL[a];
        if (strcmp(prim_of(alg), prim) != 0)
            continue;
        /* every length around the block and padding boundaries */
        for (size_t len = 0; len <= 2 * 128 + 17; len++) {
            tl_rand_bytes(m, len);
            diff_one(alg, impl, m, len, work);
        }
        for (int i = 0; i < 150; i++) {
            size_t len = tl_rand_below(4097);
            tl_rand_bytes(m, len);
            diff_one(alg, impl, m, len, work);
        }
        for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
            tl_rand_bytes(m, big[i]);
            diff_one(alg, impl, m, big[i], work);
        }
    }
    free(m);
    free(work);
}

static void test_differential(void)
{
    /* The reference really is independent of the selection: it must give
     * the known answer for "abc" while another entry may be selected. */
    uint8_t d[32];
    ref_digest(IC_HASH_SHA256, d, (const uint8_t *)"abc", 3);
    uint8_t want[32];
    tl_hex(want, sizeof want, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK_MEM(d, want, 32, "portable reference, sha256(abc)");

    CHECK(tl_for_each_impl("sha1", diff_run, "sha1") >= 1, "sha1: no implementation ran");
    CHECK(tl_for_each_impl("sha256", diff_run, "sha256") >= 1, "sha256: no implementation ran");
    CHECK(tl_for_each_impl("sha512", diff_run, "sha512") >= 1, "sha512: no implementation ran");
}

/* ---- the length field of the padding, beyond 32 bits ---------------------
 * Poke a byte count that no test could reach by hashing (>= 2^32 bytes for
 * the 64-bit field, >= 2^64 bytes for SHA-512's 128-bit one) with an empty
 * buffer, and compare final with the padding block built by hand (FIPS
 * 180-4 5.1) and compressed by the portable function. */
static void test_length_field(void)
{
    uint8_t blk[128], got[64], want[64];

    ic_sha256_ctx c;
    uint64_t count = UINT64_C(0x123456789) * 64;
    CHECK(ic_sha256_init(&c) == IC_OK, "init");
    c.count = count;
    uint32_t h[8];
    memcpy(h, c.h, sizeof h);
    memset(blk, 0, 64);
    blk[0] = 0x80;
    ic_store64_be(blk + 56, count * 8);
    port256()->compress(h, blk, 1);
    for (int i = 0; i < 8; i++)
        ic_store32_be(want + 4 * i, h[i]);
    CHECK(ic_sha256_final(&c, got) == IC_OK, "final");
    CHECK_MEM(got, want, 32, "sha256 length field for count 2^32+");

    ic_sha1_ctx c1;
    CHECK(ic_sha1_init(&c1) == IC_OK, "init");
    c1.count = count;
    uint32_t h1[5];
    memcpy(h1, c1.h, sizeof h1);
    port1()->compress(h1, blk, 1);
    for (int i = 0; i < 5; i++)
        ic_store32_be(want + 4 * i, h1[i]);
    CHECK(ic_sha1_final(&c1, got) == IC_OK, "final");
    CHECK_MEM(got, want, 20, "sha1 length field for count 2^32+");

    ic_sha512_ctx c5;
    CHECK(ic_sha512_init(&c5) == IC_OK, "init");
    c5.count[0] = UINT64_C(0xe000000000000080);   /* top 3 bits spill into the high word */
    c5.count[1] = UINT64_C(0x0123456789abcdef);
    uint64_t h5[8];
    memcpy(h5, c5.h, sizeof h5);
    memset(blk, 0, 128);
    blk[0] = 0x80;
    ic_store64_be(blk + 112, UINT64_C(0x0123456789abcdef) << 3 | 7);
    ic_store64_be(blk + 120, UINT64_C(0x0000000000000400));
    port512()->compress(h5, blk, 1);
    for (int i = 0; i < 8; i++)
        ic_store64_be(want + 8 * i, h5[i]);
    CHECK(ic_sha512_final(&c5, got) == IC_OK, "final");
    CHECK_MEM(got, want, 64, "sha512 128-bit length field");
}

/* ---- generic layer --------------------------------------------------------- */
static void test_generic(void)
{
    static const struct { const char *name; ic_hash_alg alg; } names[] = {
        {"sha1", IC_HASH_SHA1}, {"SHA-1", IC_HASH_SHA1}, {"sha224", IC_HASH_SHA224},
        {"SHA256", IC_HASH_SHA256}, {"sha-384", IC_HASH_SHA384}, {"sha512", IC_HASH_SHA512},
        {"sha512-224", IC_HASH_SHA512_224}, {"SHA-512/224", IC_HASH_SHA512_224},
        {"sha512_256", IC_HASH_SHA512_256}, {"sha512/256", IC_HASH_SHA512_256},
    };
    static const char *bad[] = { "", "md5", "sha", "sha2", "sha-", "sha512-", "sha512-384",
                                  "sha256x", "sha--256", "sha3-256", "sha5121234567890123456" };
    static const size_t dsz[] = { 20, 28, 32, 48, 64, 28, 32 }, bsz[] = { 64, 64, 64, 128, 128, 128, 128 };
    ic_hash_alg alg;

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        alg = (ic_hash_alg)-1;
        CHECK(ic_hash_from_name(&alg, names[i].name) == IC_OK && alg == names[i].alg,
              "ic_hash_from_name(\"%s\")", names[i].name);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(ic_hash_from_name(&alg, bad[i]) == IC_ERR_UNKNOWN, "ic_hash_from_name(\"%s\") must fail", bad[i]);
    CHECK(ic_hash_from_name(&alg, NULL) == IC_ERR_NULL, "from_name(NULL)");
    CHECK(ic_hash_from_name(NULL, "sha1") == IC_ERR_NULL, "from_name(.., NULL)");
    for (int i = 0; i < IC_HASH_COUNT; i++) {
        CHECK(ic_hash_name(ALL[i]) && ic_hash_from_name(&alg, ic_hash_name(ALL[i])) == IC_OK
              && alg == ALL[i], "name round trip %d", i);
        CHECK(ic_hash_digest_size(ALL[i]) == dsz[i] && ic_hash_block_size(ALL[i]) == bsz[i],
              "sizes of %s", ic_hash_name(ALL[i]));
    }
    CHECK(ic_hash_name((ic_hash_alg)IC_HASH_COUNT) == NULL && ic_hash_name((ic_hash_alg)-1) == NULL,
          "name of a bad alg");
    CHECK(ic_hash_digest_size((ic_hash_alg)IC_HASH_COUNT) == 0
          && ic_hash_block_size((ic_hash_alg)-1) == 0, "sizes of a bad alg");

    /* the per-variant calls agree with ic_hash, with any capacity from the
     * digest size up, and refuse nothing but a short one */
    uint8_t m[300], a[64], b[64];
    tl_rand_bytes(m, sizeof m);
    int (*const oneshot[IC_HASH_COUNT])(uint8_t *, const uint8_t *, size_t) = {
        ic_sha1, ic_sha224, ic_sha256, ic_sha384, ic_sha512, ic_sha512_224, ic_sha512_256 };
    for (int i = 0; i < IC_HASH_COUNT; i++) {
        memset(a, 0, sizeof a);
        memset(b, 1, sizeof b);
        CHECK(oneshot[i](a, m, sizeof m) == IC_OK, "ic_%s", ic_hash_name(ALL[i]));
        CHECK(ic_hash(ALL[i], b, sizeof b, m, sizeof m) == IC_OK, "ic_hash");
        CHECK_MEM(a, b, dsz[i], "ic_%s vs ic_hash", ic_hash_name(ALL[i]));
        CHECK(tl_all_byte(b + dsz[i], sizeof b - dsz[i], 1), "ic_hash(%s) wrote past the digest",
              ic_hash_name(ALL[i]));
        memset(b, 1, sizeof b);
        CHECK(ic_hash(ALL[i], b, dsz[i] - 1, m, sizeof m) == IC_ERR_SIZE && tl_all_byte(b, sizeof b, 1),
              "ic_hash(%s) with outlen %zu: IC_ERR_SIZE, nothing written", ic_hash_name(ALL[i]), dsz[i] - 1);
        ic_hash_ctx h;
        CHECK(ic_hash_init(&h, ALL[i]) == IC_OK && ic_hash_update(&h, m, sizeof m) == IC_OK, "init");
        CHECK(ic_hash_final(&h, b, dsz[i] - 1) == IC_ERR_SIZE && tl_all_byte(b, sizeof b, 1),
              "ic_hash_final(%s) with outlen %zu: IC_ERR_SIZE, nothing written", ic_hash_name(ALL[i]),
              dsz[i] - 1);
        CHECK(ic_hash_final(&h, b, dsz[i]) == IC_OK, "final after a refused one");
        CHECK_MEM(a, b, dsz[i], "ic_hash_final(%s) after a short capacity", ic_hash_name(ALL[i]));
    }
    /* each variant's own init/update/final agree with its one-shot */
#define STREAMED(V, ctx, size) do {                                                   \
        CHECK(ic_##V##_init(&ctx) == IC_OK && ic_##V##_update(&ctx, m, 1) == IC_OK    \
              && ic_##V##_update(&ctx, m + 1, 150) == IC_OK                            \
              && ic_##V##_update(&ctx, m + 151, sizeof m - 151) == IC_OK               \
              && ic_##V##_final(&ctx, a) == IC_OK, "ic_" #V "_init/update/final");     \
        CHECK(ic_##V(b, m, sizeof m) == IC_OK, "ic_" #V);                             \
        CHECK_MEM(a, b, size, "ic_" #V " streamed vs one-shot");                      \
    } while (0)
    /* each under its own context type name (the typedefs of sha.h) */
    ic_sha1_ctx c1;
    ic_sha224_ctx c224;
    ic_sha256_ctx c256;
    ic_sha384_ctx c384;
    ic_sha512_ctx c512;
    ic_sha512_224_ctx c512_224;
    ic_sha512_256_ctx c512_256;
    STREAMED(sha1, c1, 20);
    STREAMED(sha224, c224, 28);
    STREAMED(sha256, c256, 32);
    STREAMED(sha384, c384, 48);
    STREAMED(sha512, c512, 64);
    STREAMED(sha512_224, c512_224, 28);
    STREAMED(sha512_256, c512_256, 32);

    /* a copied context forks the hash of a common prefix */
    ic_hash_ctx x, y;
    CHECK(ic_hash_init(&x, IC_HASH_SHA256) == IC_OK && ic_hash_update(&x, m, 100) == IC_OK, "prefix");
    y = x;
    CHECK(ic_hash_update(&y, m + 100, 200) == IC_OK && ic_hash_final(&y, a, sizeof a) == IC_OK, "fork");
    CHECK(ic_sha256(b, m, 300) == IC_OK, "sha256");
    CHECK_MEM(a, b, 32, "forked context");
    CHECK(ic_hash_final(&x, a, sizeof a) == IC_OK, "prefix final");
    CHECK(ic_sha256(b, m, 100) == IC_OK, "sha256");
    CHECK_MEM(a, b, 32, "prefix context unaffected by the fork");
}

/* ---- bad input ------------------------------------------------------------- */
static void test_bad_input(void)
{
    uint8_t out[64 + 8], m[8] = {0};
    ic_sha1_ctx c1;
    ic_sha256_ctx c2;
    ic_sha512_ctx c5;
    ic_hash_ctx hc;

    /* NULL context */
    CHECK(ic_sha1_init(NULL) == IC_ERR_NULL, "sha1_init(NULL)");
    CHECK(ic_sha224_init(NULL) == IC_ERR_NULL, "sha224_init(NULL)");
    CHECK(ic_sha256_init(NULL) == IC_ERR_NULL, "sha256_init(NULL)");
    CHECK(ic_sha384_init(NULL) == IC_ERR_NULL, "sha384_init(NULL)");
    CHECK(ic_sha512_init(NULL) == IC_ERR_NULL, "sha512_init(NULL)");
    CHECK(ic_sha512_224_init(NULL) == IC_ERR_NULL, "sha512_224_init(NULL)");
    CHECK(ic_sha512_256_init(NULL) == IC_ERR_NULL, "sha512_256_init(NULL)");
    CHECK(ic_sha1_update(NULL, m, 1) == IC_ERR_NULL, "sha1_update(NULL ctx)");
    CHECK(ic_sha256_update(NULL, m, 1) == IC_ERR_NULL, "sha256_update(NULL ctx)");
    CHECK(ic_sha512_update(NULL, m, 1) == IC_ERR_NULL, "sha512_update(NULL ctx)");
    CHECK(ic_sha1_final(NULL, out) == IC_ERR_NULL, "sha1_final(NULL ctx)");
    CHECK(ic_sha256_final(NULL, out) == IC_ERR_NULL, "sha256_final(NULL ctx)");
    CHECK(ic_sha512_final(NULL, out) == IC_ERR_NULL, "sha512_final(NULL ctx)");
    CHECK(ic_hash_init(NULL, IC_HASH_SHA256) == IC_ERR_NULL, "hash_init(NULL)");
    CHECK(ic_hash_update(NULL, m, 1) == IC_ERR_NULL, "hash_update(NULL)");
    CHECK(ic_hash_final(NULL, out, sizeof out) == IC_ERR_NULL, "hash_final(NULL)");
    CHECK(ic_hash_final(NULL, NULL, 0) == IC_ERR_NULL, "hash_final(NULL, NULL, 0)");

    /* NULL data with a length; NULL with 0 is fine */
    CHECK(ic_sha1_init(&c1) == IC_OK, "sha1_init");
    CHECK(ic_sha1_update(&c1, NULL, 1) == IC_ERR_NULL, "sha1_update(NULL, 1)");
    CHECK(ic_sha1_update(&c1, NULL, 0) == IC_OK, "sha1_update(NULL, 0)");
    CHECK(ic_sha256_init(&c2) == IC_OK, "sha256_init");
    CHECK(ic_sha256_update(&c2, NULL, 5) == IC_ERR_NULL, "sha256_update(NULL, 5)");
    CHECK(ic_sha256_update(&c2, NULL, 0) == IC_OK, "sha256_update(NULL, 0)");
    CHECK(ic_sha512_init(&c5) == IC_OK, "sha512_init");
    CHECK(ic_sha512_update(&c5, NULL, 5) == IC_ERR_NULL, "sha512_update(NULL, 5)");
    CHECK(ic_sha512_update(&c5, NULL, 0) == IC_OK, "sha512_update(NULL, 0)");
    /* NULL output: error, context left intact and still usable */
    CHECK(ic_sha1_final(&c1, NULL) == IC_ERR_NULL, "sha1_final(ctx, NULL)");
    CHECK(ic_sha1_final(&c1, out) == IC_OK, "sha1_final after NULL out");
    CHECK(ic_sha256_final(&c2, NULL) == IC_ERR_NULL, "sha256_final(ctx, NULL)");
    CHECK(ic_sha256_final(&c2, out) == IC_OK, "sha256_final after NULL out");
    CHECK(ic_sha512_final(&c5, NULL) == IC_ERR_NULL, "sha512_final(ctx, NULL)");
    CHECK(ic_sha512_final(&c5, out) == IC_OK, "sha512_final after NULL out");
    uint8_t e[32];
    CHECK(ic_sha256(e, m, 0) == IC_OK && ic_sha256(out, NULL, 0) == IC_OK, "sha256 of the empty message");
    CHECK_MEM(out, e, 32, "sha256(NULL, 0) is the empty message");

    /* finalised (wiped) contexts */
    CHECK(ic_sha1_update(&c1, m, 1) == IC_ERR_STATE, "sha1 update after final");
    CHECK(ic_sha1_final(&c1, out) == IC_ERR_STATE, "sha1 final twice");
    CHECK(ic_sha256_update(&c2, m, 1) == IC_ERR_STATE, "sha256 update after final");
    CHECK(ic_sha256_final(&c2, out) == IC_ERR_STATE, "sha256 final twice");
    CHECK(ic_sha512_update(&c5, m, 1) == IC_ERR_STATE, "sha512 update after final");
    CHECK(ic_sha512_final(&c5, out) == IC_ERR_STATE, "sha512 final twice");

    /* never-initialised (zeroed) contexts */
    memset(&c1, 0, sizeof c1);
    memset(&c2, 0, sizeof c2);
    memset(&c5, 0, sizeof c5);
    memset(&hc, 0, sizeof hc);
    CHECK(ic_sha1_update(&c1, m, 1) == IC_ERR_STATE, "sha1 update uninitialised");
    CHECK(ic_sha224_update(&c2, m, 1) == IC_ERR_STATE, "sha224 update uninitialised");
    CHECK(ic_sha384_final(&c5, out) == IC_ERR_STATE, "sha384 final uninitialised");
    CHECK(ic_hash_update(&hc, m, 1) == IC_ERR_STATE, "hash update uninitialised");
    CHECK(ic_hash_final(&hc, out, sizeof out) == IC_ERR_STATE, "hash final uninitialised");
    CHECK(ic_hash_final(&hc, NULL, 0) == IC_ERR_STATE, "hash final uninitialised, NULL out: step 1 first");
    memset(&hc, 0xff, sizeof hc);
    CHECK(ic_hash_update(&hc, m, 1) == IC_ERR_STATE, "hash update on garbage");
    CHECK(ic_hash_final(&hc, out, sizeof out) == IC_ERR_STATE, "hash final on garbage");

    /* a context belongs to the variant that initialised it */
    CHECK(ic_sha224_init(&c2) == IC_OK, "sha224_init");
    CHECK(ic_sha256_update(&c2, m, 1) == IC_ERR_STATE, "sha256_update on a sha224 ctx");
    CHECK(ic_sha256_final(&c2, out) == IC_ERR_STATE, "sha256_final on a sha224 ctx");
    CHECK(ic_sha256_init(&c2) == IC_OK, "sha256_init");
    CHECK(ic_sha224_final(&c2, out) == IC_ERR_STATE, "sha224_final on a sha256 ctx");
    CHECK(ic_sha384_init(&c5) == IC_OK, "sha384_init");
    CHECK(ic_sha512_update(&c5, m, 1) == IC_ERR_STATE, "sha512_update on a sha384 ctx");
    CHECK(ic_sha512_256_final(&c5, out) == IC_ERR_STATE, "sha512_256_final on a sha384 ctx");
    CHECK(ic_sha512_224_init(&c5) == IC_OK, "sha512_224_init");
    CHECK(ic_sha512_256_update(&c5, m, 1) == IC_ERR_STATE, "sha512_256_update on a 512/224 ctx");
    CHECK(ic_sha512_224_final(&c5, out) == IC_OK, "own final still works");

    /* unknown algorithms */
    CHECK(ic_hash_init(&hc, (ic_hash_alg)IC_HASH_COUNT) == IC_ERR_PARAM, "hash_init(bad alg)");
    CHECK(ic_hash_init(&hc, (ic_hash_alg)-1) == IC_ERR_PARAM, "hash_init(-1)");
    CHECK(ic_hash((ic_hash_alg)99, out, sizeof out, m, 1) == IC_ERR_PARAM, "ic_hash(bad alg)");
    CHECK(ic_hash((ic_hash_alg)99, out, 0, m, 1) == IC_ERR_PARAM, "ic_hash(bad alg, outlen 0): alg first");
    CHECK(ic_hash(IC_HASH_SHA256, NULL, 32, m, 1) == IC_ERR_NULL, "ic_hash(out NULL)");
    CHECK(ic_hash(IC_HASH_SHA256, out, 32, NULL, 1) == IC_ERR_NULL, "ic_hash(in NULL, 1)");
    CHECK(ic_hash(IC_HASH_SHA256, out, 31, NULL, 1) == IC_ERR_NULL, "ic_hash(in NULL, outlen 31): NULL first");

    /* output capacity: below the digest size refused, nothing written;
     * a NULL out with capacity 0 is a size fault, not a pointer one */
    memset(out, 0x77, sizeof out);
    CHECK(ic_hash(IC_HASH_SHA256, out, 31, m, 1) == IC_ERR_SIZE, "ic_hash(outlen 31)");
    CHECK(ic_hash(IC_HASH_SHA512, out, 63, m, 1) == IC_ERR_SIZE, "ic_hash(SHA-512, outlen 63)");
    CHECK(ic_hash(IC_HASH_SHA1, out, 0, m, 1) == IC_ERR_SIZE, "ic_hash(outlen 0)");
    CHECK(ic_hash(IC_HASH_SHA1, NULL, 0, m, 1) == IC_ERR_SIZE, "ic_hash(NULL, 0)");
    CHECK(tl_all_byte(out, sizeof out, 0x77), "a refused ic_hash writes nothing");
    CHECK(ic_hash_init(&hc, IC_HASH_SHA384) == IC_OK && ic_hash_update(&hc, m, 3) == IC_OK, "init");
    ic_hash_ctx before = hc;
    CHECK(ic_hash_final(&hc, out, 47) == IC_ERR_SIZE, "ic_hash_final(outlen 47)");
    CHECK(ic_hash_final(&hc, NULL, 0) == IC_ERR_SIZE, "ic_hash_final(NULL, 0)");
    CHECK(ic_hash_final(&hc, NULL, 48) == IC_ERR_NULL, "ic_hash_final(NULL, 48)");
    CHECK(tl_all_byte(out, sizeof out, 0x77), "a refused ic_hash_final writes nothing");
    CHECK(memcmp(&hc, &before, sizeof hc) == 0, "a refused ic_hash_final leaves the context as it was");
    CHECK(ic_hash_final(&hc, out, 48) == IC_OK && out[48] == 0x77, "ic_hash_final(outlen 48)");

    /* one-shots: a refused call writes nothing */
    memset(out, 0x77, sizeof out);
    CHECK(ic_sha512(out, NULL, 3) == IC_ERR_NULL, "ic_sha512(out, NULL, 3)");
    CHECK(ic_sha1(out, NULL, 1) == IC_ERR_NULL, "ic_sha1(out, NULL, 1)");
    CHECK(tl_all_byte(out, sizeof out, 0x77), "a refused one-shot writes nothing");
    CHECK(ic_sha256(NULL, m, 1) == IC_ERR_NULL, "ic_sha256(NULL, m, 1)");
    CHECK(ic_sha1(NULL, NULL, 0) == IC_ERR_NULL, "ic_sha1(NULL, NULL, 0): out is fixed-size");
    CHECK(ic_sha512_256(NULL, m, 0) == IC_ERR_NULL, "ic_sha512_256(NULL, m, 0)");

    /* message length limits: 2^61 - 1 bytes for SHA-1/256, < 2^125 for SHA-512 */
    const uint64_t lim = (UINT64_C(1) << 61) - 1;
    CHECK(ic_sha1_init(&c1) == IC_OK, "sha1_init");
    c1.count = lim - 3;
    CHECK(ic_sha1_update(&c1, m, 4) == IC_ERR_TOOLONG, "sha1 over 2^64-1 bits");
    CHECK(c1.count == lim - 3, "TOOLONG must absorb nothing");
    CHECK(ic_sha1_update(&c1, m, 3) == IC_OK, "sha1 up to the limit");
    CHECK(ic_sha1_update(&c1, m, 1) == IC_ERR_TOOLONG, "sha1 one byte past the limit");
    CHECK(ic_sha1_final(&c1, out) == IC_OK, "sha1 final at the limit");
    CHECK(ic_sha256_init(&c2) == IC_OK, "sha256_init");
    c2.count = lim - 3;
    CHECK(ic_sha256_update(&c2, m, 4) == IC_ERR_TOOLONG, "sha256 over 2^64-1 bits");
    CHECK(ic_sha256_update(&c2, m, 3) == IC_OK, "sha256 up to the limit");
    CHECK(ic_sha256_update(&c2, m, 1) == IC_ERR_TOOLONG, "sha256 one byte past");
    c2.count = UINT64_MAX - 2;   /* a wrapped counter must not pass */
    CHECK(ic_sha256_update(&c2, m, 8) == IC_ERR_TOOLONG, "sha256 counter wrap");
    CHECK(ic_sha224_init(&c2) == IC_OK, "sha224_init");
    c2.count = lim;
    CHECK(ic_sha224_update(&c2, m, 1) == IC_ERR_TOOLONG, "sha224 past the limit");
    CHECK(ic_sha512_init(&c5) == IC_OK, "sha512_init");
    c5.count[1] = (UINT64_C(1) << 61) - 1;
    c5.count[0] = UINT64_MAX - 2;
    CHECK(ic_sha512_update(&c5, m, 3) == IC_ERR_TOOLONG, "sha512 over 2^128-1 bits");
    CHECK(c5.count[0] == UINT64_MAX - 2 && c5.count[1] == (UINT64_C(1) << 61) - 1,
          "TOOLONG must absorb nothing");
    CHECK(ic_sha512_update(&c5, m, 2) == IC_OK, "sha512 up to the limit");
    CHECK(ic_sha512_update(&c5, m, 1) == IC_ERR_TOOLONG, "sha512 one byte past");
    CHECK(ic_sha384_init(&c5) == IC_OK, "sha384_init");
    c5.count[0] = UINT64_MAX;   /* carry into the high word is fine */
    CHECK(ic_sha384_update(&c5, m, 2) == IC_OK && c5.count[1] == 1 && c5.count[0] == 1,
          "sha384 128-bit carry");
}

int main(void)
{
    test_kat();
    test_generic();
    test_length_field();
    test_bad_input();
    test_differential();
    return tl_finish();
}
