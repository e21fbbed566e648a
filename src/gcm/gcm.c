/*
 * gcm.c - AES-GCM (NIST SP 800-38D): the public API and the message state
 * machine (the "ghash" implementation table is in ghash_impls.c).
 *
 * The work is split so that hardware backends can take over the bulk:
 * counter-mode encryption always goes through the AES implementation's
 * ctr32 operation on whole blocks (SP 800-38D's inc32 counter), and the
 * hashing through the GHASH implementation's blocks operation on whole
 * blocks.  This file only handles the edges: a partial block at the end of
 * a call is served from a saved keystream block (ks) and its ciphertext is
 * kept in buf until the block is complete, so AAD and data may come in any
 * number of pieces of any length.  Long inputs are processed in chunks of
 * GCM_CHUNK bytes, CTR then GHASH (GHASH then CTR when decrypting), so the
 * second pass reads data that is still in the L1 cache.
 *
 * Short messages: E(K, J0), the tag mask, is not computed when
 * the message starts but with the first data call, and when that call is
 * short (up to GCM_SHORT bytes) in the same ctr32 call as the data's
 * counter blocks (J0, inc32(J0), ...); the one-shot seal of a short message
 * also hashes the lengths block with the ciphertext, one GHASH call and so
 * one reduction for the whole message.  A 64-byte message costs one AES
 * batch and one or two GHASH reductions, not two and two.
 *
 * ic_aes_gcm_open() decrypts and authenticates in one pass (the stitched
 * loop, as sealing), compares tags in constant time, and on a mismatch
 * overwrites the whole output with zeros before it returns: a forgery
 * releases no plaintext (docs/architecture.md, "Bad input"), and an open
 * costs what a seal costs instead of a GHASH pass plus a CTR pass.  The
 * output buffer holds unauthenticated plaintext only while the call runs.
 *
 * Stitching: the bulk of a message runs through a stitched loop (CTR and
 * GHASH in one pass) when the key's AES and GHASH implementations both
 * declare one (the stitch fields of their ops, aes_impl.h);
 * ic_aes_gcm_key_init picks it once and records its id in the key, and
 * every call reads it from there (gcm_loop).
 */
#include "gcm/ghash_impl.h"
#include "aes/aes_impl.h"
#include "gcm/ghash_ppc.h"   /* the stitched loops of POWER8 and ARM */
#include "gcm/ghash_arm.h"
#include "core/ct.h"

/* Where in a message a context is (ic_aes_gcm_ctx.state; a context
 * outside a message is wiped, state 0 and no check word). */
enum {
    GCM_AAD = 1,   /* after init: AAD, or the first data call             */
    GCM_ENC,       /* encrypting: more plaintext, then final              */
    GCM_DEC        /* decrypting: more ciphertext, then final_verify      */
};

#define GCM_CHUNK 4096

/* The key checks every call makes, inlined into each entry point: as a
 * call of its own they cost a short streamed message about 5 %. */
#if defined(__GNUC__)
#define GCM_INLINE static inline __attribute__((always_inline))
#else
#define GCM_INLINE static inline
#endif

/* A first data call of 1 .. GCM_SHORT bytes runs E(K, J0) and its counter
 * blocks as one ctr32 call of J0, inc32(J0), ... (gcm_first_short).  Seven
 * blocks: with J0 a batch of eight, and no length an x86 stitched loop
 * (8 blocks at least) would have taken. */
#define GCM_SHORT 112

/* ---- stitched loops ------------------------------------------------------ */

/* The function of each stitched loop (aes_impl.h lists them), NULL where
 * this architecture has none.  Backends do not appear here: each declares
 * the loops it can take part in (ic_aes_ops.stitch, ic_ghash_ops.stitch). */
static const ic_gcm_stitch_fn gcm_stitch_loops[IC_STITCH_COUNT] = {
#if defined(__x86_64__) || defined(__i386__)
    [IC_STITCH_X86_XMM] = ic_gcm_x86_ni_crypt,
    [IC_STITCH_X86_YMM] = ic_gcm_x86_vaes_crypt,
    [IC_STITCH_X86_ZMM] = ic_gcm_x86_vaes512_crypt,
#endif
#if IC_ARM_LE
    [IC_STITCH_ARM_CE] = ic_gcm_arm_crypt,
#endif
#if defined(__powerpc64__)
    [IC_STITCH_PPC_P8] = ic_gcm_p8_crypt,
#endif
};

/* The whole-message function beside a stitched loop (ghash_impl.h,
 * ic_gcm_msg_fn), NULL where there is none: the one-shot seal and open of
 * a key whose loop has one, with a 12-byte IV, make one call for the whole
 * message (no context, no counter or lengths block through memory, the
 * tail by masked loads and stores, E(K, J0) beside the data's blocks). */
static const ic_gcm_msg_fn gcm_msg_fns[IC_STITCH_COUNT] = {
#if defined(__x86_64__)
    [IC_STITCH_X86_ZMM] = ic_gcm_x86_vaes512_msg,
#endif
};

/* The loops a and g can run together; bit 0 (IC_STITCH_NONE) always. */
static uint32_t gcm_stitch_common(const ic_aes_ops *a, const ic_ghash_ops *g)
{
    return (a->stitch & g->stitch) | IC_STITCH_BIT(IC_STITCH_NONE);
}

uint32_t ic_gcm_stitch_pick(const ic_aes_ops *a, const ic_ghash_ops *g)
{
    uint32_t m = gcm_stitch_common(a, g), s = IC_STITCH_COUNT - 1;
    while ((m >> s & 1) == 0)   /* ends at IC_STITCH_NONE at the latest */
        s--;
    return s;
}

