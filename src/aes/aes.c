/*
 * aes.c - the AES implementation table and the public mode drivers of
 * include/incore/aes.h (ECB, CBC, CFB128, OFB, CTR per SP 800-38A).
 *
 * The drivers check every argument, then hand whole blocks to the ops of
 * the implementation that expanded the key (k->ops, fixed at ic_aes_init,
 * so a key never changes backend).  Stream modes finish a partial last
 * block through one block of keystream in a local buffer, so nothing is
 * ever written past out + len.
 */
#include "aes/aes_impl.h"

/* Best first; the portable one last with needs == 0 (see core/internal.h). */
const ic_impl ic_impls_aes[] = {
    {"ct64", 0, &ic_aes_ct64_ops},
};
const size_t ic_nimpls_aes = sizeof ic_impls_aes / sizeof ic_impls_aes[0];

const ic_aes_ops *ic_aes_key_ops(const ic_aes_key *k)
{
    if (k == NULL || k->ops == NULL)
        return NULL;
    if (k->keylen != IC_AES128_KEY_SIZE && k->keylen != IC_AES192_KEY_SIZE &&
        k->keylen != IC_AES256_KEY_SIZE)
        return NULL;
    return (const ic_aes_ops *)k->ops;
}

int ic_aes_init(ic_aes_key *k, const uint8_t *key, size_t keylen)
{
    if (k == NULL)
        return IC_ERR_NULL;
    /* A failed init must not leave an older key usable. */
    ic_wipe(k, sizeof *k);
    IC_NULL_CHECK(key, keylen);
    if (keylen != IC_AES128_KEY_SIZE && keylen != IC_AES192_KEY_SIZE &&
        keylen != IC_AES256_KEY_SIZE)
        return IC_ERR_KEYLEN;
    const ic_aes_ops *ops = (const ic_aes_ops *)ic_ops(IC_PRIM_AES);
    if (ops == NULL)
        return IC_ERR_UNAVAILABLE;
    /* FIPS 197 5: Nr = Nk + 6; set before setkey, which may read it. */
    k->rounds = (unsigned)(keylen / 4 + 6);
    ops->setkey(k, key, keylen);
    k->ops = ops;
    k->keylen = (unsigned)keylen;
    return IC_OK;
}

void ic_aes_wipe(ic_aes_key *k)
{
    if (k != NULL)
        ic_wipe(k, sizeof *k);
}

/* Checks shared by every mode, in the order of the statuses' precedence:
 * a missing pointer, then a key that was never initialised, then a length
 * that is not whole blocks (block modes only), then partial overlap.     */
static int check_args(const ic_aes_key *k, const uint8_t *iv, int need_iv, uint8_t *out,
                      const uint8_t *in, size_t len, int whole_blocks, const ic_aes_ops **ops)
{
    if (k == NULL || (need_iv && iv == NULL))
        return IC_ERR_NULL;
    IC_NULL_CHECK(out, len);
    IC_NULL_CHECK(in, len);
    *ops = ic_aes_key_ops(k);
    if (*ops == NULL)
        return IC_ERR_STATE;
    if (whole_blocks && len % IC_AES_BLOCK_SIZE != 0)
        return IC_ERR_LENGTH;
    if (ic_bad_overlap(out, in, len))
        return IC_ERR_OVERLAP;
    return IC_OK;
}

int ic_aes_ecb_encrypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len)
{
    const ic_aes_ops *ops;
    int rc = check_args(k, NULL, 0, out, in, len, 1, &ops);
    if (rc == IC_OK && len)
        ops->ecb_enc(k, out, in, len / IC_AES_BLOCK_SIZE);
    return rc;
}

int ic_aes_ecb_decrypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len)
{
    const ic_aes_ops *ops;
    int rc = check_args(k, NULL, 0, out, in, len, 1, &ops);
    if (rc == IC_OK && len)
        ops->ecb_dec(k, out, in, len / IC_AES_BLOCK_SIZE);
    return rc;
}

