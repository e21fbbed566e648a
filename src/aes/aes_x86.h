/*
 * aes_x86.h - what the x86 AES backends share among themselves and with
 * the x86-64 AES-GCM code: the round-key layouts inside ic_aes_key, the
 * AES-NI functions the VAES backend reuses for the modes it cannot speed
 * up, and the ssse3 functions the avx2 backend reuses the same way.
 *
 * Round-key layout ("ni", "vaes" and "vaes512" expand keys with the same
 * function, ic_aes_x86_ni_setkey, so the layouts are identical and a
 * stitched AES-GCM may run the rounds itself on a key of any of them; each
 * says which of those loops it can take part in with the stitch field of
 * its ops, aes_impl.h):
 *
 *   storage[AES_X86_ENC_OFF + 16*i], i = 0..rounds
 *       encryption round key i of FIPS 197 section 5.2, as the 16 bytes of
 *       w[4i..4i+3] in the standard's byte order (so a plain 128-bit load
 *       gives the register AESENC / AESENCLAST expect);
 *   storage[AES_X86_DEC_OFF + 16*i], i = 0..rounds
 *       the round keys of the Equivalent Inverse Cipher (FIPS 197 section
 *       5.3.5) in the order AESDEC uses them: dec[0] = enc[rounds],
 *       dec[i] = InvMixColumns(enc[rounds - i]) (AESIMC) for 0 < i < rounds,
 *       dec[rounds] = enc[0].
 *
 * Both arrays start 64-byte aligned (ic_aes_key.storage is _Alignas(64)),
 * hold at most 15 x 16 = 240 bytes, and k->rounds is 10, 12 or 14.
 * A 256-bit (VAES) user broadcasts each 16-byte key (VBROADCASTI128), a
 * 512-bit one to four lanes (VBROADCASTI32X4).
 *
 * The AES-NI layout and functions are only meaningful on x86-64 (defined
 * in aes_x86_ni.c, compiled for AES-NI and SSSE3 and nothing wider); the
 * vector-permute ones below build for 32-bit x86 too.
 */
#ifndef INCORE_AES_X86_H
#define INCORE_AES_X86_H

#include "aes/aes_impl.h"

#if defined(__x86_64__) || defined(__i386__)

#define AES_X86_ENC_OFF 0     /* byte offset of enc round keys in storage */
#define AES_X86_DEC_OFF 256   /* byte offset of dec round keys in storage */

/* Pointers to round key 0 of each schedule (16-byte aligned). */
static inline const uint8_t *aes_x86_enc_rk(const ic_aes_key *k)
{
    return k->storage + AES_X86_ENC_OFF;
}
static inline const uint8_t *aes_x86_dec_rk(const ic_aes_key *k)
{
    return k->storage + AES_X86_DEC_OFF;
}

/* The x86 AES implementations (registry entries "ni", "vaes", "vaes512"). */
extern const ic_aes_ops ic_aes_ni_ops;       /* aes_x86_ni.c:      AES-NI, SSE   */
extern const ic_aes_ops ic_aes_vaes_ops;     /* aes_x86_vaes.c:    VAES, 256-bit */
extern const ic_aes_ops ic_aes_vaes512_ops;  /* aes_x86_vaes512.c: VAES, 512-bit */

/* 1 when k was expanded by a backend that keeps the layout above: one
 * that declares the x86 stitched AES-GCM loops (every such loop runs its
 * rounds on this layout, aes_impl.h), so a new backend is recognised by
 * its declaration, not by a list here. */
static inline int aes_x86_key_native(const ic_aes_key *k)
{
    const uint32_t x86 = IC_STITCH_BIT(IC_STITCH_X86_XMM) | IC_STITCH_BIT(IC_STITCH_X86_YMM) |
                         IC_STITCH_BIT(IC_STITCH_X86_ZMM);
    return (ic_aes_ops_of(k)->stitch & x86) != 0;   /* k checked by the caller */
}

/* AES-NI operations shared with aes_x86_vaes.c: key expansion and the
 * modes whose every block depends on the previous one (nothing to gain
 * from wider registers there).  Signatures as in ic_aes_ops.            */
void ic_aes_x86_ni_setkey(ic_aes_key *k, const uint8_t *key, size_t keylen);
void ic_aes_x86_ni_gcm_setkey(ic_aes_key *k, const uint8_t *key, size_t keylen, uint8_t h[16]);
void ic_aes_x86_ni_cbc_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void ic_aes_x86_ni_cfb_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void ic_aes_x86_ni_ofb(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);

/* The layout of the AES-NI-less backends, "ssse3" and "avx2" (both expand
 * keys with ic_aes_x86_vp_setkey, so a key of one works in the other's
 * functions):
 *   storage[0 + 16*i], i = 0..rounds: the vector-permute encryption round
 *       keys, in the basis and ShiftRows frame of round i
 *       (aes_x86_ssse3.c);
 *   storage[AES_X86_VP_DK_OFF + 16*i]: the same for decryption (the
 *       Equivalent Inverse Cipher);
 *   storage[AES_X86_VP_BS_OFF + 16*i]: the bitsliced code's round keys
 *       (aes_x86_bs.inc): w[4i..4i+3] with the bytes row by row (byte
 *       4r + c is row r of column c), 0x63 added to every byte for i >= 1.
 * The two vector-permute schedules are in a basis of their own, not the
 * AES-NI layout above, and neither backend declares a stitched loop. */
#define AES_X86_VP_DK_OFF 256
#define AES_X86_VP_BS_OFF 512
_Static_assert(AES_X86_VP_BS_OFF + 15 * 16 <= IC_AES_KEY_STORAGE, "the three schedules fit an ic_aes_key");

/* The "ssse3" operations (aes_x86_ssse3.c, SSSE3 on XMM, also 32-bit
 * x86), all of them shared with aes_x86_avx2.c: key expansion, the serial
 * modes and decryption, and the parallel modes for the rest of a call
 * below 16 blocks.  Signatures as in ic_aes_ops.                        */
void ic_aes_x86_vp_setkey(ic_aes_key *k, const uint8_t *key, size_t keylen);
void ic_aes_x86_vp_ecb_enc(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks);
void ic_aes_x86_vp_ecb_dec(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks);
void ic_aes_x86_vp_cbc_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void ic_aes_x86_vp_cbc_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void ic_aes_x86_vp_ctr(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void ic_aes_x86_vp_ctr32(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void ic_aes_x86_vp_cfb_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void ic_aes_x86_vp_cfb_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void ic_aes_x86_vp_ofb(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);

#endif /* x86 */
#endif