ic_gcm_stitch_fn ic_gcm_stitch_loop(uint32_t s)
{
    return s < IC_STITCH_COUNT ? gcm_stitch_loops[s] : NULL;
}

/* The key half of a message: the AES schedule and H with their ops and
 * the id of the stitched loop, from an ic_aes_gcm_key.  The message half
 * (counter, accumulator, partial blocks) is in an ic_aes_gcm_ctx; the
 * helpers below take both, so that a key serves messages without being
 * copied.  Made only from keys an entry point has validated (indexes
 * bounded, gcm_key_get). */
typedef struct gcm_keys {
    const ic_aes_key   *aes;
    const ic_ghash_key *hk;
    const ic_aes_ops   *a;
    const ic_ghash_ops *g;
    uint32_t            stitch;
} gcm_keys;

static gcm_keys gcm_keys_of(const ic_aes_gcm_key *key)
{
    gcm_keys k = { &key->aes, &key->ghash, ic_aes_ops_of(&key->aes),
                   (const ic_ghash_ops *)ic_impls_ghash[key->ghash.impl].ops, key->stitch };
    return k;
}

/* The key's stitched loop, or NULL: none, or an id that its two backends
 * do not both declare (a key overwritten with check words intact), which
 * is never run on a key layout or a CPU it was not written for.  Looked up
 * only where the bulk of a message starts, not on every call. */
static ic_gcm_stitch_fn gcm_loop(const gcm_keys *k)
{
    return (gcm_stitch_common(k->a, k->g) >> k->stitch & 1) ? gcm_stitch_loops[k->stitch] : NULL;
}

/* The key's whole-message function, or NULL (as gcm_loop). */
static ic_gcm_msg_fn gcm_msg_fn(const gcm_keys *k)
{
    return (gcm_stitch_common(k->a, k->g) >> k->stitch & 1) ? gcm_msg_fns[k->stitch] : NULL;
}

const ic_ghash_ops *ic_ghash_key_ops(const ic_ghash_key *hk)
{
    return hk != NULL && ic_ghash_key_valid(hk) ? (const ic_ghash_ops *)ic_impls_ghash[hk->impl].ops : NULL;
}

/* H expanded by table entry idx, recorded in hk: GCM's init and the tests. */
static void ghash_key_setup_at(ic_ghash_key *hk, uint32_t idx, const uint8_t h[16])
{
    ((const ic_ghash_ops *)ic_impls_ghash[idx].ops)->init(hk, h);
    hk->impl = idx;
    hk->check = IC_CHECK_GHASH;
}

/* SP 800-38D section 5.2.1.2: 128, 120, 112, 104, 96 bits, and 64 or 32
 * for the restricted uses of its Appendix C. */
static int gcm_taglen_ok(size_t t) { return t == 4 || t == 8 || (t >= 12 && t <= 16); }
static int gcm_keylen_ok(size_t n) { return n == 16 || n == 24 || n == 32; }
/* len(IV) is coded on 64 bits in bits (section 7.1 step 2): 2^61 - 1 bytes. */
static int gcm_ivlen_ok(size_t n) { return n != 0 && !ic_len_over(n, IC_GCM_MAX_AAD); }

/* The block [a]_64 || [b]_64 of bit lengths (big-endian), one store. */
static void gcm_len_block(uint8_t *p, uint64_t abytes, uint64_t bbytes)
{
    ic_store_2x64le(p, ic_be_word64(abytes * 8), ic_be_word64(bbytes * 8));
}

/* ---- GHASH with a partial-block buffer ---------------------------------- */

/* Feed len bytes to GHASH; an incomplete last block waits in c->buf. */
static void gcm_absorb(ic_aes_gcm_ctx *c, const gcm_keys *k, const uint8_t *p, size_t len)
{
    if (len == 0)
        return;               /* p may be NULL then */
    if (c->buflen != 0) {
        size_t n = 16 - c->buflen < len ? 16 - c->buflen : len;
        memcpy(c->buf + c->buflen, p, n);
        c->buflen += (unsigned)n;
        p += n;
        len -= n;
        if (c->buflen < 16)
            return;
        k->g->blocks(k->hk, c->y, c->buf, 1);
        c->buflen = 0;
    }
    if (len >= 16) {
        k->g->blocks(k->hk, c->y, p, len / 16);
        p += len & ~(size_t)15;
        len &= 15;
    }
    if (len != 0) {
        memcpy(c->buf, p, len);
        c->buflen = (unsigned)len;
    }
}

/* Zero-pad and hash a waiting partial block: GHASH's inputs are A || 0^v
 * and C || 0^u (section 7.1 step 5), and the IV || 0^(s+64) of step 2. */
static void gcm_pad(ic_aes_gcm_ctx *c, const gcm_keys *k)
{
    if (c->buflen == 0)
        return;
    ic_zero_small(c->buf + c->buflen, 16 - c->buflen);   /* no libc call: a 13-byte TLS AAD pads every message */
    k->g->blocks(k->hk, c->y, c->buf, 1);
    c->buflen = 0;
}

/* Hash the final block [a]_64 || [b]_64 (bit lengths, big-endian). */
static void gcm_absorb_lengths(ic_aes_gcm_ctx *c, const gcm_keys *k, uint64_t abytes, uint64_t bbytes)
{
    uint8_t lb[16];
    gcm_len_block(lb, abytes, bbytes);
    k->g->blocks(k->hk, c->y, lb, 1);
}

/* ---- counter mode ------------------------------------------------------- */

