/*
 * xts.c - XTS-AES (IEEE Std 1619-2018, NIST SP 800-38E): the public calls
 * of include/incore/xts.h on every AES implementation.
 *
 * A data unit of m = len / 16 whole blocks and a tail of b = len % 16
 * bytes is, with T = E_key2(tweak) and T_j = T * x^j in GF(2^128):
 *   C_j = E_key1(P_j ^ T_j) ^ T_j                      (IEEE 1619 5.3.1)
 * for every whole block, except that when b > 0 the last whole block and
 * the tail are done by ciphertext stealing (5.3.2, 5.4.2): the last whole
 * block is encrypted with T_{m-1}, its first b bytes become the tail of
 * the ciphertext, and the b tail plaintext bytes followed by its last
 * 16 - b bytes are encrypted with T_m into block m-1.
 *
 * The whole blocks go to the backend's fused xts op where it has one (the
 * x86 backends: aes_x86_xts.h), otherwise to xts_blocks_generic below,
 * which computes the tweaks of a batch of blocks in general registers
 * and runs the batch through the backend's ECB op (so the ECB op's own
 * parallelism, 4 blocks per bitsliced pass in ct64 or 8 in flight on
 * POWER8, carries over).  Stealing is done here for every backend, with
 * single-block calls of the same op.
 *
 * Constant time: the tweak T is a function of key2, hence secret; its
 * doubling (xts_mulx) has no branch on its value; the only branches are on
 * the public length.
 */
#include "aes/aes_impl.h"
#include "core/ct.h"
#include "incore/xts.h"

/* T * x in GF(2^128) with the polynomial x^128 + x^7 + x^2 + x + 1
 * (IEEE 1619 5.2): the 16 bytes are one little-endian number (lo = bytes
 * 0..7, hi = bytes 8..15), shifted left by one; the bit shifted out of the
 * top comes back as 0x87 in the low byte, selected by a mask, not a branch. */
static inline void xts_mulx(uint64_t *lo, uint64_t *hi)
{
    uint64_t carry = *hi >> 63;
    *hi = *hi << 1 | *lo >> 63;
    *lo = *lo << 1 ^ (UINT64_C(0x87) & (0 - carry));
}

static void xts_mulx_bytes(uint8_t t[16])
{
    uint64_t lo = ic_load64_le(t), hi = ic_load64_le(t + 8);
    xts_mulx(&lo, &hi);
    ic_store64_le(t, lo);
    ic_store64_le(t + 8, hi);
}

/* Clear the 16-byte tweak T_n left by a call (key-derived) the way
 * ic_wipe does, inline: a data unit of 512 bytes costs ~150 cycles, and
 * a function call is a visible part of that. */
static inline void xts_clear16(uint8_t t[16])
{
    memset(t, 0, 16);
#if defined(__GNUC__)
    __asm__ __volatile__("" : : "r"(t) : "memory");
#endif
}

/* Blocks per batch of the generic loop: 256 bytes of tweaks and as much of
 * data on the stack, a multiple of every backend's ECB batch. */
#define XTS_BATCH 16

/* The xts op of aes_impl.h over ecb_enc / ecb_dec: per batch, the tweaks
 * T_j, then in ^ T_j into a local buffer, the batch through ECB, then
 * ^ T_j into out.  in == out is fine (the batch is read before written). */
