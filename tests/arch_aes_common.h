/*
 * arch_aes_common.h - the checks test_arm_aes.c (AArch64: AES "ce", GHASH
 * "pmull") and test_ppc_aes.c (POWER8: AES "p8", GHASH "p8") share: the
 * backends against the portable implementations, parameterized by the
 * backend names in an arch_aes.  Each test file keeps what is its own (its
 * description, the dispatch and round-key layout checks, main) and includes
 * this first, defining ARCH_AES_BACKENDS before when the build targets its
 * architecture; without it only the includes, impl_index() and none_listed()
 * come.
 */
#ifndef ARCH_AES_COMMON_H
#define ARCH_AES_COMMON_H

#define _GNU_SOURCE  /* MAP_ANONYMOUS under -std=c11 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "testlib.h"
#include "core/internal.h"
#include "gcm/ghash_impl.h"
#include "aes/aes_impl.h"

static long impl_index(const char *prim, const char *name)
{
    for (size_t i = 0; i < ic_impl_count(prim); i++)
        if (strcmp(ic_impl_name(prim, i), name) == 0)
            return (long)i;
    return -1;
}

#if defined(ARCH_AES_BACKENDS)

/* The backends under test. */
typedef struct {
    const char *aes;     /* AES ("ce", "p8") */
    const char *ghash;   /* GHASH, declaring the stitched loop with aes ("pmull", "p8") */
    const char *gcm;     /* the two in messages ("ce+pmull", "p8") */
    int random_ones;     /* counters(): fixed bits all ones on a coin toss, else on every other count */
} arch_aes;

static const char *portable(const char *prim) { return ic_impl_name(prim, ic_impl_count(prim) - 1); }
static const ic_ghash_ops *ghash_portable(void) { return ic_impls_ghash[ic_nimpls_ghash - 1].ops; }
static const ic_ghash_ops *ghash_backend(const arch_aes *a)
{
    return ic_impls_ghash[impl_index("ghash", a->ghash)].ops;
}

/* The stitched loop the pairing picks for an AES key and a GHASH key (what
 * ic_aes_gcm_key_init records), NULL for none. */
static ic_gcm_stitch_fn pair_loop(const ic_aes_key *k, const ic_ghash_key *hk)
{
    return ic_gcm_stitch_loop(ic_gcm_stitch_pick(ic_aes_key_ops(k), ic_ghash_key_ops(hk)));
}

/* Run the pair's loop (0 blocks when it has none). */
static size_t pair_crypt(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, uint8_t ctr[16],
                         uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nb)
{
    ic_gcm_stitch_fn loop = pair_loop(k, hk);
    return loop != NULL ? loop(k, hk, flags, ctr, y, out, in, nb) : 0;
}

/* An AES key expanded by the named implementation (selection restored). */
static int aes_by(ic_aes_key *k, const char *impl, const uint8_t *key, size_t kl)
{
    int r = ic_impl_select("aes", impl);
    if (r == IC_OK)
        r = ic_aes_key_init(k, key, kl);
    CHECK(ic_impl_select("aes", NULL) == IC_OK, "aes: back to automatic selection");
    return r;
}

/* Two read-write pages, each followed by a PROT_NONE one (4 pages at m). */
static uint8_t *guarded(size_t *pg)
{
    long p = sysconf(_SC_PAGESIZE);
    *pg = p > 0 ? (size_t)p : 4096;
    uint8_t *m = mmap(NULL, 4 * *pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    if (mprotect(m + *pg, *pg, PROT_NONE) != 0 || mprotect(m + 3 * *pg, *pg, PROT_NONE) != 0) {
        munmap(m, 4 * *pg);
        return NULL;
    }
    return m;
}

/* ---- 2. key layout: the reference expansion ----------------------------- */

/* GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (FIPS 197 section 4.2). */
static uint8_t gmul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    for (int i = 0; i < 8; i++) {
        if (b & 1)
            r ^= a;
        a = (uint8_t)(a << 1 ^ (a & 0x80 ? 0x1b : 0));
        b >>= 1;
    }
    return r;
}

/* S-box (section 5.1.1): the inverse (b^254, 0 -> 0), then the affine map
 * b ^ rotl(b,1) ^ rotl(b,2) ^ rotl(b,3) ^ rotl(b,4) ^ 0x63. */
