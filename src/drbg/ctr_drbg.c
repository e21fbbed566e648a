/*
 * ctr_drbg.c - SP 800-90A Rev. 1 CTR_DRBG, AES-256, ctr_len = blocklen
 * (V is a 128-bit big-endian counter incremented mod 2^128), with and
 * without the derivation function.
 *
 * The cipher is whatever AES backend is selected when the DRBG is
 * instantiated (ic_aes_key_init picks it; the key records it).  Keystream is
 * the backend's ECB over counter blocks built here without branches (V is
 * secret; the backends' CTR operations treat their counter as public), so
 * one call produces the tail block and, right after it, the three blocks
 * of the Update that ends a generate (10.2.1.5.2 step 6 uses V after the
 * output blocks, which is exactly where the counter stands).  Rekeying reuses the key's backend, skipping the wipe
 * and table lookup of ic_aes_key_init on each request.
 *
 * Temporaries holding key or seed material are wiped before return.
 */
#include "drbg/ctr_drbg.h"
#include "aes/aes_impl.h"

static const uint8_t zeros[64];

/* v += n (mod 2^128, big-endian), over all 16 bytes: V is secret, so no
 * early exit that would time how far the carry ran. */
static void add128(uint8_t v[16], uint32_t n)
{
    uint32_t c = n;
    for (int i = 15; i >= 0; i--) {
        c += v[i];
        v[i] = (uint8_t)c;
        c >>= 8;
    }
}

static const ic_aes_ops *ops_of(const ic_ctr_drbg *d)
{
    return ic_aes_ops_of(&d->key);
}

/* Key := k, on the backend that expanded the current key. */
static void rekey(ic_ctr_drbg *d, const uint8_t k[IC_DRBG_KEYLEN])
{
    ops_of(d)->setkey(&d->key, k, IC_DRBG_KEYLEN);
}

/* One 64-bit big-endian store: a byte swap and one move where the compiler
 * says how (the byte-wise ic_store64_be cost ~60% of a 4 KiB request). */
static inline void store64_be(uint8_t *p, uint64_t v)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap64(v);
    memcpy(p, &v, 8);
#elif defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    memcpy(p, &v, 8);
#else
    ic_store64_be(p, v);
#endif
}

/* out[0..n) = V+1, V+2, ..., V+n as 128-bit big-endian blocks, with the
 * carry out of the low half as 0/1 arithmetic (V is secret; n is not). */
static void counter_blocks(uint8_t *out, const uint8_t v[16], size_t n)
{
    uint64_t hi = ic_load64_be(v), lo = ic_load64_be(v + 8);
    for (size_t i = 1; i <= n; i++) {
        uint64_t step = i;
#if defined(__GNUC__)
        /* keep the loop counted by i: fused into lo + i, the loop test
         * would compare a secret-derived value (same outcome, but the
         * constant-time checkers rightly flag it) */
        __asm__("" : "+r"(step));
#endif
        uint64_t l = lo + step;
        store64_be(out + 16 * (i - 1), hi + (uint64_t)(l < lo));
        store64_be(out + 16 * (i - 1) + 8, l);
    }
}

/* n blocks of keystream E(K, V+1), ..., E(K, V+n) into out; V advances to
 * V+n, the last counter used.  The counter blocks are written here and
 * encrypted with the backend's ECB, not its CTR operation: the backends'
 * CTR treats the counter as public (it is the IV of that mode) and may
 * branch on it (a carry out of the low word), while V is secret state. */
static void keystream(ic_ctr_drbg *d, uint8_t *out, size_t nblocks)
{
    counter_blocks(out, d->v, nblocks);
    ops_of(d)->ecb_enc(&d->key, out, out, nblocks);
    add128(d->v, (uint32_t)nblocks);
}

/* 10.2.1.2 CTR_DRBG_Update with provided_data already at seedlen, given
 * the 48 bytes of keystream t (taken by the caller, possibly with output
 * blocks in the same call). */
static void update_from(ic_ctr_drbg *d, uint8_t t[IC_DRBG_SEEDLEN], const uint8_t *provided)
{
    if (provided)
        ic_xor_bytes(t, t, provided, IC_DRBG_SEEDLEN);
    rekey(d, t);
    memcpy(d->v, t + IC_DRBG_KEYLEN, 16);
    ic_wipe(t, IC_DRBG_SEEDLEN);
}