/* out = in ^ keystream.  Leftover keystream of the previous call first, then
 * whole blocks through ctr32, then one more keystream block for a tail. */
static void gcm_ctr_xor(ic_aes_gcm_ctx *c, const gcm_keys *k, uint8_t *out, const uint8_t *in, size_t len)
{
    while (len != 0 && c->kslen != 0) {
        *out++ = *in++ ^ c->ks[16 - c->kslen];
        c->kslen--;
        len--;
    }
    if (len >= 16) {
        k->a->ctr32(k->aes, c->ctr, out, in, len / 16);
        out += len & ~(size_t)15;
        in += len & ~(size_t)15;
        len &= 15;
    }
    if (len != 0) {
        memset(c->ks, 0, 16);
        k->a->ctr32(k->aes, c->ctr, c->ks, c->ks, 1);
        ic_xor_bytes(out, in, c->ks, len);
        c->kslen = (unsigned)(16 - len);
    }
}

/* In state GCM_AAD the counter holds J0 and E(K, J0) is not made yet
 * (gcm_msg_start).  This makes E(K, J0) on its own and moves the counter
 * on to inc32(J0): ctr32 of a zero block. */
static void gcm_mask(ic_aes_gcm_ctx *c, const gcm_keys *k)
{
    static const uint8_t zero[16];
    k->a->ctr32(k->aes, c->ctr, c->ekj0, zero, 1);
}

/* The first data call of a message, 1 .. GCM_SHORT bytes (state GCM_AAD,
 * the counter at J0, the AAD padded): E(K, J0) and the data's counter
 * blocks in one ctr32 call on a copy with a zero block in front, so a
 * short message pays for one call and one batch's latency instead of two.
 * The tail of a partial last block is zero in the copy, so its output
 * there is the keystream left for the next call (ks).  Returns the number
 * of data blocks nb; b then holds E(K, J0) in block 0 (the caller wipes
 * it) and the output in blocks 1 .. nb, zero padded to a whole block:
 * the ciphertext when encrypting, the plaintext when decrypting. */
static size_t gcm_first_blocks(ic_aes_gcm_ctx *c, const gcm_keys *k, uint8_t b[16 + GCM_SHORT + 16],
                               uint8_t *out, const uint8_t *in, size_t len, int dir)
{
    size_t nb = (len + 15) / 16, tail = len & 15;
    c->state = dir;
    c->datalen += len;
    memset(b, 0, 16);
    ic_copy_padded(b + 16, 16 * nb, in, len);
    k->a->ctr32(k->aes, c->ctr, b, b, nb + 1);
    memcpy(c->ekj0, b, 16);
    ic_copy_small(out, b + 16, len);
    if (tail != 0) {
        memcpy(c->ks, b + 16 * nb, 16);
        c->kslen = (unsigned)(16 - tail);
        ic_zero_small(b + 16 + len, 16 - tail);   /* keystream: wiped, and GHASH's zero padding */
    }
    return nb;
}

static void gcm_first_short(ic_aes_gcm_ctx *c, const gcm_keys *k, uint8_t *out, const uint8_t *in, size_t len,
                            int dir)
{
    uint8_t b[16 + GCM_SHORT + 16];
    size_t nb;
    gcm_pad(c, k);                          /* the AAD's zero padding */
    if (dir == GCM_DEC)
        gcm_absorb(c, k, in, len);          /* before out is written: out may be in */
    nb = gcm_first_blocks(c, k, b, out, in, len, dir);
    if (dir == GCM_ENC) {   /* buflen is 0 after gcm_pad: straight to GHASH */
        k->g->blocks(k->hk, c->y, b + 16, len / 16);
        if ((len & 15) != 0) {
            memcpy(c->buf, b + 16 * nb, 16);
            c->buflen = (unsigned)(len & 15);
        }
    }
    /* E(K, J0); decrypting, the plaintext too */
    ic_wipe_blocks(b, dir == GCM_DEC ? nb + 1 : 1);
}

void ic_ghash_key_setup(ic_ghash_key *hk, const ic_ghash_ops *g, const uint8_t h[16])
{
    uint32_t idx = ic_impl_index_of(IC_PRIM_GHASH, g);
    if (idx >= ic_nimpls_ghash) {   /* not an entry of the table: hk stays unusable */
        ic_wipe(hk, sizeof *hk);
        return;
    }
    ghash_key_setup_at(hk, idx, h);
}

/* ---- keys ------------------------------------------------------------------ */

/* When k is an ic_aes_gcm_key that init set up: 1, and its keys in *ks
 * for the call.  Its own check word says it is live (init sets it last,
 * wipe clears it); what a call uses as an index or a count is checked
 * too, as ic_aes_key_valid and ic_ghash_key_valid do (the halves' own
 * check words are implied by the key's): both implementations' indexes,
 * the round count, the stitched loop's id.  The ops are only read once
 * the indexes are known good.  Every streaming call runs this. */
GCM_INLINE int gcm_key_get(const ic_aes_gcm_key *k, gcm_keys *ks)
{
    if (!((k->check == IC_CHECK_GCMKEY) & ic_impl_index_ok(IC_PRIM_AES, k->aes.impl) &
          IC_AES_ROUNDS_OK(k->aes.rounds) & ic_impl_index_ok(IC_PRIM_GHASH, k->ghash.impl) &
          (k->stitch < IC_STITCH_COUNT)))
        return 0;
    *ks = gcm_keys_of(k);
    return 1;
}

