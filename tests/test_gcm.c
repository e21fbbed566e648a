/*
 * test_gcm.c - GHASH and AES-GCM: known answers, differential tests of
 * every implementation against the portable one, and bad input.
 *
 *  1. GHASH algebra from the definition (SP 800-38D section 6.3): H = 1 is
 *     the identity, x * x^127 = x^128 = 1 + x + x^2 + x^7; and every
 *     implementation against a bit-by-bit GHASH (Algorithm 1) written here.
 *  2. tests/vectors/gcm_kat.txt: the 18 test cases of the GCM spec, one-shot
 *     and streamed, every tag length, forged tags, and the raw GHASH(H, A, C)
 *     values through each GHASH implementation.
 *  3. differential: for every available (ghash, aes) pair, random keys, IVs
 *     (12 bytes often, else 1..64), AAD and data of 0..4096 bytes plus a few
 *     large ones, against a context bound to the portable implementations
 *     (the last table entries): one-shot on misaligned buffers, in place,
 *     streaming in random pieces, open, streaming decrypt, forgeries.
 *  4. bad input: one check per rule, with the exact status, and proof that a
 *     rejected call wrote nothing and left the context as it was.
 */
#include "testlib.h"
#include "core/internal.h"
#include "gcm/ghash_impl.h"
#include "aes/aes_impl.h"

#include <stdlib.h>
#include <string.h>

static const size_t tag_sizes[] = {4, 8, 12, 13, 14, 15, 16};
#define NTAGS (sizeof tag_sizes / sizeof tag_sizes[0])

/* ---- helpers -------------------------------------------------------------- */

static const ic_ghash_ops *ghash_portable(void) { return ic_impls_ghash[ic_nimpls_ghash - 1].ops; }
static const char *portable_name(const char *prim) { return ic_impl_name(prim, ic_impl_count(prim) - 1); }

/* The ops entry of the implementation currently selected for prim. */
static const void *selected_ops(const ic_impl *tab, size_t n, const char *prim)
{
    const char *name = ic_impl_selected(prim);
    for (size_t i = 0; i < n; i++)
        if (strcmp(tab[i].name, name) == 0)
            return tab[i].ops;
    return NULL;
}

/* A key object bound to the portable AES and GHASH whatever is selected
 * for the code under test: select them, init (the key keeps its ops), then
 * put the previous selection back. */
static void ref_init(ic_aes_gcm_key *k, const uint8_t *key, size_t kl)
{
    const char *g = ic_impl_selected("ghash"), *a = ic_impl_selected("aes");
    CHECK(ic_impl_select("ghash", portable_name("ghash")) == IC_OK, "select portable ghash");
    CHECK(ic_impl_select("aes", portable_name("aes")) == IC_OK, "select portable aes");
    CHECK(ic_aes_gcm_key_init(k, key, kl) == IC_OK, "reference init");
    CHECK(ic_ghash_key_ops(&k->ghash) == ghash_portable(), "reference key uses the portable GHASH");
    CHECK(ic_aes_ops_of(&k->aes) == ic_impls_aes[ic_nimpls_aes - 1].ops, "reference key uses the portable AES");
    CHECK(k->stitch == IC_STITCH_NONE, "the portable pair runs no stitched loop");
    CHECK(ic_impl_select("ghash", g) == IC_OK, "select ghash/%s", g);
    CHECK(ic_impl_select("aes", a) == IC_OK, "select aes/%s", a);
}

/* A random piece length for streaming: often tiny, sometimes a few blocks,
 * sometimes everything that is left. */
static size_t piece(size_t left)
{
    size_t n;
    switch (tl_rand_below(4)) {
    case 0: n = tl_rand_below(17); break;
    case 1: n = tl_rand_below(100); break;
    case 2: n = tl_rand_below(1000); break;
    default: n = left; break;
    }
    return n < left ? n : left;
}

/* Encrypt (enc) or decrypt len bytes in random pieces, including empty ones. */
static int stream_data(ic_aes_gcm_ctx *c, int enc, uint8_t *out, const uint8_t *in, size_t len)
{
    do {
        size_t n = piece(len);
        int r = enc ? ic_aes_gcm_encrypt(c, out, in, n) : ic_aes_gcm_decrypt(c, out, in, n);
        if (r != IC_OK)
            return r;
        out += n;
        in += n;
        len -= n;
    } while (len != 0);
    return IC_OK;
}

static int stream_aad(ic_aes_gcm_ctx *c, const uint8_t *aad, size_t len)
{
    do {
        size_t n = piece(len);
        int r = ic_aes_gcm_aad(c, aad, n);
        if (r != IC_OK)
            return r;
        aad += n;
        len -= n;
    } while (len != 0);
    return IC_OK;
}

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

/* ---- 1. GHASH from the definition ------------------------------------------ */

/* SP 800-38D Algorithm 1, bit by bit on bytes: Z = X * Y in GF(2^128). */
static void gf_mul_bitwise(uint8_t z[16], const uint8_t x[16], const uint8_t y[16])
{
    uint8_t v[16], acc[16] = {0};
    memcpy(v, y, 16);
    for (int i = 0; i < 128; i++) {
        if (x[i / 8] >> (7 - i % 8) & 1)
            for (int j = 0; j < 16; j++)
                acc[j] ^= v[j];
        int lsb = v[15] & 1;
        for (int j = 15; j > 0; j--)
            v[j] = (uint8_t)(v[j] >> 1 | v[j - 1] << 7);
        v[0] >>= 1;
        if (lsb)
            v[0] ^= 0xE1; /* R = 11100001 || 0^120 */
    }
    memcpy(z, acc, 16);
}

static void ghash_bitwise(uint8_t y[16], const uint8_t h[16], const uint8_t *in, size_t nblocks)
{
    for (size_t b = 0; b < nblocks; b++) {
        for (int j = 0; j < 16; j++)
            y[j] ^= in[16 * b + j];
        gf_mul_bitwise(y, y, h);
    }
}

static void ghash_definition(const char *impl, void *arg)
{
    const ic_ghash_ops *g = selected_ops(ic_impls_ghash, ic_nimpls_ghash, "ghash");
    ic_ghash_key hk;
    uint8_t h[16] = {0}, x[16] = {0}, y[16] = {0}, want[16] = {0};

    if (!CHECK(g != NULL, "ghash/%s: ops found", impl))
        return;

    /* H = 1 (x^0: MSB of byte 0): multiplication is the identity. */
    h[0] = 0x80;
    tl_rand_bytes(x, 16);
    g->init(&hk, h);
    g->blocks(&hk, y, x, 1);
    CHECK_MEM(y, x, 16, "ghash/%s: X * 1 = X", impl);

    /* H = x, X = x^127 (LSB of byte 15): x^128 = 1 + x + x^2 + x^7, i.e.
     * byte 0 = 11100001b, the rest 0 - exercises the reduction. */
    memset(h, 0, 16);
    memset(x, 0, 16);
    memset(y, 0, 16);
    h[0] = 0x40;
    x[15] = 0x01;
    want[0] = 0xE1;
    g->init(&hk, h);
    g->blocks(&hk, y, x, 1);
    CHECK_MEM(y, want, 16, "ghash/%s: x * x^127 = x^128 reduced", impl);

    /* nblocks = 0 leaves y alone. */
    memcpy(want, y, 16);
    g->blocks(&hk, y, NULL, 0);
    CHECK_MEM(y, want, 16, "ghash/%s: zero blocks", impl);

    /* Random H, random data, random starting y: against Algorithm 1, with
     * the input misaligned and fed in random splits. */
    for (int it = 0; it < 200; it++) {
        /* mostly short; every fourth long enough for the backends' long
         * paths (vpclmul512: 32-block batches from 32 blocks a call,
         * the 16-block ones of the rest) */
        size_t nb = it % 4 == 3 ? 96 + tl_rand_below(320) : tl_rand_below(40), off = tl_rand_below(16);
        uint8_t *buf = tl_xmalloc(nb * 16 + 16), *in = buf + off;
        uint8_t y0[16], yr[16];
        tl_rand_bytes(h, 16);
        if (it % 8 == 0)
            memset(h + 8, 0, 8);   /* sparse keys: one half empty */
        if (it % 8 == 1)
            memset(h, 0, 8);
        tl_rand_bytes(y0, 16);
        tl_rand_bytes(in, nb * 16);
        memcpy(yr, y0, 16);
        ghash_bitwise(yr, h, in, nb);
        memcpy(y, y0, 16);
        g->init(&hk, h);
        for (size_t done = 0; done < nb;) {
            size_t k = it % 8 == 3 ? nb - done : tl_rand_below((uint32_t)(nb - done) + 1);
            g->blocks(&hk, y, in + 16 * done, k);
            done += k;
        }
        CHECK_MEM(y, yr, 16, "ghash/%s: random %zu blocks vs Algorithm 1", impl, nb);
        free(buf);
    }

    /* All-ones operands maximise the column sums of the multiply. */
    memset(h, 0xff, 16);
    memset(x, 0xff, 16);
    memset(y, 0, 16);
    memset(want, 0, 16);
    ghash_bitwise(want, h, x, 1);
    g->init(&hk, h);
    g->blocks(&hk, y, x, 1);
    CHECK_MEM(y, want, 16, "ghash/%s: all-ones operands", impl);
    (void)arg;
}