static void update(ic_ctr_drbg *d, const uint8_t *provided)
{
    uint8_t t[IC_DRBG_SEEDLEN];
    keystream(d, t, 3);
    update_from(d, t, provided);
}

/* ---- Block_Cipher_df (10.3.2) with BCC (10.3.3) -------------------------- */

typedef struct {
    const uint8_t *p;
    size_t n;
} piece;

/* BCC over IV || S as a stream: chain = E(K, chain ^ block). */
typedef struct {
    const ic_aes_key *k;
    uint8_t chain[16], blk[16];
    size_t fill;
} bcc;

static void bcc_add(bcc *b, const uint8_t *p, size_t n)
{
    const ic_aes_ops *ops = ic_aes_ops_of(b->k);
    while (n) {
        size_t take = 16 - b->fill < n ? 16 - b->fill : n;
        memcpy(b->blk + b->fill, p, take);
        b->fill += take;
        p += take;
        n -= take;
        if (b->fill == 16) {
            ic_xor_bytes(b->chain, b->chain, b->blk, 16);
            ops->ecb_enc(b->k, b->chain, b->chain, 1);
            b->fill = 0;
        }
    }
}

/* out = Block_Cipher_df(pieces, 384 bits).  S = L || N || input || 0x80,
 * zero-padded to whole blocks, L and N 32-bit big-endian byte counts. */
