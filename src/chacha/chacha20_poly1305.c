/*
 * chacha20_poly1305.c - AEAD_CHACHA20_POLY1305 (RFC 8439 section 2.8) and
 * AEAD_XChaCha20_Poly1305 (draft-irtf-cfrg-xchacha-03 section 2.3): the
 * one-shot seal / open (raw key or key object) and the streaming context.
 *
 * Construction: ChaCha20 block 0 of (key, nonce) gives the one-time
 * Poly1305 key (its first 32 bytes, section 2.6); blocks 1, 2, ... encrypt;
 * the tag is Poly1305 over
 *     aad || pad16 || ciphertext || pad16 || le64(aadlen) || le64(len).
 * XChaCha20-Poly1305 is the same AEAD under the HChaCha20 subkey with
 * nonce 0^4 || nonce[16..23], so one message state serves both: only how
 * the ChaCha20 key and nonce are made differs.
 *
 * A message is a Poly1305 context, the ChaCha20 nonce and next block
 * counter, and a 64-byte keystream buffer; the ChaCha20 key is not in it.
 * Each keystream call takes the key as an argument and builds the 16-word
 * ChaCha20 state on its own stack (and wipes it), so a streaming context
 * holds no copy of the caller's key: it points to the key object (and, for
 * XChaCha20, holds the per-message subkey), and the one-shots pass the raw
 * key or their stack subkey.
 *
 * Each data call runs two passes over the caller's whole piece, keystream
 * and MAC, so each backend sees the longest runs the piece allows: the
 * keystream driver gets every whole block in one call, and a partial block
 * is taken from the keystream buffer that later calls use up first (so
 * pieces of any size give the same stream).  The MAC always reads the
 * ciphertext: after the keystream when encrypting, before it when
 * decrypting (out may be in).  The one-shot open uses the same two halves
 * separately, MAC over the whole ciphertext, compare, and only then the
 * keystream, so a forgery releases no plaintext, not even into the
 * caller's buffer.  The one-shot seal interleaves the two halves chunk by
 * chunk (CP_CHUNK: 64 KiB, see there why not L1-sized), and for a short
 * message takes the one-time key and the keystream from one backend call
 * (cp_begin).
 */
#include "chacha/chacha_impl.h"
#include "poly1305/poly1305_impl.h"
#include "core/ct.h"

/* Where in a message a context is (ic_chacha20_poly1305_ctx.state).  A
 * live context is always in one of these; a zeroed or wiped one has state
 * 0 and check 0, and is refused by every call but init. */
enum { CP_AAD = 1, CP_ENC, CP_DEC };

/* ---- message state ------------------------------------------------------ */

/* For a context whose impl is known to be in range (set here at init, or
 * bounded by cp_live). */
static const ic_chacha20_ops *cp_ops(const ic_chacha20_poly1305_ctx *c)
{
    return (const ic_chacha20_ops *)ic_impls_chacha20[c->impl].ops;
}

/* Without a backend crypt op (chacha_impl.h): at most this many payload
 * bytes of a one-shot seal are encrypted by cp_begin's own keystream call. */
#define CP_SHORT (7 * 64)

/* Section 2.8 steps 1-2 on a context with impl set and a Poly1305
 * context that holds no earlier key: the one-time Poly1305 key from block
 * 0 of (ckey, nonce) (section 2.6), and the cipher left at the next unused
 * block.  With len != 0 the same keystream call also encrypts the first
 * len payload bytes, out = in xor keystream (step 3), and returns how many
 * it took: all of them with the backend's crypt op (the AVX-512 code makes
 * the key block in the scalar slot of its first 16-lane pass or as one
 * more row, so the key costs no latency chain of its own, ~180 TSC ticks
 * of a 64-byte to 1 KiB message); without it, up to CP_SHORT bytes (the
 * row path runs two blocks for the cost of one), else none.  The counter
 * is left after the blocks used, so a partial block is used up. */