/* The AES schedule and H (section 7.1 step 1: H = E(K, 0^128)) expanded by
 * the implementations selected now, after the key's checks (steps 2, 3),
 * and the stitched loop the two run together: a live key.  The AES half
 * is the encryption schedule only where the backend can make that alone
 * (ic_aes_gcm_setkey), written into k as it is: ic_aes_gcm_key_init has
 * wiped it (once: wiping the AES half again cost 15-25 of about 300 TSC
 * ticks), and the one-shots' key is a fresh object on the stack, wiped
 * after the message. */
static int gcm_key_setup(ic_aes_gcm_key *k, const uint8_t *key, size_t keylen)
{
    uint8_t h[16];
    IC_NULL_CHECK(key, keylen);
    if (!gcm_keylen_ok(keylen))
        return IC_ERR_KEYLEN;
    int r = ic_aes_gcm_setkey(&k->aes, key, keylen, h);
    if (r != IC_OK)
        return r;
    ghash_key_setup_at(&k->ghash, ic_impl_index(IC_PRIM_GHASH), h);
    ic_wipe(h, sizeof h);
    k->stitch = ic_gcm_stitch_pick(ic_aes_ops_of(&k->aes), ic_ghash_key_ops(&k->ghash));
    k->check = IC_CHECK_GCMKEY;
    return IC_OK;
}

int ic_aes_gcm_key_init(ic_aes_gcm_key *k, const uint8_t *key, size_t keylen)
{
    int r;
    if (k == NULL)
        return IC_ERR_NULL;
    /* wipe first: a failed re-init must not leave the old key usable */
    ic_wipe(k, sizeof *k);
    r = gcm_key_setup(k, key, keylen);
    if (r != IC_OK)
        ic_wipe(k, sizeof *k);
    return r;
}

void ic_aes_gcm_key_wipe(ic_aes_gcm_key *k)
{
    if (k != NULL)
        ic_wipe(k, sizeof *k);
}

/* ---- message start and end -------------------------------------------------- */

/* J0 = IV || 0^31 || 1 for a 12-byte IV (ic_store_2x64le: the counter
 * is read back at once by ctr32 as one 16-byte load). */
static void gcm_set_j0(uint8_t ctr[16], const uint8_t *iv)
{
    ic_store_2x64le(ctr, ic_load64_le(iv), ic_load32_le(iv + 8) | (UINT64_C(1) << 56));
}

/* Begin a message in c under the keys k (IV checked): the counter at J0;
 * state GCM_AAD.  E(K, J0) is left for later: in state GCM_AAD the counter
 * still holds J0, and the first data call (or the tag of a message without
 * data) computes E(K, J0) and moves the counter on to inc32(J0), the first
 * block of the plaintext's (steps 3 and 6) - for a short message in one
 * ctr32 call with its data (gcm_first_short). */
static void gcm_msg_start(ic_aes_gcm_ctx *c, const gcm_keys *k, const uint8_t *iv, size_t ivlen)
{
    memset(c->y, 0, sizeof c->y);
    c->aadlen = c->datalen = 0;
    c->buflen = c->kslen = 0;

    /* Pre-counter block J0 (section 7.1 step 2). */
    if (ivlen == IC_GCM_IV_SIZE) {
        gcm_set_j0(c->ctr, iv);
    } else {
        gcm_absorb(c, k, iv, ivlen);
        gcm_pad(c, k);
        gcm_absorb_lengths(c, k, 0, ivlen);
        memcpy(c->ctr, c->y, 16);
        memset(c->y, 0, sizeof c->y);
    }
    /* Only a 12-byte IV makes the counter public (ghash_impl.h). */
    c->ctr_public = ivlen == IC_GCM_IV_SIZE;
    c->state = GCM_AAD;
}

/* Forget a one-shot message: the tag mask E(K, J0), the GHASH
 * accumulator (with the mask it is the tag), unused keystream, and the
 * counter (for IVs other than 12 bytes a GHASH under H).  buf holds AAD or
 * ciphertext, which are public. */
static void gcm_msg_wipe(ic_aes_gcm_ctx *m)
{
    IC_WIPE_FIXED(m->ekj0, sizeof m->ekj0);
    IC_WIPE_FIXED(m->y, sizeof m->y);
    IC_WIPE_FIXED(m->ks, sizeof m->ks);
    IC_WIPE_FIXED(m->ctr, sizeof m->ctr);
}

/* The full tag: GHASH over the zero padding and the lengths block,
 * masked with E(K, J0) (step 6).  A waiting partial block and the lengths
 * go to GHASH in one call, so an aggregating backend reduces once. */
static void gcm_full_tag(ic_aes_gcm_ctx *c, const gcm_keys *k, uint8_t t[16])
{
    uint8_t b[32];
    size_t n = 0;
    if (c->state == GCM_AAD)   /* no data call: E(K, J0) is still to come */
        gcm_mask(c, k);
    if (c->buflen != 0) {
        memcpy(b, c->buf, 16);
        ic_zero_small(b + c->buflen, 16 - c->buflen);
        c->buflen = 0;
        n = 16;
    }
    gcm_len_block(b + n, c->aadlen, c->datalen);
    k->g->blocks(k->hk, c->y, b, n / 16 + 1);
    ic_xor_bytes(t, c->y, c->ekj0, 16);
}

/* ---- streaming ---------------------------------------------------------------- */

/* The check word of a context in a message under key k: bound to the
 * pointer, so that an overwritten pointer with the check word intact is
 * refused instead of followed. */
static uint32_t gcm_ctx_check_word(const ic_aes_gcm_key *k)
{
    uint64_t p = (uint64_t)(uintptr_t)k;
    return IC_CHECK_GCMCTX ^ (uint32_t)p ^ (uint32_t)(p >> 32);
}

