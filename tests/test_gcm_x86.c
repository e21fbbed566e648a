/*
 * test_gcm_x86.c - the x86-64 AES-GCM paths that test_gcm.c reaches only by
 * chance: the stitched CTR + GHASH loops (gcm_x86_ni.c: AES-NI, 8 blocks a
 * batch; gcm_x86_vaes.c: VAES, 16; gcm_x86_vaes512.c: VAES on ZMM, 32),
 * the pairing that picks one from what the AES and GHASH backends declare
 * (their ops' stitch), and the batch tails of the "clmul" / "vpclmul" /
 * "vpclmul512" GHASH.
 *
 *  1. the loop the pairing picks, for every available (ghash, aes) pair,
 *     mixed ones included (aes and ghash selected separately, as
 *     INCORE_IMPL=aes=..,ghash=.. does): the pick against the table below
 *     (written from the backends' names, not their declarations), its
 *     block count (whole batches for an x86 AES key, no loop for any
 *     other key),
 *     and its output, counter and GHASH accumulator against the portable
 *     ctr32 + GHASH (the last entries of the tables) on lengths around the
 *     8, 16 and 32-block boundaries, misaligned and in place, with the
 *     32-bit counter wrapping at every position inside a batch while the
 *     96 fixed bits (all ones, so a carry out of inc32 would show) stay,
 *     and the last byte carrying into the bytes above it at every position
 *     of a batch; nothing written outside out.
 *  2. GHASH blocks() on 1..70 blocks (vpclmul512's 32-block batches
 *     start at 32) and split at every batch position, and 127..257 blocks
 *     (several 32-block batches and their 0..31-block rest), against the
 *     portable GHASH.
 *  3. the public streaming API per pair, against a key object bound to the
 *     portable implementations: a first piece that leaves a partial block
 *     (so the loop starts after it), then the bulk, lengths around the
 *     batch sizes, in place and misaligned, encrypt and decrypt, and the
 *     counter set to wrap inside the bulk; and the one-shot seal and open
 *     on the same lengths (open hashes the whole ciphertext in one call).
 *  4. bounds: in and out placed flush against PROT_NONE pages (ending at
 *     one, or starting right after one), for the loop, the GHASH blocks
 *     and the public API, so a load or store one byte outside the
 *     caller's buffers faults.
 * On other architectures there is nothing x86 to test; the program checks
 * that no x86 implementation is listed.
 */
#define _GNU_SOURCE   /* MAP_ANONYMOUS */
#include "testlib.h"
#include "core/internal.h"
#include "gcm/ghash_impl.h"
#include "aes/aes_impl.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const ic_ghash_ops *ghash_named(const char *name)
{
    for (size_t i = 0; i < ic_nimpls_ghash; i++)
        if (strcmp(ic_impls_ghash[i].name, name) == 0)
            return ic_impls_ghash[i].ops;
    return NULL;
}

static const char *portable_name(const char *prim) { return ic_impl_name(prim, ic_impl_count(prim) - 1); }
static const ic_ghash_ops *ghash_portable(void) { return ic_impls_ghash[ic_nimpls_ghash - 1].ops; }

/* An AES key expanded by implementation name (selection restored). */
static int aes_key_by(ic_aes_key *k, const char *name, const uint8_t *key, size_t kl)
{
    const char *was = ic_impl_selected("aes");
    int r = ic_impl_select("aes", name);
    if (r == IC_OK)
        r = ic_aes_key_init(k, key, kl);
    CHECK(ic_impl_select("aes", was) == IC_OK, "select aes/%s", was);
    return r;
}

#if defined(__x86_64__) || defined(__i386__)

/* The loop a pair should run and the whole blocks it should take: the ZMM
 * loop, batches of 32 and then one of 16 (ghash vpclmul512 with a vaes512
 * key); the YMM VAES loop, batches of 16 (ghash vpclmul or vpclmul512 with
 * any other VAES key); the AES-NI loop, batches of 8 (any x86 GHASH with
 * an ni key, clmul with a VAES key); none for a portable key. */
