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
 * Short messages (issue 13): E(K, J0), the tag mask, is not computed when
 * the message starts but with the first data call, and when that call is
 * short (up to GCM_SHORT bytes) in the same ctr32 call as the data's
 * counter blocks (J0, inc32(J0), ...); the one-shot seal of a short message
 * also hashes the lengths block with the ciphertext, one GHASH call and so
 * one reduction for the whole message.  A 64-byte message costs one AES
 * batch and one or two GHASH reductions, not two and two.
 *
 * ic_aes_gcm_open() authenticates before it decrypts: it hashes the whole
 * ciphertext, compares tags in constant time, and only then runs CTR.  A
 * forgery never puts plaintext in the caller's buffer (DESIGN.md "Bad
 * input": a failed authentication releases no plaintext).
 */
#include "gcm/ghash_impl.h"
#include "aes/aes_impl.h"
#include "core/ct.h"

/* Where in a message a context is (ic_gcm_ctx.state). */
enum {
    GCM_IDLE = 0,  /* after init / finish / verify: needs ic_gcm_start   */
    GCM_AAD,       /* after start: AAD, or the first data call            */
    GCM_ENC,       /* encrypting: more plaintext, then finish             */
    GCM_DEC        /* decrypting: more ciphertext, then verify            */
};

#define GCM_CHUNK 4096

/* A first data call of 1 .. GCM_SHORT bytes runs E(K, J0) and its counter
 * blocks as one ctr32 call of J0, inc32(J0), ... (gcm_first_short).  Seven
 * blocks: with J0 a batch of eight, and no length an x86 stitched hook
 * (8 blocks at least) would have taken. */
#define GCM_SHORT 112

/* The key half of a message: the AES schedule and H with their ops, from a
 * streaming context or from an ic_aes_gcm_key.  The message half (counter,
 * accumulator, partial blocks) is in an ic_gcm_ctx; the helpers below take
 * both, so that a reusable key serves messages without being copied.  Made
 * only from keys an entry point has validated (indexes bounded). */
typedef struct gcm_keys {
    const ic_aes_key   *aes;
    const ic_ghash_key *hk;
    const ic_aes_ops   *a;
    const ic_ghash_ops *g;
} gcm_keys;

