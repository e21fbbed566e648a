/*
 * test_ppc_gcm.c - the POWER8 GHASH "p8" (src/gcm/ghash_ppc_p8.c) and its
 * stitched AES-GCM hook (src/gcm/gcm_ppc_p8.c) where test_gcm.c reaches
 * them only by chance:
 *
 *  1. dispatch: on ppc64 "p8" is listed with a gcm_crypt hook, available
 *     exactly when the CPU features (after INCORE_CPU) include vcrypto,
 *     arch_2_07 and VSX, picked by default then, and the portable GHASH is
 *     picked otherwise and when vcrypto is masked away at run time.
 *  2. blocks() against the portable GHASH on 0..70 blocks (every tail of
 *     the 8-block aggregation), split in two calls at every position, on
 *     misaligned input, with hash keys that stress the key setup: H = 0,
 *     H = 1, H = x^127, H with the top bit set (the carry of H*y), all
 *     ones, random.
 *  3. the hook against its definition on the portable parts (ctr32 then
 *     GHASH of the ciphertext, or GHASH then ctr32 when decrypting): block
 *     counts around the 8-block batches (it must take whole batches for a
 *     p8 AES key and nothing at all for any other key, leaving everything
 *     untouched), encrypt and decrypt, misaligned and in place, with inc32
 *     wrapping at every block of the first six batches while the 96 fixed
 *     bits stay all ones.
 *  4. the public streaming API with the counter set to wrap inside the
 *     stitched bulk, after a first piece that leaves a partial block,
 *     against a context bound to the portable implementations.
 *  5. bounds: blocks() and the hook with their input ending at a PROT_NONE
 *     page and the hook's output ending at another, so any access past
 *     in + len or out + len faults.
 * Elsewhere than ppc64 it only checks that no "p8" GHASH is listed.
 */
#define _GNU_SOURCE  /* MAP_ANONYMOUS under -std=c11 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "testlib.h"
#include "core/internal.h"
#include "gcm/ghash_impl.h"
#include "aes/aes_impl.h"

static const ic_ghash_ops *ghash_named(const char *name)
{
    for (size_t i = 0; i < ic_nimpls_ghash; i++)
        if (strcmp(ic_impls_ghash[i].name, name) == 0)
            return ic_impls_ghash[i].ops;
    return NULL;
}

#if defined(__powerpc64__)

static const ic_ghash_ops *ghash_portable(void) { return ic_impls_ghash[ic_nimpls_ghash - 1].ops; }
static const char *portable(const char *prim) { return ic_impl_name(prim, ic_impl_count(prim) - 1); }

static uint8_t *xmalloc(size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    if (!p)
        exit(2);
    return p;
}

static int all_byte(const uint8_t *p, size_t n, uint8_t v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return 0;
    return 1;
}

/* ---- 1. dispatch ------------------------------------------------------------ */

static int dispatch(void)
{
    const uint64_t need = IC_F(IC_CPU_PPC_VCRYPTO) | IC_F(IC_CPU_PPC_ARCH207) | IC_F(IC_CPU_PPC_VSX);
    const ic_ghash_ops *g = ghash_named("p8");
    uint64_t feats = ic_cpu_features();
    int hw = (feats & need) == need;
    long idx = -1;

    for (size_t i = 0; i < ic_impl_count("ghash"); i++)
        if (strcmp(ic_impl_name("ghash", i), "p8") == 0)
            idx = (long)i;
    if (!CHECK(g != NULL && idx >= 0, "ghash/p8 listed on ppc64"))
        return 0;
    CHECK(g->gcm_crypt != NULL, "ghash/p8 offers the stitched gcm_crypt hook");
    CHECK(ghash_portable()->gcm_crypt == NULL, "the portable GHASH has no hook");
    CHECK(ic_impl_available("ghash", (size_t)idx) == hw, "ghash/p8 available exactly when vcrypto+arch2.07+vsx (%d)",
          hw);
    CHECK(strcmp(ic_impl_selected("ghash"), hw ? "p8" : portable("ghash")) == 0, "ghash picks %s",
          ic_impl_selected("ghash"));
    printf("ghash/p8 %s on this CPU; selected: ghash/%s\n", hw ? "available" : "NOT available",
           ic_impl_selected("ghash"));

    CHECK(ic_cpu_set_mask(feats & ~IC_F(IC_CPU_PPC_VCRYPTO)) == IC_OK, "mask vcrypto");
    CHECK(strcmp(ic_impl_selected("ghash"), portable("ghash")) == 0, "without vcrypto ghash picks %s",
          ic_impl_selected("ghash"));
    CHECK(ic_impl_select("ghash", "p8") != IC_OK, "p8 cannot be forced without vcrypto");
    CHECK(ic_cpu_set_mask(feats) == IC_OK, "restore the mask");
    ic_impl_select("ghash", NULL);
    return hw;
}

