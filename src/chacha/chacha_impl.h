/*
 * chacha_impl.h - what every ChaCha20 implementation provides to the
 * drivers (chacha.c, chacha20_poly1305.c) through the "chacha20" registry
 * table, and the helpers the drivers share.
 *
 * The unit of work is a run of whole 64-byte blocks, so a SIMD backend
 * gets enough blocks at once to fill its lanes (4 blocks in AVX2 / NEON /
 * VSX registers, 8 or 16 with AVX-512) and only the driver deals with a
 * partial final block (it pads it to 64 bytes in a stack buffer).
 */
#ifndef INCORE_CHACHA_IMPL_H
#define INCORE_CHACHA_IMPL_H

#include "core/internal.h"
#include "incore/chacha.h"

typedef struct ic_chacha20_ops {
    /* out = in xor keystream for nblocks * 64 bytes.  input is the 4x4
     * state of RFC 8439 section 2.3 as host-order words: constants, key,
     * block counter (word 12), nonce (words 13-15).  Block i uses counter
     * input[12] + i; the driver guarantees that never wraps past 2^32, so
     * a backend may add lane offsets with plain 32-bit adds.  out may
     * equal in; neither has any alignment.  nblocks may be 0. */
    void (*xor_blocks)(const uint32_t input[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    /* out = in xor keystream for any len bytes from block input[12] in one
     * call, a partial last block included (nothing past in + len read or
     * out + len written); with k0 not NULL, the first 32 bytes of block
     * input[12] into k0 (ChaCha20-Poly1305's one-time key, RFC 8439
     * section 2.6) and the data from block input[12] + 1.  Optional: NULL
     * where the backend has no such path (the drivers then call xor_blocks
     * for the whole blocks, a padded copy of the tail and the key block).
     * The counter limit is the driver's, as for xor_blocks. */
    void (*crypt)(const uint32_t input[16], uint8_t k0[32], uint8_t *out, const uint8_t *in, size_t len);
    /* HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2) on the backend's
     * own round code, or NULL for the portable one (ic_chacha20_hchacha). */
    void (*hchacha20)(uint8_t subkey[32], const uint8_t key[32], const uint8_t in[16]);
} ic_chacha20_ops;

/* The portable implementation (chacha_c.c), last entry of the table. */
extern const ic_chacha20_ops ic_chacha20_c_ops;

/* HChaCha20 core on the portable code: no dispatch, it runs once per
 * message (draft-irtf-cfrg-xchacha-03 section 2.2). */
void ic_chacha20_c_hchacha20(uint8_t subkey[32], const uint8_t key[32], const uint8_t in[16]);

/* HChaCha20 with the backend's code where it has some. */
static inline void ic_chacha20_hchacha(const ic_chacha20_ops *ops, uint8_t subkey[32], const uint8_t key[32],
                                       const uint8_t in[16])
{
    if (ops->hchacha20 != NULL)
        ops->hchacha20(subkey, key, in);
    else
        ic_chacha20_c_hchacha20(subkey, key, in);
}

/* The 20 rounds on a state transposed across lanes (x[i] = word i of
 * every block in flight), with the backend's quarter round QR: ten times
 * a column round then a diagonal round (RFC 8439 2.3).  Written once for
 * the backends that issue one quarter round at a time (avx2, neon). */
#define IC_CHACHA20_ROUNDS(QR, x) do {              \
    for (int r_ = 0; r_ < 10; r_++) {               \
        QR((x)[0], (x)[4], (x)[8], (x)[12]);        \
        QR((x)[1], (x)[5], (x)[9], (x)[13]);        \
        QR((x)[2], (x)[6], (x)[10], (x)[14]);       \
        QR((x)[3], (x)[7], (x)[11], (x)[15]);       \
        QR((x)[0], (x)[5], (x)[10], (x)[15]);       \
        QR((x)[1], (x)[6], (x)[11], (x)[12]);       \
        QR((x)[2], (x)[7], (x)[8], (x)[13]);        \
        QR((x)[3], (x)[4], (x)[9], (x)[14]);        \
    }                                               \
} while (0)

/* XChaCha20's key and nonce for the inner ChaCha20 (draft-irtf-cfrg-
 * xchacha-03 section 2.3): subkey = HChaCha20(key, nonce[0..15]), n12 =
 * le32(word13) || nonce[16..23].  word13 is 0 for the AEAD and the high
 * half of libsodium's 64-bit block counter for the stream (chacha.c). */
static inline void ic_xchacha20_derive(const ic_chacha20_ops *ops, uint8_t subkey[32], uint8_t n12[12],
                                       const uint8_t key[32], const uint8_t nonce[24], uint32_t word13)
{
    ic_chacha20_hchacha(ops, subkey, key, nonce);
    ic_store32_le(n12, word13);
    memcpy(n12 + 4, nonce + 16, 8);
}

/* Driver helpers (chacha.c), also used by the AEADs. */

/* The initial state of RFC 8439 section 2.3: the constants "expand
 * 32-byte k" as four little-endian words, the key, the block counter, the
 * nonce.  HChaCha20 uses the same layout with its 16-byte input in place
 * of counter || nonce. */
static inline void ic_chacha20_setup(uint32_t st[16], const uint8_t key[32],
                                     const uint8_t nonce[12], uint32_t counter)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Each row of four words with 16-byte stores: the SIMD backends load
     * the state by rows at once, which the CPU cannot forward from word
     * stores (ic_store_2x64le); the little-endian words are the key's and
     * nonce's bytes as they are. */
    static const uint32_t sigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    memcpy(st, sigma, 16);
    memcpy(st + 4, key, 32);
    ic_store_2x64le((uint8_t *)(st + 12), counter | (uint64_t)ic_load32_le(nonce) << 32, ic_load64_le(nonce + 4));
#else
    st[0] = 0x61707865; st[1] = 0x3320646e; st[2] = 0x79622d32; st[3] = 0x6b206574;
    for (int i = 0; i < 8; i++)
        st[4 + i] = ic_load32_le(key + 4 * i);
    st[12] = counter;
    for (int i = 0; i < 3; i++)
        st[13 + i] = ic_load32_le(nonce + 4 * i);
#endif
}

/* out = in xor keystream for any len, starting at st[12]; st[12] is left
 * at the next unused block (a partial final block counts as used).  The
 * caller has checked that st[12] does not wrap. */
void ic_chacha20_run(const ic_chacha20_ops *ops, uint32_t st[16], uint8_t *out, const uint8_t *in, size_t len);

/* 1 when a message of len bytes starting at block counter `counter` would
 * need a counter past 2^32 - 1 (RFC 8439 section 2.4: the counter is a
 * 32-bit word). */
static inline int ic_chacha20_too_long(uint64_t len, uint32_t counter)
{
    uint64_t nblocks = len / 64 + (len % 64 != 0);
    return nblocks > (UINT64_C(1) << 32) - counter;
}

#endif