static size_t cp_begin(ic_chacha20_poly1305_ctx *c, const uint8_t ckey[32], const uint8_t nonce[12], uint8_t *out,
                       const uint8_t *in, size_t len)
{
    const ic_chacha20_ops *ops = cp_ops(c);
    uint32_t st[16];
    ic_chacha20_setup(st, ckey, nonce, 0);
    if (ops->crypt != NULL) {
        uint8_t k0[32];
        ops->crypt(st, k0, out, in, len);
        c->counter = (uint32_t)(1 + (len + 63) / 64);
        ic_poly1305_setkey_clean(&c->mac, k0);
        IC_WIPE_FIXED(k0, sizeof k0);
    } else {
        uint8_t ks[64 + CP_SHORT];
        if (len > CP_SHORT)
            len = 0;
        const size_t nb = 1 + (len + 63) / 64;
        ic_wipe_blocks(ks, 4 * nb);   /* fixed-size stores: no libc call */
        ops->xor_blocks(st, ks, ks, nb);
        c->counter = (uint32_t)nb;
        ic_poly1305_setkey_clean(&c->mac, ks);
        if (len != 0)
            ic_xor_bytes(out, in, ks + 64, len);
        ic_wipe_blocks(ks, 4 * nb);
    }
    IC_WIPE_FIXED(st, sizeof st);
    memcpy(c->nonce, nonce, sizeof c->nonce);
    c->aadlen = c->datalen = 0;
    c->kslen = 0;
    c->state = CP_AAD;
    return len;
}

/* The AAD half: Poly1305 over it, counted for the length block. */
static void cp_aad(ic_chacha20_poly1305_ctx *c, const uint8_t *aad, size_t len)
{
    ic_poly1305_absorb(&c->mac, aad, len);
    c->aadlen += len;
}

/* The ciphertext half: the first data bytes close the AAD with its
 * pad16; then ct goes to Poly1305 and counts towards the length block. */
static void cp_mac(ic_chacha20_poly1305_ctx *c, const uint8_t *ct, size_t len, int dir)
{
    if (c->state == CP_AAD) {
        ic_poly1305_pad16(&c->mac);
        c->state = dir;
    }
    ic_poly1305_absorb(&c->mac, ct, len);
    c->datalen += len;
}

/* The keystream half under ckey, for any piece size: the rest of a
 * partial block first, then whole blocks straight from the caller's
 * buffers, then a new partial block through ks.  The caller has checked
 * datalen, so the 32-bit block counter never wraps. */
static void cp_xor(ic_chacha20_poly1305_ctx *c, const uint8_t ckey[32], uint8_t *out, const uint8_t *in, size_t len)
{
    const ic_chacha20_ops *ops = cp_ops(c);
    if (c->kslen != 0 && len != 0) {
        size_t n = len < c->kslen ? len : c->kslen;
        ic_xor_bytes(out, in, c->ks + 64 - c->kslen, n);
        c->kslen -= (unsigned)n;
        out += n;
        in += n;
        len -= n;
    }
    if (len == 0)
        return;
    size_t whole = len - len % 64, tail = len % 64;
    uint32_t st[16];
    ic_chacha20_setup(st, ckey, c->nonce, c->counter);
    ic_chacha20_run(ops, st, out, in, whole);
    if (tail != 0) {
        memset(c->ks, 0, sizeof c->ks);
        ops->xor_blocks(st, c->ks, c->ks, 1);
        st[12]++;
        ic_xor_bytes(out + whole, in + whole, c->ks, tail);
        c->kslen = (unsigned)(64 - tail);
    }
    c->counter = st[12];
    IC_WIPE_FIXED(st, sizeof st);
}

/* cp_xor for a one-shot's pieces after cp_begin (whole blocks until the
 * message's last piece, and no keystream left over): with the backend's
 * crypt op a partial last block goes in the same call as the whole ones
 * (ic_chacha20_run) instead of a call of its own. */
