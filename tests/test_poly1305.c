/*
 * test_poly1305.c - Poly1305 (RFC 8439 section 2.5).
 *
 *  1. known answers: tests/vectors/poly1305_kat.txt (RFC 8439 2.5.2 and all
 *     eleven A.3 vectors, #5-#11 being the reduction edge cases) and the
 *     CAVP-style poly1305/rfc7539.txt of cryptography-vectors, with every
 *     implementation: one-shot, verify and final_verify (and one-bit
 *     forgeries refused), streamed byte by byte and at random split points;
 *  2. the self-test ic_kat_poly1305 / ic_selftest with every implementation;
 *  3. the two portable arithmetics (radix 2^64 and 2^26, poly1305_c.c),
 *     called through their ops directly, against each other and against a
 *     slow model written here on plain multi-word integers (the RFC's
 *     definition, reduction by repeated 2^130 = 5 folding and subtraction):
 *     random and adversarial inputs (all-ones blocks, largest clamped r,
 *     s = 2^128-1), and crafted accumulator states at the edges of each
 *     radix's invariants (h = p-1, p, p+1, 2^130-1, 2^130 + 2^64-1, unreduced
 *     26-bit limbs with every carry rippling) fed to finish and to one more
 *     block, so carries that random data almost never reaches are checked;
 *  4. differential: every implementation through the public API against the
 *     portable reference (the table's LAST entry, needs == 0, ops called
 *     directly with the padding done here): random keys, every length
 *     0..300, random lengths to 4096, 65536+13 and 1 MiB+5, misaligned
 *     input (offsets 1..15), streaming split at random points, reads that
 *     end at a PROT_NONE page;
 *  5. bad input: each rule of the API with its exact status.
 */
#define _GNU_SOURCE   /* MAP_ANON under -std=c11 */
#include "testlib.h"
#include "core/internal.h"
#include "poly1305/poly1305_impl.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BIG ((1u << 20) + 64)
static uint8_t *rnd;      /* BIG random bytes */

/* ---- independent model: Poly1305 on plain multi-word integers ----------- */
#define BNW 10                      /* 320 bits as 32-bit words, little-endian */
typedef struct { uint32_t w[BNW]; } bn;

static void bn_add_shifted(bn *a, uint64_t v, unsigned bit)   /* a += v << bit */
{
    unsigned i = bit / 32, sh = bit % 32;
    uint64_t lo = sh ? v << sh : v, hi = sh ? v >> (64 - sh) : 0;   /* v << sh as 96 bits */
    uint32_t part[3] = { (uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi };
    uint64_t c = 0;
    for (unsigned k = 0; i + k < BNW; k++) {
        c += (uint64_t)a->w[i + k] + (k < 3 ? part[k] : 0);
        a->w[i + k] = (uint32_t)c;
        c >>= 32;
    }
}

static void bn_from_le(bn *a, const uint8_t *p, size_t n)
{
    memset(a, 0, sizeof *a);
    for (size_t i = 0; i < n; i++)
        a->w[i / 4] |= (uint32_t)p[i] << (8 * (i % 4));
}

static void bn_mul(bn *out, const bn *a, const bn *b)           /* both < 2^160 */
{
    bn r;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < BNW / 2; i++)
        for (int j = 0; j < BNW / 2; j++) {
            uint64_t t = (uint64_t)a->w[i] * b->w[j];
            bn_add_shifted(&r, t, (unsigned)(32 * (i + j)));
        }
    *out = r;
}

static int bn_ge(const bn *a, const bn *b)
{
    for (int i = BNW - 1; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] > b->w[i];
    return 1;
}

static void bn_sub(bn *a, const bn *b)
{
    int64_t c = 0;
    for (int i = 0; i < BNW; i++) {
        c += (int64_t)a->w[i] - b->w[i];
        a->w[i] = (uint32_t)c;
        c >>= 32;
    }
}

/* a mod p, p = 2^130 - 5: fold a = lo + 2^130 hi into lo + 5 hi until hi
 * is 0, then subtract p while a >= p. */
static void bn_modp(bn *a)
{
    bn p;
    memset(&p, 0, sizeof p);
    p.w[0] = 0xfffffffb; p.w[1] = p.w[2] = p.w[3] = 0xffffffff; p.w[4] = 3;
    for (;;) {
        bn hi, lo = *a;
        memset(&hi, 0, sizeof hi);
        for (int i = 4; i < BNW; i++)
            hi.w[i - 4] = a->w[i] >> 2 | (i + 1 < BNW ? a->w[i + 1] << 30 : 0);
        lo.w[4] &= 3;
        for (int i = 5; i < BNW; i++)
            lo.w[i] = 0;
        int zero = 1;
        for (int i = 0; i < BNW; i++)
            zero &= hi.w[i] == 0;
        if (zero)
            break;
        for (int k = 0; k < 5; k++)
            for (int i = 0; i < BNW - 1; i++)
                bn_add_shifted(&lo, hi.w[i], (unsigned)(32 * i));
        *a = lo;
    }
    while (bn_ge(a, &p))
        bn_sub(a, &p);
}