static uint8_t sbox(uint8_t b)
{
    uint8_t inv = 1, sq = b;
    for (int e = 254; e; e >>= 1) {
        if (e & 1)
            inv = gmul(inv, sq);
        sq = gmul(sq, sq);
    }
    uint8_t s = inv;
    for (int i = 1; i <= 4; i++)
        s ^= (uint8_t)(inv << i | inv >> (8 - i));
    return s ^ 0x63;
}

/* Key expansion of section 5.2 on bytes: w receives 16 * (Nr + 1) bytes. */
static void expand_ref(const uint8_t *key, size_t kl, uint8_t *w)
{
    size_t nk = kl / 4, nw = 4 * (nk + 7);
    uint8_t rcon = 1;
    memcpy(w, key, kl);
    for (size_t i = nk; i < nw; i++) {
        uint8_t t[4];
        memcpy(t, w + 4 * (i - 1), 4);
        if (i % nk == 0) {
            uint8_t t0 = t[0];
            t[0] = sbox(t[1]) ^ rcon;
            t[1] = sbox(t[2]);
            t[2] = sbox(t[3]);
            t[3] = sbox(t0);
            rcon = gmul(rcon, 2);
        } else if (nk > 6 && i % nk == 4) {
            for (int j = 0; j < 4; j++)
                t[j] = sbox(t[j]);
        }
        for (int j = 0; j < 4; j++)
            w[4 * i + j] = w[4 * (i - nk) + j] ^ t[j];
    }
}

/* The FIPS 197 Appendix A records check the reference expansion, then it and
 * random keys check the backend's storage through check. */
static void layout(void (*check)(const uint8_t *key, size_t kl, const char *what))
{
    tl_rsp *r = tl_rsp_openf("%s/aes_keyexp.txt", tl_data_dir());
    tl_rec rec;
    int n = 0;
    while (tl_rsp_next(r, &rec)) {
        uint8_t key[32], last[16], all[176], w[240];
        long kl = tl_get(&rec, "KEY") ? tl_hex(key, sizeof key, tl_get(&rec, "KEY")) : -1;
        long ll = tl_get(&rec, "W_LAST") ? tl_hex(last, sizeof last, tl_get(&rec, "W_LAST")) : -1;
        const char *what = tl_get(&rec, "COUNT") ? tl_get(&rec, "COUNT") : "?";
        if (!CHECK((kl == 16 || kl == 24 || kl == 32) && ll == 16, "aes_keyexp.txt %s: malformed", what))
            continue;
        expand_ref(key, (size_t)kl, w);
        CHECK_MEM(w + 16 * (kl / 4 + 6), last, 16, "FIPS 197 %s: reference expansion, last round key", what);
        if (tl_has(&rec, "W")) {
            long al = tl_hex(all, sizeof all, tl_get(&rec, "W"));
            CHECK(al == 16 * (kl / 4 + 7), "FIPS 197 %s: W length", what);
            if (al > 0)
                CHECK_MEM(w, all, (size_t)al, "FIPS 197 %s: reference expansion, every round key", what);
        }
        check(key, (size_t)kl, what);
        n++;
    }
    tl_rsp_close(r);
    CHECK(n == 3, "aes_keyexp.txt: %d of 3 records", n);
    for (int i = 0; i < 30; i++) {
        uint8_t key[32];
        tl_rand_bytes(key, sizeof key);
        check(key, 16 + 8 * (size_t)(i % 3), "random key");
    }
    CHECK(ic_impl_select("aes", NULL) == IC_OK, "aes: back to automatic selection");
}

/* ---- 3. counters --------------------------------------------------------- */

/* The counter for a wrap after block `at`: the counted part (last 4 bytes
 * for inc32, all 16 for CTR) is its maximum minus `at`; the rest all ones
 * or random. */
static void wrap_counter(uint8_t c[16], int inc32, uint32_t at, int ones)
{
    if (ones)
        memset(c, 0xff, 16);
    else
        tl_rand_bytes(c, 16);
    if (!inc32 && !ones)
        memset(c + 8, 0xff, 8);     /* carry from the low 64 bits into the high */
    ic_store32_be(c + 12, 0xffffffffu - at);
}