/* A context in a message, with every field that later serves as an index
 * or offset in range: a garbage, wiped or ended context is refused before
 * any of it is used, its key pointer included. */
static int gcm_ready(const ic_aes_gcm_ctx *c)
{
    /* folded into one branch: every streaming call runs this */
    return (c->check == gcm_ctx_check_word(c->key)) & (c->key != NULL) &
           ((unsigned)c->state - GCM_AAD <= GCM_DEC - GCM_AAD) & (c->buflen < 16) & (c->kslen <= 16);
}

/* Zero the whole context: the end of a message (final, final_verify) and
 * the start of one (init wipes first).  Sixteen bytes a store, unrolled: a
 * memset of the whole context with its constant size is compiled as REP
 * STOSQ, whose start-up cost is that of a 16-byte message's whole GHASH. */
GCM_INLINE void gcm_ctx_clear(ic_aes_gcm_ctx *c)
{
    uint8_t *p = (uint8_t *)c;
#if defined(__GNUC__)
#pragma GCC unroll 16
#endif
    for (size_t i = 0; i < sizeof *c / 16; i++)
        IC_WIPE_FIXED(p + 16 * i, 16);
    if (sizeof *c % 16 != 0)
        IC_WIPE_FIXED(p + sizeof *c / 16 * 16, sizeof *c % 16);
}

/* Step 1 of every streaming call after init: the context (IC_ERR_NULL,
 * IC_ERR_STATE), then its key, which must still be live (a key wiped in
 * the middle of a message: IC_ERR_STATE, nothing written); its keys in
 * *ks. */
GCM_INLINE int gcm_ctx_check(const ic_aes_gcm_ctx *c, gcm_keys *ks)
{
    if (c == NULL)
        return IC_ERR_NULL;
    if (!gcm_ready(c) || !gcm_key_get(c->key, ks))
        return IC_ERR_STATE;
    return IC_OK;
}

/* init's checks after the context's: the key object (step 1), the IV. */
GCM_INLINE int gcm_init_check(const ic_aes_gcm_key *k, gcm_keys *ks, const uint8_t *iv, size_t ivlen)
{
    if (k == NULL)
        return IC_ERR_NULL;
    if (!gcm_key_get(k, ks))
        return IC_ERR_STATE;
    IC_NULL_CHECK(iv, ivlen);
    if (!gcm_ivlen_ok(ivlen))
        return IC_ERR_IVLEN;
    return IC_OK;
}

int ic_aes_gcm_init(ic_aes_gcm_ctx *c, const ic_aes_gcm_key *k, const uint8_t *iv, size_t ivlen)
{
    gcm_keys ks;
    int r;

    if (c == NULL)
        return IC_ERR_NULL;
    /* Wipe first: an abandoned message's secrets go, and a refused init
     * leaves a context no call accepts.  Nothing in c is read before: a
     * first init is handed uninitialised memory. */
    gcm_ctx_clear(c);
    r = gcm_init_check(k, &ks, iv, ivlen);
    if (r != IC_OK)
        return r;
    c->key = k;
    gcm_msg_start(c, &ks, iv, ivlen);
    c->check = gcm_ctx_check_word(k);
    return IC_OK;
}

int ic_aes_gcm_aad(ic_aes_gcm_ctx *c, const uint8_t *aad, size_t len)
{
    gcm_keys k;
    int r = gcm_ctx_check(c, &k);
    if (r != IC_OK)
        return r;
    IC_NULL_CHECK(aad, len);
    if (c->aadlen > IC_GCM_MAX_AAD || (uint64_t)len > IC_GCM_MAX_AAD - c->aadlen)
        return IC_ERR_TOOLONG;
    if (c->state != GCM_AAD)
        return IC_ERR_STATE;
    if (len == 0)
        return IC_OK;
    c->aadlen += len;
    gcm_absorb(c, &k, aad, len);
    return IC_OK;
}

/* Checks shared by encrypt and decrypt, in common.h's order: the length
 * limit before the overlap test, so that an over-long length with a small
 * buffer is reported as IC_ERR_TOOLONG, and the call order last; nothing
 * is touched until all checks passed. */
GCM_INLINE int gcm_data_begin(ic_aes_gcm_ctx *c, gcm_keys *k, uint8_t *out, const uint8_t *in, size_t len, int dir)
{
    int r = gcm_ctx_check(c, k);
    if (r != IC_OK)
        return r;
    IC_NULL_CHECK(out, len);
    IC_NULL_CHECK(in, len);
    if (c->datalen > IC_GCM_MAX_DATA || (uint64_t)len > IC_GCM_MAX_DATA - c->datalen)
        return IC_ERR_TOOLONG;
    if (ic_bad_overlap(out, in, len))
        return IC_ERR_OVERLAP;
    if (c->state != GCM_AAD && c->state != dir)
        return IC_ERR_STATE;
    return IC_OK;
}

/* Account for len bytes of data; the first data call closes the AAD with
 * its zero padding. */
static void gcm_data_account(ic_aes_gcm_ctx *c, const gcm_keys *k, size_t len, int dir)
{
    if (c->state == GCM_AAD) {
        gcm_pad(c, k);
        gcm_mask(c, k);
        c->state = dir;
    }
    c->datalen += len;
}

/* First chunk: the leftover keystream plus GCM_CHUNK, so that later chunks
 * start on a block boundary and the tail path runs at most once per call. */