/* tag = ((h mod p) + s) mod 2^128 */
static void model_finish(uint8_t tag[16], bn h, const uint8_t key[32])
{
    bn_modp(&h);
    for (int i = 0; i < 4; i++)
        bn_add_shifted(&h, ic_load32_le(key + 16 + 4 * i), (unsigned)(32 * i));
    for (int i = 0; i < 16; i++)
        tag[i] = (uint8_t)(h.w[i / 4] >> (8 * (i % 4)));
}

static void model_r(bn *r, const uint8_t key[32])
{
    uint8_t k[16];
    memcpy(k, key, 16);
    k[3] &= 15; k[7] &= 15; k[11] &= 15; k[15] &= 15;   /* RFC 8439 section 2.5 clamp */
    k[4] &= 252; k[8] &= 252; k[12] &= 252;
    bn_from_le(r, k, 16);
}

/* h = (h + n) r mod p with n = the chunk's bytes and one more byte 01
 * after them (section 2.5.1: "add one bit beyond the number of octets"). */
static void model_block(bn *h, const bn *r, const uint8_t *chunk, size_t n)
{
    uint8_t b[17] = { 0 };
    bn m;
    memcpy(b, chunk, n);
    b[n] = 1;
    bn_from_le(&m, b, n + 1);
    for (int i = 0; i < BNW; i++)
        bn_add_shifted(h, m.w[i], (unsigned)(32 * i));
    bn_mul(h, h, r);
    bn_modp(h);
}

static void model_mac(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
    bn h, r;
    memset(&h, 0, sizeof h);
    model_r(&r, key);
    for (size_t i = 0; i < len; i += 16)
        model_block(&h, &r, msg + i, len - i < 16 ? len - i : 16);
    model_finish(tag, h, key);
}

/* ---- reference: a table entry's ops with the padding of section 2.5.1 ---- */
static const ic_poly1305_ops *portable_ops(void)
{
    const ic_impl *last = &ic_impls_poly1305[ic_nimpls_poly1305 - 1];
    return (const ic_poly1305_ops *)last->ops;
}

/* Tag of msg under key with ops, whole blocks first, then the final
 * partial block with its 0x01 byte and no 2^128 bit, written here from
 * the RFC independently of poly1305.c. */
static void ops_mac(const ic_poly1305_ops *ops, uint8_t tag[16], const uint8_t *msg, size_t len,
                    const uint8_t key[32])
{
    _Alignas(64) uint64_t st[IC_POLY1305_STATE_SIZE / 8];
    ops->init(st, key);
    ops->blocks(st, msg, len / 16, 1);
    if (len % 16) {
        uint8_t last[16] = { 0 };
        memcpy(last, msg + len / 16 * 16, len % 16);
        last[len % 16] = 1;
        ops->blocks(st, last, 1, 0);
    }
    ops->finish(st, tag);
}

static void ref_mac(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
    ops_mac(portable_ops(), tag, msg, len, key);
}

/* Streaming through the public API, cut into up to `pieces` random parts. */
static int api_stream(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32], int pieces)
{
    ic_poly1305_ctx ctx;
    int rc = ic_poly1305_init(&ctx, key);
    size_t done = 0;
    for (int i = 1; i < pieces && rc == IC_OK; i++) {
        size_t n = tl_rand_below((uint32_t)(len - done + 1));
        if (tl_rand_below(3) == 0)
            n = tl_rand_below(17);   /* small pieces cross the buffer often */
        if (n > len - done)
            n = len - done;
        rc = ic_poly1305_update(&ctx, msg + done, n);
        done += n;
    }
    if (rc == IC_OK)
        rc = ic_poly1305_update(&ctx, msg + done, len - done);
    if (rc == IC_OK)
        rc = ic_poly1305_final(&ctx, tag);
    return rc;
}

/* ---- 1. known answers ------------------------------------------------ */
typedef struct {
    const char *path;
    const char *key, *msg, *tag;   /* field names */
    int expect;                     /* records the file must hold */
} kat_file;