static int is_name(const char *s, const char *a, const char *b)
{
    return strcmp(s, a) == 0 || (b != NULL && strcmp(s, b) == 0);
}

static uint32_t expected_loop(const char *ghash, const char *aes)
{
    if (!is_name(aes, "ni", "vaes") && !is_name(aes, "vaes512", NULL))
        return IC_STITCH_NONE;
    if (is_name(ghash, "vpclmul512", NULL) && is_name(aes, "vaes512", NULL))
        return IC_STITCH_X86_ZMM;
    if (is_name(ghash, "vpclmul", "vpclmul512") && is_name(aes, "vaes", "vaes512"))
        return IC_STITCH_X86_YMM;
    return IC_STITCH_X86_XMM;
}

static size_t expected_blocks(const char *ghash, const char *aes, size_t nb)
{
    switch (expected_loop(ghash, aes)) {
    case IC_STITCH_NONE: return 0;
    case IC_STITCH_X86_XMM: return nb - nb % 8;
    default: return nb - nb % 16;
    }
}

/* The loop the pairing picks for the AES key k and the GHASH key hk. */
static ic_gcm_stitch_fn pair_loop(const ic_aes_key *k, const ic_ghash_key *hk)
{
    return ic_gcm_stitch_loop(ic_gcm_stitch_pick(ic_aes_key_ops(k), ic_ghash_key_ops(hk)));
}

typedef struct {
    const char *ghash;     /* name of the GHASH under test */
} pair_arg;

/* The loop's definition on portable parts: ctr32 then GHASH of out
 * (encrypt) or GHASH of in then ctr32 (decrypt). */
static void hook_reference(const ic_aes_key *rk, const ic_ghash_key *rh, int enc, uint8_t ctr[16],
                           uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nb)
{
    const ic_aes_ops *a = ic_aes_key_ops(rk);
    const ic_ghash_ops *g = ic_ghash_key_ops(rh);
    if (!enc)
        g->blocks(rh, y, in, nb);
    a->ctr32(rk, ctr, out, in, nb);
    if (enc)
        g->blocks(rh, y, out, nb);
}