/* ---- 2. the GCM spec's test cases ----------------------------------------- */

typedef struct {
    uint8_t *key, *iv, *pt, *aad, *ct, *tag, *h, *gh;
    size_t kl, ivl, pl, al, cl, tl, hl, ghl;
} kat_rec;

static void kat_one(const char *what, const kat_rec *v)
{
    uint8_t *out = tl_xmalloc(v->pl + 16), t[16];
    ic_aes_gcm_ctx c;
    ic_aes_gcm_key ck;

    /* one-shot seal / open with the full tag */
    memset(out, 0xA5, v->pl + 16);
    CHECK(ic_aes_gcm_seal(out, t, 16, v->pt, v->pl, v->aad, v->al, v->iv, v->ivl, v->key, v->kl) == IC_OK,
          "%s: seal", what);
    CHECK_MEM(out, v->ct, v->pl, "%s: seal ciphertext", what);
    CHECK_MEM(t, v->tag, 16, "%s: seal tag", what);
    CHECK(tl_all_byte(out + v->pl, 16, 0xA5), "%s: seal wrote past out+len", what);
    CHECK(ic_aes_gcm_open(out, v->tag, 16, v->ct, v->pl, v->aad, v->al, v->iv, v->ivl, v->key, v->kl) == IC_OK,
          "%s: open", what);
    CHECK_MEM(out, v->pt, v->pl, "%s: open plaintext", what);

    /* every allowed tag length is a prefix of the full tag */
    for (size_t i = 0; i < NTAGS; i++) {
        size_t tl = tag_sizes[i];
        uint8_t tt[16];
        CHECK(ic_aes_gcm_seal(out, tt, tl, v->pt, v->pl, v->aad, v->al, v->iv, v->ivl, v->key, v->kl) == IC_OK
              && memcmp(tt, v->tag, tl) == 0, "%s: %zu-byte tag", what, tl);
        CHECK(ic_aes_gcm_open(out, v->tag, tl, v->ct, v->pl, v->aad, v->al, v->iv, v->ivl, v->key, v->kl) == IC_OK,
              "%s: open with %zu-byte tag", what, tl);
    }

    /* a reusable key object: the same answers, twice (the key is reused),
     * every tag length, and a forged tag refused with out zeroed */
    ic_aes_gcm_key k;
    CHECK(ic_aes_gcm_key_init(&k, v->key, v->kl) == IC_OK, "%s: key init", what);
    for (int round = 0; round < 2; round++) {
        memset(out, 0xA5, v->pl + 16);
        CHECK(ic_aes_gcm_key_seal(&k, out, t, 16, v->pt, v->pl, v->aad, v->al, v->iv, v->ivl) == IC_OK,
              "%s: key seal", what);
        CHECK_MEM(out, v->ct, v->pl, "%s: key seal ciphertext (round %d)", what, round);
        CHECK_MEM(t, v->tag, 16, "%s: key seal tag (round %d)", what, round);
        CHECK(tl_all_byte(out + v->pl, 16, 0xA5), "%s: key seal wrote past out+len", what);
        CHECK(ic_aes_gcm_key_open(&k, out, v->tag, 16, v->ct, v->pl, v->aad, v->al, v->iv, v->ivl) == IC_OK,
              "%s: key open", what);
        CHECK_MEM(out, v->pt, v->pl, "%s: key open plaintext (round %d)", what, round);
    }
    for (size_t i = 0; i < NTAGS; i++) {
        size_t tl = tag_sizes[i];
        uint8_t tt[16];
        CHECK(ic_aes_gcm_key_seal(&k, out, tt, tl, v->pt, v->pl, v->aad, v->al, v->iv, v->ivl) == IC_OK
              && memcmp(tt, v->tag, tl) == 0, "%s: key seal, %zu-byte tag", what, tl);
        CHECK(ic_aes_gcm_key_open(&k, out, v->tag, tl, v->ct, v->pl, v->aad, v->al, v->iv, v->ivl) == IC_OK,
              "%s: key open with %zu-byte tag", what, tl);
    }
    memcpy(t, v->tag, 16);
    t[tl_rand_below(16)] ^= (uint8_t)(1u << tl_rand_below(8));
    memset(out, 0xA5, v->pl + 16);
    CHECK(ic_aes_gcm_key_open(&k, out, t, 16, v->ct, v->pl, v->aad, v->al, v->iv, v->ivl) == IC_ERR_AUTH
          && all_zero(out, v->pl) && tl_all_byte(out + v->pl, 16, 0xA5), "%s: key open refuses a forged tag", what);
    ic_aes_gcm_key_wipe(&k);
    CHECK(ic_aes_gcm_key_seal(&k, out, t, 16, v->pt, v->pl, v->aad, v->al, v->iv, v->ivl) == IC_ERR_STATE,
          "%s: wiped key refused", what);

    /* streamed in random pieces, twice on the same context and key (reuse) */
    CHECK(ic_aes_gcm_key_init(&ck, v->key, v->kl) == IC_OK, "%s: key init", what);
    for (int round = 0; round < 2; round++) {
        CHECK(ic_aes_gcm_init(&c, &ck, v->iv, v->ivl) == IC_OK, "%s: init", what);
        CHECK(stream_aad(&c, v->aad, v->al) == IC_OK, "%s: aad", what);
        CHECK(stream_data(&c, 1, out, v->pt, v->pl) == IC_OK, "%s: encrypt", what);
        CHECK(ic_aes_gcm_final(&c, t, 16) == IC_OK, "%s: final", what);
        CHECK_MEM(out, v->ct, v->pl, "%s: streamed ciphertext (round %d)", what, round);
        CHECK_MEM(t, v->tag, 16, "%s: streamed tag (round %d)", what, round);
        CHECK(ic_aes_gcm_init(&c, &ck, v->iv, v->ivl) == IC_OK, "%s: init", what);
        CHECK(stream_aad(&c, v->aad, v->al) == IC_OK, "%s: aad", what);
        CHECK(stream_data(&c, 0, out, v->ct, v->pl) == IC_OK, "%s: decrypt", what);
        CHECK(ic_aes_gcm_final_verify(&c, v->tag, 16) == IC_OK, "%s: final_verify", what);
        CHECK_MEM(out, v->pt, v->pl, "%s: streamed plaintext (round %d)", what, round);
    }

    /* forgeries: a flipped tag, ciphertext or AAD bit */
    memcpy(t, v->tag, 16);
    t[tl_rand_below(16)] ^= (uint8_t)(1u << tl_rand_below(8));
    memset(out, 0xA5, v->pl + 16);
    CHECK(ic_aes_gcm_open(out, t, 16, v->ct, v->pl, v->aad, v->al, v->iv, v->ivl, v->key, v->kl) == IC_ERR_AUTH,
          "%s: forged tag refused", what);
    CHECK(all_zero(out, v->pl) && tl_all_byte(out + v->pl, 16, 0xA5), "%s: forged open zeroes out only", what);
    CHECK(ic_aes_gcm_init(&c, &ck, v->iv, v->ivl) == IC_OK && ic_aes_gcm_aad(&c, v->aad, v->al) == IC_OK
          && ic_aes_gcm_decrypt(&c, out, v->ct, v->pl) == IC_OK && ic_aes_gcm_final_verify(&c, t, 16) == IC_ERR_AUTH,
          "%s: streamed final_verify refuses a forged tag", what);
    if (v->al) {
        uint8_t *a = tl_xmalloc(v->al);
        memcpy(a, v->aad, v->al);
        a[tl_rand_below((uint32_t)v->al)] ^= 0x01;
        CHECK(ic_aes_gcm_open(out, v->tag, 16, v->ct, v->pl, a, v->al, v->iv, v->ivl, v->key, v->kl) == IC_ERR_AUTH,
              "%s: forged AAD refused", what);
        free(a);
    }
    if (v->pl) {
        uint8_t *ct = tl_xmalloc(v->pl);
        memcpy(ct, v->ct, v->pl);
        ct[tl_rand_below((uint32_t)v->pl)] ^= 0x20;
        CHECK(ic_aes_gcm_open(ct, v->tag, 16, ct, v->pl, v->aad, v->al, v->iv, v->ivl, v->key, v->kl) == IC_ERR_AUTH
              && all_zero(ct, v->pl), "%s: forged ciphertext refused in place and zeroed", what);
        free(ct);
    }
    ic_aes_gcm_wipe(&c);
    ic_aes_gcm_key_wipe(&ck);
    free(out);
}

