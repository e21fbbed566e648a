/*
 * aes_lanes.h - mode drivers for backends that encrypt or decrypt up to
 * `lanes` independent blocks per call of one function (the bitsliced ct64
 * and neon backends): ECB, CBC/CFB decryption and CTR/ctr32 cut the
 * message into such groups.  The serial modes (CBC/CFB encryption, OFB)
 * stay in each backend, which has a faster one-block path for them.
 * always_inline, so the blocks function is a direct call in each backend.
 */
#ifndef IC_AES_LANES_H
#define IC_AES_LANES_H

#include "core/internal.h"

#define AES_LANES_MAX 8

/* blocks(k, out, in, n, dec): n <= lanes blocks, in place allowed */
typedef void (*aes_lanes_fn)(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t n, int dec);

#define AES_LANES_INLINE static inline __attribute__((always_inline))

AES_LANES_INLINE size_t aes_lanes_for(size_t nblocks, size_t lanes)
{
    return nblocks < lanes ? nblocks : lanes;
}

AES_LANES_INLINE void aes_lanes_ecb(aes_lanes_fn blocks, size_t lanes, const ic_aes_key *k,
                                    uint8_t *out, const uint8_t *in, size_t nblocks, int dec)
{
    while (nblocks) {
        size_t n = aes_lanes_for(nblocks, lanes);
        blocks(k, out, in, n, dec);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
}

/* CBC and CFB decryption, parallel over the ciphertext (SP 800-38A):
 *   CBC:    P_i = D(C_i) ^ C_{i-1}
 *   CFB128: P_i = C_i ^ E(C_{i-1})
 * Each group's ciphertext is copied first so out == in works. */
AES_LANES_INLINE void aes_lanes_parallel_dec(aes_lanes_fn blocks, size_t lanes, const ic_aes_key *k,
                                             uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                             size_t nblocks, int cfb)
{
    uint8_t c[16 * AES_LANES_MAX], prev[16 * AES_LANES_MAX], x[16 * AES_LANES_MAX];
    while (nblocks) {
        size_t n = aes_lanes_for(nblocks, lanes);
        memcpy(c, in, 16 * n);
        memcpy(prev, iv, 16);
        memcpy(prev + 16, c, 16 * (n - 1));
        if (cfb) {
            blocks(k, x, prev, n, 0);
            ic_xor_bytes(out, x, c, 16 * n);
        } else {
            blocks(k, x, c, n, 1);
            ic_xor_bytes(out, x, prev, 16 * n);
        }
        memcpy(iv, c + 16 * (n - 1), 16);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
    ic_wipe(x, sizeof x);
}

/* Counter blocks: the whole block as a 128-bit big-endian integer (ctr) or
 * SP 800-38D inc32 (ctr32).  The counter is public; the carry is still
 * computed without a branch. */
AES_LANES_INLINE void aes_lanes_ctr(aes_lanes_fn blocks, size_t lanes, const ic_aes_key *k,
                                    uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                    size_t nblocks, int inc32)
{
    uint8_t cb[16 * AES_LANES_MAX], ks[16 * AES_LANES_MAX];
    uint64_t hi = ic_load64_be(ctr), lo = ic_load64_be(ctr + 8);
    while (nblocks) {
        size_t n = aes_lanes_for(nblocks, lanes);
        for (size_t i = 0; i < n; i++) {
            ic_store64_be(cb + 16 * i, hi);
            ic_store64_be(cb + 16 * i + 8, lo);
            if (inc32) {
                lo = (lo & UINT64_C(0xFFFFFFFF00000000)) | (uint32_t)(lo + 1);
            } else {
                lo++;
                hi += (uint64_t)(lo == 0);
            }
        }
        blocks(k, ks, cb, n, 0);
        ic_xor_bytes(out, in, ks, 16 * n);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
    ic_store64_be(ctr, hi);
    ic_store64_be(ctr + 8, lo);
    ic_wipe(ks, sizeof ks);
}

/* The six parallel entries of a lanes backend's ic_aes_ops, each the driver
 * above with the backend's blocks function: PREFIX_ecb_enc, PREFIX_ecb_dec,
 * PREFIX_cbc_dec, PREFIX_cfb_dec, PREFIX_ctr and PREFIX_ctr32 (static).  The
 * serial modes (CBC/CFB encryption, OFB) stay in the backend. */
#define AES_LANES_MODES(prefix, blocks, lanes)                                                          \
    static void prefix##_ecb_enc(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks) \
    {                                                                                                  \
        aes_lanes_ecb(blocks, lanes, k, out, in, nblocks, 0);                                          \
    }                                                                                                  \
    static void prefix##_ecb_dec(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks) \
    {                                                                                                  \
        aes_lanes_ecb(blocks, lanes, k, out, in, nblocks, 1);                                          \
    }                                                                                                  \
    static void prefix##_cbc_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, \
                                 size_t nblocks)                                                       \
    {                                                                                                  \
        aes_lanes_parallel_dec(blocks, lanes, k, iv, out, in, nblocks, 0);                             \
    }                                                                                                  \
    static void prefix##_cfb_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, \
                                 size_t nblocks)                                                       \
    {                                                                                                  \
        aes_lanes_parallel_dec(blocks, lanes, k, iv, out, in, nblocks, 1);                             \
    }                                                                                                  \
    static void prefix##_ctr(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in,    \
                             size_t nblocks)                                                           \
    {                                                                                                  \
        aes_lanes_ctr(blocks, lanes, k, ctr, out, in, nblocks, 0);                                     \
    }                                                                                                  \
    static void prefix##_ctr32(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in,  \
                               size_t nblocks)                                                         \
    {                                                                                                  \
        aes_lanes_ctr(blocks, lanes, k, ctr, out, in, nblocks, 1);                                     \
    }

/* PREFIX_cbc_enc and PREFIX_cfb_enc over the backend's serial encryption
 * serial(k, iv, out, in, nblocks, cfb) (SP 800-38A 6.2 and 6.3). */
#define AES_LANES_SERIAL_MODES(prefix, serial)                                                         \
    static void prefix##_cbc_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, \
                                 size_t nblocks)                                                       \
    {                                                                                                  \
        serial(k, iv, out, in, nblocks, 0);                                                            \
    }                                                                                                  \
    static void prefix##_cfb_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, \
                                 size_t nblocks)                                                       \
    {                                                                                                  \
        serial(k, iv, out, in, nblocks, 1);                                                            \
    }

#endif