/* One loop call against the reference. */
static void hook_one(const char *combo, const char *gname, const char *aname, const ic_ghash_ops *g,
                     size_t nb, uint32_t ctr_lo, int enc, int inplace)
{
    size_t kl = 16 + 8 * tl_rand_below(3), len = 16 * nb;
    size_t oi = tl_rand_below(16), oo = tl_rand_below(16);
    uint8_t key[32], h[16], ctr0[16], y0[16], ctr[16], y[16], rctr[16], ry[16];
    uint8_t *ibuf = tl_xmalloc(len + 32), *obuf = tl_xmalloc(len + 32), *ref = tl_xmalloc(len + 1);
    uint8_t *in = ibuf + oi, *out = inplace ? in : obuf + oo;
    ic_aes_key k, rk;
    ic_ghash_key hk, rh;
    size_t want = expected_blocks(gname, aname, nb), got;

    tl_rand_bytes(key, kl);
    tl_rand_bytes(h, 16);
    tl_rand_bytes(y0, 16);
    tl_rand_bytes(ctr0, 12);
    if (tl_rand_below(2))
        memset(ctr0 + 8, 0xff, 4);   /* a carry out of inc32 would change these */
    ic_store32_be(ctr0 + 12, ctr_lo);
    tl_rand_bytes(ibuf, len + 32);
    memset(obuf, 0x5A, len + 32);
    memcpy(ref, in, len);

    CHECK(aes_key_by(&k, aname, key, kl) == IC_OK, "%s: key", combo);
    CHECK(aes_key_by(&rk, portable_name("aes"), key, kl) == IC_OK, "%s: reference key", combo);
    ic_ghash_key_setup(&hk, g, h);
    ic_ghash_key_setup(&rh, ghash_portable(), h);

    memcpy(ctr, ctr0, 16);
    memcpy(y, y0, 16);
    /* half of the calls with the counter marked public (12-byte IV), so
     * the VAES shortcut for public counters meets the same carries */
    unsigned flags = (enc ? IC_GCM_HOOK_ENCRYPT : 0) | (tl_rand_below(2) ? IC_GCM_HOOK_CTR_PUBLIC : 0);
    ic_gcm_stitch_fn loop = pair_loop(&k, &hk);
    CHECK((loop != NULL) == (expected_loop(gname, aname) != IC_STITCH_NONE), "%s: a loop exactly for x86 keys",
          combo);
    got = loop != NULL ? loop(&k, &hk, flags, ctr, y, out, in, nb) : 0;
    CHECK(got == want, "%s: loop took %zu of %zu blocks, expected %zu", combo, got, nb, want);
    if (got > nb)
        got = nb;   /* keep the comparisons below in bounds */

    memcpy(rctr, ctr0, 16);
    memcpy(ry, y0, 16);
    hook_reference(&rk, &rh, enc, rctr, ry, ref, ref, got);
    CHECK_MEM(out, ref, 16 * got, "%s: %s %zu blocks, counter %08x, in place %d", combo,
              enc ? "encrypt" : "decrypt", nb, (unsigned)ctr_lo, inplace);
    CHECK_MEM(ctr, rctr, 16, "%s: counter after %zu blocks from %08x", combo, got, (unsigned)ctr_lo);
    CHECK_MEM(y, ry, 16, "%s: GHASH after %zu blocks (%s)", combo, got, enc ? "encrypt" : "decrypt");
    if (inplace)
        CHECK(memcmp(in + 16 * got, ref + 16 * got, len - 16 * got) == 0, "%s: blocks past the count untouched",
              combo);
    else
        CHECK(tl_all_byte(obuf, oo, 0x5A) && tl_all_byte(out + 16 * got, len - 16 * got + 32 - oo, 0x5A),
              "%s: nothing written outside out[0, 16 * count)", combo);
    ic_aes_key_wipe(&k);
    ic_aes_key_wipe(&rk);
    free(ibuf); free(obuf); free(ref);
}

static const size_t hook_lengths[] = {
    0, 1, 2, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 47, 48, 49, 63, 64, 65, 127, 128, 129, 256, 1031,
};
#define NHOOKLEN (sizeof hook_lengths / sizeof hook_lengths[0])

static void hook_aes(const char *aname, void *arg)
{
    const pair_arg *pa = arg;
    const ic_ghash_ops *g = ghash_named(pa->ghash);
    char combo[64];
    snprintf(combo, sizeof combo, "[ghash/%s aes/%s loop]", pa->ghash, aname);
    if (!CHECK(g != NULL && g->stitch != 0, "%s: x86 GHASH declares stitched loops", combo))
        return;

    /* the pairing, from the declarations, against the table written from
     * the names; and a key object made under this selection records it */
    uint32_t want = expected_loop(pa->ghash, aname);
    uint8_t key[16] = {7};
    ic_aes_gcm_key gk;
    CHECK(ic_gcm_stitch_pick(ic_ops(IC_PRIM_AES), g) == want, "%s: pairing picks loop %u", combo, (unsigned)want);
    CHECK(ic_aes_gcm_key_init(&gk, key, sizeof key) == IC_OK && gk.stitch == want
          && ic_ghash_key_ops(&gk.ghash) == g, "%s: key object records loop %u", combo, (unsigned)want);
    ic_aes_gcm_key_wipe(&gk);

    /* every length class, both directions, both buffer modes */
    for (size_t i = 0; i < NHOOKLEN; i++)
        for (int enc = 0; enc < 2; enc++)
            for (int inplace = 0; inplace < 2; inplace++)
                hook_one(combo, pa->ghash, aname, g, hook_lengths[i], tl_rand64() & 0xffffffffu, enc, inplace);

    /* inc32 wraps at each position of the first two ZMM batches (64
     * blocks: four YMM VAES batches, eight AES-NI ones), and just after */
    for (uint32_t w = 0; w <= 65; w++)
        hook_one(combo, pa->ghash, aname, g, 72, 0xffffffffu - w, (int)(w & 1), (int)(w >> 1 & 1));
    /* the last byte wraps at each position of the first two batches and
     * carries into one byte or through three, the 32-bit counter does not
     * wrap: the case a last-byte shortcut would get wrong */
    for (uint32_t w = 0; w <= 65; w++) {
        hook_one(combo, pa->ghash, aname, g, 72, 0x123456ffu - w, (int)(w & 1), (int)(w >> 1 & 1));
        hook_one(combo, pa->ghash, aname, g, 72, 0x00ffffffu - w, (int)(w >> 1 & 1), (int)(w & 1));
    }
    hook_one(combo, pa->ghash, aname, g, 64, 0, 1, 0);
}