int ic_aes_cbc_encrypt(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t len)
{
    const ic_aes_ops *ops;
    int rc = check_args(k, iv, 1, out, in, len, 1, &ops);
    if (rc == IC_OK && len)
        ops->cbc_enc(k, iv, out, in, len / IC_AES_BLOCK_SIZE);
    return rc;
}

int ic_aes_cbc_decrypt(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t len)
{
    const ic_aes_ops *ops;
    int rc = check_args(k, iv, 1, out, in, len, 1, &ops);
    if (rc == IC_OK && len)
        ops->cbc_dec(k, iv, out, in, len / IC_AES_BLOCK_SIZE);
    return rc;
}

/* CTR: the partial last block uses one more counter value, and the counter
 * is left past it, as OpenSSL does when it generates a keystream block.  */
int ic_aes_ctr_crypt(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t len)
{
    const ic_aes_ops *ops;
    int rc = check_args(k, ctr, 1, out, in, len, 0, &ops);
    if (rc != IC_OK)
        return rc;
    size_t full = len - len % IC_AES_BLOCK_SIZE, tail = len - full;
    if (full)
        ops->ctr(k, ctr, out, in, full / IC_AES_BLOCK_SIZE);
    if (tail) {
        uint8_t buf[IC_AES_BLOCK_SIZE] = {0};
        memcpy(buf, in + full, tail);
        ops->ctr(k, ctr, buf, buf, 1);
        memcpy(out + full, buf, tail);
        ic_wipe(buf, sizeof buf);
    }
    return IC_OK;
}

/* CFB128 and OFB tails: ks = E(register); the register afterwards is what a
 * byte-wise CFB/OFB would hold (OpenSSL's ivec with num = tail): for CFB
 * the keystream block with its first `tail` bytes replaced by ciphertext,
 * for OFB the keystream block itself.                                     */
static void cfb_tail(const ic_aes_ops *ops, const ic_aes_key *k, uint8_t iv[16], uint8_t *out,
                     const uint8_t *in, size_t tail, int decrypt)
{
    ops->ecb_enc(k, iv, iv, 1);
    for (size_t i = 0; i < tail; i++) {
        uint8_t x = in[i], y = (uint8_t)(x ^ iv[i]);
        out[i] = y;
        iv[i] = decrypt ? x : y;
    }
}

int ic_aes_cfb128_encrypt(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t len)
{
    const ic_aes_ops *ops;
    int rc = check_args(k, iv, 1, out, in, len, 0, &ops);
    if (rc != IC_OK)
        return rc;
    size_t full = len - len % IC_AES_BLOCK_SIZE;
    if (full)
        ops->cfb_enc(k, iv, out, in, full / IC_AES_BLOCK_SIZE);
    if (len > full)
        cfb_tail(ops, k, iv, out + full, in + full, len - full, 0);
    return IC_OK;
}

int ic_aes_cfb128_decrypt(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t len)
{
    const ic_aes_ops *ops;
    int rc = check_args(k, iv, 1, out, in, len, 0, &ops);
    if (rc != IC_OK)
        return rc;
    size_t full = len - len % IC_AES_BLOCK_SIZE;
    if (full)
        ops->cfb_dec(k, iv, out, in, full / IC_AES_BLOCK_SIZE);
    if (len > full)
        cfb_tail(ops, k, iv, out + full, in + full, len - full, 1);
    return IC_OK;
}

int ic_aes_ofb_crypt(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t len)
{
    const ic_aes_ops *ops;
    int rc = check_args(k, iv, 1, out, in, len, 0, &ops);
    if (rc != IC_OK)
        return rc;
    size_t full = len - len % IC_AES_BLOCK_SIZE;
    if (full)
        ops->ofb(k, iv, out, in, full / IC_AES_BLOCK_SIZE);
    if (len > full) {
        ops->ecb_enc(k, iv, iv, 1);
        ic_xor_bytes(out + full, in + full, iv, len - full);
    }
    return IC_OK;
}