static void cp_xor_oneshot(ic_chacha20_poly1305_ctx *c, const uint8_t ckey[32], uint8_t *out, const uint8_t *in,
                           size_t len)
{
    const ic_chacha20_ops *ops = cp_ops(c);
    if (ops->crypt == NULL) {
        cp_xor(c, ckey, out, in, len);
        return;
    }
    uint32_t st[16];
    ic_chacha20_setup(st, ckey, c->nonce, c->counter);
    ic_chacha20_run(ops, st, out, in, len);
    c->counter = st[12];
    IC_WIPE_FIXED(st, sizeof st);
}

/* Section 2.8 step 4 end: pad16 after the ciphertext (or after the AAD
 * when there was no data), the two little-endian lengths, the tag; the
 * Poly1305 context is then ended and wiped. */
static void cp_tag(ic_chacha20_poly1305_ctx *c, uint8_t tag[16])
{
    uint8_t lens[16];
    ic_poly1305_pad16(&c->mac);
    ic_store_2x64le(lens, c->aadlen, c->datalen);   /* one store: read back at once */
    ic_poly1305_absorb(&c->mac, lens, sizeof lens);
    ic_poly1305_finish(&c->mac, tag);
}

/* 1 when the 16-byte tags match; only the verdict is declassified. */
static int cp_tag_equal(const uint8_t want[16], const uint8_t tag[16])
{
    int ok = ic_ct_equal(want, tag, 16);
    ic_ct_declassify(&ok, sizeof ok);
    return ok;
}

/* ---- streaming API ------------------------------------------------------ */

/* Begin a message on a wiped context (XChaCha20 when x): the subkey, if
 * any, is kept in the context for the message's keystream calls. */
static int cp_init(ic_chacha20_poly1305_ctx *c, const ic_chacha20_poly1305_key *k, const uint8_t *nonce, int x)
{
    if (c == NULL)
        return IC_ERR_NULL;
    ic_wipe(c, sizeof *c);    /* an earlier message, abandoned or not, leaves nothing */
    if (k == NULL)
        return IC_ERR_NULL;
    if (k->check != IC_CHECK_CPKEY)
        return IC_ERR_STATE;
    if (nonce == NULL)
        return IC_ERR_NULL;
    c->impl = ic_impl_index(IC_PRIM_CHACHA20);
    c->key = k;
    if (x) {
        /* draft-irtf-cfrg-xchacha-03 section 2.3: subkey = HChaCha20(key,
         * nonce[0..15]), inner nonce = four zero bytes || nonce[16..23] */
        uint8_t n12[12];
        ic_xchacha20_derive(cp_ops(c), c->subkey, n12, k->key, nonce, 0);
        c->subkeyed = 1;
        (void)cp_begin(c, c->subkey, n12, NULL, NULL, 0);
    } else {
        (void)cp_begin(c, k->key, nonce, NULL, NULL, 0);
    }
    c->check = IC_CHECK_CHACHAPOLY;
    return IC_OK;
}

int ic_chacha20_poly1305_init(ic_chacha20_poly1305_ctx *ctx, const ic_chacha20_poly1305_key *k,
                              const uint8_t nonce[12])
{
    return cp_init(ctx, k, nonce, 0);
}

int ic_xchacha20_poly1305_init(ic_chacha20_poly1305_ctx *ctx, const ic_chacha20_poly1305_key *k,
                               const uint8_t nonce[24])
{
    return cp_init(ctx, k, nonce, 1);
}

/* Step 1 of every call after init: a context init set up and final / wipe
 * did not end (the fields later used as offsets or indexes too, so a
 * garbage context is refused untouched), whose key object is still live. */
