/*
 * aes_arm.h - what the ARMv8 AES backend (aes_arm_ce.c, AArch64 and
 * AArch32) shares with the ARM GHASH / AES-GCM code: the round-key layout inside ic_aes_key and
 * the batch helpers (the cipher on up to 8 registers, the counter blocks of
 * CTR and GCM).
 *
 * Round-key layout ("ce" keys), FIPS 197 byte order throughout:
 *   storage[16*i], i = 0..Nr:         encryption round key i (section 5.2),
 *                                     the bytes of w[4i..4i+3] in order;
 *   storage[DEC_OFF + 16*i], i = 0..Nr: the Equivalent Inverse Cipher's keys
 *                                     (section 5.3.5): dk[0] = ek[Nr],
 *                                     dk[i] = InvMixColumns(ek[Nr-i]),
 *                                     dk[Nr] = ek[0].
 * AESE is AddRoundKey, ShiftRows, SubBytes and AESD the inverse trio, with
 * MixColumns / InvMixColumns separate (AESMC / AESIMC), so the encryption
 * round is AESMC(AESE(s, k)) and the last round AESE then XOR; decryption
 * mirrors it with AESIMC(AESD(s, dk)), which needs the InvMixColumns'ed keys
 * of the equivalent inverse cipher (Arm ARM, "AESD"; FIPS 197 5.3.5).
 * A register holds a block in memory order (vld1q_u8), which is the state
 * order the instructions use (column-major, byte 0 = s[0,0]).
 *
 * The helpers need <arm_neon.h> with +crypto (__ARM_FEATURE_AES on
 * AArch64, __ARM_FEATURE_CRYPTO on AArch32: IC_ARM_HAVE_CRYPTO), so only
 * files compiled for it (IC_TARGET_BEGIN(IC_TARGET_ARM_CE) before this
 * header) see them.  On AArch32 (fpu=crypto-neon-fp-armv8) the same
 * intrinsics are the A32 AESE.8 / AESMC.8 / ..., on the 16 Q registers
 * instead of 32: eight blocks and a round key still fit.
 */
#ifndef INCORE_AES_ARM_H
#define INCORE_AES_ARM_H

#include "aes/aes_impl.h"
#include "core/cpu_arm.h"

#if IC_ARM_LE

/* The ARMv8 crypto-extension implementation (registry "ce"). */
extern const ic_aes_ops ic_aes_ce_ops;

/* 1 when k was expanded by "ce", so its storage has the layout above. */
static inline int aes_arm_key_native(const ic_aes_key *k)
{
    return ic_aes_ops_of(k) == &ic_aes_ce_ops;   /* k checked by the caller */
}

/* Offset of the decryption keys: 15 encryption keys of AES-256 come first. */
#define CE_DEC_OFF (16 * 15)

#if IC_ARM_HAVE_CRYPTO
#include <arm_neon.h>

#define CE_INLINE static inline __attribute__((always_inline))
#define CE_LANES 8
#define CE_EACH(i, n) _Pragma("GCC unroll 8") for (size_t i = 0; i < (n); i++)

CE_INLINE uint8x16_t ce_rk(const ic_aes_key *k, unsigned i)
{
    return vld1q_u8(k->storage + 16 * i);
}

CE_INLINE uint8x16_t ce_dk(const ic_aes_key *k, unsigned i)
{
    return vld1q_u8(k->storage + CE_DEC_OFF + 16 * i);
}

/* Round t (0 <= t < Nr - 1) of encryption on n lanes: AESE(xor key, ShiftRows,
 * SubBytes) then MixColumns.  The pair AESE+AESMC fuses on most cores. */
CE_INLINE void ce_enc_round(uint8x16_t s[], const size_t n, uint8x16_t key)
{
    CE_EACH(i, n) s[i] = vaesmcq_u8(vaeseq_u8(s[i], key));
}

/* The last two steps: AESE with key Nr-1 (no MixColumns), XOR key Nr. */
CE_INLINE void ce_enc_last(const ic_aes_key *k, uint8x16_t s[], const size_t n)
{
    const uint8x16_t a = ce_rk(k, k->rounds - 1), b = ce_rk(k, k->rounds);
    CE_EACH(i, n) s[i] = veorq_u8(vaeseq_u8(s[i], a), b);
}