static size_t gcm_chunk(const ic_aes_gcm_ctx *c, size_t len)
{
    size_t n = GCM_CHUNK + c->kslen;
    return len < n ? len : n;
}

/* CTR and GHASH of n bytes.  GHASH always reads the ciphertext: after CTR
 * when encrypting, before it when decrypting (out may be in). */
static void gcm_step(ic_aes_gcm_ctx *c, const gcm_keys *k, uint8_t *out, const uint8_t *in, size_t n, int dir)
{
    if (dir == GCM_DEC)
        gcm_absorb(c, k, in, n);
    gcm_ctr_xor(c, k, out, in, n);
    if (dir == GCM_ENC)
        gcm_absorb(c, k, out, n);
}

/* The bytes left of a partial block first, so that the stream is on a
 * block boundary (kslen == 0 and then buflen == 0: both count the same
 * datalen mod 16).  Then the key's stitched loop (one pass of CTR and
 * GHASH) on whole blocks when its two backends share one, and chunk by
 * chunk for whatever it left. */
static void gcm_crypt_data(ic_aes_gcm_ctx *c, const gcm_keys *k, uint8_t *out, const uint8_t *in, size_t len,
                           int dir)
{
    if (c->state == GCM_AAD && len - 1 < GCM_SHORT) {
        gcm_first_short(c, k, out, in, len, dir);
        return;
    }
    gcm_data_account(c, k, len, dir);
    if (c->kslen != 0 && len != 0) {
        size_t n = len < c->kslen ? len : c->kslen;
        gcm_step(c, k, out, in, n, dir);
        out += n;
        in += n;
        len -= n;
    }
    ic_gcm_stitch_fn loop = len >= 16 && c->kslen == 0 && c->buflen == 0 ? gcm_loop(k) : NULL;
    if (loop != NULL) {
        unsigned flags = (dir == GCM_ENC ? IC_GCM_HOOK_ENCRYPT : 0) |
                         (c->ctr_public ? IC_GCM_HOOK_CTR_PUBLIC : 0);
        size_t n = 16 * loop(k->aes, k->hk, flags, c->ctr, c->y, out, in, len / 16);
        out += n;
        in += n;
        len -= n;
    }
    while (len != 0) {
        size_t n = gcm_chunk(c, len);
        gcm_step(c, k, out, in, n, dir);
        out += n;
        in += n;
        len -= n;
    }
}

static int gcm_crypt(ic_aes_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len, int dir)
{
    gcm_keys k;
    int r = gcm_data_begin(c, &k, out, in, len, dir);
    if (r != IC_OK)
        return r;
    gcm_crypt_data(c, &k, out, in, len, dir);
    return IC_OK;
}

int ic_aes_gcm_encrypt(ic_aes_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    return gcm_crypt(c, out, in, len, GCM_ENC);
}

int ic_aes_gcm_decrypt(ic_aes_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    return gcm_crypt(c, out, in, len, GCM_DEC);
}

/* Checks shared by final and final_verify. */
GCM_INLINE int gcm_tag_begin(const ic_aes_gcm_ctx *c, gcm_keys *k, const uint8_t *tag, size_t taglen, int dir)
{
    int r = gcm_ctx_check(c, k);
    if (r != IC_OK)
        return r;
    IC_NULL_CHECK(tag, taglen);
    if (!gcm_taglen_ok(taglen))
        return IC_ERR_TAGLEN;
    if (c->state != GCM_AAD && c->state != dir)
        return IC_ERR_STATE;
    return IC_OK;
}

int ic_aes_gcm_final(ic_aes_gcm_ctx *c, uint8_t *tag, size_t taglen)
{
    uint8_t t[16];
    gcm_keys k;
    int r = gcm_tag_begin(c, &k, tag, taglen, GCM_ENC);
    if (r != IC_OK)
        return r;
    if (taglen == 16) {               /* the full tag: no copy to wipe */
        gcm_full_tag(c, &k, tag);
    } else {
        gcm_full_tag(c, &k, t);
        memcpy(tag, t, taglen);       /* MSB_t: the leftmost taglen bytes */
        IC_WIPE_FIXED(t, sizeof t);
    }
    gcm_ctx_clear(c);                 /* the message ends */
    return IC_OK;
}

int ic_aes_gcm_final_verify(ic_aes_gcm_ctx *c, const uint8_t *tag, size_t taglen)
{
    uint8_t t[16];
    int ok;
    gcm_keys k;
    int r = gcm_tag_begin(c, &k, tag, taglen, GCM_DEC);
    if (r != IC_OK)
        return r;
    gcm_full_tag(c, &k, t);
    ok = ic_ct_equal(t, tag, taglen);
    ic_ct_declassify(&ok, sizeof ok);   /* the verdict is public; t is not */
    IC_WIPE_FIXED(t, sizeof t);
    gcm_ctx_clear(c);                   /* the message ends either way */
    return ok ? IC_OK : IC_ERR_AUTH;
}

void ic_aes_gcm_wipe(ic_aes_gcm_ctx *c)
{
    if (c != NULL)
        ic_wipe(c, sizeof *c);
}

/* ---- one-shot, with a key object or a raw key ------------------------------- */

/* The message arguments of seal/open, in common.h's order: the pointers
 * (step 2), then IV, tag, limits and overlap (step 3 after the key length,
 * step 4).  Nothing is written before both passed. */
