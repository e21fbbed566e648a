/*
 * aes.c - the public mode drivers of include/incore/aes.h (ECB, CBC,
 * CFB128, OFB, CTR per SP 800-38A); the "aes" table is in aes_impls.c.
 *
 * The drivers check every argument, then hand whole blocks to the ops of
 * the implementation that expanded the key (its registry index k->impl,
 * fixed at ic_aes_key_init, so a key never changes backend).  Stream modes
 * finish a partial last block through one block of keystream in a local
 * buffer, so nothing is ever written past out + len.
 */
#include "aes/aes_impl.h"

/* rounds is checked too: the backends loop over it, so a garbage value
 * would read past the round keys (keylen is never read after init).  Runs
 * on every call, so the tests are folded into one branch. */
const ic_aes_ops *ic_aes_key_ops(const ic_aes_key *k)
{
    if (k == NULL)
        return NULL;
    return ic_aes_key_valid(k) ? ic_aes_ops_of(k) : NULL;
}

int ic_aes_key_init(ic_aes_key *k, const uint8_t *key, size_t keylen)
{
    if (k == NULL)
        return IC_ERR_NULL;
    /* A failed init must not leave an older key usable. */
    ic_wipe(k, sizeof *k);
    IC_NULL_CHECK(key, keylen);
    if (keylen != IC_AES128_KEY_SIZE && keylen != IC_AES192_KEY_SIZE &&
        keylen != IC_AES256_KEY_SIZE)
        return IC_ERR_KEYLEN;
    return ic_aes_setkey_impl(k, ic_impl_index(IC_PRIM_AES), key, keylen);
}

/* Expand key into k by implementation impl: the full schedule (h NULL),
 * or for GCM the encryption schedule and H = E(K, 0^128) in h, checked
 * as check. */
static int aes_expand(ic_aes_key *k, uint32_t impl, const uint8_t *key, size_t keylen, uint8_t *h,
                      uint32_t check)
{
    const ic_aes_ops *ops = (const ic_aes_ops *)IC_IMPL_OPS(aes, impl);
    if (ops == NULL)
        return IC_ERR_UNAVAILABLE;
    /* FIPS 197 5: Nr = Nk + 6; set before setkey, which may read it. */
    k->rounds = (unsigned)(keylen / 4 + 6);
    if (h != NULL && ops->gcm_setkey != NULL) {
        ops->gcm_setkey(k, key, keylen, h);
    } else {
        ops->setkey(k, key, keylen);
        if (h != NULL) {
            memset(h, 0, 16);
            ops->ecb_enc(k, h, h, 1);
        }
    }
    k->impl = impl;
    k->keylen = (unsigned)keylen;
    k->check = check;
    return IC_OK;
}

int ic_aes_setkey_impl(ic_aes_key *k, uint32_t impl, const uint8_t *key, size_t keylen)
{
    return aes_expand(k, impl, key, keylen, NULL, IC_CHECK_AES);
}

int ic_aes_gcm_setkey(ic_aes_key *k, const uint8_t *key, size_t keylen, uint8_t h[16])
{
    return aes_expand(k, ic_impl_index(IC_PRIM_AES), key, keylen, h, IC_CHECK_AES_ENC);
}

void ic_aes_key_wipe(ic_aes_key *k)
{
    if (k != NULL)
        ic_wipe(k, sizeof *k);
}

/* Checks shared by every mode, in the order of common.h: the key (NULL,
 * then not initialised), the pointers, a length that is not whole blocks
 * (block modes only), then partial overlap.                              */
static int check_args(const ic_aes_key *k, const uint8_t *iv, int need_iv, uint8_t *out,
                      const uint8_t *in, size_t len, int whole_blocks, const ic_aes_ops **ops)
{
    if (k == NULL)
        return IC_ERR_NULL;
    *ops = ic_aes_key_ops(k);
    if (*ops == NULL)
        return IC_ERR_STATE;
    if (need_iv && iv == NULL)
        return IC_ERR_NULL;
    IC_NULL_CHECK(out, len);
    IC_NULL_CHECK(in, len);
    if (whole_blocks && len % IC_AES_BLOCK_SIZE != 0)
        return IC_ERR_LENGTH;
    if (ic_bad_overlap(out, in, len))
        return IC_ERR_OVERLAP;
    return IC_OK;
}