/* GHASH(H, A, C) straight through the GHASH ops of the selected impl. */
static void kat_ghash_raw(const char *what, const kat_rec *v)
{
    const ic_ghash_ops *g = selected_ops(ic_impls_ghash, ic_nimpls_ghash, "ghash");
    size_t na = (v->al + 15) / 16, nc = (v->cl + 15) / 16, n = na + nc + 1;
    uint8_t *m = tl_xmalloc(16 * n), y[16] = {0};
    ic_ghash_key hk;

    memset(m, 0, 16 * n);
    if (v->al)
        memcpy(m, v->aad, v->al);
    if (v->cl)
        memcpy(m + 16 * na, v->ct, v->cl);
    ic_store64_be(m + 16 * (n - 1), (uint64_t)v->al * 8);
    ic_store64_be(m + 16 * (n - 1) + 8, (uint64_t)v->cl * 8);
    g->init(&hk, v->h);
    g->blocks(&hk, y, m, n);
    CHECK_MEM(y, v->gh, 16, "%s: GHASH(H, A, C)", what);
    free(m);
}

static void kat_file(const char *impl, void *arg)
{
    tl_rsp *r = tl_rsp_openf("%s/gcm_kat.txt", tl_data_dir());
    tl_rec rec;
    int n = 0;
    const char *combo = arg;

    while (tl_rsp_next(r, &rec)) {
        static const char *f[] = {"Key", "IV", "PT", "AAD", "CT", "Tag", "H", "GHASH"};
        uint8_t *p[8];
        size_t l[8];
        char what[96];
        int ok = 1;
        for (int i = 0; i < 8; i++) {
            const char *s = tl_get(&rec, f[i]);
            p[i] = s ? tl_hex_alloc(s, &l[i]) : NULL;
            ok &= p[i] != NULL;
        }
        snprintf(what, sizeof what, "gcm_kat.txt case %s [ghash/%s aes/%s]",
                 tl_get(&rec, "Count") ? tl_get(&rec, "Count") : "?", combo, impl);
        if (CHECK(ok && l[2] == l[4] && l[5] == 16 && l[6] == 16 && l[7] == 16,
                  "%s: malformed record (line %ld)", what, rec.line)) {
            kat_rec v = {p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
                         l[0], l[1], l[2], l[3], l[4], l[5], l[6], l[7]};
            kat_one(what, &v);
            kat_ghash_raw(what, &v);
            n++;
        }
        for (int i = 0; i < 8; i++)
            free(p[i]);
    }
    tl_rsp_close(r);
    CHECK(n == 18, "gcm_kat.txt: %d of the 18 test cases read", n);
}

/* ---- 3. differential -------------------------------------------------------- */

static size_t rand_len(void)
{
    switch (tl_rand_below(4)) {
    case 0: return tl_rand_below(33);
    case 1: return tl_rand_below(257);
    default: return tl_rand_below(4097);
    }
}

/* Random key, IV, AAD and plaintext of the given lengths, and their
 * ciphertext and full tag by the portable implementations, one piece each. */
static void random_reference(const char *what, uint8_t *key, size_t kl, uint8_t *iv, size_t ivl, uint8_t *aad,
                             size_t al, uint8_t *pt, size_t pl, uint8_t *rct, uint8_t rtag[16])
{
    ic_aes_gcm_ctx ref;
    ic_aes_gcm_key refk;
    tl_rand_bytes(key, kl);
    tl_rand_bytes(iv, ivl);
    tl_rand_bytes(aad, al);
    tl_rand_bytes(pt, pl);
    ref_init(&refk, key, kl);
    CHECK(ic_aes_gcm_init(&ref, &refk, iv, ivl) == IC_OK && ic_aes_gcm_aad(&ref, aad, al) == IC_OK
          && ic_aes_gcm_encrypt(&ref, rct, pt, pl) == IC_OK && ic_aes_gcm_final(&ref, rtag, 16) == IC_OK,
          "%s: reference", what);
    ic_aes_gcm_wipe(&ref);
    ic_aes_gcm_key_wipe(&refk);
}