static int cp_live(const ic_chacha20_poly1305_ctx *c)
{
    if (c == NULL)
        return IC_ERR_NULL;
    if (c->check != IC_CHECK_CHACHAPOLY || c->kslen > 64 || c->state < CP_AAD || c->state > CP_DEC ||
        c->mac.check != IC_CHECK_POLY1305 || c->mac.buflen >= IC_POLY1305_BLOCK_SIZE ||
        IC_IMPL_OPS(poly1305, c->mac.impl) == NULL || IC_IMPL_OPS(chacha20, c->impl) == NULL)
        return IC_ERR_STATE;
    if (c->key == NULL || c->key->check != IC_CHECK_CPKEY)
        return IC_ERR_STATE;   /* the key object was wiped mid-message */
    return IC_OK;
}

/* The key of this message's keystream, for a live context. */
static const uint8_t *cp_key(const ic_chacha20_poly1305_ctx *c)
{
    return c->subkeyed ? c->subkey : c->key->key;
}

int ic_chacha20_poly1305_aad(ic_chacha20_poly1305_ctx *ctx, const uint8_t *aad, size_t len)
{
    int rc = cp_live(ctx);
    if (rc != IC_OK)
        return rc;
    IC_NULL_CHECK(aad, len);
    if ((uint64_t)len > UINT64_MAX - ctx->aadlen)
        return IC_ERR_TOOLONG;       /* le64(aadlen) must hold the total */
    if (ctx->state != CP_AAD)
        return IC_ERR_STATE;
    cp_aad(ctx, aad, len);
    return IC_OK;
}

/* Checks shared by encrypt and decrypt, in common.h's order: the limit
 * before the overlap test, so an over-long length with a small buffer
 * reads IC_ERR_TOOLONG, and the call order last; nothing touched until
 * all passed. */
static int cp_data_check(const ic_chacha20_poly1305_ctx *c, const uint8_t *out, const uint8_t *in, size_t len,
                         int dir)
{
    int rc = cp_live(c);
    if (rc != IC_OK)
        return rc;
    IC_NULL_CHECK(out, len);
    IC_NULL_CHECK(in, len);
    if (c->datalen > IC_CHACHA20_POLY1305_MAX_LEN || (uint64_t)len > IC_CHACHA20_POLY1305_MAX_LEN - c->datalen)
        return IC_ERR_TOOLONG;
    if (ic_bad_overlap(out, in, len))
        return IC_ERR_OVERLAP;
    if (c->state != CP_AAD && c->state != dir)
        return IC_ERR_STATE;
    return IC_OK;
}

/* The two halves in the order that keeps the MAC on the ciphertext: after
 * the keystream when encrypting, before it when decrypting (out may be in). */
static int cp_crypt(ic_chacha20_poly1305_ctx *c, uint8_t *out, const uint8_t *in, size_t len, int dir)
{
    int rc = cp_data_check(c, out, in, len, dir);
    if (rc != IC_OK)
        return rc;
    if (dir == CP_DEC)
        cp_mac(c, in, len, CP_DEC);
    cp_xor(c, cp_key(c), out, in, len);
    if (dir == CP_ENC)
        cp_mac(c, out, len, CP_ENC);
    return IC_OK;
}

int ic_chacha20_poly1305_encrypt(ic_chacha20_poly1305_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    return cp_crypt(ctx, out, in, len, CP_ENC);
}

int ic_chacha20_poly1305_decrypt(ic_chacha20_poly1305_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    return cp_crypt(ctx, out, in, len, CP_DEC);
}

/* Checks shared by final and final_verify: a message with no data may end
 * either way. */
static int cp_tag_check(const ic_chacha20_poly1305_ctx *c, const uint8_t *tag, int dir)
{
    int rc = cp_live(c);
    if (rc != IC_OK)
        return rc;
    if (tag == NULL)
        return IC_ERR_NULL;
    if (c->state != CP_AAD && c->state != dir)
        return IC_ERR_STATE;
    return IC_OK;
}