static gcm_keys gcm_keys_of(const ic_aes_key *aes, const ic_ghash_key *hk)
{
    gcm_keys k = { aes, hk, ic_aes_ops_of(aes), (const ic_ghash_ops *)ic_impls_ghash[hk->impl].ops };
    return k;
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
static void gcm_absorb(ic_gcm_ctx *c, const gcm_keys *k, const uint8_t *p, size_t len)
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
static void gcm_pad(ic_gcm_ctx *c, const gcm_keys *k)
{
    if (c->buflen == 0)
        return;
    ic_zero_small(c->buf + c->buflen, 16 - c->buflen);   /* no libc call: a 13-byte TLS AAD pads every message */
    k->g->blocks(k->hk, c->y, c->buf, 1);
    c->buflen = 0;
}

/* Hash the final block [a]_64 || [b]_64 (bit lengths, big-endian). */
static void gcm_absorb_lengths(ic_gcm_ctx *c, const gcm_keys *k, uint64_t abytes, uint64_t bbytes)
{
    uint8_t lb[16];
    gcm_len_block(lb, abytes, bbytes);
    k->g->blocks(k->hk, c->y, lb, 1);
}

/* ---- counter mode ------------------------------------------------------- */

/* out = in ^ keystream.  Leftover keystream of the previous call first, then
 * whole blocks through ctr32, then one more keystream block for a tail. */
static void gcm_ctr_xor(ic_gcm_ctx *c, const gcm_keys *k, uint8_t *out, const uint8_t *in, size_t len)
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
static void gcm_mask(ic_gcm_ctx *c, const gcm_keys *k)
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
static size_t gcm_first_blocks(ic_gcm_ctx *c, const gcm_keys *k, uint8_t b[16 + GCM_SHORT + 16],
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

static void gcm_first_short(ic_gcm_ctx *c, const gcm_keys *k, uint8_t *out, const uint8_t *in, size_t len,
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

/* A context init set up, with every field that later serves as an index
 * or offset in range: a garbage or wiped context is refused before any of
 * it is used (IC_ERR_STATE). */
static int gcm_ready(const ic_gcm_ctx *c)
{
    /* folded into one branch: every streaming call runs this */
    return ic_aes_key_valid(&c->aes) & ic_ghash_key_valid(&c->ghash) & ((unsigned)c->state <= GCM_DEC) &
           (c->buflen < 16) & (c->kslen <= 16);
}

/* Forget the current message but keep the key.  Only the message's
 * secrets are wiped: the tag mask E(K, J0), the GHASH accumulator (with
 * the mask it is the tag) and unused keystream.  buf holds AAD or
 * ciphertext, which are public, and the counter is the IV or, for other IV
 * lengths, a GHASH of it under H, which the context keeps anyway until
 * ic_gcm_wipe; ic_gcm_start overwrites both.  This runs once per message,
 * so it is kept to the 48 bytes that matter. */
static void gcm_end_message(ic_gcm_ctx *c)
{
    IC_WIPE_FIXED(c->ekj0, sizeof c->ekj0);
    IC_WIPE_FIXED(c->y, sizeof c->y);
    IC_WIPE_FIXED(c->ks, sizeof c->ks);
    c->aadlen = c->datalen = 0;
    c->buflen = c->kslen = 0;
    c->state = GCM_IDLE;
}

/* The full tag: GHASH over the zero padding and the lengths block,
 * masked with E(K, J0) (step 6).  A waiting partial block and the lengths
 * go to GHASH in one call, so an aggregating backend reduces once. */
static void gcm_full_tag(ic_gcm_ctx *c, const gcm_keys *k, uint8_t t[16])
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

/* The AES schedule and H (section 7.1 step 1: H = E(K, 0^128)) expanded by
 * the implementations selected now, after the key's checks (steps 2, 3). */
static int gcm_key_setup(ic_aes_key *aes, ic_ghash_key *hk, const uint8_t *key, size_t keylen)
{
    uint8_t h[16] = {0};
    IC_NULL_CHECK(key, keylen);
    if (!gcm_keylen_ok(keylen))
        return IC_ERR_KEYLEN;
    int r = ic_aes_init(aes, key, keylen);
    if (r != IC_OK)
        return r;
    ic_aes_ops_of(aes)->ecb_enc(aes, h, h, 1);
    ghash_key_setup_at(hk, ic_impl_index(IC_PRIM_GHASH), h);
    ic_wipe(h, sizeof h);
    return IC_OK;
}

int ic_gcm_init(ic_gcm_ctx *c, const uint8_t *key, size_t keylen)
{
    int r;

    if (c == NULL)
        return IC_ERR_NULL;
    /* wipe first: a failed re-init must not leave the old key usable */
    ic_wipe(c, sizeof *c);
    r = gcm_key_setup(&c->aes, &c->ghash, key, keylen);
    if (r != IC_OK)
        return r;
    c->state = GCM_IDLE;
    return IC_OK;
}

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
static void gcm_msg_start(ic_gcm_ctx *c, const gcm_keys *k, const uint8_t *iv, size_t ivlen)
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

int ic_gcm_start(ic_gcm_ctx *c, const uint8_t *iv, size_t ivlen)
{
    gcm_keys k;

    if (c == NULL)
        return IC_ERR_NULL;
    if (!gcm_ready(c))
        return IC_ERR_STATE;
    IC_NULL_CHECK(iv, ivlen);
    if (!gcm_ivlen_ok(ivlen))
        return IC_ERR_IVLEN;
    /* A message abandoned half way still holds its secrets: wipe them.
     * One that ended with finish/verify was wiped then, so a new message
     * just resets what it uses (the rest is overwritten there). */
    if (c->state != GCM_IDLE)
        gcm_end_message(c);
    k = gcm_keys_of(&c->aes, &c->ghash);
    gcm_msg_start(c, &k, iv, ivlen);
    return IC_OK;
}

int ic_gcm_aad(ic_gcm_ctx *c, const uint8_t *aad, size_t len)
{
    if (c == NULL)
        return IC_ERR_NULL;
    if (!gcm_ready(c))
        return IC_ERR_STATE;
    IC_NULL_CHECK(aad, len);
    if (c->aadlen > IC_GCM_MAX_AAD || (uint64_t)len > IC_GCM_MAX_AAD - c->aadlen)
        return IC_ERR_TOOLONG;
    if (c->state != GCM_AAD)
        return IC_ERR_STATE;
    if (len == 0)
        return IC_OK;
    c->aadlen += len;
    gcm_keys k = gcm_keys_of(&c->aes, &c->ghash);
    gcm_absorb(c, &k, aad, len);
    return IC_OK;
}

/* Checks shared by encrypt and decrypt, in common.h's order: the length
 * limit before the overlap test, so that an over-long length with a small
 * buffer is reported as IC_ERR_TOOLONG, and the call order last; nothing
 * is touched until all checks passed. */
static int gcm_data_begin(ic_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len, int dir)
{
    if (c == NULL)
        return IC_ERR_NULL;
    if (!gcm_ready(c))
        return IC_ERR_STATE;
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
static void gcm_data_account(ic_gcm_ctx *c, const gcm_keys *k, size_t len, int dir)
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
static size_t gcm_chunk(const ic_gcm_ctx *c, size_t len)
{
    size_t n = GCM_CHUNK + c->kslen;
    return len < n ? len : n;
}

/* CTR and GHASH of n bytes.  GHASH always reads the ciphertext: after CTR
 * when encrypting, before it when decrypting (out may be in). */
static void gcm_step(ic_gcm_ctx *c, const gcm_keys *k, uint8_t *out, const uint8_t *in, size_t n, int dir)
{
    if (dir == GCM_DEC)
        gcm_absorb(c, k, in, n);
    gcm_ctr_xor(c, k, out, in, n);
    if (dir == GCM_ENC)
        gcm_absorb(c, k, out, n);
}

/* The bytes left of a partial block first, so that the stream is on a
 * block boundary (kslen == 0 and then buflen == 0: both count the same
 * datalen mod 16).  Then the GHASH backend's one-pass CTR + GHASH hook on
 * whole blocks when it has one for this AES key, and chunk by chunk for
 * whatever it left. */
static void gcm_crypt_data(ic_gcm_ctx *c, const gcm_keys *k, uint8_t *out, const uint8_t *in, size_t len,
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
    if (k->g->gcm_crypt != NULL && len >= 16 && c->kslen == 0 && c->buflen == 0) {
        unsigned flags = (dir == GCM_ENC ? IC_GCM_HOOK_ENCRYPT : 0) |
                         (c->ctr_public ? IC_GCM_HOOK_CTR_PUBLIC : 0);
        size_t n = 16 * k->g->gcm_crypt(k->aes, k->hk, flags, c->ctr, c->y, out, in, len / 16);
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

static int gcm_crypt(ic_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len, int dir)
{
    int r = gcm_data_begin(c, out, in, len, dir);
    if (r != IC_OK)
        return r;
    gcm_keys k = gcm_keys_of(&c->aes, &c->ghash);
    gcm_crypt_data(c, &k, out, in, len, dir);
    return IC_OK;
}

int ic_gcm_encrypt(ic_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    return gcm_crypt(c, out, in, len, GCM_ENC);
}

int ic_gcm_decrypt(ic_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    return gcm_crypt(c, out, in, len, GCM_DEC);
}

/* Checks shared by finish and verify. */
static int gcm_tag_begin(const ic_gcm_ctx *c, const uint8_t *tag, size_t taglen, int dir)
{
    if (c == NULL)
        return IC_ERR_NULL;
    if (!gcm_ready(c))
        return IC_ERR_STATE;
    IC_NULL_CHECK(tag, taglen);
    if (!gcm_taglen_ok(taglen))
        return IC_ERR_TAGLEN;
    if (c->state != GCM_AAD && c->state != dir)
        return IC_ERR_STATE;
    return IC_OK;
}

int ic_gcm_finish(ic_gcm_ctx *c, uint8_t *tag, size_t taglen)
{
    uint8_t t[16];
    int r = gcm_tag_begin(c, tag, taglen, GCM_ENC);
    if (r != IC_OK)
        return r;
    gcm_keys k = gcm_keys_of(&c->aes, &c->ghash);
    if (taglen == 16) {               /* the full tag: no copy to wipe */
        gcm_full_tag(c, &k, tag);
    } else {
        gcm_full_tag(c, &k, t);
        memcpy(tag, t, taglen);       /* MSB_t: the leftmost taglen bytes */
        IC_WIPE_FIXED(t, sizeof t);
    }
    gcm_end_message(c);
    return IC_OK;
}

int ic_gcm_verify(ic_gcm_ctx *c, const uint8_t *tag, size_t taglen)
{
    uint8_t t[16];
    int ok;
    int r = gcm_tag_begin(c, tag, taglen, GCM_DEC);
    if (r != IC_OK)
        return r;
    gcm_keys k = gcm_keys_of(&c->aes, &c->ghash);
    gcm_full_tag(c, &k, t);
    ok = ic_ct_equal(t, tag, taglen);
    ic_ct_declassify(&ok, sizeof ok);   /* the verdict is public; t is not */
    IC_WIPE_FIXED(t, sizeof t);
    gcm_end_message(c);
    return ok ? IC_OK : IC_ERR_AUTH;
}

void ic_gcm_wipe(ic_gcm_ctx *c)
{
    if (c != NULL)
        ic_wipe(c, sizeof *c);
}

/* ---- one-shot, with a reusable key or a raw one -------------------------- */

/* An ic_aes_gcm_key that init set up: its own check word (so a streaming
 * context is never taken for one) and both halves valid. */
static int gcm_key_valid(const ic_aes_gcm_key *k)
{
    return (k->check == IC_CHECK_GCMKEY) & ic_aes_key_valid(&k->aes) & ic_ghash_key_valid(&k->ghash);
}

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
static int gcm_keyed_check(const ic_aes_gcm_key *k, const uint8_t *iv, size_t ivlen, const uint8_t *aad,
                           size_t aadlen, const uint8_t *in, size_t len, const uint8_t *out,
                           const uint8_t *tag, size_t taglen)
{
    int r;
    if (k == NULL)
        return IC_ERR_NULL;
    if (!gcm_key_valid(k))
        return IC_ERR_STATE;
    r = gcm_msg_nulls(iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    if (r != IC_OK)
        return r;
    return gcm_msg_params(ivlen, aadlen, in, len, out, taglen);
}

/* IV and all of the AAD into the message half m (arguments checked). */
static void gcm_msg_begin(ic_gcm_ctx *m, const gcm_keys *k, const uint8_t *iv, size_t ivlen,
                          const uint8_t *aad, size_t aadlen)
{
    gcm_msg_start(m, k, iv, ivlen);
    m->aadlen = aadlen;
    gcm_absorb(m, k, aad, aadlen);
}

/* Erase what a message left in m: the tag mask, the accumulator, unused
 * keystream, and the counter (for IVs other than 12 bytes a GHASH under H). */
static void gcm_msg_wipe(ic_gcm_ctx *m)
{
    gcm_end_message(m);
    ic_wipe(m->ctr, sizeof m->ctr);
}

/* A whole short message after its AAD (1 .. GCM_SHORT bytes): E(K, J0)
 * with the counter blocks (gcm_first_blocks), and the ciphertext and the
 * lengths block to GHASH in one call, so that an aggregating backend
 * reduces once for the whole of it. */
static void gcm_seal_short(ic_gcm_ctx *m, const gcm_keys *k, uint8_t *out, const uint8_t *in, size_t len,
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

/* Seal under checked keys.  m is only the message half of a context: its
 * key fields are never read (the keys come from k), so they stay as the
 * stack left them and nothing but the message needs wiping. */
static void gcm_seal_with(const gcm_keys *k, const uint8_t *iv, size_t ivlen, const uint8_t *aad,
                          size_t aadlen, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag,
                          size_t taglen)
{
    ic_gcm_ctx m;
    uint8_t t[16];
    uint8_t *dst = taglen == 16 ? tag : t;   /* the full tag: no copy to wipe */
    gcm_msg_begin(&m, k, iv, ivlen, aad, aadlen);
    if (len - 1 < GCM_SHORT) {
        gcm_seal_short(&m, k, out, in, len, dst);
    } else {
        gcm_crypt_data(&m, k, out, in, len, GCM_ENC);
        gcm_full_tag(&m, k, dst);
    }
    if (dst == t) {
        memcpy(tag, t, taglen);       /* MSB_t: the leftmost taglen bytes */
        IC_WIPE_FIXED(t, sizeof t);
    }
    gcm_msg_wipe(&m);
}

/* Open under checked keys.  Authenticate first: hash the whole ciphertext,
 * compare, and only then decrypt (the counter still stands at inc32(J0)). */
static int gcm_open_with(const gcm_keys *k, const uint8_t *iv, size_t ivlen, const uint8_t *aad,
                         size_t aadlen, const uint8_t *in, size_t len, uint8_t *out, const uint8_t *tag,
                         size_t taglen)
{
    ic_gcm_ctx m;
    uint8_t t[16];
    int ok;
    gcm_msg_begin(&m, k, iv, ivlen, aad, aadlen);
    gcm_data_account(&m, k, len, GCM_DEC);
    gcm_absorb(&m, k, in, len);
    gcm_full_tag(&m, k, t);
    ok = ic_ct_equal(t, tag, taglen);
    ic_ct_declassify(&ok, sizeof ok);
    if (ok)
        gcm_ctr_xor(&m, k, out, in, len);
    else if (len != 0)
        memset(out, 0, len);
    IC_WIPE_FIXED(t, sizeof t);
    gcm_msg_wipe(&m);
    return ok ? IC_OK : IC_ERR_AUTH;
}

int ic_aes_gcm_key_init(ic_aes_gcm_key *k, const uint8_t *key, size_t keylen)
{
    int r;
    if (k == NULL)
        return IC_ERR_NULL;
    /* wipe first: a failed re-init must not leave the old key usable */
    ic_wipe(k, sizeof *k);
    r = gcm_key_setup(&k->aes, &k->ghash, key, keylen);
    if (r != IC_OK) {
        ic_wipe(k, sizeof *k);
        return r;
    }
    k->check = IC_CHECK_GCMKEY;
    return IC_OK;
}

void ic_aes_gcm_key_wipe(ic_aes_gcm_key *k)
{
    if (k != NULL)
        ic_wipe(k, sizeof *k);
}

int ic_aes_gcm_key_seal(const ic_aes_gcm_key *k, const uint8_t *iv, size_t ivlen, const uint8_t *aad,
                        size_t aadlen, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag,
                        size_t taglen)
{
    int r = gcm_keyed_check(k, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    if (r != IC_OK)
        return r;
    gcm_keys ks = gcm_keys_of(&k->aes, &k->ghash);
    gcm_seal_with(&ks, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    return IC_OK;
}

int ic_aes_gcm_key_open(const ic_aes_gcm_key *k, const uint8_t *iv, size_t ivlen, const uint8_t *aad,
                        size_t aadlen, const uint8_t *in, size_t len, uint8_t *out, const uint8_t *tag,
                        size_t taglen)
{
    int r = gcm_keyed_check(k, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    if (r != IC_OK)
        return r;
    gcm_keys ks = gcm_keys_of(&k->aes, &k->ghash);
    return gcm_open_with(&ks, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
}

/* The raw-key calls: a key object on the stack for one message, wiped. */
int ic_aes_gcm_seal(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                    const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len,
                    uint8_t *out, uint8_t *tag, size_t taglen)
{
    ic_aes_gcm_key k;
    int r = gcm_oneshot_check(key, keylen, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    if (r != IC_OK)
        return r;
    r = gcm_key_setup(&k.aes, &k.ghash, key, keylen);
    if (r == IC_OK) {
        gcm_keys ks = gcm_keys_of(&k.aes, &k.ghash);
        gcm_seal_with(&ks, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    }
    ic_aes_gcm_key_wipe(&k);
    return r;
}

int ic_aes_gcm_open(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                    const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len,
                    uint8_t *out, const uint8_t *tag, size_t taglen)
{
    ic_aes_gcm_key k;
    int r = gcm_oneshot_check(key, keylen, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    if (r != IC_OK)
        return r;
    r = gcm_key_setup(&k.aes, &k.ghash, key, keylen);
    if (r == IC_OK) {
        gcm_keys ks = gcm_keys_of(&k.aes, &k.ghash);
        r = gcm_open_with(&ks, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
    }
    ic_aes_gcm_key_wipe(&k);
    return r;
}