static void diff_one(const char *combo, size_t pl_forced, int forced)
{
    size_t kl = 16 + 8 * tl_rand_below(3);
    size_t ivl = tl_rand_below(3) ? 12 : 1 + tl_rand_below(64);
    size_t al = rand_len(), pl = forced ? pl_forced : rand_len();
    size_t tl = tag_sizes[tl_rand_below(NTAGS)];
    size_t oi = 1 + tl_rand_below(15), oo = 1 + tl_rand_below(15);
    uint8_t key[32], iv[64], rtag[16], t[16];
    uint8_t *aad = tl_xmalloc(al), *pt = tl_xmalloc(pl), *rct = tl_xmalloc(pl);
    uint8_t *ibuf = tl_xmalloc(pl + 32), *obuf = tl_xmalloc(pl + 32), *in = ibuf + oi, *out = obuf + oo;
    ic_aes_gcm_ctx c;
    ic_aes_gcm_key ck;
    char what[160];

    snprintf(what, sizeof what, "%s key %zu iv %zu aad %zu len %zu tag %zu", combo, kl, ivl, al, pl, tl);
    random_reference(what, key, kl, iv, ivl, aad, al, pt, pl, rct, rtag);

    /* one-shot seal, misaligned in and out, guard bytes after out */
    memcpy(in, pt, pl);
    memset(obuf, 0x5A, pl + 32);
    CHECK(ic_aes_gcm_seal(out, t, tl, in, pl, aad, al, iv, ivl, key, kl) == IC_OK, "%s: seal", what);
    CHECK_MEM(out, rct, pl, "%s: seal ciphertext", what);
    CHECK_MEM(t, rtag, tl, "%s: seal tag", what);
    CHECK(tl_all_byte(obuf, oo, 0x5A) && tl_all_byte(out + pl, 32 - oo, 0x5A), "%s: seal wrote outside out", what);

    /* in place */
    CHECK(ic_aes_gcm_seal(in, t, tl, in, pl, aad, al, iv, ivl, key, kl) == IC_OK, "%s: seal in place", what);
    CHECK_MEM(in, rct, pl, "%s: in-place ciphertext", what);
    CHECK_MEM(t, rtag, tl, "%s: in-place tag", what);

    /* open, misaligned, then in place */
    memset(obuf, 0x5A, pl + 32);
    CHECK(ic_aes_gcm_open(out, rtag, tl, in, pl, aad, al, iv, ivl, key, kl) == IC_OK, "%s: open", what);
    CHECK_MEM(out, pt, pl, "%s: open plaintext", what);
    CHECK(tl_all_byte(out + pl, 32 - oo, 0x5A), "%s: open wrote past out+len", what);
    CHECK(ic_aes_gcm_open(in, rtag, tl, in, pl, aad, al, iv, ivl, key, kl) == IC_OK, "%s: open in place", what);
    CHECK_MEM(in, pt, pl, "%s: in-place plaintext", what);

    /* a reusable key object: misaligned, in place, and again after another
     * message under the same key (a message leaves nothing behind in it) */
    ic_aes_gcm_key k;
    CHECK(ic_aes_gcm_key_init(&k, key, kl) == IC_OK, "%s: key init", what);
    CHECK(ic_ghash_key_ops(&k.ghash) == ic_ops(IC_PRIM_GHASH), "%s: key bound to the selected GHASH", what);
    CHECK(k.stitch == ic_gcm_stitch_pick(ic_ops(IC_PRIM_AES), ic_ops(IC_PRIM_GHASH)),
          "%s: key records the stitched loop of the selected pair", what);
    for (int round = 0; round < 2; round++) {
        memcpy(in, pt, pl);
        memset(obuf, 0x5A, pl + 32);
        CHECK(ic_aes_gcm_key_seal(&k, out, t, tl, in, pl, aad, al, iv, ivl) == IC_OK, "%s: key seal", what);
        CHECK_MEM(out, rct, pl, "%s: key seal ciphertext (round %d)", what, round);
        CHECK_MEM(t, rtag, tl, "%s: key seal tag (round %d)", what, round);
        CHECK(tl_all_byte(obuf, oo, 0x5A) && tl_all_byte(out + pl, 32 - oo, 0x5A), "%s: key seal wrote outside out",
              what);
        CHECK(ic_aes_gcm_key_seal(&k, in, t, tl, in, pl, aad, al, iv, ivl) == IC_OK && !memcmp(in, rct, pl)
              && !memcmp(t, rtag, tl), "%s: key seal in place", what);
        CHECK(ic_aes_gcm_key_open(&k, out, rtag, tl, in, pl, aad, al, iv, ivl) == IC_OK && !memcmp(out, pt, pl),
              "%s: key open", what);
        CHECK(ic_aes_gcm_key_open(&k, in, rtag, tl, in, pl, aad, al, iv, ivl) == IC_OK && !memcmp(in, pt, pl),
              "%s: key open in place", what);
        uint8_t other[33], ot[16];
        tl_rand_bytes(other, sizeof other);
        CHECK(ic_aes_gcm_key_seal(&k, other, ot, 16, other, tl_rand_below(33), other, tl_rand_below(20), key,
                                  1 + tl_rand_below(16)) == IC_OK, "%s: another message", what);
    }
    ic_aes_gcm_key_wipe(&k);

    /* streaming in random pieces (in place half of the time), then again
     * on the same context to check that a message leaves nothing behind */
    CHECK(ic_aes_gcm_key_init(&ck, key, kl) == IC_OK, "%s: key init", what);
    for (int round = 0; round < 2; round++) {
        int inplace = (int)tl_rand_below(2);
        uint8_t *dst = inplace ? in : out;
        if (tl_rand_below(2)) {
            /* a message abandoned half way (odd lengths leave a partial
             * block and keystream behind): init must forget all of it */
            uint8_t junk[40];
            tl_rand_bytes(junk, sizeof junk);
            CHECK(ic_aes_gcm_init(&c, &ck, key, 1 + tl_rand_below(16)) == IC_OK
                  && ic_aes_gcm_aad(&c, junk, tl_rand_below(20)) == IC_OK
                  && ic_aes_gcm_encrypt(&c, junk, junk, tl_rand_below(40)) == IC_OK, "%s: abandoned message", what);
        }
        memcpy(in, pt, pl);
        CHECK(ic_aes_gcm_init(&c, &ck, iv, ivl) == IC_OK && stream_aad(&c, aad, al) == IC_OK
              && stream_data(&c, 1, dst, in, pl) == IC_OK && ic_aes_gcm_final(&c, t, tl) == IC_OK,
              "%s: streamed encryption", what);
        CHECK_MEM(dst, rct, pl, "%s: streamed ciphertext (round %d, in place %d)", what, round, inplace);
        CHECK_MEM(t, rtag, tl, "%s: streamed tag (round %d)", what, round);
        memcpy(in, rct, pl);
        dst = inplace ? in : out;
        CHECK(ic_aes_gcm_init(&c, &ck, iv, ivl) == IC_OK && stream_aad(&c, aad, al) == IC_OK
              && stream_data(&c, 0, dst, in, pl) == IC_OK && ic_aes_gcm_final_verify(&c, rtag, tl) == IC_OK,
              "%s: streamed decryption", what);
        CHECK_MEM(dst, pt, pl, "%s: streamed plaintext (round %d)", what, round);
    }
    ic_aes_gcm_wipe(&c);
    ic_aes_gcm_key_wipe(&ck);

    /* a forgery (tag, ciphertext or AAD bit) releases nothing */
    memcpy(in, rct, pl);
    memcpy(t, rtag, tl);
    switch (tl_rand_below(3)) {
    case 0: if (pl) { in[tl_rand_below((uint32_t)pl)] ^= 0x04; break; } /* fall through */
    case 1: if (al) { aad[tl_rand_below((uint32_t)al)] ^= 0x80; break; } /* fall through */
    default: t[tl_rand_below((uint32_t)tl)] ^= 0x10; break;
    }
    memset(obuf, 0x5A, pl + 32);
    CHECK(ic_aes_gcm_open(out, t, tl, in, pl, aad, al, iv, ivl, key, kl) == IC_ERR_AUTH, "%s: forgery refused", what);
    CHECK(all_zero(out, pl) && tl_all_byte(out + pl, 32 - oo, 0x5A), "%s: forgery: out zeroed, nothing more", what);

    free(aad); free(pt); free(rct); free(ibuf); free(obuf);
}

/* Short messages at every length around gcm.c's short path (E(K, J0) made
 * with a first data call of 1..112 bytes, the seal's lengths block hashed
 * with its data): every length 0..144 against the portable reference, by
 * one-shot seal and open, the key object, and streaming with a first piece
 * of every kind (the whole message, a partial block, one block) followed by
 * the rest in one or two pieces, in place and not, 12-byte IV (public
 * counter) or not, AAD empty, partial or whole blocks. */