static void kat_impl(const char *impl, void *arg)
{
    const kat_file *kf = (const kat_file *)arg;
    tl_rsp *r = tl_rsp_open(kf->path);
    tl_rec rec;
    int n = 0;
    while (tl_rsp_next(r, &rec)) {
        size_t klen, mlen, tlen;
        uint8_t *key = tl_hex_alloc(tl_get(&rec, kf->key) ? tl_get(&rec, kf->key) : "x", &klen);
        uint8_t *msg = tl_hex_alloc(tl_get(&rec, kf->msg) ? tl_get(&rec, kf->msg) : "x", &mlen);
        uint8_t *tag = tl_hex_alloc(tl_get(&rec, kf->tag) ? tl_get(&rec, kf->tag) : "x", &tlen);
        if (!CHECK(key && msg && tag && klen == 32 && tlen == 16, "%s:%ld: malformed record",
                   tl_rsp_path(r), rec.line)) {
            free(key); free(msg); free(tag);
            continue;
        }
        uint8_t got[16];
        CHECK(ic_poly1305(got, msg, mlen, key) == IC_OK, "%s: one-shot status", impl);
        CHECK_MEM(got, tag, 16, "%s: %s:%ld one-shot", impl, tl_rsp_path(r), rec.line);
        CHECK(ic_poly1305_verify(tag, msg, mlen, key) == IC_OK, "%s: %s:%ld verify", impl,
              tl_rsp_path(r), rec.line);
        for (int bit = 0; bit < 128; bit += 37) {
            tag[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            CHECK(ic_poly1305_verify(tag, msg, mlen, key) == IC_ERR_AUTH, "%s: %s:%ld forged bit %d",
                  impl, tl_rsp_path(r), rec.line, bit);
            tag[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        }
        /* byte by byte: every update crosses or fills the partial block */
        ic_poly1305_ctx ctx;
        int rc = ic_poly1305_init(&ctx, key);
        for (size_t i = 0; i < mlen && rc == IC_OK; i++)
            rc = ic_poly1305_update(&ctx, msg + i, 1);
        memset(got, 0, 16);
        CHECK(rc == IC_OK && ic_poly1305_final(&ctx, got) == IC_OK, "%s: byte-wise status", impl);
        CHECK_MEM(got, tag, 16, "%s: %s:%ld byte by byte", impl, tl_rsp_path(r), rec.line);
        /* final_verify: the right tag, then every 37th bit flipped */
        CHECK(ic_poly1305_init(&ctx, key) == IC_OK && ic_poly1305_update(&ctx, msg, mlen) == IC_OK &&
                  ic_poly1305_final_verify(&ctx, tag) == IC_OK && ctx.check == 0,
              "%s: %s:%ld final_verify", impl, tl_rsp_path(r), rec.line);
        for (int bit = 0; bit < 128; bit += 37) {
            tag[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            CHECK(ic_poly1305_init(&ctx, key) == IC_OK && ic_poly1305_update(&ctx, msg, mlen) == IC_OK &&
                      ic_poly1305_final_verify(&ctx, tag) == IC_ERR_AUTH && ctx.check == 0,
                  "%s: %s:%ld final_verify of forged bit %d", impl, tl_rsp_path(r), rec.line, bit);
            tag[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        }
        for (int t = 0; t < 8; t++) {
            memset(got, 0, 16);
            CHECK(api_stream(got, msg, mlen, key, 2 + t) == IC_OK, "%s: stream status", impl);
            CHECK_MEM(got, tag, 16, "%s: %s:%ld streamed in %d pieces", impl, tl_rsp_path(r), rec.line, 2 + t);
        }
        /* the portable arithmetics directly, too */
        ops_mac(&ic_poly1305_c32_ops, got, msg, mlen, key);
        CHECK_MEM(got, tag, 16, "c32 ops: %s:%ld", tl_rsp_path(r), rec.line);
#if defined(IC_POLY1305_HAVE_C64)
        ops_mac(&ic_poly1305_c64_ops, got, msg, mlen, key);
        CHECK_MEM(got, tag, 16, "c64 ops: %s:%ld", tl_rsp_path(r), rec.line);
#endif
        free(key); free(msg); free(tag);
        n++;
    }
    tl_rsp_close(r);
    CHECK(n == kf->expect, "%s: %d records, expected %d", kf->path, n, kf->expect);
}

static void test_kats(void)
{
    char own[1024], cavp[1024];
    snprintf(own, sizeof own, "%s/poly1305_kat.txt", tl_data_dir());
    snprintf(cavp, sizeof cavp, "%s/poly1305/rfc7539.txt", tl_cavp_dir());
    kat_file files[] = {
        { own, "KEY", "MSG", "TAG", 12 },     /* 2.5.2 + A.3 #1..#11 */
        { cavp, "KEY", "MSG", "TAG", 11 },    /* A.3 #1..#11 */
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        CHECK(tl_for_each_impl("poly1305", kat_impl, &files[i]) >= 1, "ran some implementation");
}

/* ---- 2. self-test ------------------------------------------------------ */
static void selftest_impl(const char *impl, void *arg)
{
    int fails = ic_kat_poly1305();
    CHECK(fails == 0, "ic_kat_poly1305 with %s: %d failures", impl, fails);
    CHECK(ic_selftest("poly1305") == IC_OK, "ic_selftest(poly1305) with %s", impl);
}

/* ---- 3. radix 2^26 against radix 2^64 ------------------------------------ */
static void fill_adversarial(uint8_t *p, size_t n, int kind)
{
    switch (kind) {
    case 0: tl_rand_bytes(p, n); break;
    case 1: memset(p, 0xff, n); break;
    case 2: memset(p, 0x00, n); break;
    default:    /* random mix of 00 and ff runs */
        for (size_t i = 0; i < n; i++)
            p[i] = (tl_rand64() & 1) ? 0xff : (uint8_t)tl_rand64();
    }
}

/* Crafted accumulators: the state words of each radix set directly after
 * init (the layout is poly1305_c.c's), then finish, or one more block
 * then finish, compared with the model on the same integer h. */
typedef struct {
    const ic_poly1305_ops *ops;
    const char *name;
    int limbs;          /* 3 words of radix 2^64 or 5 of radix 2^26 */
    unsigned bits;      /* bits per word */
} radix;

static bn radix_value(const radix *rx, const uint64_t *h)
{
    bn v;
    memset(&v, 0, sizeof v);
    for (int i = 0; i < rx->limbs; i++)
        bn_add_shifted(&v, h[i], rx->bits * (unsigned)i);
    return v;
}

static void crafted_check(const radix *rx, const uint64_t *h, const uint8_t key[32], const char *what)
{
    _Alignas(64) uint64_t st[IC_POLY1305_STATE_SIZE / 8];
    uint8_t got[16], want[16], blk[16];
    bn hv = radix_value(rx, h), r;

    rx->ops->init(st, key);
    memcpy(st, h, sizeof *h * (size_t)rx->limbs);
    rx->ops->finish(st, got);
    model_finish(want, hv, key);
    CHECK_MEM(got, want, 16, "%s finish from crafted h (%s)", rx->name, what);

    /* then one to three more blocks (a carry lost into the 2^128 limb only
     * shows once a later block multiplies it or h crosses p) */
    for (int k = 0; k < 9; k++) {
        if (k % 3 == 0) memset(blk, 0xff, 16);
        else if (k % 3 == 1) memset(blk, 0, 16);
        else tl_rand_bytes(blk, 16);
        bn hm = hv;
        model_r(&r, key);
        rx->ops->init(st, key);
        memcpy(st, h, sizeof *h * (size_t)rx->limbs);
        for (int j = 0; j <= k / 3; j++) {
            rx->ops->blocks(st, blk, 1, 1);
            model_block(&hm, &r, blk, 16);
        }
        rx->ops->finish(st, got);
        model_finish(want, hm, key);
        CHECK_MEM(got, want, 16, "%s %d blocks of kind %d from crafted h (%s)", rx->name, k / 3 + 1, k % 3, what);
    }
}

static void test_radixes(void)
{
    const uint64_t M64 = UINT64_MAX, M26 = 0x3ffffff;
    radix rxs[2] = { { &ic_poly1305_c32_ops, "c32", 5, 26 } };
    int nrx = 1;
#if defined(IC_POLY1305_HAVE_C64)
    rxs[nrx++] = (radix){ &ic_poly1305_c64_ops, "c64", 3, 64 };
#endif
    /* h values at the edges: what blocks can leave behind.  c64: h2 <= 4
     * (at 4 only with h0, h1 small); c32: limbs < 2^26, h1 < 2^26 + 2^7. */
    static const uint64_t h64[][3] = {
        { 0xfffffffffffffffbu, 0xffffffffffffffffu, 3 },   /* p */
        { 0xfffffffffffffffau, 0xffffffffffffffffu, 3 },   /* p - 1 */
        { 0xfffffffffffffffcu, 0xffffffffffffffffu, 3 },   /* p + 1 */
        { 0xffffffffffffffffu, 0xffffffffffffffffu, 3 },   /* 2^130 - 1 */
        { 0, 0, 4 },                                       /* 2^130 */
        { 0xffffffffffffffffu, 0, 4 },                     /* 2^130 + 2^64 - 1 */
        { 0xffffffffffffffffu, 0xffffffffffffffffu, 0 },
        { 0, 0, 0 },
    };
    static const uint64_t h26[][5] = {
        { 0x3fffffb, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff },       /* p */
        { 0x3fffffa, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff },       /* p - 1 */
        { 0x3fffffc, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff },       /* p + 1 */
        { 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff },       /* 2^130 - 1 */
        { 0x3ffffff, 0x3ffffff + 128, 0x3ffffff, 0x3ffffff, 0x3ffffff }, /* every carry ripples */
        { 0x3fffffb, 0x4000000, 0x3ffffff, 0x3ffffff, 0x3ffffff },
        { 0, 0x3ffffff + 128, 0, 0, 0 },
        { 0, 0, 0, 0, 0 },
    };
    uint8_t keys[4][32];
    memset(keys[0], 0xff, 32);                       /* largest clamped r, s = 2^128 - 1 */
    memset(keys[1], 0, 32); keys[1][0] = 1;          /* r = 1 */
    tl_rand_bytes(keys[2], 32);
    tl_rand_bytes(keys[3], 32);
    memset(keys[3] + 16, 0xff, 16);
    for (int x = 0; x < nrx; x++)
        for (int k = 0; k < 4; k++) {
            size_t n = rxs[x].limbs == 3 ? sizeof h64 / sizeof h64[0] : sizeof h26 / sizeof h26[0];
            for (size_t i = 0; i < n; i++) {
                char what[32];
                snprintf(what, sizeof what, "edge %zu, key %d", i, k);
                crafted_check(&rxs[x], rxs[x].limbs == 3 ? h64[i] : h26[i], keys[k], what);
            }
            for (int i = 0; i < 100; i++) {   /* random h within the invariants */
                uint64_t h[5];
                if (rxs[x].limbs == 3) {
                    h[0] = tl_rand64(); h[1] = tl_rand64(); h[2] = tl_rand_below(4);
                    if (i % 5 == 0) { h[1] = M64; h[2] = 3; }
                } else {
                    for (int j = 0; j < 5; j++)
                        h[j] = i % 5 == 0 ? M26 - tl_rand_below(8) : tl_rand64() & M26;
                    h[1] += tl_rand_below(128);
                }
                crafted_check(&rxs[x], h, keys[k], "random");
            }
        }

    /* Whole messages: each radix against the model and the other. */
    uint8_t key[32], msg[600], a[16], b[16];
    for (int i = 0; i < 1200; i++) {
        size_t len = i < 300 ? (size_t)i : tl_rand_below(600);
        fill_adversarial(key, 16, (i / 7) % 4);       /* r (clamped by init) */
        fill_adversarial(key + 16, 16, (i / 3) % 4);  /* s */
        fill_adversarial(msg, len, i % 4);
        model_mac(b, msg, len, key);
        for (int x = 0; x < nrx; x++) {
            ops_mac(rxs[x].ops, a, msg, len, key);
            CHECK_MEM(a, b, 16, "%s vs model: len %zu case %d", rxs[x].name, len, i);
        }
    }
#if defined(IC_POLY1305_HAVE_C64)
    CHECK(portable_ops() == &ic_poly1305_c64_ops, "portable entry uses c64 where __int128 exists");
#else
    CHECK(portable_ops() == &ic_poly1305_c32_ops, "portable entry uses c32 without __int128");
    printf("radix 2^64 arithmetic not built here (no unsigned __int128): only c32 checked\n");
#endif
    CHECK(strcmp(ic_impls_poly1305[ic_nimpls_poly1305 - 1].name, "c") == 0 &&
              ic_impls_poly1305[ic_nimpls_poly1305 - 1].needs == 0,
          "last poly1305 entry is the portable \"c\" with needs 0");
}

/* ---- 4. differential --------------------------------------------------- */
static void diff_impl(const char *impl, void *arg)
{
    uint8_t key[32], got[16], want[16];
    static const size_t big[] = { 65536 + 13, (1u << 20) + 5 };
    for (int i = 0; i < 900; i++) {
        size_t len = i <= 300 ? (size_t)i : tl_rand_below(4097);
        if (i >= 900 - 2)
            len = big[900 - 1 - i];
        size_t off = len + 16 <= BIG ? tl_rand_below(16) : 0;
        const uint8_t *msg = rnd + off;
        fill_adversarial(key, 32, i % 8 == 7 ? 1 : 0);
        ref_mac(want, msg, len, key);
        CHECK(ic_poly1305(got, msg, len, key) == IC_OK, "%s one-shot status", impl);
        CHECK_MEM(got, want, 16, "%s one-shot len %zu off %zu", impl, len, off);
        memset(got, 0, 16);
        CHECK(api_stream(got, msg, len, key, 1 + (int)tl_rand_below(9)) == IC_OK, "%s stream", impl);
        CHECK_MEM(got, want, 16, "%s streamed len %zu off %zu", impl, len, off);
        CHECK(ic_poly1305_verify(want, msg, len, key) == IC_OK, "%s verify len %zu", impl, len);
    }

    /* A context keeps the implementation it was initialised with, and
     * final leaves nothing of the key or accumulator behind: every state
     * byte is either still the fill it had before init or zero. */
    ic_poly1305_ctx ctx;
    memset(&ctx, 0x5a, sizeof ctx);
    CHECK(ic_poly1305_init(&ctx, key) == IC_OK && IC_IMPL_OPS(poly1305, ctx.impl) == ic_ops(IC_PRIM_POLY1305),
          "%s: context records the selected ops", impl);
    CHECK(ic_poly1305_update(&ctx, rnd, 1000 + 7) == IC_OK && ic_poly1305_final(&ctx, got) == IC_OK, "%s final", impl);
    const uint8_t *sb = (const uint8_t *)ctx.state;
    size_t dirty = 0;
    for (size_t i = 0; i < sizeof ctx.state; i++)
        dirty += sb[i] != 0 && sb[i] != 0x5a;
    CHECK(dirty == 0 && ctx.check == 0 && ctx.buflen == 0, "%s: final wiped the state (%zu bytes left)", impl, dirty);
    for (size_t i = 0; i < sizeof ctx.buf; i++)
        dirty += ctx.buf[i] != 0;
    CHECK(dirty == 0, "%s: final wiped the partial block", impl);
    memset(&ctx, 0x5a, sizeof ctx);
    CHECK(ic_poly1305_init(&ctx, key) == IC_OK && ic_poly1305_update(&ctx, rnd, 5) == IC_OK, "%s init", impl);
    ic_poly1305_wipe(&ctx);
    for (size_t i = 0; i < sizeof ctx; i++)
        dirty += ((const uint8_t *)&ctx)[i] != 0;
    CHECK(dirty == 0, "%s: ic_poly1305_wipe zeroes the whole context", impl);

    /* Reads that end exactly at an inaccessible page: nothing past in+len. */
    long page = sysconf(_SC_PAGESIZE);
    uint8_t *map = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0);
    if (CHECK(map != MAP_FAILED, "mmap") && CHECK(mprotect(map + page, (size_t)page, PROT_NONE) == 0, "mprotect")) {
        for (size_t len = 0; len <= 70; len++) {
            uint8_t *msg = map + page - len;
            tl_rand_bytes(msg, len);
            ref_mac(want, msg, len, key);
            CHECK(ic_poly1305(got, msg, len, key) == IC_OK, "%s at guard page: status", impl);
            CHECK_MEM(got, want, 16, "%s at guard page, len %zu", impl, len);
        }
        munmap(map, (size_t)page * 2);
    }
}

/* ---- 6. vector backends at the ops level -------------------------------
 * Every non-portable entry this CPU runs (x86: avx2, avx512), called
 * through its ops so the length decides the path (scalar below the
 * crossover, vector above, the zero prefix of every length mod 4 / 8):
 * every length 0..1100 against the model, with all-0xff and mixed data and
 * keys whose r and s have every clamp-allowed bit set; crafted
 * accumulators at the reduction edges followed by vector-length runs;
 * runs constructed (with r = 1) so the accumulator lands exactly on p,
 * p + 1 and 2p - 1 after the vector horizontal sum; random lengths up to
 * 64 KiB against the portable code.  The state layout of words 0..2 is
 * radix 2^64 as in poly1305_c.c (poly1305_x86_vec.h). */
static void vector_run_check(const ic_poly1305_ops *ops, const char *name, const uint64_t h[3], const uint8_t key[32],
                             const uint8_t *msg, size_t n, const char *what)
{
    _Alignas(64) uint64_t st[IC_POLY1305_STATE_SIZE / 8];
    uint8_t got[16], want[16];
    bn hv, r;
    memset(&hv, 0, sizeof hv);
    for (int i = 0; i < 3; i++)
        bn_add_shifted(&hv, h[i], 64u * (unsigned)i);
    model_r(&r, key);
    for (size_t i = 0; i < n; i++)
        model_block(&hv, &r, msg + 16 * i, 16);
    ops->init(st, key);
    memcpy(st, h, 3 * sizeof *h);
    ops->blocks(st, msg, n, 1);
    ops->finish(st, got);
    model_finish(want, hv, key);
    CHECK_MEM(got, want, 16, "%s: %zu blocks after crafted h (%s)", name, n, what);
}

static void vector_backends(void)
{
    static const uint64_t edges[][3] = {
        { 0xfffffffffffffffbu, 0xffffffffffffffffu, 3 },   /* p */
        { 0xfffffffffffffffcu, 0xffffffffffffffffu, 3 },   /* p + 1 */
        { 0xffffffffffffffffu, 0xffffffffffffffffu, 3 },   /* 2^130 - 1 */
        { 0, 0, 4 },                                       /* 2^130 */
        { 0xffffffffffffffffu, 0, 4 },                     /* 2^130 + 2^64 - 1 */
        { 0xffffffffffffffffu, 0xffffffffffffffffu, 0 },
    };
    static const size_t runs[] = { 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19, 23, 24, 31, 32, 33, 39, 40, 47, 64, 65, 71, 130 };
    uint8_t *msg = tl_xmalloc(65536 + 16), key[32], got[16], want[16];
    int nvec = 0;
    for (size_t ii = 0; ii < ic_impl_count("poly1305"); ii++) {
        const char *name = ic_impl_name("poly1305", ii);
        if (strcmp(name, "c") == 0 || !ic_impl_available("poly1305", ii))
            continue;
        const ic_poly1305_ops *ops = (const ic_poly1305_ops *)ic_impls_poly1305[ii].ops;
        tl_exercised("poly1305", name);
        nvec++;
        for (size_t len = 0; len <= 1100; len++) {
            fill_adversarial(key, 16, (int)(len / 5) % 4 == 2 ? 1 : (int)(len / 5) % 4);
            fill_adversarial(key + 16, 16, len % 3 ? 1 : 0);
            fill_adversarial(msg, len, (int)(len % 4));
            model_mac(want, msg, len, key);
            ops_mac(ops, got, msg, len, key);
            CHECK_MEM(got, want, 16, "%s vs model: len %zu", name, len);
        }
        for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
            for (size_t j = 0; j < sizeof runs / sizeof runs[0]; j++)
                for (int kind = 0; kind < 3; kind++) {
                    char what[48];
                    memset(key, 0xff, 32);                      /* every clamp-allowed bit of r, s = 2^128-1 */
                    if (kind == 2)
                        tl_rand_bytes(key, 32);
                    fill_adversarial(msg, 16 * runs[j], kind == 0 ? 1 : kind == 1 ? 2 : 0);
                    snprintf(what, sizeof what, "edge %zu, data kind %d", e, kind);
                    vector_run_check(ops, name, edges[e], key, msg, runs[j], what);
                }
        /* r = 1: h' = h + sum (m_i + 2^128), so block 1 can be chosen to
         * make the run end on a target: p, p + 1, 2p - 1 (mod p: 0, 1, p-1) */
        bn p;
        memset(&p, 0, sizeof p);
        p.w[0] = 0xfffffffb; p.w[1] = p.w[2] = p.w[3] = 0xffffffff; p.w[4] = 3;
        for (int t = 0; t < 3 * (int)(sizeof runs / sizeof runs[0]); t++) {
            size_t n = runs[t / 3];
            memset(key, 0, 32);
            key[0] = 1;
            memset(key + 16, 0xff, 16);
            for (int tries = 0; tries < 200; tries++) {
                bn sum, m1;
                memset(&sum, 0, sizeof sum);
                fill_adversarial(msg + 16, 16 * (n - 1), tries % 2 ? 1 : 3);
                for (size_t i = 0; i < n; i++) {
                    bn m;
                    bn_from_le(&m, msg + 16 * i, i == 0 ? 0 : 16);
                    for (int w = 0; w < BNW; w++)
                        bn_add_shifted(&sum, m.w[w], 32u * (unsigned)w);
                    bn_add_shifted(&sum, 1, 128);
                }
                bn_modp(&sum);
                /* m1 = target - sum mod p, target in {0, 1, p - 1} */
                memset(&m1, 0, sizeof m1);
                if (t % 3 == 1) m1.w[0] = 1;
                if (t % 3 == 2) { m1 = p; m1.w[0] -= 1; }
                if (!bn_ge(&m1, &sum))
                    for (int w = 0; w < BNW; w++)
                        bn_add_shifted(&m1, p.w[w], 32u * (unsigned)w);
                bn_sub(&m1, &sum);
                if (m1.w[4] != 0)
                    continue;               /* needs to fit in 128 bits */
                for (int i = 0; i < 16; i++)
                    msg[i] = (uint8_t)(m1.w[i / 4] >> (8 * (i % 4)));
                static const uint64_t zero[3] = { 0, 0, 0 };
                vector_run_check(ops, name, zero, key, msg, n, t % 3 == 0 ? "lands on p" : t % 3 == 1 ? "lands on p+1" : "lands on 2p-1");
                break;
            }
        }
        for (int i = 0; i < 60; i++) {
            size_t len = tl_rand_below(65536 + 1), off = tl_rand_below(16);
            tl_rand_bytes(key, 32);
            fill_adversarial(msg + off, len, i % 4);
            ref_mac(want, msg + off, len, key);
            ops_mac(ops, got, msg + off, len, key);
            CHECK_MEM(got, want, 16, "%s vs c: len %zu off %zu", name, len, off);
        }
    }
    printf("poly1305 vector backends checked at the ops level: %d\n", nvec);
    free(msg);
}

/* ---- 5. bad input ------------------------------------------------------ */
static void test_bad_input(void)
{
    uint8_t key[32] = { 1 }, tag[16], want[16], fill[16], zero[16] = { 0 }, msg[40] = { 0 };
    ic_poly1305_ctx ctx, snap;

    CHECK(ic_poly1305_init(NULL, key) == IC_ERR_NULL, "init NULL ctx");
    CHECK(ic_poly1305_init(&ctx, NULL) == IC_ERR_NULL, "init NULL key");
    CHECK(ic_poly1305_update(&ctx, msg, 1) == IC_ERR_STATE, "a refused init leaves no usable context");
    CHECK(ic_poly1305_init(&ctx, key) == IC_OK, "init");
    CHECK(ic_poly1305_update(&ctx, NULL, 1) == IC_ERR_NULL, "update NULL with len 1");
    CHECK(ic_poly1305_update(&ctx, NULL, 0) == IC_OK, "update NULL with len 0");
    CHECK(ic_poly1305_update(NULL, msg, 1) == IC_ERR_NULL, "update NULL ctx");
    snap = ctx;
    CHECK(ic_poly1305_final(&ctx, NULL) == IC_ERR_NULL, "final NULL tag");
    CHECK(ic_poly1305_final(NULL, tag) == IC_ERR_NULL, "final NULL ctx");
    CHECK(ic_poly1305_final_verify(&ctx, NULL) == IC_ERR_NULL, "final_verify NULL tag");
    CHECK(ic_poly1305_final_verify(NULL, tag) == IC_ERR_NULL, "final_verify NULL ctx");
    CHECK(memcmp(&ctx, &snap, sizeof ctx) == 0, "refused calls left the context unchanged");
    CHECK(ic_poly1305_update(&ctx, msg, 3) == IC_OK, "update after refused calls");
    CHECK(ic_poly1305_final(&ctx, tag) == IC_OK, "final");
    CHECK(ic_poly1305(want, msg, 3, key) == IC_OK, "one-shot");
    CHECK_MEM(tag, want, 16, "refused calls left the context intact");
    CHECK(ctx.check == 0, "final wipes the context");
    CHECK(ic_poly1305_update(&ctx, msg, 1) == IC_ERR_STATE, "update after final");
    CHECK(ic_poly1305_final(&ctx, tag) == IC_ERR_STATE, "final after final");
    CHECK(ic_poly1305_final_verify(&ctx, tag) == IC_ERR_STATE, "final_verify after final");
    CHECK(ic_poly1305_init(&ctx, key) == IC_OK && ic_poly1305_update(&ctx, msg, 3) == IC_OK &&
              ic_poly1305_final_verify(&ctx, zero) == IC_ERR_AUTH,
          "final_verify of a wrong tag");
    CHECK(ctx.check == 0 && ic_poly1305_update(&ctx, msg, 1) == IC_ERR_STATE, "a failed final_verify ends the context");
    memset(&ctx, 0, sizeof ctx);
    CHECK(ic_poly1305_update(&ctx, msg, 1) == IC_ERR_STATE, "update on a zeroed context");
    CHECK(ic_poly1305_final(&ctx, tag) == IC_ERR_STATE, "final on a zeroed context");
    CHECK(ic_poly1305_final_verify(&ctx, tag) == IC_ERR_STATE, "final_verify on a zeroed context");
    CHECK(ic_poly1305_init(&ctx, key) == IC_OK, "re-init");
    ctx.buflen = 16;
    CHECK(ic_poly1305_update(&ctx, msg, 1) == IC_ERR_STATE, "corrupt buffer length refused");
    CHECK(ic_poly1305_final(&ctx, tag) == IC_ERR_STATE, "corrupt buffer length refused by final");
    CHECK(ic_poly1305_final_verify(&ctx, tag) == IC_ERR_STATE, "corrupt buffer length refused by final_verify");
    ic_poly1305_wipe(&ctx);
    ic_poly1305_wipe(NULL);

    /* one-shot: NULL tag or key, or NULL data with a length, is refused
     * with nothing written */
    memset(fill, 0xaa, 16);
    memcpy(tag, fill, 16);
    CHECK(ic_poly1305(tag, msg, 1, NULL) == IC_ERR_NULL, "one-shot NULL key");
    CHECK(ic_poly1305(tag, NULL, 1, key) == IC_ERR_NULL, "one-shot NULL data, len 1");
    CHECK(ic_poly1305(NULL, msg, 1, key) == IC_ERR_NULL, "one-shot NULL tag");
    CHECK(ic_poly1305(NULL, NULL, 1, NULL) == IC_ERR_NULL, "one-shot all NULL");
    CHECK_MEM(tag, fill, 16, "refused one-shots wrote nothing");
    CHECK(ic_poly1305(tag, NULL, 0, key) == IC_OK && ic_poly1305(want, msg, 0, key) == IC_OK, "empty message");
    CHECK_MEM(tag, want, 16, "NULL data with len 0 is the empty message");

    CHECK(ic_poly1305_verify(NULL, msg, 1, key) == IC_ERR_NULL, "verify NULL tag");
    CHECK(ic_poly1305_verify(want, msg, 1, NULL) == IC_ERR_NULL, "verify NULL key");
    CHECK(ic_poly1305_verify(want, NULL, 1, key) == IC_ERR_NULL, "verify NULL data, len 1");
    CHECK(ic_poly1305_verify(want, NULL, 0, key) == IC_OK, "verify NULL data, len 0");
    CHECK(ic_poly1305_verify(zero, msg, 1, key) == IC_ERR_AUTH, "verify wrong tag");
}

int main(void)
{
    rnd = malloc(BIG);
    tl_rand_bytes(rnd, BIG);
    test_kats();
    CHECK(tl_for_each_impl("poly1305", selftest_impl, NULL) >= 1, "self-test ran");
    test_radixes();
    CHECK(tl_for_each_impl("poly1305", diff_impl, NULL) >= 1, "differential ran");
    test_bad_input();
    vector_backends();
    free(rnd);
    return tl_finish();
}