/* ---- 2. blocks() ------------------------------------------------------------ */

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

static void blocks_vs_portable(void)
{
    const ic_ghash_ops *g = ghash_named("p8"), *p = ghash_portable();
    uint8_t h[16], y0[16], y[16], ry[16], *buf = xmalloc(70 * 16 + 16);
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
        CHECK_MEM(y, ry, 16, "ghash/p8 %zu blocks, key kind %zu", nb, nb % 8);
        /* the same in two calls, split at every position */
        for (size_t s = 0; s <= nb && nb <= 40; s++) {
            memcpy(y, y0, 16);
            g->blocks(&hk, y, in, s);
            g->blocks(&hk, y, in + 16 * s, nb - s);
            CHECK_MEM(y, ry, 16, "ghash/p8 %zu blocks split at %zu", nb, s);
        }
    }
    printf("  blocks vs ghash/%s: %lu failed\n", portable("ghash"), tl_failed - f0);
    free(buf);
}

/* ---- 3. the stitched hook ----------------------------------------------------- */

static int aes_by(ic_aes_key *k, const char *impl, const uint8_t *key, size_t kl)
{
    int r = ic_impl_select("aes", impl);
    if (r == IC_OK)
        r = ic_aes_init(k, key, kl);
    ic_impl_select("aes", NULL);
    return r;
}

/* One hook call on nb blocks against ctr32 + GHASH on portable parts. */
static void hook_one(const char *aes_impl, size_t nb, uint32_t ctr_lo, int enc, int inplace)
{
    const ic_ghash_ops *g = ghash_named("p8"), *p = ghash_portable();
    size_t kl = 16 + 8 * tl_rand_below(3), len = 16 * nb, oi = tl_rand_below(16), oo = tl_rand_below(16);
    uint8_t key[32], h[16], c0[16], y0[16], c[16], y[16], rc[16], ry[16];
    uint8_t *ibuf = xmalloc(len + 32), *obuf = xmalloc(len + 32), *ref = xmalloc(len), *orig = xmalloc(len);
    uint8_t *in = ibuf + oi, *out = inplace ? in : obuf + oo;
    int native = strcmp(aes_impl, "p8") == 0;
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
    g->init(&hk, h);
    hk.ops = g;
    p->init(&rh, h);
    rh.ops = p;

    memcpy(c, c0, 16);
    memcpy(y, y0, 16);
    got = g->gcm_crypt(&k, &hk, enc, c, y, out, in, nb);
    CHECK(got == want, "hook with an aes/%s key took %zu of %zu blocks, expected %zu", aes_impl, got, nb, want);
    if (got > nb)
        got = nb;

    /* the definition: ctr32 then GHASH (encrypt), GHASH then ctr32 (decrypt) */
    memcpy(rc, c0, 16);
    memcpy(ry, y0, 16);
    if (!enc)
        p->blocks(&rh, ry, orig, got);
    ((const ic_aes_ops *)rk.ops)->ctr32(&rk, rc, ref, orig, got);
    if (enc)
        p->blocks(&rh, ry, ref, got);
    CHECK_MEM(out, ref, 16 * got, "hook %s %zu blocks from counter %08x, in place %d", enc ? "encrypt" : "decrypt",
              nb, (unsigned)ctr_lo, inplace);
    CHECK_MEM(c, rc, 16, "hook counter after %zu blocks from %08x", got, (unsigned)ctr_lo);
    CHECK_MEM(y, ry, 16, "hook GHASH after %zu blocks (%s)", got, enc ? "encrypt" : "decrypt");
    if (inplace)
        CHECK(memcmp(in + 16 * got, orig + 16 * got, len - 16 * got) == 0, "hook touched blocks past its count");
    else
        CHECK(all_byte(obuf, oo, 0x5A) && all_byte(out + 16 * got, len - 16 * got + 32 - oo, 0x5A),
              "hook wrote outside out[0, 16 * count)");
    ic_aes_wipe(&k);
    ic_aes_wipe(&rk);
    free(ibuf), free(obuf), free(ref), free(orig);
}