static void short_one(const char *combo, size_t pl, size_t ivl, size_t al)
{
    uint8_t key[32], iv[32], aad[48], pt[160], rct[160], buf[176], ob[176], rtag[16], t[16];
    size_t kl = 16 + 8 * (pl % 3), tl = pl % 5 == 4 ? 12 : 16;
    ic_aes_gcm_ctx c;
    ic_aes_gcm_key k, ck;
    char what[160];

    snprintf(what, sizeof what, "%s short: key %zu iv %zu aad %zu len %zu tag %zu", combo, kl, ivl, al, pl, tl);
    random_reference(what, key, kl, iv, ivl, aad, al, pt, pl, rct, rtag);

    memset(buf, 0x5A, sizeof buf);
    CHECK(ic_aes_gcm_seal(buf + 1, t, tl, pt, pl, aad, al, iv, ivl, key, kl) == IC_OK
          && !memcmp(buf + 1, rct, pl) && !memcmp(t, rtag, tl), "%s: seal", what);
    CHECK(buf[0] == 0x5A && tl_all_byte(buf + 1 + pl, sizeof buf - 1 - pl, 0x5A), "%s: seal wrote outside", what);
    CHECK(ic_aes_gcm_open(buf + 1, rtag, tl, buf + 1, pl, aad, al, iv, ivl, key, kl) == IC_OK
          && !memcmp(buf + 1, pt, pl), "%s: open in place", what);
    CHECK(ic_aes_gcm_key_init(&k, key, kl) == IC_OK, "%s: key init", what);
    memcpy(buf, pt, pl);
    CHECK(ic_aes_gcm_key_seal(&k, buf, t, tl, buf, pl, aad, al, iv, ivl) == IC_OK && !memcmp(buf, rct, pl)
          && !memcmp(t, rtag, tl), "%s: key seal in place", what);
    /* the key's open, then a forgery (an AAD bit flipped where there is
     * AAD, which the whole-message path may hash with the data): refused,
     * out zeroed and nothing written past it */
    CHECK(ic_aes_gcm_key_open(&k, ob, rtag, tl, rct, pl, aad, al, iv, ivl) == IC_OK && !memcmp(ob, pt, pl),
          "%s: key open", what);
    uint8_t *flip = al ? aad + al / 2 : rtag;
    *flip ^= 1;
    memset(ob, 0xA5, sizeof ob);
    CHECK(ic_aes_gcm_key_open(&k, ob, rtag, tl, rct, pl, aad, al, iv, ivl) == IC_ERR_AUTH && all_zero(ob, pl)
          && tl_all_byte(ob + pl, sizeof ob - pl, 0xA5), "%s: key open refuses a forgery", what);
    *flip ^= 1;
    ic_aes_gcm_key_wipe(&k);

    CHECK(ic_aes_gcm_key_init(&ck, key, kl) == IC_OK, "%s: key init", what);
    size_t firsts[4] = { pl, pl ? 1 + pl % 15 : 0, pl >= 16 ? 16 : pl, pl / 2 };
    for (int f = 0; f < 4; f++) {
        size_t a = firsts[f] < pl ? firsts[f] : pl, b = (pl - a) / 2;
        int inplace = f & 1;
        uint8_t *dst = inplace ? buf : ob + 3;
        memcpy(buf, pt, pl);
        memset(ob, 0x5A, sizeof ob);
        CHECK(ic_aes_gcm_init(&c, &ck, iv, ivl) == IC_OK && ic_aes_gcm_aad(&c, aad, al) == IC_OK
              && ic_aes_gcm_encrypt(&c, dst, buf, a) == IC_OK && ic_aes_gcm_encrypt(&c, dst + a, buf + a, b) == IC_OK
              && ic_aes_gcm_encrypt(&c, dst + a + b, buf + a + b, pl - a - b) == IC_OK
              && ic_aes_gcm_final(&c, t, tl) == IC_OK, "%s: streamed, first piece %zu", what, a);
        CHECK(!memcmp(dst, rct, pl) && !memcmp(t, rtag, tl), "%s: streamed ciphertext, first piece %zu", what, a);
        if (!inplace)
            CHECK(tl_all_byte(ob, 3, 0x5A) && tl_all_byte(ob + 3 + pl, sizeof ob - 3 - pl, 0x5A),
                  "%s: streamed encryption wrote outside, first piece %zu", what, a);
        memcpy(buf, rct, pl);
        memset(ob, 0x5A, sizeof ob);
        dst = inplace ? buf : ob + 3;
        CHECK(ic_aes_gcm_init(&c, &ck, iv, ivl) == IC_OK && ic_aes_gcm_aad(&c, aad, al) == IC_OK
              && ic_aes_gcm_decrypt(&c, dst, buf, a) == IC_OK && ic_aes_gcm_decrypt(&c, dst + a, buf + a, b) == IC_OK
              && ic_aes_gcm_decrypt(&c, dst + a + b, buf + a + b, pl - a - b) == IC_OK
              && ic_aes_gcm_final_verify(&c, rtag, tl) == IC_OK && !memcmp(dst, pt, pl),
              "%s: streamed decryption, first piece %zu", what, a);
        if (!inplace)
            CHECK(tl_all_byte(ob, 3, 0x5A) && tl_all_byte(ob + 3 + pl, sizeof ob - 3 - pl, 0x5A),
                  "%s: streamed decryption wrote outside, first piece %zu", what, a);
    }
    ic_aes_gcm_wipe(&c);
    ic_aes_gcm_key_wipe(&ck);
}

static void diff_aes(const char *aes_impl, void *arg)
{
    char combo[64];
    snprintf(combo, sizeof combo, "[ghash/%s aes/%s]", (const char *)arg, aes_impl);
    diff_one(combo, 65536 + 13, 1);
    diff_one(combo, (1u << 20) + 5, 1);
    diff_one(combo, 0, 1);
    for (size_t pl = 0; pl <= 144; pl++)
        short_one(combo, pl, pl % 4 == 3 ? 1 + pl % 31 : 12, (size_t[]){0, 7, 16, 33}[pl % 4]);
    /* a 12-byte IV and AAD on both sides of every amount that fits the
     * lanes left free before the data (0 .. 48 bytes, by the length) */
    for (size_t pl = 0; pl <= 80; pl += pl % 16 == 0 || pl % 16 == 15 ? 1 : 14)
        for (size_t al = 0; al <= 48; al += al % 16 == 0 || al % 16 == 15 ? 1 : 14)
            short_one(combo, pl, 12, al);
    for (int it = 0; it < 300; it++)
        diff_one(combo, 0, 0);
}

static void per_ghash(const char *impl, void *arg)
{
    ghash_definition(impl, NULL);
    CHECK(ic_kat_ghash() == 0, "ghash/%s: ic_kat_ghash", impl);
    CHECK(ic_selftest("ghash") == IC_OK, "ghash/%s: ic_selftest", impl);
    tl_for_each_impl("aes", kat_file, (void *)impl);
    tl_for_each_impl("aes", diff_aes, (void *)impl);
    (void)arg;
}

/* ---- 4. bad input ------------------------------------------------------------ */

