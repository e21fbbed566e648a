/*
 * chacha20_poly1305.c - AEAD_CHACHA20_POLY1305 (RFC 8439 section 2.8) and
 * AEAD_XChaCha20_Poly1305 (draft-irtf-cfrg-xchacha-03 section 2.3).
 *
 * Construction: ChaCha20 block 0 of (key, nonce) gives the one-time
 * Poly1305 key (its first 32 bytes, section 2.6); blocks 1, 2, ... encrypt;
 * the tag is Poly1305 over
 *     aad || pad16 || ciphertext || pad16 || le64(aadlen) || le64(len).
 * Both passes run over whole messages, so each backend sees the longest
 * runs the message allows.  open authenticates the ciphertext first and
 * decrypts only when the tag matches, so a forgery releases no plaintext,
 * not even into the caller's buffer.  XChaCha20-Poly1305 is the same AEAD
 * under the HChaCha20 subkey with nonce 0^4 || nonce[16..23].
 */
#include "chacha/chacha_impl.h"
#include "poly1305/poly1305_impl.h"

/* The argument rules every AEAD entry point shares (incore/chacha.h). */
static int aead_check(const uint8_t *key, const uint8_t *nonce, const uint8_t *aad, size_t aadlen,
                      const uint8_t *in, size_t len, const uint8_t *out, const uint8_t *tag)
{
    if (key == NULL || nonce == NULL || tag == NULL)
        return IC_ERR_NULL;
    IC_NULL_CHECK(aad, aadlen);
    IC_NULL_CHECK(in, len);
    IC_NULL_CHECK(out, len);
    if (ic_bad_overlap(out, in, len))
        return IC_ERR_OVERLAP;
    if ((uint64_t)len > IC_CHACHA20_POLY1305_MAX_LEN)
        return IC_ERR_TOOLONG;
    return IC_OK;
}

/* Section 2.8: the tag over aad and ciphertext ct, keyed by block 0 of st
 * (st[12] is set to 0 here and left at 1, ready to encrypt). */
static void aead_tag(const ic_chacha20_ops *ops, uint32_t st[16], const uint8_t *aad, size_t aadlen,
                     const uint8_t *ct, size_t len, uint8_t tag[16])
{
    uint8_t block0[64] = { 0 }, lens[16];
    ic_poly1305_ctx mac;
    st[12] = 0;
    ops->xor_blocks(st, block0, block0, 1);
    st[12] = 1;
    ic_poly1305_init(&mac, block0);
    ic_poly1305_update(&mac, aad, aadlen);
    ic_poly1305_pad16(&mac);
    ic_poly1305_update(&mac, ct, len);
    ic_poly1305_pad16(&mac);
    ic_store64_le(lens, (uint64_t)aadlen);
    ic_store64_le(lens + 8, (uint64_t)len);
    ic_poly1305_update(&mac, lens, sizeof lens);
    ic_poly1305_final(&mac, tag);
    ic_wipe(block0, sizeof block0);
}

/* Seal / open on a checked argument list, 12-byte nonce. */
static void aead_seal(const uint8_t key[32], const uint8_t nonce[12], const uint8_t *aad, size_t aadlen,
                      const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16])
{
    const ic_chacha20_ops *ops = (const ic_chacha20_ops *)ic_ops(IC_PRIM_CHACHA20);
    uint32_t st[16];
    ic_chacha20_setup(st, key, nonce, 1);
    ic_chacha20_run(ops, st, out, in, len);
    aead_tag(ops, st, aad, aadlen, out, len, tag);
    ic_wipe(st, sizeof st);
}

static int aead_open(const uint8_t key[32], const uint8_t nonce[12], const uint8_t *aad, size_t aadlen,
                     const uint8_t *in, size_t len, uint8_t *out, const uint8_t tag[16])
{
    const ic_chacha20_ops *ops = (const ic_chacha20_ops *)ic_ops(IC_PRIM_CHACHA20);
    uint32_t st[16];
    uint8_t want[16];
    ic_chacha20_setup(st, key, nonce, 0);
    aead_tag(ops, st, aad, aadlen, in, len, want);
    int ok = ic_ct_equal(want, tag, sizeof want);
    if (ok)
        ic_chacha20_run(ops, st, out, in, len);
    else if (len != 0)
        memset(out, 0, len);
    ic_wipe(st, sizeof st);
    ic_wipe(want, sizeof want);
    return ok ? IC_OK : IC_ERR_AUTH;
}

/* draft-irtf-cfrg-xchacha-03 section 2.3: subkey = HChaCha20(key,
 * nonce[0..15]), inner nonce = four zero bytes || nonce[16..23]. */
static void xchacha_derive(const uint8_t key[32], const uint8_t nonce[24], uint8_t subkey[32],
                           uint8_t n12[12])
{
    chacha20_c_hchacha20(subkey, key, nonce);
    memset(n12, 0, 4);
    memcpy(n12 + 4, nonce + 16, 8);
}

/* The four entry points: check, derive the XChaCha subkey when x, then
 * seal (seal_tag set) or open (open_tag set). */
static int aead(int x, const uint8_t *key, const uint8_t *nonce, const uint8_t *aad, size_t aadlen,
                const uint8_t *in, size_t len, uint8_t *out, uint8_t *seal_tag, const uint8_t *open_tag)
{
    int rc = aead_check(key, nonce, aad, aadlen, in, len, out, seal_tag ? seal_tag : open_tag);
    if (rc != IC_OK)
        return rc;
    uint8_t subkey[32], n12[12];
    if (x) {
        xchacha_derive(key, nonce, subkey, n12);
        key = subkey;
        nonce = n12;
    }
    if (seal_tag != NULL)
        aead_seal(key, nonce, aad, aadlen, in, len, out, seal_tag);
    else
        rc = aead_open(key, nonce, aad, aadlen, in, len, out, open_tag);
    if (x)
        ic_wipe(subkey, sizeof subkey);
    return rc;
}

int ic_chacha20_poly1305_seal(const uint8_t key[32], const uint8_t nonce[12], const uint8_t *aad,
                              size_t aadlen, const uint8_t *in, size_t len, uint8_t *out,
                              uint8_t tag[16])
{
    return tag ? aead(0, key, nonce, aad, aadlen, in, len, out, tag, NULL) : IC_ERR_NULL;
}

int ic_chacha20_poly1305_open(const uint8_t key[32], const uint8_t nonce[12], const uint8_t *aad,
                              size_t aadlen, const uint8_t *in, size_t len, uint8_t *out,
                              const uint8_t tag[16])
{
    return tag ? aead(0, key, nonce, aad, aadlen, in, len, out, NULL, tag) : IC_ERR_NULL;
}

int ic_xchacha20_poly1305_seal(const uint8_t key[32], const uint8_t nonce[24], const uint8_t *aad,
                               size_t aadlen, const uint8_t *in, size_t len, uint8_t *out,
                               uint8_t tag[16])
{
    return tag ? aead(1, key, nonce, aad, aadlen, in, len, out, tag, NULL) : IC_ERR_NULL;
}

int ic_xchacha20_poly1305_open(const uint8_t key[32], const uint8_t nonce[24], const uint8_t *aad,
                               size_t aadlen, const uint8_t *in, size_t len, uint8_t *out,
                               const uint8_t tag[16])
{
    return tag ? aead(1, key, nonce, aad, aadlen, in, len, out, NULL, tag) : IC_ERR_NULL;
}