static void hook(void)
{
    static const size_t counts[] = {0, 1, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 64, 65, 257};
    unsigned long f0 = tl_failed;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        for (int enc = 0; enc < 2; enc++)
            for (int inplace = 0; inplace < 2; inplace++) {
                hook_one("p8", counts[i], (uint32_t)tl_rand64(), enc, inplace);
                hook_one(portable("aes"), counts[i], (uint32_t)tl_rand64(), enc, inplace);
            }
    /* inc32 wraps after every block of six batches, and right at the start */
    for (uint32_t w = 0; w <= 48; w++)
        hook_one("p8", 48, 0xffffffffu - w, (int)(w & 1), (int)(w >> 1 & 1));
    hook_one("p8", 48, 0, 1, 0);
    printf("  stitched hook: %lu failed\n", tl_failed - f0);
}

/* ---- 4. the public API around the hook ------------------------------------------ */

static void api_one(size_t len, size_t first, uint32_t ctr_lo, int inplace)
{
    size_t kl = 16 + 8 * tl_rand_below(3), al = tl_rand_below(40);
    uint8_t key[32], iv[12], aad[40], tag[16], rtag[16];
    uint8_t *pt = xmalloc(len), *ct = xmalloc(len), *buf = xmalloc(len + 16), *out = buf + 1 + tl_rand_below(15);
    ic_gcm_ctx c, r;

    tl_rand_bytes(key, kl);
    tl_rand_bytes(iv, 12);
    tl_rand_bytes(aad, al);
    tl_rand_bytes(pt, len);
    CHECK(ic_impl_select("aes", "p8") == IC_OK && ic_impl_select("ghash", "p8") == IC_OK, "select p8");
    CHECK(ic_gcm_init(&c, key, kl) == IC_OK, "init");
    CHECK(ic_impl_select("aes", portable("aes")) == IC_OK && ic_impl_select("ghash", portable("ghash")) == IC_OK,
          "select portable");
    CHECK(ic_gcm_init(&r, key, kl) == IC_OK, "reference init");
    ic_impl_select("aes", NULL);
    ic_impl_select("ghash", NULL);

    /* reference: the portable context, one piece, the counter set to wrap */
    CHECK(ic_gcm_start(&r, iv, 12) == IC_OK && ic_gcm_aad(&r, aad, al) == IC_OK, "reference start");
    ic_store32_be(r.ctr + 12, ctr_lo);
    CHECK(ic_gcm_encrypt(&r, ct, pt, len) == IC_OK && ic_gcm_finish(&r, rtag, 16) == IC_OK, "reference");

    /* p8: a first piece (a partial block, so the hook starts later), then the rest */
    for (int enc = 1; enc >= 0; enc--) {
        const uint8_t *src = enc ? pt : ct;
        uint8_t *dst = out;
        if (inplace)
            memcpy(dst, src, len), src = dst;
        CHECK(ic_gcm_start(&c, iv, 12) == IC_OK && ic_gcm_aad(&c, aad, al) == IC_OK, "start");
        ic_store32_be(c.ctr + 12, ctr_lo);
        if (enc)
            CHECK(ic_gcm_encrypt(&c, dst, src, first) == IC_OK && ic_gcm_encrypt(&c, dst + first, src + first,
                  len - first) == IC_OK && ic_gcm_finish(&c, tag, 16) == IC_OK, "encrypt");
        else
            CHECK(ic_gcm_decrypt(&c, dst, src, first) == IC_OK && ic_gcm_decrypt(&c, dst + first, src + first,
                  len - first) == IC_OK && ic_gcm_verify(&c, rtag, 16) == IC_OK, "decrypt and verify");
        CHECK_MEM(dst, enc ? ct : pt, len, "gcm p8 %s %zu bytes (first %zu), counter %08x, in place %d",
                  enc ? "encrypt" : "decrypt", len, first, (unsigned)ctr_lo, inplace);
        if (enc)
            CHECK_MEM(tag, rtag, 16, "gcm p8 tag, %zu bytes, counter %08x", len, (unsigned)ctr_lo);
    }
    ic_gcm_wipe(&c);
    ic_gcm_wipe(&r);
    free(pt), free(ct), free(buf);
}