static void bad_input(void)
{
    static const uint8_t key[32] = {1, 2, 3}, iv[12] = {4, 5, 6};
    uint8_t buf[64] = {0}, out[64], tag[16];
    ic_aes_gcm_ctx c, snap;
    ic_aes_gcm_key ck;
    const uint64_t lim = IC_GCM_MAX_DATA;

    /* key init */
    CHECK(ic_aes_gcm_key_init(NULL, key, 16) == IC_ERR_NULL, "key init: NULL key object");
    CHECK(ic_aes_gcm_key_init(&ck, NULL, 16) == IC_ERR_NULL, "key init: NULL key");
    CHECK(ic_aes_gcm_key_init(&ck, NULL, 0) == IC_ERR_KEYLEN, "key init: no key");
    CHECK(ic_aes_gcm_key_init(&ck, key, 15) == IC_ERR_KEYLEN, "key init: 15-byte key");
    CHECK(ic_aes_gcm_key_init(&ck, key, 20) == IC_ERR_KEYLEN, "key init: 20-byte key");
    CHECK(ic_aes_gcm_key_init(&ck, key, 33) == IC_ERR_KEYLEN, "key init: 33-byte key");

    /* calls on a context never initialised (zeroed) or wiped, and a
     * message under a key object never initialised */
    memset(&c, 0, sizeof c);
    memset(&ck, 0, sizeof ck);
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_ERR_STATE, "init with a key object never initialised");
    CHECK(ic_aes_gcm_aad(&c, buf, 1) == IC_ERR_STATE, "aad before init");
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, 1) == IC_ERR_STATE, "encrypt before init");
    CHECK(ic_aes_gcm_decrypt(&c, out, buf, 1) == IC_ERR_STATE, "decrypt before init");
    CHECK(ic_aes_gcm_final(&c, tag, 16) == IC_ERR_STATE, "final before init");
    CHECK(ic_aes_gcm_final_verify(&c, tag, 16) == IC_ERR_STATE, "final_verify before init");
    CHECK(ic_aes_gcm_key_init(&ck, key, 16) == IC_OK, "key init");
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK, "init");
    ic_aes_gcm_wipe(&c);
    CHECK(all_zero((const uint8_t *)&c, sizeof c), "wipe zeroed the context");
    CHECK(ic_aes_gcm_aad(&c, buf, 1) == IC_ERR_STATE, "aad after wipe");
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, 16) == IC_ERR_STATE, "encrypt after wipe");
    CHECK(ic_aes_gcm_final(&c, tag, 16) == IC_ERR_STATE, "final after wipe");
    ic_aes_gcm_wipe(NULL);
    ic_aes_gcm_key_wipe(NULL);

    /* init: context, key object, IV, in that order */
    CHECK(ic_aes_gcm_init(NULL, &ck, iv, 12) == IC_ERR_NULL, "init: NULL context");
    CHECK(ic_aes_gcm_init(&c, NULL, iv, 12) == IC_ERR_NULL, "init: NULL key object");
    CHECK(ic_aes_gcm_init(&c, NULL, NULL, 0) == IC_ERR_NULL, "init: NULL key object before the IV");
    CHECK(ic_aes_gcm_init(&c, &ck, NULL, 12) == IC_ERR_NULL, "init: NULL IV");
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 0) == IC_ERR_IVLEN, "init: empty IV");
    CHECK(ic_aes_gcm_init(&c, &ck, NULL, 0) == IC_ERR_IVLEN, "init: no IV");
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 1) == IC_OK, "init: 1-byte IV");
    CHECK(ic_aes_gcm_aad(&c, buf, 3) == IC_OK && ic_aes_gcm_encrypt(&c, out, buf, 5) == IC_OK, "a message");
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 0) == IC_ERR_IVLEN && all_zero((const uint8_t *)&c, sizeof c)
          && ic_aes_gcm_encrypt(&c, out, buf, 1) == IC_ERR_STATE,
          "a refused init wiped the context: the message it abandoned is gone");

    /* the key object wiped in the middle of a message: every call on the
     * context refused, nothing written, the context left as it was */
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK && ic_aes_gcm_aad(&c, buf, 3) == IC_OK, "init");
    ic_aes_gcm_key_wipe(&ck);
    memset(out, 0x77, sizeof out);
    memset(tag, 0x77, sizeof tag);
    memcpy(&snap, &c, sizeof c);
    CHECK(ic_aes_gcm_aad(&c, buf, 1) == IC_ERR_STATE, "aad after the key was wiped");
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, 16) == IC_ERR_STATE, "encrypt after the key was wiped");
    CHECK(ic_aes_gcm_decrypt(&c, out, buf, 16) == IC_ERR_STATE, "decrypt after the key was wiped");
    CHECK(ic_aes_gcm_final(&c, tag, 16) == IC_ERR_STATE, "final after the key was wiped");
    CHECK(ic_aes_gcm_final_verify(&c, tag, 16) == IC_ERR_STATE, "final_verify after the key was wiped");
    CHECK(tl_all_byte(out, sizeof out, 0x77) && tl_all_byte(tag, sizeof tag, 0x77)
          && memcmp(&snap, &c, sizeof c) == 0, "calls refused for a wiped key touched nothing");
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_ERR_STATE, "init with a wiped key object");

    /* a key object overwritten in its stitched loop's id (check words
     * intact): an id out of range is refused; one its two backends do not
     * both declare is never run, the message takes the plain path and
     * gives the right answer */
    CHECK(ic_aes_gcm_key_init(&ck, key, 16) == IC_OK, "key init");
    {
        uint32_t common = ic_aes_ops_of(&ck.aes)->stitch & ic_ghash_key_ops(&ck.ghash)->stitch, was = ck.stitch;
        uint8_t big[300], rbig[300], rt[16];
        memset(big, 0x3c, sizeof big);
        CHECK(ic_aes_gcm_key_seal(&ck, rbig, rt, 16, big, sizeof big, NULL, 0, iv, 12) == IC_OK, "reference seal");
        for (uint32_t s = 1; s < 40; s++) {
            if (s < IC_STITCH_COUNT && (common >> s & 1))
                continue;
            ck.stitch = s;
            if (s >= IC_STITCH_COUNT) {
                CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_ERR_STATE
                      && ic_aes_gcm_key_seal(&ck, out, tag, 16, buf, 16, NULL, 0, iv, 12) == IC_ERR_STATE,
                      "key object with stitched loop id %u (out of range) refused", (unsigned)s);
                continue;
            }
            memset(out, 0, sizeof out);
            CHECK(ic_aes_gcm_key_seal(&ck, big, tag, 16, big, sizeof big, NULL, 0, iv, 12) == IC_OK
                  && memcmp(big, rbig, sizeof big) == 0 && memcmp(tag, rt, 16) == 0,
                  "key object with stitched loop %u (not declared by both backends): plain path", (unsigned)s);
            memset(big, 0x3c, sizeof big);
        }
        ck.stitch = was;
        CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK, "the key object's own loop accepted");
    }

    /* before any message: after final, final_verify and a refused init
     * (see above) the context is wiped */
    CHECK(ic_aes_gcm_final(&c, tag, 16) == IC_OK, "final");
    CHECK(all_zero((const uint8_t *)&c, sizeof c), "final wiped the context");
    CHECK(ic_aes_gcm_aad(&c, buf, 1) == IC_ERR_STATE, "aad after final");
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, 16) == IC_ERR_STATE, "encrypt after final");
    CHECK(ic_aes_gcm_decrypt(&c, out, buf, 16) == IC_ERR_STATE, "decrypt after final");
    CHECK(ic_aes_gcm_final(&c, tag, 16) == IC_ERR_STATE, "final after final");
    CHECK(ic_aes_gcm_final_verify(&c, tag, 16) == IC_ERR_STATE, "final_verify after final");

    /* aad / data argument checks */
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK, "init");
    CHECK(ic_aes_gcm_aad(NULL, buf, 1) == IC_ERR_NULL, "aad: NULL context");
    CHECK(ic_aes_gcm_aad(&c, NULL, 1) == IC_ERR_NULL, "aad: NULL with length");
    CHECK(ic_aes_gcm_aad(&c, NULL, 0) == IC_OK, "aad: NULL with length 0");
    CHECK(ic_aes_gcm_encrypt(NULL, out, buf, 1) == IC_ERR_NULL, "encrypt: NULL context");
    CHECK(ic_aes_gcm_encrypt(&c, NULL, buf, 1) == IC_ERR_NULL, "encrypt: NULL out");
    CHECK(ic_aes_gcm_encrypt(&c, out, NULL, 1) == IC_ERR_NULL, "encrypt: NULL in");
    CHECK(ic_aes_gcm_encrypt(&c, buf + 1, buf, 16) == IC_ERR_OVERLAP, "encrypt: out = in + 1");
    CHECK(ic_aes_gcm_encrypt(&c, buf, buf + 15, 16) == IC_ERR_OVERLAP, "encrypt: in = out + 15");
    CHECK(ic_aes_gcm_encrypt(&c, buf + 16, buf, 16) == IC_OK, "encrypt: adjacent buffers");
    CHECK(ic_aes_gcm_encrypt(&c, buf, buf, 16) == IC_OK, "encrypt: in place");
    CHECK(ic_aes_gcm_encrypt(&c, NULL, NULL, 0) == IC_OK, "encrypt: NULL with length 0");

    /* order */
    CHECK(ic_aes_gcm_aad(&c, buf, 1) == IC_ERR_STATE, "aad after encrypt");
    CHECK(ic_aes_gcm_aad(&c, buf, 0) == IC_ERR_STATE, "empty aad after encrypt");
    CHECK(ic_aes_gcm_decrypt(&c, out, buf, 16) == IC_ERR_STATE, "decrypt after encrypt");
    CHECK(ic_aes_gcm_final_verify(&c, tag, 16) == IC_ERR_STATE, "final_verify after encrypt");
    CHECK(ic_aes_gcm_final(&c, tag, 16) == IC_OK, "final");
    CHECK(ic_aes_gcm_final(&c, tag, 16) == IC_ERR_STATE, "final twice");
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, 16) == IC_ERR_STATE, "encrypt after final");
    CHECK(ic_aes_gcm_aad(&c, buf, 1) == IC_ERR_STATE, "aad after final");
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK, "init");
    CHECK(ic_aes_gcm_decrypt(&c, out, buf, 16) == IC_OK, "decrypt");
    CHECK(ic_aes_gcm_aad(&c, buf, 1) == IC_ERR_STATE, "aad after decrypt");
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, 16) == IC_ERR_STATE, "encrypt after decrypt");
    CHECK(ic_aes_gcm_final(&c, tag, 16) == IC_ERR_STATE, "final after decrypt");
    CHECK(ic_aes_gcm_decrypt(&c, NULL, buf, 1) == IC_ERR_NULL, "decrypt: NULL out");
    CHECK(ic_aes_gcm_decrypt(&c, buf + 3, buf, 8) == IC_ERR_OVERLAP, "decrypt: partial overlap");
    CHECK(ic_aes_gcm_final_verify(&c, NULL, 16) == IC_ERR_NULL, "final_verify: NULL tag");
    CHECK(ic_aes_gcm_final_verify(&c, tag, 3) == IC_ERR_TAGLEN, "final_verify: 3-byte tag");
    memset(tag, 0, sizeof tag);
    CHECK(ic_aes_gcm_final_verify(&c, tag, 16) == IC_ERR_AUTH, "final_verify: wrong tag");
    CHECK(all_zero((const uint8_t *)&c, sizeof c), "a failed final_verify wiped the context");
    CHECK(ic_aes_gcm_final_verify(&c, tag, 16) == IC_ERR_STATE, "final_verify twice");

    /* tag lengths: 4, 8, 12..16 only; AAD-only messages may end with final
     * or final_verify */
    for (size_t tl = 0; tl <= 17; tl++) {
        int allowed = tl == 4 || tl == 8 || (tl >= 12 && tl <= 16);
        uint8_t t2[17];
        CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK && ic_aes_gcm_aad(&c, buf, 5) == IC_OK, "init");
        CHECK(ic_aes_gcm_final(&c, t2, tl) == (allowed ? IC_OK : IC_ERR_TAGLEN), "final: %zu-byte tag", tl);
        if (allowed) {
            CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK && ic_aes_gcm_aad(&c, buf, 5) == IC_OK, "init");
            CHECK(ic_aes_gcm_final_verify(&c, t2, tl) == IC_OK, "final_verify (AAD only): %zu-byte tag", tl);
        } else {
            CHECK(ic_aes_gcm_final(&c, t2, 16) == IC_OK, "final after a refused tag length");
        }
    }
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK, "init");
    CHECK(ic_aes_gcm_final(&c, NULL, 16) == IC_ERR_NULL, "final: NULL tag");
    CHECK(ic_aes_gcm_final(NULL, tag, 16) == IC_ERR_NULL, "final: NULL context");
    CHECK(ic_aes_gcm_final_verify(NULL, tag, 16) == IC_ERR_NULL, "final_verify: NULL context");

    /* The data limit, 2^36 - 32 bytes per message.  A refused call must
     * touch nothing: out keeps its bytes and the context is unchanged. */
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK, "init");
#if SIZE_MAX > 0xFFFFFFFFu
    memset(out, 0x77, sizeof out);
    memcpy(&snap, &c, sizeof c);
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, (size_t)lim + 1) == IC_ERR_TOOLONG, "encrypt: 2^36-32+1 bytes");
    CHECK(ic_aes_gcm_decrypt(&c, out, buf, (size_t)lim + 1) == IC_ERR_TOOLONG, "decrypt: 2^36-32+1 bytes");
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, SIZE_MAX) == IC_ERR_TOOLONG, "encrypt: SIZE_MAX bytes");
    CHECK(tl_all_byte(out, sizeof out, 0x77) && memcmp(&snap, &c, sizeof c) == 0, "refused encrypt touched nothing");
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, 32) == IC_OK, "encrypt 32 bytes");
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, (size_t)(lim - 32) + 1) == IC_ERR_TOOLONG,
          "encrypt: 2^36-32-32+1 more bytes after 32");