/* ---- 2. GHASH batch tails --------------------------------------------- */

static void blocks_vs_portable(const char *gname)
{
    const ic_ghash_ops *g = ghash_named(gname), *p = ghash_portable();
    ic_ghash_key hk, rh;
    /* 1..70 (vpclmul512's 32-block batches from 32 blocks a call), then
     * several 32-block batches and their 0..31-block rest */
    static const size_t longer[] = {127, 128, 129, 159, 160, 161, 191, 255, 256, 257};
    enum { MAXNB = 257 };
    uint8_t h[16], y[16], ry[16], *buf = tl_xmalloc(MAXNB * 16 + 16);
    for (size_t t = 0; t < 70 + sizeof longer / sizeof longer[0]; t++) {
        size_t nb = t < 70 ? t + 1 : longer[t - 70];
        const uint8_t *in = buf + tl_rand_below(16);
        tl_rand_bytes(h, 16);
        tl_rand_bytes(y, 16);
        tl_rand_bytes(buf, MAXNB * 16 + 16);
        memcpy(ry, y, 16);
        g->init(&hk, h);
        p->init(&rh, h);
        g->blocks(&hk, y, in, nb);
        p->blocks(&rh, ry, in, nb);
        CHECK_MEM(y, ry, 16, "ghash/%s: %zu blocks vs portable", gname, nb);
        /* the same split at every position: two calls, two batch tails */
        for (size_t cut = 1; cut < nb && nb <= 34; cut++) {
            uint8_t y2[16];
            memcpy(y2, y, 16);
            memcpy(ry, y, 16);
            g->blocks(&hk, y2, in, cut);
            g->blocks(&hk, y2, in + 16 * cut, nb - cut);
            p->blocks(&rh, ry, in, nb);
            CHECK_MEM(y2, ry, 16, "ghash/%s: %zu blocks split at %zu", gname, nb, cut);
        }
    }
    free(buf);
}

/* ---- 3. the public API around the loop --------------------------------- */

static void ref_key(ic_aes_gcm_key *k, const uint8_t *key, size_t kl)
{
    const char *g = ic_impl_selected("ghash"), *a = ic_impl_selected("aes");
    CHECK(ic_impl_select("ghash", portable_name("ghash")) == IC_OK, "select the portable ghash");
    CHECK(ic_impl_select("aes", portable_name("aes")) == IC_OK, "select the portable aes");
    CHECK(ic_aes_gcm_key_init(k, key, kl) == IC_OK, "reference key init");
    CHECK(ic_impl_select("ghash", g) == IC_OK, "select ghash/%s", g);
    CHECK(ic_impl_select("aes", a) == IC_OK, "select aes/%s", a);
}

/* Encrypt and decrypt len bytes as a first piece of `first` bytes and the
 * rest in one call, against a context on the reference key; optionally
 * with the counter set so inc32 wraps `wrap` blocks into the message. */