static void counters(const arch_aes *a)
{
    static const size_t counts[] = {8, 9, 16, 24, 25, 33};
    uint8_t *src = malloc(64 * 16 + 32), *dst = malloc(64 * 16 + 32), *ref = malloc(64 * 16 + 32);
    unsigned long f0 = tl_failed;
    if (!src || !dst || !ref)
        exit(2);
    for (int inc32 = 0; inc32 < 2; inc32++)
        for (uint32_t at = 0; at <= 25; at++)
            for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
                size_t nb = counts[ci], kl = 16 + 8 * tl_rand_below(3), oi = tl_rand_below(16);
                size_t oo = tl_rand_below(16), tail = tl_rand_below(16), len = 16 * nb + tail;
                uint8_t key[32], c0[16], c[16], rc[16];
                ic_aes_key k, rk;
                /* fixed bits all ones: alternately (both kinds at every wrap position) or on a coin toss */
                int ones = a->random_ones ? (int)tl_rand_below(2) : (int)(ci & 1);
                const char *op = inc32 ? "ctr32" : "ctr";

                tl_rand_bytes(key, kl);
                wrap_counter(c0, inc32, at, ones);
                tl_rand_bytes(src, 64 * 16 + 32);
                CHECK(aes_by(&k, a->aes, key, kl) == IC_OK && aes_by(&rk, portable("aes"), key, kl) == IC_OK, "keys");
                const ic_aes_ops *hw = ic_aes_key_ops(&k), *pr = ic_aes_key_ops(&rk);

                /* raw block op, misaligned */
                memcpy(c, c0, 16);
                memcpy(rc, c0, 16);
                memset(dst, 0x5A, 64 * 16 + 32);
                (inc32 ? hw->ctr32 : hw->ctr)(&k, c, dst + oo, src + oi, nb);
                (inc32 ? pr->ctr32 : pr->ctr)(&rk, rc, ref, src + oi, nb);
                CHECK_MEM(dst + oo, ref, 16 * nb, "raw %s, %zu blocks, wrap after block %u, ones %d", op, nb,
                          (unsigned)at, ones);
                CHECK_MEM(c, rc, 16, "raw %s counter after %zu blocks, wrap after %u", op, nb, (unsigned)at);
                CHECK(dst[oo + 16 * nb] == 0x5A && (oo == 0 || dst[oo - 1] == 0x5A), "raw %s wrote outside", op);

                /* raw op in place */
                memcpy(c, c0, 16);
                memcpy(dst, src + oi, 16 * nb);
                (inc32 ? hw->ctr32 : hw->ctr)(&k, c, dst, dst, nb);
                CHECK_MEM(dst, ref, 16 * nb, "raw %s in place, %zu blocks, wrap after %u", op, nb, (unsigned)at);

                /* the public CTR call (128-bit counter), with a partial block */
                if (!inc32) {
                    memcpy(c, c0, 16);
                    memcpy(rc, c0, 16);
                    CHECK(ic_aes_ctr_crypt(&k, dst + oo, src + oi, len, c) == IC_OK
                          && ic_aes_ctr_crypt(&rk, ref, src + oi, len, rc) == IC_OK, "ctr calls");
                    CHECK_MEM(dst + oo, ref, len, "ic_aes_ctr_crypt %zu bytes, wrap after block %u", len,
                              (unsigned)at);
                    CHECK_MEM(c, rc, 16, "ic_aes_ctr_crypt counter after %zu bytes", len);
                }
                ic_aes_key_wipe(&k);
                ic_aes_key_wipe(&rk);
            }
    printf("  counters: %lu failed\n", tl_failed - f0);
    free(src), free(dst), free(ref);
}

/* ---- 4. GHASH blocks() --------------------------------------------------- */

static void hash_key(uint8_t h[16], int kind)
{
    memset(h, 0, 16);
    switch (kind) {
    case 0: break;                                   /* H = 0                     */
    case 1: h[0] = 0x80; break;                      /* H = 1 (x^0)               */
    case 2: h[15] = 0x01; break;                     /* H = x^127                 */
    case 3: tl_rand_bytes(h, 16); h[0] |= 0x80; break; /* carry out of H*y        */
    case 4: memset(h, 0xff, 16); break;
    default: tl_rand_bytes(h, 16); break;
    }
}