#endif
    /* the exact boundary, through the public length counter */
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK, "init");
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, 16) == IC_OK, "encrypt");
    c.datalen = lim - 32;
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, 33) == IC_ERR_TOOLONG, "encrypt: one byte over the limit");
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, 31) == IC_OK, "encrypt: up to one byte below the limit");
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, 1) == IC_OK, "encrypt: exactly the limit");
    CHECK(c.datalen == lim, "length counter at the limit");
    memcpy(&snap, &c, sizeof c);
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, 1) == IC_ERR_TOOLONG, "encrypt: past the limit");
    CHECK(memcmp(&snap, &c, sizeof c) == 0, "refused encrypt left the context alone");
    CHECK(ic_aes_gcm_encrypt(&c, out, buf, 0) == IC_OK, "encrypt: 0 bytes at the limit");
    CHECK(ic_aes_gcm_final(&c, tag, 16) == IC_OK, "final at the limit");
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK, "init");
    CHECK(ic_aes_gcm_decrypt(&c, out, buf, 16) == IC_OK, "decrypt");
    c.datalen = lim;
    CHECK(ic_aes_gcm_decrypt(&c, out, buf, 1) == IC_ERR_TOOLONG, "decrypt: past the limit");

    /* the AAD limit, 2^61 - 1 bytes */
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK, "init");
    c.aadlen = IC_GCM_MAX_AAD - 5;
    CHECK(ic_aes_gcm_aad(&c, buf, 6) == IC_ERR_TOOLONG, "aad: one byte over the limit");
    CHECK(ic_aes_gcm_aad(&c, buf, 5) == IC_OK, "aad: exactly the limit");
    CHECK(ic_aes_gcm_aad(&c, buf, 1) == IC_ERR_TOOLONG, "aad: past the limit");
#if SIZE_MAX > 0xFFFFFFFFu
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK, "init");
    CHECK(ic_aes_gcm_aad(&c, buf, (size_t)IC_GCM_MAX_AAD + 1) == IC_ERR_TOOLONG, "aad: 2^61 bytes");
    CHECK(ic_aes_gcm_init(&c, &ck, iv, (size_t)IC_GCM_MAX_AAD + 1) == IC_ERR_IVLEN, "init: 2^61-byte IV");
#endif
    ic_aes_gcm_wipe(&c);
    ic_aes_gcm_key_wipe(&ck);

    /* one-shot: every argument, nothing written on refusal */
    memset(out, 0x77, sizeof out);
    memset(tag, 0x77, sizeof tag);
#define SEAL(k, kl, v, vl, a, al, i, l, o, t, tl) ic_aes_gcm_seal(o, t, tl, i, l, a, al, v, vl, k, kl)
    CHECK(SEAL(NULL, 16, iv, 12, buf, 4, buf, 16, out, tag, 16) == IC_ERR_NULL, "seal: NULL key");
    CHECK(SEAL(key, 16, NULL, 12, buf, 4, buf, 16, out, tag, 16) == IC_ERR_NULL, "seal: NULL IV");
    CHECK(SEAL(key, 16, iv, 12, NULL, 4, buf, 16, out, tag, 16) == IC_ERR_NULL, "seal: NULL AAD");
    CHECK(SEAL(key, 16, iv, 12, buf, 4, NULL, 16, out, tag, 16) == IC_ERR_NULL, "seal: NULL in");
    CHECK(SEAL(key, 16, iv, 12, buf, 4, buf, 16, NULL, tag, 16) == IC_ERR_NULL, "seal: NULL out");
    CHECK(SEAL(key, 16, iv, 12, buf, 4, buf, 16, out, NULL, 16) == IC_ERR_NULL, "seal: NULL tag");
    CHECK(SEAL(key, 17, iv, 12, buf, 4, buf, 16, out, tag, 16) == IC_ERR_KEYLEN, "seal: 17-byte key");
    CHECK(SEAL(key, 16, iv, 0, buf, 4, buf, 16, out, tag, 16) == IC_ERR_IVLEN, "seal: empty IV");
    CHECK(SEAL(key, 16, iv, 12, buf, 4, buf, 16, out, tag, 11) == IC_ERR_TAGLEN, "seal: 11-byte tag");
    CHECK(SEAL(key, 16, iv, 12, buf, 4, buf, 16, out, tag, 0) == IC_ERR_TAGLEN, "seal: no tag");
#if SIZE_MAX > 0xFFFFFFFFu
    CHECK(SEAL(key, 16, iv, 12, buf, 4, buf, (size_t)lim + 1, out, tag, 16) == IC_ERR_TOOLONG,
          "seal: 2^36-32+1 bytes");
    CHECK(SEAL(key, 16, iv, 12, buf, (size_t)IC_GCM_MAX_AAD + 1, buf, 16, out, tag, 16) == IC_ERR_TOOLONG,
          "seal: 2^61 bytes of AAD");
#endif
    CHECK(SEAL(key, 16, iv, 12, buf, 4, buf, 16, buf + 8, tag, 16) == IC_ERR_OVERLAP, "seal: partial overlap");
    CHECK(tl_all_byte(out, sizeof out, 0x77) && tl_all_byte(tag, sizeof tag, 0x77), "refused seal wrote nothing");
    CHECK(SEAL(key, 16, iv, 12, NULL, 0, NULL, 0, NULL, tag, 16) == IC_OK, "seal: NULL with lengths 0");
    CHECK(SEAL(key, 16, iv, 12, buf, 4, buf, 40, out, tag, 16) == IC_OK, "seal");
    memcpy(buf + 8, out, 40); /* ciphertext at buf+8.. for the open checks */