static int gcm_msg_nulls(const uint8_t *iv, size_t ivlen, const uint8_t *aad, size_t aadlen,
                         const uint8_t *in, size_t len, const uint8_t *out, const uint8_t *tag,
                         size_t taglen)
{
    IC_NULL_CHECK(iv, ivlen);
    IC_NULL_CHECK(aad, aadlen);
    IC_NULL_CHECK(in, len);
    IC_NULL_CHECK(out, len);
    IC_NULL_CHECK(tag, taglen);
    return IC_OK;
}

static int gcm_msg_params(size_t ivlen, size_t aadlen, const uint8_t *in, size_t len, const uint8_t *out,
                          size_t taglen)
{
    if (!gcm_ivlen_ok(ivlen))
        return IC_ERR_IVLEN;
    if (!gcm_taglen_ok(taglen))
        return IC_ERR_TAGLEN;
    if (ic_len_over(len, IC_GCM_MAX_DATA) || ic_len_over(aadlen, IC_GCM_MAX_AAD))
        return IC_ERR_TOOLONG;
    if (ic_bad_overlap(out, in, len))
        return IC_ERR_OVERLAP;
    return IC_OK;
}

/* Raw-key one-shot: the key pointer is a data pointer (step 2), its length
 * the first parameter (step 3). */