static int block_cipher_df(const piece *in, size_t nin, uint8_t out[IC_DRBG_SEEDLEN])
{
    static const uint8_t k0[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                   16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    ic_aes_key k;
    uint8_t temp[IC_DRBG_SEEDLEN], hdr[16 + 8];
    size_t total = 0;
    for (size_t i = 0; i < nin; i++)
        total += in[i].n;
    if (ic_aes_key_init(&k, k0, sizeof k0) != IC_OK)
        return IC_ERR_UNAVAILABLE;
    for (uint32_t i = 0; i < 3; i++) {
        bcc b;
        memset(&b, 0, sizeof b);
        b.k = &k;
        memset(hdr, 0, sizeof hdr);
        ic_store32_be(hdr, i);                       /* IV = i || 0^96 */
        ic_store32_be(hdr + 16, (uint32_t)total);    /* L */
        ic_store32_be(hdr + 20, IC_DRBG_SEEDLEN);    /* N */
        bcc_add(&b, hdr, sizeof hdr);
        for (size_t j = 0; j < nin; j++)
            bcc_add(&b, in[j].p, in[j].n);
        static const uint8_t pad = 0x80;
        bcc_add(&b, &pad, 1);
        if (b.fill)
            bcc_add(&b, zeros, 16 - b.fill);
        memcpy(temp + 16 * i, b.chain, 16);
        ic_wipe(&b, sizeof b);
    }
    /* K = temp[0..32), X = temp[32..48); output E(K,X), E(K,E(K,X)), ... */
    const ic_aes_ops *ops = ic_aes_ops_of(&k);
    ops->setkey(&k, temp, IC_DRBG_KEYLEN);
    uint8_t *x = temp + IC_DRBG_KEYLEN;
    for (int i = 0; i < 3; i++) {
        ops->ecb_enc(&k, out + 16 * i, x, 1);
        x = out + 16 * i;
    }
    ic_wipe(temp, sizeof temp);
    ic_aes_key_wipe(&k);
    return IC_OK;
}

/* seed = df(a || b || c) or, without df, a XOR pad(b): the seed material
 * of instantiate / reseed and the additional input of generate. */
static int seed_material(const ic_ctr_drbg *d, uint8_t seed[IC_DRBG_SEEDLEN], const piece *in, size_t nin)
{
    size_t total = 0;
    for (size_t i = 0; i < nin; i++) {
        if (in[i].p == NULL && in[i].n)
            return IC_ERR_NULL;
        total += in[i].n;
    }
    if (d->use_df)
        return total > IC_DRBG_MAX_IN ? IC_ERR_TOOLONG : block_cipher_df(in, nin, seed);
    /* no df: in[0] is entropy (exactly seedlen, or nothing for generate's
     * additional input), in[1] is XORed in zero-padded. */
    memset(seed, 0, IC_DRBG_SEEDLEN);
    for (size_t i = 0; i < nin; i++) {
        if (in[i].n > IC_DRBG_SEEDLEN)
            return IC_ERR_TOOLONG;
        ic_xor_bytes(seed, seed, in[i].p ? in[i].p : zeros, in[i].n);
    }
    return IC_OK;
}

int ic_ctr_drbg_instantiate(ic_ctr_drbg *d, int use_df, const uint8_t *entropy, size_t entlen,
                            const uint8_t *nonce, size_t noncelen, const uint8_t *pers, size_t perslen)
{
    static const uint8_t zkey[IC_DRBG_KEYLEN];
    uint8_t seed[IC_DRBG_SEEDLEN];
    if (d == NULL)
        return IC_ERR_NULL;
    ic_ctr_drbg_wipe(d);
    d->use_df = use_df != 0;
    if (!d->use_df && (entlen != IC_DRBG_SEEDLEN || noncelen != 0))
        return entlen > IC_DRBG_SEEDLEN ? IC_ERR_TOOLONG : IC_ERR_LENGTH;
    if (entropy == NULL || entlen == 0)
        return IC_ERR_NULL;
    const piece in[3] = {{entropy, entlen}, {nonce, noncelen}, {pers, perslen}};
    int st = seed_material(d, seed, in, 3);
    if (st == IC_OK)
        st = ic_aes_key_init(&d->key, zkey, sizeof zkey); /* Key = 0, on the selected backend */
    if (st == IC_OK) {
        memset(d->v, 0, 16);                              /* V = 0 */
        update(d, seed);
        d->reseed_counter = 1;
        d->ready = 1;
    }
    ic_wipe(seed, sizeof seed);
    if (st != IC_OK)
        ic_ctr_drbg_wipe(d);
    return st;
}

int ic_ctr_drbg_reseed(ic_ctr_drbg *d, const uint8_t *entropy, size_t entlen, const uint8_t *add,
                       size_t addlen)
{
    uint8_t seed[IC_DRBG_SEEDLEN];
    if (d == NULL)
        return IC_ERR_NULL;
    if (!d->ready)
        return IC_ERR_STATE;
    if (!d->use_df && entlen != IC_DRBG_SEEDLEN)
        return entlen > IC_DRBG_SEEDLEN ? IC_ERR_TOOLONG : IC_ERR_LENGTH;
    if (entropy == NULL || entlen == 0)
        return IC_ERR_NULL;
    const piece in[2] = {{entropy, entlen}, {add, addlen}};
    int st = seed_material(d, seed, in, 2);
    if (st == IC_OK) {
        update(d, seed);
        d->reseed_counter = 1;
    }
    ic_wipe(seed, sizeof seed);
    return st;
}

int ic_ctr_drbg_generate(ic_ctr_drbg *d, uint8_t *out, size_t len, const uint8_t *add, size_t addlen)
{
    uint8_t addin[IC_DRBG_SEEDLEN], t[4 * 16];
    const uint8_t *provided = NULL;
    if (d == NULL)
        return IC_ERR_NULL;
    if (!d->ready)
        return IC_ERR_STATE;
    IC_NULL_CHECK(out, len);
    IC_NULL_CHECK(add, addlen);
    if (len > IC_DRBG_MAX_REQ) {
        ic_wipe(out, len);
        return IC_ERR_TOOLONG;
    }
    /* Step 2: additional input through the df (or padded) and Update. */
    if (addlen) {
        const piece in[1] = {{add, addlen}};
        int st = seed_material(d, addin, in, 1);
        if (st != IC_OK) {
            ic_wipe(out, len);
            return st;
        }
        update(d, addin);
        provided = addin;
    }
    /* Steps 3-5: whole blocks straight into out, then the tail block and
     * the Update's three blocks in one call on the stack. */
    size_t full = len / 16, tail = len % 16;
    if (full)
        keystream(d, out, full);
    size_t nt = (tail ? 1 : 0) + 3;
    keystream(d, t, nt);
    if (tail)
        memcpy(out + 16 * full, t, tail);
    /* Step 6: Update(additional_input, Key, V) with the blocks after the
     * output: keystream() left V at the last one used. */
    update_from(d, t + (tail ? 16 : 0), provided);
    d->reseed_counter++;
    ic_wipe(t, sizeof t);
    ic_wipe(addin, sizeof addin);
    return IC_OK;
}

void ic_ctr_drbg_wipe(ic_ctr_drbg *d)
{
    if (d)
        ic_wipe(d, sizeof *d);
}