int ic_chacha20_poly1305_final(ic_chacha20_poly1305_ctx *ctx, uint8_t tag[16])
{
    int rc = cp_tag_check(ctx, tag, CP_ENC);
    if (rc != IC_OK)
        return rc;
    cp_tag(ctx, tag);
    /* all of it, not only what this message used: a context a caller's
     * bug overwrote may hold bytes (of another backend's key powers) in
     * words the Poly1305 backend's own wipe does not reach */
    ic_wipe(ctx, sizeof *ctx);
    return IC_OK;
}

int ic_chacha20_poly1305_final_verify(ic_chacha20_poly1305_ctx *ctx, const uint8_t tag[16])
{
    uint8_t want[16];
    int rc = cp_tag_check(ctx, tag, CP_DEC);
    if (rc != IC_OK)
        return rc;
    cp_tag(ctx, want);
    int ok = cp_tag_equal(want, tag);
    ic_wipe(want, sizeof want);
    ic_wipe(ctx, sizeof *ctx);
    return ok ? IC_OK : IC_ERR_AUTH;
}

void ic_chacha20_poly1305_wipe(ic_chacha20_poly1305_ctx *ctx)
{
    if (ctx != NULL)
        ic_wipe(ctx, sizeof *ctx);
}

/* ---- one-shot ----------------------------------------------------------- */

/* The argument rules every one-shot entry point shares (incore/chacha.h). */
static int aead_check(const uint8_t *key, const uint8_t *nonce, const uint8_t *aad, size_t aadlen,
                      const uint8_t *in, size_t len, const uint8_t *out, const uint8_t *tag)
{
    if (key == NULL || nonce == NULL || tag == NULL)
        return IC_ERR_NULL;
    IC_NULL_CHECK(aad, aadlen);
    IC_NULL_CHECK(in, len);
    IC_NULL_CHECK(out, len);
    if (ic_len_over(len, IC_CHACHA20_POLY1305_MAX_LEN))
        return IC_ERR_TOOLONG;
    if (ic_bad_overlap(out, in, len))
        return IC_ERR_OVERLAP;
    return IC_OK;
}

/* Long one-shot seals run keystream and MAC chunk by chunk, so the MAC
 * reads back ciphertext the keystream pass wrote moments ago, from cache,
 * however long the message.  Measured on Zen 4 (docs/backends.md,
 * ChaCha20-Poly1305): chunks of 2-16 KiB, the L1-sized choice, were 1-6 % SLOWER
 * than two whole passes for 16 KiB-1 MiB messages (every chunk restarts
 * the vector Poly1305: a horizontal sum and a partial first group, and the
 * 1 MiB L2 holds the whole message anyway), and no chunk size measured
 * faster beyond L2 (8 MiB) outside the noise.  64 KiB keeps the working
 * set of a huge message inside L2 at no measurable cost.  A multiple of
 * 64 and of 16, so no chunk leaves a partial block on either side. */
#ifndef CP_CHUNK
#define CP_CHUNK 65536
#endif

/* seal's data after cp_begin encrypted the first done bytes: the rest
 * keystream then MAC chunk by chunk, the MAC over all of it. */
static void aead_seal_data(ic_chacha20_poly1305_ctx *c, const uint8_t *ckey, uint8_t *out, const uint8_t *in,
                           size_t len, size_t done)
{
    for (size_t mac = 0; mac < len;) {
        size_t end = len - mac < CP_CHUNK ? len : mac + CP_CHUNK;
        if (end > done) {
            cp_xor_oneshot(c, ckey, out + done, in + done, end - done);
            done = end;
        }
        cp_mac(c, out + mac, end - mac, CP_ENC);
        mac = end;
    }
}

/* The most plaintext a one-shot open decrypts before the tag check, into
 * its stack (aead_open_data): the first keystream call's share, one
 * 16-lane pass of the AVX-512 code. */
#define CP_OPEN_FIRST 1024

/* open's data, two-pass on purpose: the MAC over all of the ciphertext and
 * the tag comparison come before a single byte reaches out, and a
 * mismatch zeroes out instead.  The first m bytes were decrypted into pt
 * by cp_begin's keystream call (on the stack, wiped by the caller): they
 * are copied out, the rest decrypted, only after the check. */