/* s[i] = E(K, s[i]), i < n.  Each round key is loaded once and applied to
 * the n independent lanes, so the AESE/AESMC latency (2-4 cycles) is
 * hidden by the other lanes.  The loop bound is the key size (public). */
CE_INLINE void ce_encrypt(const ic_aes_key *k, uint8x16_t s[], const size_t n)
{
    const unsigned nr = k->rounds;
    for (unsigned t = 0; t + 1 < nr; t++)
        ce_enc_round(s, n, ce_rk(k, t));
    ce_enc_last(k, s, n);
}

/* s[i] = D(K, s[i]), the equivalent inverse cipher on the dk keys. */
CE_INLINE void ce_decrypt(const ic_aes_key *k, uint8x16_t s[], const size_t n)
{
    const unsigned nr = k->rounds;
    for (unsigned t = 0; t + 1 < nr; t++) {
        const uint8x16_t key = ce_dk(k, t);
        CE_EACH(i, n) s[i] = vaesimcq_u8(vaesdq_u8(s[i], key));
    }
    const uint8x16_t a = ce_dk(k, nr - 1), b = ce_dk(k, nr);
    CE_EACH(i, n) s[i] = veorq_u8(vaesdq_u8(s[i], a), b);
}

/* ---- counters -------------------------------------------------------------
 * A counter is kept in "number form": the 16 bytes with each 8-byte half
 * reversed (vrev64q_u8), so 64-bit lane 0 is the high half of the
 * big-endian 128-bit counter and lane 1 the low half, as integers.
 *   ctr32 (GCM inc32, SP 800-38D 6.2): the big-endian last word is then
 *   32-bit lane 2; a vector 32-bit add of {0, 0, i, 0} wraps it mod 2^32
 *   and never touches the other 96 bits.
 *   ctr (128-bit, SP 800-38A B.1): add {0, i} as 64-bit lanes, then a
 *   carry mask (low < i, all ones when the low half wrapped) moved to lane
 *   0 and subtracted (all ones = -1): the carry is always computed and
 *   always applied, never branched on (a GCM counter from a
 *   non-12-byte IV is secret, and so may a CTR caller's be). */
CE_INLINE uint64x2_t ce_num(uint8x16_t block)
{
    return vreinterpretq_u64_u8(vrev64q_u8(block));
}

CE_INLINE uint8x16_t ce_block(uint64x2_t num)
{
    return vrev64q_u8(vreinterpretq_u8_u64(num));
}

/* num + i, i < 2^32 (a public lane index or batch size). */
CE_INLINE uint64x2_t ce_ctr_add(uint64x2_t num, uint32_t i, int inc32)
{
    if (inc32) {
        const uint32x4_t inc = vsetq_lane_u32(i, vdupq_n_u32(0), 2);
        return vreinterpretq_u64_u32(vaddq_u32(vreinterpretq_u32_u64(num), inc));
    }
    const uint64x2_t inc = vsetq_lane_u64((uint64_t)i, vdupq_n_u64(0), 1);
    const uint64x2_t t = vaddq_u64(num, inc);
#if defined(__aarch64__)
    const uint64x2_t wrapped = vcltq_u64(t, inc);           /* lane 1: carry out of the low half */
    return vsubq_u64(t, vextq_u64(wrapped, vdupq_n_u64(0), 1)); /* {carry, 0}: hi += 1 */
#else
    /* A32 NEON has no 64-bit compare: the carry out of a + b = t is the
     * top bit of (a & b) | ((a | b) & ~t), as 0 or 1. */
    const uint64x2_t c = vshrq_n_u64(vorrq_u64(vandq_u64(num, inc), vbicq_u64(vorrq_u64(num, inc), t)), 63);
    return vaddq_u64(t, vextq_u64(c, vdupq_n_u64(0), 1));   /* {carry, 0}: hi += carry */
#endif
}

/* s[0..n) = the counter blocks num + 0 .. num + n-1; *num advanced by n.
 * Each lane is computed from *num directly (independent adds). */
CE_INLINE void ce_counters(uint8x16_t s[], const size_t n, uint64x2_t *num, int inc32)
{
    CE_EACH(i, n) s[i] = ce_block(ce_ctr_add(*num, (uint32_t)i, inc32));
    *num = ce_ctr_add(*num, (uint32_t)n, inc32);
}

#endif /* IC_ARM_HAVE_CRYPTO */
#endif /* IC_ARM_LE */
#endif