static void blocks_vs_portable(const arch_aes *a)
{
    const ic_ghash_ops *g = ghash_backend(a), *p = ghash_portable();
    uint8_t h[16], y0[16], y[16], ry[16], *buf = tl_xmalloc(70 * 16 + 16);
    ic_ghash_key hk, rh;
    unsigned long f0 = tl_failed;

    for (size_t nb = 0; nb <= 70; nb++) {
        const uint8_t *in = buf + tl_rand_below(16);
        hash_key(h, (int)(nb % 8));
        tl_rand_bytes(y0, 16);
        tl_rand_bytes(buf, 70 * 16 + 16);
        g->init(&hk, h);
        p->init(&rh, h);
        memcpy(ry, y0, 16);
        p->blocks(&rh, ry, in, nb);
        memcpy(y, y0, 16);
        g->blocks(&hk, y, in, nb);
        CHECK_MEM(y, ry, 16, "ghash/%s %zu blocks, key kind %zu", a->ghash, nb, nb % 8);
        /* the same in two calls, split at every position */
        for (size_t s = 0; s <= nb && nb <= 40; s++) {
            memcpy(y, y0, 16);
            g->blocks(&hk, y, in, s);
            g->blocks(&hk, y, in + 16 * s, nb - s);
            CHECK_MEM(y, ry, 16, "ghash/%s %zu blocks split at %zu", a->ghash, nb, s);
        }
    }
    printf("  blocks vs ghash/%s: %lu failed\n", portable("ghash"), tl_failed - f0);
    free(buf);
}

/* ---- 5. the stitched loop ------------------------------------------------ */

/* One loop call on nb blocks against ctr32 + GHASH on portable parts. */
static void loop_one(const arch_aes *a, const char *aes_impl, size_t nb, uint32_t ctr_lo, int enc, int inplace)
{
    const ic_ghash_ops *g = ghash_backend(a), *p = ghash_portable();
    size_t kl = 16 + 8 * tl_rand_below(3), len = 16 * nb, oi = tl_rand_below(16), oo = tl_rand_below(16);
    uint8_t key[32], h[16], c0[16], y0[16], c[16], y[16], rc[16], ry[16];
    uint8_t *ibuf = tl_xmalloc(len + 32), *obuf = tl_xmalloc(len + 32), *ref = tl_xmalloc(len), *orig = tl_xmalloc(len);
    uint8_t *in = ibuf + oi, *out = inplace ? in : obuf + oo;
    int native = strcmp(aes_impl, a->aes) == 0;
    size_t want = native ? nb - nb % 8 : 0, got;
    ic_aes_key k, rk;
    ic_ghash_key hk, rh;

    tl_rand_bytes(key, kl);
    tl_rand_bytes(h, 16);
    tl_rand_bytes(y0, 16);
    memset(c0, 0xff, 12);                    /* a carry out of inc32 would show */
    ic_store32_be(c0 + 12, ctr_lo);
    tl_rand_bytes(ibuf, len + 32);
    memcpy(orig, in, len);
    memset(obuf, 0x5A, len + 32);
    CHECK(aes_by(&k, aes_impl, key, kl) == IC_OK && aes_by(&rk, portable("aes"), key, kl) == IC_OK, "keys");
    ic_ghash_key_setup(&hk, g, h);
    ic_ghash_key_setup(&rh, p, h);

    memcpy(c, c0, 16);
    memcpy(y, y0, 16);
    CHECK((pair_loop(&k, &hk) != NULL) == native, "aes/%s with ghash/%s: a stitched loop exactly for %s keys",
          aes_impl, a->ghash, a->aes);
    got = pair_crypt(&k, &hk, enc ? IC_GCM_HOOK_ENCRYPT : 0, c, y, out, in, nb);
    CHECK(got == want, "loop with an aes/%s key took %zu of %zu blocks, expected %zu", aes_impl, got, nb, want);
    if (got > nb)
        got = nb;

    /* the definition: ctr32 then GHASH (encrypt), GHASH then ctr32 (decrypt) */
    memcpy(rc, c0, 16);
    memcpy(ry, y0, 16);
    if (!enc)
        p->blocks(&rh, ry, orig, got);
    ic_aes_key_ops(&rk)->ctr32(&rk, rc, ref, orig, got);
    if (enc)
        p->blocks(&rh, ry, ref, got);
    CHECK_MEM(out, ref, 16 * got, "loop %s %zu blocks from counter %08x, in place %d", enc ? "encrypt" : "decrypt",
              nb, (unsigned)ctr_lo, inplace);
    CHECK_MEM(c, rc, 16, "loop counter after %zu blocks from %08x", got, (unsigned)ctr_lo);
    CHECK_MEM(y, ry, 16, "loop GHASH after %zu blocks (%s)", got, enc ? "encrypt" : "decrypt");
    if (inplace)
        CHECK(memcmp(in + 16 * got, orig + 16 * got, len - 16 * got) == 0, "loop touched blocks past its count");
    else
        CHECK(tl_all_byte(obuf, oo, 0x5A) && tl_all_byte(out + 16 * got, len - 16 * got + 32 - oo, 0x5A),
              "loop wrote outside out[0, 16 * count)");
    ic_aes_key_wipe(&k);
    ic_aes_key_wipe(&rk);
    free(ibuf), free(obuf), free(ref), free(orig);
}