static void xts_blocks_generic(const ic_aes_ops *ops, const ic_aes_key *k, const ic_aes_key *k2, uint8_t t[16],
                               uint8_t *out, const uint8_t *in, size_t nblocks, int decrypt)
{
    uint8_t tw[XTS_BATCH * 16], buf[XTS_BATCH * 16];
    if (k2 != NULL)
        ops->ecb_enc(k2, t, t, 1);
    uint64_t lo = ic_load64_le(t), hi = ic_load64_le(t + 8);
    void (*ecb)(const ic_aes_key *, uint8_t *, const uint8_t *, size_t) = decrypt ? ops->ecb_dec : ops->ecb_enc;
    while (nblocks > 0) {
        size_t n = nblocks < XTS_BATCH ? nblocks : XTS_BATCH;
        for (size_t j = 0; j < n; j++) {
            ic_store64_le(tw + 16 * j, lo);
            ic_store64_le(tw + 16 * j + 8, hi);
            xts_mulx(&lo, &hi);
        }
        ic_xor_bytes(buf, in, tw, 16 * n);
        ecb(k, buf, buf, n);
        ic_xor_bytes(out, buf, tw, 16 * n);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
    ic_store64_le(t, lo);
    ic_store64_le(t + 8, hi);
    ic_wipe(tw, sizeof tw);
    ic_wipe(buf, sizeof buf);
}

/* nblocks whole blocks with the backend's fused loop or the generic one;
 * k2 as in aes_impl.h (NULL: t is already encrypted). */
static void xts_blocks(const ic_aes_ops *ops, const ic_aes_key *k, const ic_aes_key *k2, uint8_t t[16],
                       uint8_t *out, const uint8_t *in, size_t nblocks, int decrypt)
{
    if (ops->xts != NULL)
        ops->xts(k, k2, t, out, in, nblocks, decrypt);
    else
        xts_blocks_generic(ops, k, k2, t, out, in, nblocks, decrypt);
}

/* The last whole block (in[0..15]) and the tail (in[16..16+b-1], 0 < b <
 * 16) by ciphertext stealing (IEEE 1619 5.3.2 and 5.4.2); t is T_{m-1}.
 * Decryption undoes the blocks in the other order: block m-1 of the
 * ciphertext was made with T_m, so it is decrypted first, with T_m.
 * Every byte of in is read before the output byte at its place is written. */
static void xts_steal(const ic_aes_ops *ops, const ic_aes_key *k, uint8_t t[16], uint8_t *out,
                      const uint8_t *in, size_t b, int decrypt)
{
    uint8_t first[16], second[16], t_prev[16];
    memcpy(first, in, 16);
    if (decrypt) {
        memcpy(t_prev, t, 16);           /* T_{m-1}, for the second step */
        xts_mulx_bytes(t);               /* T_m                          */
    }
    xts_blocks(ops, k, NULL, t, first, first, 1, decrypt);  /* enc: t becomes T_m */
    memcpy(second, in + 16, b);
    memcpy(second + b, first + b, 16 - b);
    memcpy(out + 16, first, b);
    xts_blocks(ops, k, NULL, decrypt ? t_prev : t, second, second, 1, decrypt);
    memcpy(out, second, 16);
    ic_wipe(first, sizeof first);
    ic_wipe(second, sizeof second);
    ic_wipe(t_prev, sizeof t_prev);
}

/* Key of the XTS key, checked in one branch (see ic_aes_key_valid): its
 * own check word and index, and both AES keys valid and expanded by that
 * implementation (the fused ops read both schedules as that layout). */
static int xts_key_valid(const ic_aes_xts_key *k)
{
    return (k->check == IC_CHECK_XTS) & ic_impl_index_ok(IC_PRIM_AES, k->impl) &
           ic_aes_key_valid(&k->k1) &
           ic_aes_key_valid(&k->k2) & (k->k1.impl == k->impl) & (k->k2.impl == k->impl) &
           (k->k1.rounds == k->k2.rounds);
}

int ic_aes_xts_key_init(ic_aes_xts_key *k, const uint8_t *key, size_t keylen)
{
    if (k == NULL)
        return IC_ERR_NULL;
    ic_wipe(k, sizeof *k);
    IC_NULL_CHECK(key, keylen);
    if (keylen != IC_AES_XTS128_KEY_SIZE && keylen != IC_AES_XTS256_KEY_SIZE)
        return IC_ERR_KEYLEN;
    size_t half = keylen / 2;
    /* SP 800-38E 5.1 (and FIPS 140-3 IG C.I): key1 != key2.  Compared in
     * constant time, as both are secret. */
    int equal = ic_ct_equal(key, key + half, half);
    ic_ct_declassify(&equal, sizeof equal);   /* the verdict only (core/ct.h) */
    if (equal)
        return IC_ERR_WEAKKEY;
    uint32_t impl = ic_impl_index(IC_PRIM_AES);
    int rc = ic_aes_setkey_impl(&k->k1, impl, key, half);
    if (rc == IC_OK)
        rc = ic_aes_setkey_impl(&k->k2, impl, key + half, half);
    if (rc != IC_OK) {
        ic_wipe(k, sizeof *k);
        return rc;
    }
    k->impl = impl;
    k->check = IC_CHECK_XTS;
    return IC_OK;
}

void ic_aes_xts_key_wipe(ic_aes_xts_key *k)
{
    if (k != NULL)
        ic_wipe(k, sizeof *k);
}

/* The checks in the order of common.h, then T = E_key2(tweak), the whole
 * blocks, and the stolen tail. */
static int xts_crypt(const ic_aes_xts_key *k, const uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                     size_t len, int decrypt)
{
    if (k == NULL)
        return IC_ERR_NULL;
    if (!xts_key_valid(k))
        return IC_ERR_STATE;
    if (tweak == NULL)
        return IC_ERR_NULL;
    IC_NULL_CHECK(out, len);
    IC_NULL_CHECK(in, len);
    if (len < IC_AES_XTS_MIN_LEN)
        return IC_ERR_LENGTH;
    if (len > IC_AES_XTS_MAX_LEN)
        return IC_ERR_TOOLONG;
    if (ic_bad_overlap(out, in, len))
        return IC_ERR_OVERLAP;
    const ic_aes_ops *ops = ic_aes_ops_of(&k->k1);
    uint8_t t[16];
    memcpy(t, tweak, 16);
    size_t b = len % 16, whole = len / 16 - (b != 0);
    /* T = E_key2(tweak): inside the block loop when there are whole blocks
     * before the stealing step (always, but for 17..31 bytes) */
    if (whole > 0)
        xts_blocks(ops, &k->k1, &k->k2, t, out, in, whole, decrypt);
    else
        ops->ecb_enc(&k->k2, t, t, 1);
    if (b != 0)
        xts_steal(ops, &k->k1, t, out + 16 * whole, in + 16 * whole, b, decrypt);
    xts_clear16(t);
    return IC_OK;
}

int ic_aes_xts_encrypt(const ic_aes_xts_key *k, uint8_t *out, const uint8_t *in, size_t len, const uint8_t tweak[16])
{
    return xts_crypt(k, tweak, out, in, len, 0);
}

int ic_aes_xts_decrypt(const ic_aes_xts_key *k, uint8_t *out, const uint8_t *in, size_t len, const uint8_t tweak[16])
{
    return xts_crypt(k, tweak, out, in, len, 1);
}

/* The sector number as the 16-byte little-endian tweak (IEEE 1619 5.1),
 * one 16-byte store: xts_crypt reads it back at once as 16 bytes
 * (ic_store_2x64le). */
static void sector_tweak(uint8_t tweak[16], uint64_t sector)
{
    ic_store_2x64le(tweak, sector, 0);
}

int ic_aes_xts_encrypt_sector(const ic_aes_xts_key *k, uint8_t *out, const uint8_t *in, size_t len,
                              uint64_t sector)
{
    uint8_t tweak[16];
    sector_tweak(tweak, sector);
    return xts_crypt(k, tweak, out, in, len, 0);
}

int ic_aes_xts_decrypt_sector(const ic_aes_xts_key *k, uint8_t *out, const uint8_t *in, size_t len,
                              uint64_t sector)
{
    uint8_t tweak[16];
    sector_tweak(tweak, sector);
    return xts_crypt(k, tweak, out, in, len, 1);
}