static int aead_open_data(ic_chacha20_poly1305_ctx *c, const uint8_t *ckey, uint8_t *out, const uint8_t *in,
                          size_t len, const uint8_t *aad, size_t aadlen, const uint8_t *tag, const uint8_t *pt,
                          size_t m)
{
    uint8_t want[16];
    ic_poly1305_aead_mac(&c->mac, aad, aadlen, in, len, want);
    int ok = cp_tag_equal(want, tag);
    IC_WIPE_FIXED(want, sizeof want);
    if (ok) {
        if (m > 256)
            memcpy(out, pt, m);       /* libc's vector copy pays for its call here */
        else
            ic_copy_small(out, pt, m);
        if (len > m)
            cp_xor_oneshot(c, ckey, out + m, in + m, len - m);
        return IC_OK;
    }
    if (len != 0)
        memset(out, 0, len);
    return IC_ERR_AUTH;
}

/* The eight entry points: check, begin a message on a stack context under
 * key (XChaCha20 when x: under the subkey), then seal (seal_tag set) or
 * open (open_tag set).  The context's key pointer stays unused: the
 * keystream key is passed along.  The key block's keystream call also
 * takes the payload: a seal's first chunk in place, an open's first
 * CP_OPEN_FIRST bytes into a stack buffer until the tag has been checked. */
static int aead(int x, const uint8_t *key, const uint8_t *nonce, const uint8_t *aad, size_t aadlen,
                const uint8_t *in, size_t len, uint8_t *out, uint8_t *seal_tag, const uint8_t *open_tag)
{
    int rc = aead_check(key, nonce, aad, aadlen, in, len, out, seal_tag ? seal_tag : open_tag);
    if (rc != IC_OK)
        return rc;
    ic_chacha20_poly1305_ctx c;
    uint8_t subkey[32], n12[12];
    const uint8_t *ck = key, *nn = nonce;
    c.impl = ic_impl_index(IC_PRIM_CHACHA20);
    if (x) {
        ic_xchacha20_derive(cp_ops(&c), subkey, n12, key, nonce, 0);
        ck = subkey;
        nn = n12;
    }
    if (seal_tag != NULL) {
        size_t done = cp_begin(&c, ck, nn, out, in, len < CP_CHUNK ? len : CP_CHUNK);
        if (done == len) {           /* all encrypted: the MAC in one go */
            ic_poly1305_aead_mac(&c.mac, aad, aadlen, out, len, seal_tag);
        } else {
            cp_aad(&c, aad, aadlen);
            aead_seal_data(&c, ck, out, in, len, done);
            cp_tag(&c, seal_tag);
        }
    } else {
        uint8_t pt[CP_OPEN_FIRST];
        size_t m = cp_begin(&c, ck, nn, pt, in, len < CP_OPEN_FIRST ? len : CP_OPEN_FIRST);
        rc = aead_open_data(&c, ck, out, in, len, aad, aadlen, open_tag, pt, m);
        if (m > 256)
            ic_wipe(pt, m);
        else if (m != 0)
            ic_wipe_blocks(pt, (m + 15) / 16);
    }
    if (c.kslen != 0)                 /* the MAC context was wiped by cp_tag */
        ic_wipe(c.ks, sizeof c.ks);
    if (x)
        ic_wipe(subkey, sizeof subkey);
    return rc;
}

int ic_chacha20_poly1305_seal(uint8_t *out, uint8_t tag[16], const uint8_t *in, size_t len, const uint8_t *aad,
                              size_t aadlen, const uint8_t nonce[12], const uint8_t key[32])
{
    return tag ? aead(0, key, nonce, aad, aadlen, in, len, out, tag, NULL) : IC_ERR_NULL;
}