static void loop_all(const arch_aes *a)
{
    static const size_t counts[] = {0, 1, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 64, 65, 257};
    unsigned long f0 = tl_failed;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        for (int enc = 0; enc < 2; enc++)
            for (int inplace = 0; inplace < 2; inplace++) {
                loop_one(a, a->aes, counts[i], (uint32_t)tl_rand64(), enc, inplace);
                loop_one(a, portable("aes"), counts[i], (uint32_t)tl_rand64(), enc, inplace);
            }
    /* inc32 wraps after every block of six batches, and right at the start */
    for (uint32_t w = 0; w <= 48; w++)
        loop_one(a, a->aes, 48, 0xffffffffu - w, (int)(w & 1), (int)(w >> 1 & 1));
    loop_one(a, a->aes, 48, 0, 1, 0);
    printf("  stitched loop: %lu failed\n", tl_failed - f0);
}

/* ---- 5. (cont.) the public API around the loop --------------------------- */

static void api_one(const arch_aes *a, size_t len, size_t first, uint32_t ctr_lo, int inplace)
{
    size_t kl = 16 + 8 * tl_rand_below(3), al = tl_rand_below(40);
    uint8_t key[32], iv[12], aad[40], tag[16], rtag[16];
    uint8_t *pt = tl_xmalloc(len), *ct = tl_xmalloc(len), *buf = tl_xmalloc(len + 16), *out = buf + 1 + tl_rand_below(15);
    ic_aes_gcm_ctx c, r;
    ic_aes_gcm_key ck, rk;

    tl_rand_bytes(key, kl);
    tl_rand_bytes(iv, 12);
    tl_rand_bytes(aad, al);
    tl_rand_bytes(pt, len);
    CHECK(ic_impl_select("aes", a->aes) == IC_OK && ic_impl_select("ghash", a->ghash) == IC_OK, "select %s", a->gcm);
    CHECK(ic_aes_gcm_key_init(&ck, key, kl) == IC_OK && ck.stitch != IC_STITCH_NONE, "key init, stitched loop recorded");
    CHECK(ic_impl_select("aes", portable("aes")) == IC_OK && ic_impl_select("ghash", portable("ghash")) == IC_OK,
          "select portable");
    CHECK(ic_aes_gcm_key_init(&rk, key, kl) == IC_OK, "reference key init");
    CHECK(ic_impl_select("aes", NULL) == IC_OK, "aes: back to automatic selection");
    CHECK(ic_impl_select("ghash", NULL) == IC_OK, "ghash: back to automatic selection");

    /* reference: the portable context, one piece, the counter set to wrap */
    CHECK(ic_aes_gcm_init(&r, &rk, iv, 12) == IC_OK && ic_aes_gcm_aad(&r, aad, al) == IC_OK, "reference init");
    ic_store32_be(r.ctr + 12, ctr_lo);
    CHECK(ic_aes_gcm_encrypt(&r, ct, pt, len) == IC_OK && ic_aes_gcm_final(&r, rtag, 16) == IC_OK, "reference");

    /* the backends: a first piece (a partial block, so the loop starts later), then the rest */
    for (int enc = 1; enc >= 0; enc--) {
        const uint8_t *src = enc ? pt : ct;
        uint8_t *dst = out;
        if (inplace)
            memcpy(dst, src, len), src = dst;
        CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK && ic_aes_gcm_aad(&c, aad, al) == IC_OK, "init");
        ic_store32_be(c.ctr + 12, ctr_lo);
        if (enc)
            CHECK(ic_aes_gcm_encrypt(&c, dst, src, first) == IC_OK && ic_aes_gcm_encrypt(&c, dst + first, src + first,
                  len - first) == IC_OK && ic_aes_gcm_final(&c, tag, 16) == IC_OK, "encrypt");
        else
            CHECK(ic_aes_gcm_decrypt(&c, dst, src, first) == IC_OK && ic_aes_gcm_decrypt(&c, dst + first, src + first,
                  len - first) == IC_OK && ic_aes_gcm_final_verify(&c, rtag, 16) == IC_OK, "decrypt and verify");
        CHECK_MEM(dst, enc ? ct : pt, len, "gcm %s %s %zu bytes (first %zu), counter %08x, in place %d",
                  a->gcm, enc ? "encrypt" : "decrypt", len, first, (unsigned)ctr_lo, inplace);
        if (enc)
            CHECK_MEM(tag, rtag, 16, "gcm %s tag, %zu bytes, counter %08x", a->gcm, len, (unsigned)ctr_lo);
    }
    ic_aes_gcm_wipe(&c);
    ic_aes_gcm_wipe(&r);
    ic_aes_gcm_key_wipe(&ck);
    ic_aes_gcm_key_wipe(&rk);
    free(pt), free(ct), free(buf);
}