static void api_one(const char *combo, size_t len, size_t first, int inplace, long wrap)
{
    size_t kl = 16 + 8 * tl_rand_below(3), oi = tl_rand_below(16), oo = tl_rand_below(16);
    uint8_t key[32], iv[12], aad[20], tag[16], rtag[16];
    uint8_t *pt = tl_xmalloc(len), *rct = tl_xmalloc(len);
    uint8_t *ibuf = tl_xmalloc(len + 32), *obuf = tl_xmalloc(len + 32);
    uint8_t *in = ibuf + oi, *out = inplace ? in : obuf + oo;
    ic_aes_gcm_ctx c, ref;
    ic_aes_gcm_key ck, refk;

    tl_rand_bytes(key, kl);
    tl_rand_bytes(iv, 12);
    tl_rand_bytes(aad, sizeof aad);
    tl_rand_bytes(pt, len);
    if (first > len)
        first = len;

    ref_key(&refk, key, kl);
    CHECK(ic_aes_gcm_key_init(&ck, key, kl) == IC_OK, "%s: key init", combo);
    CHECK(ic_ghash_key_ops(&ck.ghash) == ic_ops(IC_PRIM_GHASH) && ic_aes_ops_of(&ck.aes) == ic_ops(IC_PRIM_AES),
          "%s: bound to the selection", combo);
    for (int enc = 1; enc >= 0; enc--) {
        const uint8_t *src = enc ? pt : rct;
        CHECK(ic_aes_gcm_init(&ref, &refk, iv, 12) == IC_OK && ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK,
              "%s: init", combo);
        if (wrap >= 0) {
            /* the 32-bit counter runs out `wrap` blocks in (both contexts) */
            ic_store32_be(ref.ctr + 12, (uint32_t)(0 - (uint32_t)wrap));
            memcpy(c.ctr, ref.ctr, 16);
        }
        CHECK(ic_aes_gcm_aad(&ref, aad, sizeof aad) == IC_OK && ic_aes_gcm_aad(&c, aad, sizeof aad) == IC_OK, "%s: aad",
              combo);
        if (enc)
            CHECK(ic_aes_gcm_encrypt(&ref, rct, pt, len) == IC_OK && ic_aes_gcm_final(&ref, rtag, 16) == IC_OK,
                  "%s: reference", combo);
        memcpy(in, src, len);
        if (!inplace)
            memset(obuf, 0x5A, len + 32);
        if (enc)
            CHECK(ic_aes_gcm_encrypt(&c, out, in, first) == IC_OK
                  && ic_aes_gcm_encrypt(&c, out + first, in + first, len - first) == IC_OK
                  && ic_aes_gcm_final(&c, tag, 16) == IC_OK, "%s: encrypt", combo);
        else
            CHECK(ic_aes_gcm_decrypt(&c, out, in, first) == IC_OK
                  && ic_aes_gcm_decrypt(&c, out + first, in + first, len - first) == IC_OK
                  && ic_aes_gcm_final_verify(&c, rtag, 16) == IC_OK, "%s: decrypt and verify", combo);
        CHECK_MEM(out, enc ? rct : pt, len, "%s: %s %zu bytes as %zu + %zu, in place %d, wrap %ld", combo,
                  enc ? "ciphertext" : "plaintext", len, first, len - first, inplace, wrap);
        if (enc)
            CHECK_MEM(tag, rtag, 16, "%s: tag, %zu bytes as %zu + %zu, wrap %ld", combo, len, first, len - first,
                      wrap);
        if (!inplace)
            CHECK(tl_all_byte(obuf, oo, 0x5A) && tl_all_byte(out + len, 32 - oo, 0x5A), "%s: wrote outside out",
                  combo);
    }
    if (wrap < 0) {
        /* the one-shots: open hashes the whole ciphertext in one GHASH
         * call before it decrypts (from 32 blocks the 32-block batches of
         * vpclmul512), seal runs the stitched loop in one call */
        uint8_t *o1 = tl_xmalloc(len + 1);
        CHECK(ic_aes_gcm_open(o1, rtag, 16, rct, len, aad, sizeof aad, iv, 12, key, kl) == IC_OK
              && memcmp(o1, pt, len) == 0, "%s: one-shot open, %zu bytes", combo, len);
        CHECK(ic_aes_gcm_seal(o1, tag, 16, pt, len, aad, sizeof aad, iv, 12, key, kl) == IC_OK
              && memcmp(o1, rct, len) == 0 && memcmp(tag, rtag, 16) == 0, "%s: one-shot seal, %zu bytes", combo, len);
        CHECK(ic_aes_gcm_key_seal(&ck, o1, tag, 16, pt, len, aad, sizeof aad, iv, 12) == IC_OK
              && memcmp(o1, rct, len) == 0 && memcmp(tag, rtag, 16) == 0, "%s: key seal, %zu bytes", combo, len);
        CHECK(ic_aes_gcm_key_open(&ck, o1, rtag, 16, o1, len, aad, sizeof aad, iv, 12) == IC_OK
              && memcmp(o1, pt, len) == 0, "%s: key open in place, %zu bytes", combo, len);
        free(o1);
    }
    ic_aes_gcm_wipe(&c);
    ic_aes_gcm_wipe(&ref);
    ic_aes_gcm_key_wipe(&ck);
    ic_aes_gcm_key_wipe(&refk);
    free(pt); free(rct); free(ibuf); free(obuf);
}