int ic_chacha20_poly1305_open(uint8_t *out, const uint8_t tag[16], const uint8_t *in, size_t len, const uint8_t *aad,
                              size_t aadlen, const uint8_t nonce[12], const uint8_t key[32])
{
    return tag ? aead(0, key, nonce, aad, aadlen, in, len, out, NULL, tag) : IC_ERR_NULL;
}

int ic_xchacha20_poly1305_seal(uint8_t *out, uint8_t tag[16], const uint8_t *in, size_t len, const uint8_t *aad,
                               size_t aadlen, const uint8_t nonce[24], const uint8_t key[32])
{
    return tag ? aead(1, key, nonce, aad, aadlen, in, len, out, tag, NULL) : IC_ERR_NULL;
}

int ic_xchacha20_poly1305_open(uint8_t *out, const uint8_t tag[16], const uint8_t *in, size_t len, const uint8_t *aad,
                               size_t aadlen, const uint8_t nonce[24], const uint8_t key[32])
{
    return tag ? aead(1, key, nonce, aad, aadlen, in, len, out, NULL, tag) : IC_ERR_NULL;
}

/* ---- key object (the shape of ic_aes_gcm_key) ---------------------------- */

int ic_chacha20_poly1305_key_init(ic_chacha20_poly1305_key *k, const uint8_t key[32])
{
    if (k == NULL)
        return IC_ERR_NULL;
    ic_wipe(k, sizeof *k);   /* a failed re-init leaves no older key */
    if (key == NULL)
        return IC_ERR_NULL;
    memcpy(k->key, key, sizeof k->key);
    k->check = IC_CHECK_CPKEY;
    return IC_OK;
}

void ic_chacha20_poly1305_key_wipe(ic_chacha20_poly1305_key *k)
{
    if (k != NULL)
        ic_wipe(k, sizeof *k);
}

/* Step 1 (the key object), then the one-shot call with its own checks. */
static int key_aead(int x, const ic_chacha20_poly1305_key *k, const uint8_t *nonce, const uint8_t *aad,
                    size_t aadlen, const uint8_t *in, size_t len, uint8_t *out, uint8_t *seal_tag,
                    const uint8_t *open_tag)
{
    if (k == NULL)
        return IC_ERR_NULL;
    if (k->check != IC_CHECK_CPKEY)
        return IC_ERR_STATE;
    if (seal_tag == NULL && open_tag == NULL)
        return IC_ERR_NULL;
    return aead(x, k->key, nonce, aad, aadlen, in, len, out, seal_tag, open_tag);
}

int ic_chacha20_poly1305_key_seal(const ic_chacha20_poly1305_key *k, uint8_t *out, uint8_t tag[16],
                                  const uint8_t *in, size_t len, const uint8_t *aad, size_t aadlen,
                                  const uint8_t nonce[12])
{
    return key_aead(0, k, nonce, aad, aadlen, in, len, out, tag, NULL);
}

int ic_chacha20_poly1305_key_open(const ic_chacha20_poly1305_key *k, uint8_t *out, const uint8_t tag[16],
                                  const uint8_t *in, size_t len, const uint8_t *aad, size_t aadlen,
                                  const uint8_t nonce[12])
{
    return key_aead(0, k, nonce, aad, aadlen, in, len, out, NULL, tag);
}

int ic_xchacha20_poly1305_key_seal(const ic_chacha20_poly1305_key *k, uint8_t *out, uint8_t tag[16],
                                   const uint8_t *in, size_t len, const uint8_t *aad, size_t aadlen,
                                   const uint8_t nonce[24])
{
    return key_aead(1, k, nonce, aad, aadlen, in, len, out, tag, NULL);
}

int ic_xchacha20_poly1305_key_open(const ic_chacha20_poly1305_key *k, uint8_t *out, const uint8_t tag[16],
                                   const uint8_t *in, size_t len, const uint8_t *aad, size_t aadlen,
                                   const uint8_t nonce[24])
{
    return key_aead(1, k, nonce, aad, aadlen, in, len, out, NULL, tag);
}