static void api(void)
{
    static const size_t lens[] = {128, 129, 255, 256, 383, 1000, 4096 + 7};
    unsigned long f0 = tl_failed;
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        for (uint32_t w = 0; w < 20; w++)
            api_one(lens[i], w % 3 == 0 ? 0 : tl_rand_below(16), 0xffffffffu - w * 3, (int)(w & 1));
    printf("  public API across the hook: %lu failed\n", tl_failed - f0);
}

/* ---- 5. bounds -------------------------------------------------------------- */

static void bounds(void)
{
    const ic_ghash_ops *g = ghash_named("p8"), *p = ghash_portable();
    long ps = sysconf(_SC_PAGESIZE);
    size_t pg = ps > 0 ? (size_t)ps : 4096;
    uint8_t *m = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    uint8_t key[16], h[16], y[16], ry[16], c[16], rc[16], ref[40 * 16];
    ic_ghash_key hk, rh;
    ic_aes_key k, rk;
    if (!CHECK(m != MAP_FAILED, "mmap") ||
        !CHECK(mprotect(m + pg, pg, PROT_NONE) == 0 && mprotect(m + 3 * pg, pg, PROT_NONE) == 0, "guards"))
        return;
    tl_rand_bytes(key, 16);
    tl_rand_bytes(h, 16);
    g->init(&hk, h);
    p->init(&rh, h);
    CHECK(aes_by(&k, "p8", key, 16) == IC_OK && aes_by(&rk, portable("aes"), key, 16) == IC_OK, "keys");
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
            got = g->gcm_crypt(&k, &hk, enc, c, y, out, in, nb);
            if (!enc)
                p->blocks(&rh, ry, in, got);
            ((const ic_aes_ops *)rk.ops)->ctr32(&rk, rc, ref, in, got);
            if (enc)
                p->blocks(&rh, ry, ref, got);
            CHECK(got == nb - nb % 8, "hook count at a guard page");
            CHECK_MEM(out, ref, 16 * got, "hook %s %zu blocks ending at a guard page", enc ? "enc" : "dec", nb);
            CHECK_MEM(y, ry, 16, "hook GHASH at a guard page");
        }
    }
    ic_aes_wipe(&k);
    ic_aes_wipe(&rk);
    munmap(m, 4 * pg);
}

int main(void)
{
    if (dispatch()) {
        blocks_vs_portable();
        hook();
        api();
        bounds();
        tl_exercised("ghash", "p8");
        tl_exercised("aes", "p8");
    }
    return tl_finish();
}

#else /* not ppc64 */

int main(void)
{
    CHECK(ghash_named("p8") == NULL, "no POWER8 GHASH listed off ppc64");
    return tl_finish();
}

#endif