#define OPEN(k, kl, v, vl, a, al, i, l, o, t, tl) ic_aes_gcm_open(o, t, tl, i, l, a, al, v, vl, k, kl)
    memset(out, 0x77, sizeof out);
    CHECK(OPEN(NULL, 16, iv, 12, buf, 4, buf + 8, 40, out, tag, 16) == IC_ERR_NULL, "open: NULL key");
    CHECK(OPEN(key, 16, NULL, 12, buf, 4, buf + 8, 40, out, tag, 16) == IC_ERR_NULL, "open: NULL IV");
    CHECK(OPEN(key, 16, iv, 12, NULL, 4, buf + 8, 40, out, tag, 16) == IC_ERR_NULL, "open: NULL AAD");
    CHECK(OPEN(key, 16, iv, 12, buf, 4, NULL, 40, out, tag, 16) == IC_ERR_NULL, "open: NULL in");
    CHECK(OPEN(key, 16, iv, 12, buf, 4, buf + 8, 40, NULL, tag, 16) == IC_ERR_NULL, "open: NULL out");
    CHECK(OPEN(key, 16, iv, 12, buf, 4, buf + 8, 40, out, NULL, 16) == IC_ERR_NULL, "open: NULL tag");
    CHECK(OPEN(key, 0, iv, 12, buf, 4, buf + 8, 40, out, tag, 16) == IC_ERR_KEYLEN, "open: empty key");
    CHECK(OPEN(key, 16, iv, 0, buf, 4, buf + 8, 40, out, tag, 16) == IC_ERR_IVLEN, "open: empty IV");
    CHECK(OPEN(key, 16, iv, 12, buf, 4, buf + 8, 40, out, tag, 2) == IC_ERR_TAGLEN, "open: 2-byte tag");
#if SIZE_MAX > 0xFFFFFFFFu
    CHECK(OPEN(key, 16, iv, 12, buf, 4, buf + 8, (size_t)lim + 1, out, tag, 16) == IC_ERR_TOOLONG,
          "open: 2^36-32+1 bytes");
#endif
    CHECK(OPEN(key, 16, iv, 12, buf, 4, buf + 8, 40, buf + 9, tag, 16) == IC_ERR_OVERLAP, "open: partial overlap");
    CHECK(tl_all_byte(out, sizeof out, 0x77), "refused open wrote nothing");
    CHECK(OPEN(key, 16, iv, 12, buf, 4, buf + 8, 40, out, tag, 16) == IC_OK, "open");
    CHECK(tl_all_byte(out + 40, sizeof out - 40, 0x77), "open wrote past out+len");
    tag[0] ^= 1;
    memset(out, 0x77, sizeof out);
    CHECK(OPEN(key, 16, iv, 12, buf, 4, buf + 8, 40, out, tag, 16) == IC_ERR_AUTH, "open: forged tag");
    CHECK(all_zero(out, 40) && tl_all_byte(out + 40, sizeof out - 40, 0x77), "failed open zeroed out and only out");
    tag[0] ^= 1;
    CHECK(OPEN(key, 16, iv, 12, buf, 5, buf + 8, 40, out, tag, 16) == IC_ERR_AUTH, "open: AAD one byte longer");
    CHECK(OPEN(key, 16, iv, 12, buf, 4, buf + 8, 39, out, tag, 16) == IC_ERR_AUTH, "open: ciphertext truncated");
    CHECK(OPEN(key, 16, iv, 12, buf, 4, buf + 8, 40, out, tag, 12) == IC_OK, "open: truncated tag");
#undef SEAL
#undef OPEN
}

/* A failed re-init must leave no usable key behind (the old one included):
 * a message under it is refused from then on. */
static void failed_reinit(void)
{
    ic_aes_gcm_ctx c;
    ic_aes_gcm_key ck;
    uint8_t key[32] = {1}, iv[12] = {2}, buf[16] = {0}, tag[16];
    CHECK(ic_aes_gcm_key_init(&ck, key, 16) == IC_OK && ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK, "first init");
    CHECK(ic_aes_gcm_key_init(&ck, key, 17) == IC_ERR_KEYLEN, "key re-init with a bad key length");
    CHECK(ic_aes_gcm_encrypt(&c, buf, buf, 16) == IC_ERR_STATE, "no encrypt after a failed key re-init");
    CHECK(ic_aes_gcm_final(&c, tag, 16) == IC_ERR_STATE, "no final after a failed key re-init");
    CHECK(ic_aes_gcm_init(&c, &ck, iv, 12) == IC_ERR_STATE, "no message after a failed key re-init");
    CHECK(ic_aes_gcm_key_seal(&ck, buf, tag, 16, buf, 16, NULL, 0, iv, 12) == IC_ERR_STATE,
          "no seal after a failed key re-init");
    CHECK(ic_aes_gcm_key_init(&ck, key, 32) == IC_OK, "key init");
    CHECK(ic_aes_gcm_key_init(&ck, NULL, 16) == IC_ERR_NULL && ic_aes_gcm_init(&c, &ck, iv, 12) == IC_ERR_STATE,
          "NULL key re-init leaves no key");

    /* a streaming context is not taken for a key object, nor the other
     * way round: each has its own check word */
    CHECK(ic_aes_gcm_key_init(&ck, key, 16) == IC_OK && ic_aes_gcm_init(&c, &ck, iv, 12) == IC_OK, "init");
    ic_aes_gcm_key *alias = (ic_aes_gcm_key *)tl_xmalloc(sizeof *alias);
    memset(alias, 0, sizeof *alias);
    memcpy(alias, &c, sizeof c);
    CHECK(ic_aes_gcm_key_seal(alias, buf, tag, 16, buf, 16, NULL, 0, iv, 12) == IC_ERR_STATE,
          "a streaming context's bytes are not a key object");
    ic_aes_gcm_ctx *calias = (ic_aes_gcm_ctx *)tl_xmalloc(sizeof ck);
    memcpy(calias, &ck, sizeof ck);
    CHECK(ic_aes_gcm_encrypt(calias, buf, buf, 16) == IC_ERR_STATE, "a key object's bytes are not a context");
    free(alias);
    free(calias);
    /* nor is a context whose key pointer was overwritten (check word bound
     * to it) */
    c.key = (const ic_aes_gcm_key *)(void *)buf;
    CHECK(ic_aes_gcm_encrypt(&c, buf, buf, 16) == IC_ERR_STATE, "a context with another key pointer refused");
    ic_aes_gcm_wipe(&c);
    ic_aes_gcm_key_wipe(&ck);
}

/* The AES half of a GCM key may lack the decryption schedule (the
 * backend's gcm_setkey): the AES API refuses it, so nothing decrypts with
 * it, and H and the tags still agree with the portable pair's. */
static void aes_half_refused(const char *aes_impl, void *arg)
{
    ic_aes_gcm_key ck, rk;
    uint8_t key[32] = {9, 8, 7}, iv[12] = {3}, buf[32] = {0}, tag[16], rtag[16];
    (void)arg;
    for (size_t kl = 16; kl <= 32; kl += 8) {
        ref_init(&rk, key, kl);
        CHECK(ic_aes_gcm_key_init(&ck, key, kl) == IC_OK, "aes/%s: key init", aes_impl);
        CHECK(ic_aes_key_ops(&ck.aes) == NULL, "aes/%s: a GCM key's AES half is no AES key", aes_impl);
        CHECK(ic_aes_ecb_decrypt(&ck.aes, buf, buf, 16) == IC_ERR_STATE, "aes/%s: no decryption with it", aes_impl);
        CHECK(ic_aes_gcm_key_seal(&ck, buf, tag, 16, buf, 16, NULL, 0, iv, 12) == IC_OK &&
              ic_aes_gcm_key_seal(&rk, buf + 16, rtag, 16, buf + 16, 16, NULL, 0, iv, 12) == IC_OK &&
              memcmp(tag, rtag, 16) == 0 && memcmp(buf, buf + 16, 16) == 0, "aes/%s: tag as the reference's", aes_impl);
        ic_aes_gcm_key_wipe(&ck);
        ic_aes_gcm_key_wipe(&rk);
    }
}

int main(void)
{
    printf("ghash implementations:");
    for (size_t i = 0; i < ic_impl_count("ghash"); i++)
        printf(" %s%s", ic_impl_name("ghash", i), ic_impl_available("ghash", i) ? "" : "(n/a)");
    printf("; portable reference ghash/%s aes/%s\n", portable_name("ghash"), portable_name("aes"));
    CHECK(ic_impls_ghash[ic_nimpls_ghash - 1].needs == 0, "portable GHASH last, needs nothing");

    CHECK(tl_for_each_impl("ghash", per_ghash, NULL) >= 1, "at least one GHASH ran");
    bad_input();
    failed_reinit();
    CHECK(tl_for_each_impl("aes", aes_half_refused, NULL) >= 1, "at least one AES ran");
    return tl_finish();
}