/* ECB and CBC: whole blocks only, straight to the backend. */
static int block_crypt(const ic_aes_key *k, uint8_t *iv, uint8_t *out, const uint8_t *in, size_t len,
                       int cbc, int dec)
{
    const ic_aes_ops *ops;
    int rc = check_args(k, iv, cbc, out, in, len, 1, &ops);
    if (rc != IC_OK || len == 0)
        return rc;
    size_t n = len / IC_AES_BLOCK_SIZE;
    if (cbc)
        (dec ? ops->cbc_dec : ops->cbc_enc)(k, iv, out, in, n);
    else
        (dec ? ops->ecb_dec : ops->ecb_enc)(k, out, in, n);
    return IC_OK;
}

int ic_aes_ecb_encrypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len)
{
    return block_crypt(k, NULL, out, in, len, 0, 0);
}

int ic_aes_ecb_decrypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len)
{
    return block_crypt(k, NULL, out, in, len, 0, 1);
}

int ic_aes_cbc_encrypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len, uint8_t iv[16])
{
    return block_crypt(k, iv, out, in, len, 1, 0);
}

int ic_aes_cbc_decrypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len, uint8_t iv[16])
{
    return block_crypt(k, iv, out, in, len, 1, 1);
}

/* The stream modes share one driver: whole blocks go to the backend, and
 * a partial last block takes the leading bytes of one keystream block ks
 * computed in a local buffer.  The register is then left as a byte-wise
 * implementation would leave it (OpenSSL's ivec with num = tail):
 *   CTR:    the counter after the one it used (the backend's ctr op on a
 *           zero block yields ks = E(ctr) and does that increment);
 *   CFB128: ks with its first `tail` bytes replaced by the ciphertext;
 *   OFB:    ks itself.                                                   */
enum stream_mode { STREAM_CTR, STREAM_CFB_ENC, STREAM_CFB_DEC, STREAM_OFB };

static int stream_crypt(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t len,
                        enum stream_mode mode)
{
    const ic_aes_ops *ops;
    int rc = check_args(k, iv, 1, out, in, len, 0, &ops);
    if (rc != IC_OK)
        return rc;
    size_t tail = len % IC_AES_BLOCK_SIZE, full = len - tail; /* tail < 16, visibly to the compiler */
    if (full) {
        void (*blocks)(const ic_aes_key *, uint8_t *, uint8_t *, const uint8_t *, size_t) =
            mode == STREAM_CTR ? ops->ctr : mode == STREAM_CFB_ENC ? ops->cfb_enc
            : mode == STREAM_CFB_DEC ? ops->cfb_dec : ops->ofb;
        blocks(k, iv, out, in, full / IC_AES_BLOCK_SIZE);
    }
    if (tail) {
        uint8_t ks[IC_AES_BLOCK_SIZE] = {0};
        if (mode == STREAM_CTR) {
            ops->ctr(k, iv, ks, ks, 1);
        } else {
            memcpy(ks, iv, IC_AES_BLOCK_SIZE);
            ops->ecb_enc(k, ks, ks, 1);
        }
        for (size_t i = 0; i < tail; i++) {
            uint8_t x = in[full + i], y = (uint8_t)(x ^ ks[i]);
            out[full + i] = y;
            if (mode == STREAM_CFB_ENC)
                ks[i] = y;
            else if (mode == STREAM_CFB_DEC)
                ks[i] = x;
        }
        if (mode != STREAM_CTR)
            memcpy(iv, ks, IC_AES_BLOCK_SIZE);
        ic_wipe(ks, sizeof ks);
    }
    return IC_OK;
}

int ic_aes_ctr_crypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len, uint8_t ctr[16])
{
    return stream_crypt(k, ctr, out, in, len, STREAM_CTR);
}

int ic_aes_cfb128_encrypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len, uint8_t iv[16])
{
    return stream_crypt(k, iv, out, in, len, STREAM_CFB_ENC);
}

int ic_aes_cfb128_decrypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len, uint8_t iv[16])
{
    return stream_crypt(k, iv, out, in, len, STREAM_CFB_DEC);
}

int ic_aes_ofb_crypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len, uint8_t iv[16])
{
    return stream_crypt(k, iv, out, in, len, STREAM_OFB);
}