static void api_aes(const char *aname, void *arg)
{
    const pair_arg *pa = arg;
    /* 495 .. 497: the last one-shot message in one frame of the ZMM
     * whole-message call (31 blocks) and the first past it; 1023, 1535:
     * a 31-block frame after whole batches of 32 */
    static const size_t lens[] = {0, 15, 16, 17, 127, 128, 129, 143, 255, 256, 257, 271, 495, 496, 497, 511, 512,
                                  513, 527, 1023, 1024, 1535, 4095, 4096, 4111, 16384 + 7, 65536 + 13};
    static const size_t firsts[] = {0, 1, 5, 15, 16, 17, 31};
    char combo[64];
    snprintf(combo, sizeof combo, "[ghash/%s aes/%s api]", pa->ghash, aname);
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        for (size_t f = 0; f < sizeof firsts / sizeof firsts[0]; f++)
            api_one(combo, lens[i], firsts[f], (int)tl_rand_below(2), -1);
    /* the counter wraps inside the bulk, at a few positions of a batch */
    for (long w = 0; w <= 33; w++)
        api_one(combo, 48 * 16 + 5, 3 + (size_t)w % 17, (int)(w & 1), w);
}

/* ---- 4. bounds ------------------------------------------------------- */

/* Two read-write pages between PROT_NONE ones: [none][rw rw][none][rw rw][none]. */
static uint8_t *guard_map;
static size_t guard_page;

static int guard_setup(void)
{
    guard_page = (size_t)sysconf(_SC_PAGESIZE);
    guard_map = mmap(NULL, 7 * guard_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!CHECK(guard_map != MAP_FAILED, "mmap"))
        return 0;
    return CHECK(mprotect(guard_map, guard_page, PROT_NONE) == 0
                 && mprotect(guard_map + 3 * guard_page, guard_page, PROT_NONE) == 0
                 && mprotect(guard_map + 6 * guard_page, guard_page, PROT_NONE) == 0, "mprotect");
}

/* A buffer of len bytes (len <= 2 pages) in region r (0 or 1), flush with
 * the guard page after it (tail) or before it (head). */
static uint8_t *guarded(int r, size_t len, int tail)
{
    uint8_t *lo = guard_map + (1 + 3 * (size_t)r) * guard_page;
    return tail ? lo + 2 * guard_page - len : lo;
}

