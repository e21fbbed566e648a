/*
 * sha1_arm_ce.c - SHA-1 compression (FIPS 180-4, 6.1.2) with the ARMv8
 * SHA1 instructions, the "ce" entry of the sha1 registry.
 *
 * abcd = (a, b, c, d) in one register (h[0..3], lane 0 first) and e in a
 * scalar, for the whole call.  Four rounds are one SHA1C (Ch, rounds 0-19),
 * SHA1P (Parity, 20-39 and 60-79) or SHA1M (Maj, 40-59), given abcd, the e
 * of the first of the four rounds and W[t..t+3] + K.  The e of the next
 * four rounds is ROTL30 of the current a (four shifts of 6.1.2 step 3 move
 * a to e through b, c and d, with b -> c the ROTL30), which SHA1H computes
 * from lane 0 before abcd is replaced.  The schedule (6.1.2 step 1) is four
 * registers of four words: SHA1SU0 xors W[t-16], W[t-14] and W[t-8],
 * SHA1SU1 adds W[t-3] and the rotate, including the dependency of W[t+3] on
 * W[t] inside the four words.  Message words are big-endian (5.2.1): REV32
 * on each 16-byte load, so a little-endian ARM is assumed.
 *
 * SHA-1 is here for HMAC-SHA-1 and interoperability (see sha1_port.c).
 * Constant time: no branch or address depends on the data; the
 * instructions' timing does not depend on their operands.
 *
 * One source for AArch64 and AArch32 (the intrinsics are the same; A32
 * SHA1C.32 etc.).  Compiled for the crypto extension (IC_TARGET_ARM_CE);
 * selected when AT_HWCAP (AArch64) or AT_HWCAP2 (32-bit) reports SHA1
 * (IC_CPU_ARM_SHA1).
 */
#include "core/target.h"

#if IC_ARM_LE
IC_TARGET_BEGIN(IC_TARGET_ARM_CE)
#include "sha/sha_impl.h"
#include "core/cpu_arm.h"
#if !defined(__ARM_FEATURE_SHA2) && !defined(__ARM_FEATURE_CRYPTO)
#error "sha1_arm_ce.c needs the crypto extension (its IC_TARGET_BEGIN)"
#endif
#include <arm_neon.h>

/* 4.2.1, one per 20 rounds */
#define K0 UINT32_C(0x5a827999)
#define K1 UINT32_C(0x6ed9eba1)
#define K2 UINT32_C(0x8f1bbcdc)
#define K3 UINT32_C(0xca62c1d6)

/* Four rounds with function OP (vsha1cq/vsha1pq/vsha1mq), constant K and
 * words w: e for the next four rounds comes from the a of these. */
#define QROUND(OP, K, w) do {                                     \
        uint32x4_t wk_ = vaddq_u32(w, vdupq_n_u32(K));             \
        uint32_t enext_ = vsha1h_u32(vgetq_lane_u32(abcd, 0));     \
        abcd = OP(abcd, e, wk_);                                   \
        e = enext_;                                                \
    } while (0)

/* w0 = W[t-16..t-13] becomes W[t..t+3]. */
#define SCHED(w0, w1, w2, w3) (w0 = vsha1su1q_u32(vsha1su0q_u32(w0, w1, w2), w3))

/* Rounds t..t+15 with the four schedule registers, each replaced after use
 * by the words 16 rounds on when more rounds need them (SCH = 1). */
#define ROUNDS16(OP0, K0_, OP1, K1_, OP2, K2_, OP3, K3_, SCH) do {     \
        QROUND(OP0, K0_, m0); if (SCH) SCHED(m0, m1, m2, m3);         \
        QROUND(OP1, K1_, m1); if (SCH) SCHED(m1, m2, m3, m0);         \
        QROUND(OP2, K2_, m2); if (SCH) SCHED(m2, m3, m0, m1);         \
        QROUND(OP3, K3_, m3); if (SCH) SCHED(m3, m0, m1, m2);         \
    } while (0)

static void sha1_ce_compress(uint32_t state[5], const uint8_t *p, size_t nblocks)
{
    uint32x4_t abcd = vld1q_u32(state);
    uint32_t e = state[4];

    for (; nblocks; nblocks--, p += IC_SHA1_BLOCK_SIZE) {
        uint32x4_t abcd_in = abcd;
        uint32_t e_in = e;
        uint32x4_t m0 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)));
        uint32x4_t m1 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 16)));
        uint32x4_t m2 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 32)));
        uint32x4_t m3 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 48)));

        /* 20 groups of four rounds: C x5, P x5, M x5, P x5. */
        ROUNDS16(vsha1cq_u32, K0, vsha1cq_u32, K0, vsha1cq_u32, K0, vsha1cq_u32, K0, 1); /* 0-15  */
        ROUNDS16(vsha1cq_u32, K0, vsha1pq_u32, K1, vsha1pq_u32, K1, vsha1pq_u32, K1, 1); /* 16-31 */
        ROUNDS16(vsha1pq_u32, K1, vsha1pq_u32, K1, vsha1mq_u32, K2, vsha1mq_u32, K2, 1); /* 32-47 */
        ROUNDS16(vsha1mq_u32, K2, vsha1mq_u32, K2, vsha1mq_u32, K2, vsha1pq_u32, K3, 1); /* 48-63 */
        ROUNDS16(vsha1pq_u32, K3, vsha1pq_u32, K3, vsha1pq_u32, K3, vsha1pq_u32, K3, 0); /* 64-79 */

        abcd = vaddq_u32(abcd, abcd_in);
        e += e_in;
    }
    vst1q_u32(state, abcd);
    state[4] = e;
}

static const ic_sha1_ops ce_ops = { sha1_ce_compress, NULL };
IC_BACKEND(sha1, ce, IC_F(IC_CPU_ARM_SHA1), &ce_ops);

IC_TARGET_END

#endif