static void api(const arch_aes *a)
{
    static const size_t lens[] = {128, 129, 255, 256, 383, 1000, 4096 + 7};
    unsigned long f0 = tl_failed;
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        for (uint32_t w = 0; w < 20; w++)
            api_one(a, lens[i], w % 3 == 0 ? 0 : tl_rand_below(16), 0xffffffffu - w * 3, (int)(w & 1));
    printf("  public API across the loop: %lu failed\n", tl_failed - f0);
}

/* ---- 6. bounds ----------------------------------------------------------- */

static void aes_bounds(const arch_aes *a)
{
    size_t pg;
    uint8_t *m = guarded(&pg), key[32], iv[16], want[20 * 16], ivw[16];
    ic_aes_key k, rk;
    if (!CHECK(m != NULL, "guard pages"))
        return;
    for (size_t kl = 16; kl <= 32; kl += 8) {
        tl_rand_bytes(key, kl);
        CHECK(aes_by(&k, a->aes, key, kl) == IC_OK && aes_by(&rk, portable("aes"), key, kl) == IC_OK, "keys");
        const ic_aes_ops *hw = ic_aes_key_ops(&k), *r = ic_aes_key_ops(&rk);
        for (size_t nb = 1; nb <= 20; nb++) {
            uint8_t *in = m + pg - 16 * nb, *out = m + 3 * pg - 16 * nb;
            tl_rand_bytes(in, 16 * nb);
            for (int op = 0; op < 10; op++) {
                tl_rand_bytes(iv, 16);
                memcpy(ivw, iv, 16);
#define RUN(o, kk, v, dst)                                                                        \
    switch (op) {                                                                                 \
    case 0: o->ecb_enc(kk, dst, in, nb); break;                                                   \
    case 1: o->ecb_dec(kk, dst, in, nb); break;                                                   \
    case 2: o->cbc_enc(kk, v, dst, in, nb); break;                                                \
    case 3: o->cbc_dec(kk, v, dst, in, nb); break;                                                \
    case 4: o->ctr(kk, v, dst, in, nb); break;                                                    \
    case 5: o->ctr32(kk, v, dst, in, nb); break;                                                  \
    case 6: o->cfb_enc(kk, v, dst, in, nb); break;                                                \
    case 7: o->cfb_dec(kk, v, dst, in, nb); break;                                                \
    case 8: o->ofb(kk, v, dst, in, nb); break;                                                    \
    default: memcpy(dst, in, 16 * nb); o->ctr(kk, v, dst, dst, nb); break;                        \
    }
                RUN(r, &rk, ivw, want);
                RUN(hw, &k, iv, out);
#undef RUN
                CHECK_MEM(out, want, 16 * nb, "op %d on %zu blocks ending at a guard page", op, nb);
                CHECK_MEM(iv, ivw, 16, "op %d chaining value at a guard page", op);
            }
        }
        ic_aes_key_wipe(&k);
        ic_aes_key_wipe(&rk);
    }
    munmap(m, 4 * pg);
}