static int gcm_oneshot_check(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                             const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len,
                             const uint8_t *out, const uint8_t *tag, size_t taglen)
{
    int r;
    IC_NULL_CHECK(key, keylen);
    r = gcm_msg_nulls(iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    if (r != IC_OK)
        return r;
    if (!gcm_keylen_ok(keylen))
        return IC_ERR_KEYLEN;
    return gcm_msg_params(ivlen, aadlen, in, len, out, taglen);
}

/* Key-object one-shot: the key object first (step 1), then as above. */
static int gcm_keyed_check(const ic_aes_gcm_key *k, gcm_keys *ks, const uint8_t *iv, size_t ivlen,
                           const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len, const uint8_t *out,
                           const uint8_t *tag, size_t taglen)
{
    int r;
    if (k == NULL)
        return IC_ERR_NULL;
    if (!gcm_key_get(k, ks))
        return IC_ERR_STATE;
    r = gcm_msg_nulls(iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    if (r != IC_OK)
        return r;
    return gcm_msg_params(ivlen, aadlen, in, len, out, taglen);
}

/* IV and all of the AAD into the message half m (arguments checked). */
static void gcm_msg_begin(ic_aes_gcm_ctx *m, const gcm_keys *k, const uint8_t *iv, size_t ivlen,
                          const uint8_t *aad, size_t aadlen)
{
    gcm_msg_start(m, k, iv, ivlen);
    m->aadlen = aadlen;
    gcm_absorb(m, k, aad, aadlen);
}

/* A whole short message after its AAD (1 .. GCM_SHORT bytes): E(K, J0)
 * with the counter blocks (gcm_first_blocks), and the ciphertext and the
 * lengths block to GHASH in one call, so that an aggregating backend
 * reduces once for the whole of it. */
static void gcm_seal_short(ic_aes_gcm_ctx *m, const gcm_keys *k, uint8_t *out, const uint8_t *in, size_t len,
                           uint8_t t[16])
{
    uint8_t b[16 + GCM_SHORT + 16];
    size_t nb;
    gcm_pad(m, k);                          /* the AAD's zero padding */
    nb = gcm_first_blocks(m, k, b, out, in, len, GCM_ENC);
    m->kslen = 0;                           /* the message ends here */
    gcm_len_block(b + 16 * (nb + 1), m->aadlen, m->datalen);
    k->g->blocks(k->hk, m->y, b + 16, nb + 1);
    ic_xor_bytes(t, m->y, m->ekj0, 16);
    IC_WIPE_FIXED(b, 16);
}

/* Seal through the key's whole-message function f with a 12-byte IV,
 * the full tag to tag. */
GCM_INLINE void gcm_msg_seal(const gcm_keys *k, ic_gcm_msg_fn f, const uint8_t *iv, const uint8_t *aad,
                             size_t aadlen, const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16])
{
    ic_gcm_msg msg = { .aad = aad, .aadlen = aadlen, .in = in, .len = len, .out = out, .tag = tag };
    gcm_set_j0(msg.j0, iv);   /* public: the IV and a count */
    (void)f(k->aes, k->hk, IC_GCM_HOOK_ENCRYPT | IC_GCM_HOOK_CTR_PUBLIC, &msg);
}

/* Seal under checked keys, the general way: a short tag, an IV of other
 * than 12 bytes, or a key without a whole-message function.  m is only
 * the message half of a context: its key fields are never read (the keys
 * come from k), so they stay as the stack left them and nothing but the
 * message needs wiping.  Not inlined, so that the common case below does
 * not carry its frame (the context, six saved registers). */
static __attribute__((noinline)) void gcm_seal_general(const gcm_keys *k, const uint8_t *iv, size_t ivlen,
                                                       const uint8_t *aad, size_t aadlen, const uint8_t *in,
                                                       size_t len, uint8_t *out, uint8_t *tag, size_t taglen)
{
    ic_aes_gcm_ctx m;
    uint8_t t[16];
    uint8_t *dst = taglen == 16 ? tag : t;   /* the full tag: no copy to wipe */
    ic_gcm_msg_fn f = ivlen == IC_GCM_IV_SIZE ? gcm_msg_fn(k) : NULL;
    if (f != NULL) {
        gcm_msg_seal(k, f, iv, aad, aadlen, in, len, out, dst);
    } else {
        gcm_msg_begin(&m, k, iv, ivlen, aad, aadlen);
        if (len - 1 < GCM_SHORT) {
            gcm_seal_short(&m, k, out, in, len, dst);
        } else {
            gcm_crypt_data(&m, k, out, in, len, GCM_ENC);
            gcm_full_tag(&m, k, dst);
        }
        gcm_msg_wipe(&m);
    }
    if (dst == t) {
        memcpy(tag, t, taglen);       /* MSB_t: the leftmost taglen bytes */
        IC_WIPE_FIXED(t, sizeof t);
    }
}

/* Seal under checked keys: a 12-byte IV and a full tag in one call of
 * the key's whole-message function where it has one (TLS, IPsec, QUIC). */
GCM_INLINE void gcm_seal_with(const gcm_keys *k, const uint8_t *iv, size_t ivlen, const uint8_t *aad,
                          size_t aadlen, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag,
                          size_t taglen)
{
    ic_gcm_msg_fn f = ivlen == IC_GCM_IV_SIZE && taglen == 16 ? gcm_msg_fn(k) : NULL;
    if (f == NULL) {
        gcm_seal_general(k, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
        return;
    }
    gcm_msg_seal(k, f, iv, aad, aadlen, in, len, out, tag);
}

/* Open under checked keys without a whole-message function: decrypt and
 * hash in one pass, then compare; a forgery's output is zeroed before the
 * call returns.  The verdict is public once made (the call returns it),
 * so the wipe may branch on it.  Not inlined, as gcm_seal_general. */
static __attribute__((noinline)) int gcm_open_general(const gcm_keys *k, const uint8_t *iv, size_t ivlen,
                                                      const uint8_t *aad, size_t aadlen, const uint8_t *in,
                                                      size_t len, uint8_t *out, const uint8_t *tag, size_t taglen)
{
    ic_aes_gcm_ctx m;
    uint8_t t[16];
    int ok;
    gcm_msg_begin(&m, k, iv, ivlen, aad, aadlen);
    gcm_crypt_data(&m, k, out, in, len, GCM_DEC);
    gcm_full_tag(&m, k, t);
    ok = ic_ct_equal(t, tag, taglen);
    ic_ct_declassify(&ok, sizeof ok);
    if (!ok && len != 0)
        memset(out, 0, len);
    IC_WIPE_FIXED(t, sizeof t);
    gcm_msg_wipe(&m);
    return ok ? IC_OK : IC_ERR_AUTH;
}

/* Open under checked keys: with a 12-byte IV, one call of the key's
 * whole-message function, which zeroes a forgery's output itself. */
GCM_INLINE int gcm_open_with(const gcm_keys *k, const uint8_t *iv, size_t ivlen, const uint8_t *aad,
                         size_t aadlen, const uint8_t *in, size_t len, uint8_t *out, const uint8_t *tag,
                         size_t taglen)
{
    ic_gcm_msg_fn f = ivlen == IC_GCM_IV_SIZE ? gcm_msg_fn(k) : NULL;
    if (f == NULL)
        return gcm_open_general(k, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    ic_gcm_msg msg = { .aad = aad, .aadlen = aadlen, .in = in, .len = len, .out = out, .etag = tag,
                       .taglen = taglen };
    gcm_set_j0(msg.j0, iv);
    return f(k->aes, k->hk, IC_GCM_HOOK_CTR_PUBLIC, &msg) ? IC_OK : IC_ERR_AUTH;   /* declassified */
}

int ic_aes_gcm_key_seal(const ic_aes_gcm_key *k, uint8_t *out, uint8_t *tag, size_t taglen, const uint8_t *in,
                        size_t len, const uint8_t *aad, size_t aadlen, const uint8_t *iv, size_t ivlen)
{
    gcm_keys ks;
    int r = gcm_keyed_check(k, &ks, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    if (r != IC_OK)
        return r;
    gcm_seal_with(&ks, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    return IC_OK;
}

int ic_aes_gcm_key_open(const ic_aes_gcm_key *k, uint8_t *out, const uint8_t *tag, size_t taglen,
                        const uint8_t *in, size_t len, const uint8_t *aad, size_t aadlen, const uint8_t *iv,
                        size_t ivlen)
{
    gcm_keys ks;
    int r = gcm_keyed_check(k, &ks, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    if (r != IC_OK)
        return r;
    return gcm_open_with(&ks, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
}

/* The raw-key calls: a key object on the stack for one message, wiped. */
int ic_aes_gcm_seal(uint8_t *out, uint8_t *tag, size_t taglen, const uint8_t *in, size_t len,
                    const uint8_t *aad, size_t aadlen, const uint8_t *iv, size_t ivlen, const uint8_t *key,
                    size_t keylen)
{
    ic_aes_gcm_key k;
    int r = gcm_oneshot_check(key, keylen, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    if (r != IC_OK)
        return r;
    r = gcm_key_setup(&k, key, keylen);
    if (r == IC_OK) {
        gcm_keys ks = gcm_keys_of(&k);
        gcm_seal_with(&ks, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    }
    ic_aes_gcm_key_wipe(&k);
    return r;
}

int ic_aes_gcm_open(uint8_t *out, const uint8_t *tag, size_t taglen, const uint8_t *in, size_t len,
                    const uint8_t *aad, size_t aadlen, const uint8_t *iv, size_t ivlen, const uint8_t *key,
                    size_t keylen)
{
    ic_aes_gcm_key k;
    int r = gcm_oneshot_check(key, keylen, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    if (r != IC_OK)
        return r;
    r = gcm_key_setup(&k, key, keylen);
    if (r == IC_OK) {
        gcm_keys ks = gcm_keys_of(&k);
        r = gcm_open_with(&ks, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    }
    ic_aes_gcm_key_wipe(&k);
    return r;
}