static void bounds_aes(const char *aname, void *arg)
{
    const pair_arg *pa = arg;
    const ic_ghash_ops *g = ghash_named(pa->ghash);
    static const size_t nbs[] = {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 48, 100, 128, 160};
    uint8_t key[32], h[16], ctr[16], y[16], tag[16], iv[12];
    ic_aes_key k;
    ic_ghash_key hk;
    ic_aes_gcm_ctx c;
    ic_aes_gcm_key ck;

    tl_rand_bytes(key, sizeof key);
    tl_rand_bytes(h, 16);
    tl_rand_bytes(iv, 12);
    CHECK(aes_key_by(&k, aname, key, 16) == IC_OK, "key");
    ic_ghash_key_setup(&hk, g, h);
    ic_gcm_stitch_fn loop = pair_loop(&k, &hk);
    CHECK(ic_aes_gcm_key_init(&ck, key, 16) == IC_OK, "key object");
    for (size_t i = 0; i < sizeof nbs / sizeof nbs[0]; i++) {
        size_t len = 16 * nbs[i];
        for (int layout = 0; layout < 4; layout++) {
            uint8_t *in = guarded(0, len, layout & 1), *out = guarded(1, len, layout >> 1 & 1);
            tl_rand_bytes(in, len);
            tl_rand_bytes(ctr, 16);
            tl_rand_bytes(y, 16);
            /* reaching the checks below without a fault is the test */
            if (loop != NULL) {
                loop(&k, &hk, 1, ctr, y, out, in, nbs[i]);
                loop(&k, &hk, 0, ctr, y, out, in, nbs[i]);
                loop(&k, &hk, 1, ctr, y, in, in, nbs[i]);
            }
            g->blocks(&hk, y, in, nbs[i]);
            CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK
                  && ic_aes_gcm_encrypt(&c, out + 3, in + 3, len - 3) == IC_OK && ic_aes_gcm_final(&c, tag, 16) == IC_OK
                  && ic_aes_gcm_open(in + 3, tag, 16, out + 3, len - 3, NULL, 0, iv, 12, key, 16) == IC_OK,
                  "[ghash/%s aes/%s] %zu bytes against guard pages (layout %d)", pa->ghash, aname, len - 3,
                  layout);
        }
    }
    ic_aes_gcm_wipe(&c);
    ic_aes_gcm_key_wipe(&ck);
    ic_aes_key_wipe(&k);
}

static void per_ghash(const char *gname, void *arg)
{
    pair_arg pa = {gname};
    if (!is_name(gname, "clmul", "vpclmul") && !is_name(gname, "vpclmul512", NULL)) {
        /* the portable GHASH declares no loop: gcm.c's plain path only */
        CHECK(ghash_named(gname)->stitch == 0, "ghash/%s: no stitched loop", gname);
        return;
    }
    blocks_vs_portable(gname);
    tl_for_each_impl("aes", hook_aes, &pa);
    tl_for_each_impl("aes", api_aes, &pa);
    if (guard_map != NULL)
        tl_for_each_impl("aes", bounds_aes, &pa);
    (void)arg;
}

int main(void)
{
    int nx86 = 0;
    for (size_t i = 0; i < ic_impl_count("ghash"); i++) {
        const char *n = ic_impl_name("ghash", i);
        if (is_name(n, "clmul", "vpclmul") || is_name(n, "vpclmul512", NULL))
            nx86 += ic_impl_available("ghash", i);
    }
    printf("x86 GHASH implementations available: %d\n", nx86);
    CHECK(ghash_named("clmul") != NULL && ghash_named("vpclmul") != NULL && ghash_named("vpclmul512") != NULL,
          "x86 GHASH entries listed");
    if (!guard_setup())
        guard_map = NULL;
    CHECK(tl_for_each_impl("ghash", per_ghash, NULL) >= 1, "at least one GHASH ran");
    return tl_finish();
}

#else /* not x86-64 */

int main(void)
{
    CHECK(ghash_named("clmul") == NULL && ghash_named("vpclmul") == NULL && ghash_named("vpclmul512") == NULL,
          "no x86 GHASH listed here");
    CHECK(ghash_portable()->stitch == 0, "portable GHASH declares no stitched loop");
    (void)aes_key_by; (void)portable_name;
    return tl_finish();
}

#endif