static void gcm_bounds(const arch_aes *a)
{
    const ic_ghash_ops *g = ghash_backend(a), *p = ghash_portable();
    size_t pg;
    uint8_t *m = guarded(&pg);
    uint8_t key[16], h[16], y[16], ry[16], c[16], rc[16], ref[40 * 16];
    ic_ghash_key hk, rh;
    ic_aes_key k, rk;
    if (!CHECK(m != NULL, "guard pages"))
        return;
    tl_rand_bytes(key, 16);
    tl_rand_bytes(h, 16);
    ic_ghash_key_setup(&hk, g, h);   /* recorded in hk: the pairing reads its ops */
    ic_ghash_key_setup(&rh, p, h);
    CHECK(aes_by(&k, a->aes, key, 16) == IC_OK && aes_by(&rk, portable("aes"), key, 16) == IC_OK, "keys");
    for (size_t nb = 1; nb <= 40; nb++) {
        uint8_t *in = m + pg - 16 * nb, *out = m + 3 * pg - 16 * nb;
        tl_rand_bytes(in, 16 * nb);
        memset(y, 0, 16);
        memset(ry, 0, 16);
        g->blocks(&hk, y, in, nb);
        p->blocks(&rh, ry, in, nb);
        CHECK_MEM(y, ry, 16, "blocks on %zu blocks ending at a guard page", nb);
        for (int enc = 0; enc < 2; enc++) {
            size_t got;
            memset(c, 0, 16);
            memcpy(rc, c, 16);
            got = pair_crypt(&k, &hk, enc ? IC_GCM_HOOK_ENCRYPT : 0, c, y, out, in, nb);
            if (!enc)
                p->blocks(&rh, ry, in, got);
            ic_aes_key_ops(&rk)->ctr32(&rk, rc, ref, in, got);
            if (enc)
                p->blocks(&rh, ry, ref, got);
            CHECK(got == nb - nb % 8, "loop count at a guard page");
            CHECK_MEM(out, ref, 16 * got, "loop %s %zu blocks ending at a guard page", enc ? "enc" : "dec", nb);
            CHECK_MEM(y, ry, 16, "loop GHASH at a guard page");
        }
    }
    ic_aes_key_wipe(&k);
    ic_aes_key_wipe(&rk);
    munmap(m, 4 * pg);
}

/* ---- 4 to 6 as the test files run them ----------------------------------- */

/* The GHASH backend: its stitched loop declared (the portable one declares none), and
 * blocks() against the portable implementation. */
static void ghash_checks(const arch_aes *a)
{
    const ic_aes_ops *ao = ic_impls_aes[impl_index("aes", a->aes)].ops;
    CHECK(ghash_backend(a)->stitch != 0 && ic_gcm_stitch_pick(ao, ghash_backend(a)) != IC_STITCH_NONE,
          "ghash/%s and aes/%s declare a stitched loop in common", a->ghash, a->aes);
    CHECK(ghash_portable()->stitch == 0, "the portable GHASH declares no stitched loop");
    blocks_vs_portable(a);
}

/* The stitched loop: raw, through the public API, at guard pages. */
static void stitched_checks(const arch_aes *a)
{
    loop_all(a);
    api(a);
    gcm_bounds(a);
}

#else /* not ARCH_AES_BACKENDS */

/* Elsewhere all there is: neither backend (family "AArch64", arch "aarch64"
 * say) is listed. */
static int none_listed(const char *aes, const char *ghash, const char *family, const char *arch)
{
    CHECK(impl_index("aes", aes) < 0 && impl_index("ghash", ghash) < 0, "no %s AES or GHASH listed off %s", family,
          arch);
    return tl_finish();
}

#endif /* ARCH_AES_BACKENDS */

#endif /* ARCH_AES_COMMON_H */
