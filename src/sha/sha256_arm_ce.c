/*
 * sha256_arm_ce.c - SHA-224/256 compression (FIPS 180-4, 6.2.2) with the
 * ARMv8 SHA2 instructions, the "ce" entry of the sha256 registry.
 *
 * The chaining value lives in two registers for the whole call, as the
 * instructions want it: abcd = (a, b, c, d) and efgh = (e, f, g, h), lane 0
 * first, which is exactly h[0..3] and h[4..7] loaded with vld1q_u32.  Four
 * rounds are one SHA256H (new abcd) and one SHA256H2 (new efgh), both fed
 * the same four words W[t..t+3] + K[t..t+3] and the *old* abcd, so the old
 * value is kept for H2.  The message schedule is four registers of four
 * words, W[t..t+3] computed from W[t-16..t-1] by SHA256SU0 (the sigma0
 * part, 6.2.2 step 1) and SHA256SU1 (sigma1 and the W[t-7] term, the
 * dependency on W[t+0..1] inside the four words handled by the
 * instruction).  Byte order: words are big-endian (5.2.1); each 16-byte
 * load is byte-reversed within 32-bit lanes (REV32), so this file assumes
 * a little-endian ARM (aarch64-linux-gnu, arm-linux-gnueabihf).
 *
 * Constant time: the instructions take the same time for any data, and no
 * branch or address depends on the message or the state.
 *
 * One source for AArch64 and AArch32 (same intrinsics; A32 SHA256H.32
 * etc.), compiled for the crypto extension (IC_TARGET_ARM_CE); the
 * registry runs it only when AT_HWCAP (AArch64) or AT_HWCAP2 (32-bit)
 * reports SHA2 (IC_CPU_ARM_SHA2, core/cpu_arm.c).
 */
#include "core/target.h"

#if IC_ARM_LE
IC_TARGET_BEGIN(IC_TARGET_ARM_CE)
#include "sha/sha_impl.h"
#include "core/cpu_arm.h"
#if !defined(__ARM_FEATURE_SHA2) && !defined(__ARM_FEATURE_CRYPTO)
#error "sha256_arm_ce.c needs the crypto extension (its IC_TARGET_BEGIN)"
#endif
#include <arm_neon.h>

/* Four rounds t..t+3 with the schedule words in w. */
#define QROUND(t, w) do {                                        \
        uint32x4_t wk_ = vaddq_u32(w, vld1q_u32(ic_sha256_k + (t)));     \
        uint32x4_t abcd0_ = abcd;                                 \
        abcd = vsha256hq_u32(abcd, efgh, wk_);                    \
        efgh = vsha256h2q_u32(efgh, abcd0_, wk_);                 \
    } while (0)

/* w0 = W[t-16..t-13] becomes W[t..t+3]. */
#define SCHED(w0, w1, w2, w3) \
    (w0 = vsha256su1q_u32(vsha256su0q_u32(w0, w1), w2, w3))

static void sha256_ce_compress(uint32_t state[8], const uint8_t *p, size_t nblocks)
{
    uint32x4_t abcd = vld1q_u32(state), efgh = vld1q_u32(state + 4);

    for (; nblocks; nblocks--, p += IC_SHA256_BLOCK_SIZE) {
        uint32x4_t abcd_in = abcd, efgh_in = efgh;
        uint32x4_t m0 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)));
        uint32x4_t m1 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 16)));
        uint32x4_t m2 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 32)));
        uint32x4_t m3 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 48)));

        /* Rounds 0-47: use W[t..t+3], then replace it by W[t+16..t+19]. */
        for (int t = 0; t < 48; t += 16) {
            QROUND(t, m0);      SCHED(m0, m1, m2, m3);
            QROUND(t + 4, m1);  SCHED(m1, m2, m3, m0);
            QROUND(t + 8, m2);  SCHED(m2, m3, m0, m1);
            QROUND(t + 12, m3); SCHED(m3, m0, m1, m2);
        }
        QROUND(48, m0); QROUND(52, m1); QROUND(56, m2); QROUND(60, m3);

        abcd = vaddq_u32(abcd, abcd_in);
        efgh = vaddq_u32(efgh, efgh_in);
    }
    vst1q_u32(state, abcd);
    vst1q_u32(state + 4, efgh);
}

static const ic_sha256_ops ce_ops = { sha256_ce_compress, NULL };
IC_BACKEND(sha256, ce, IC_F(IC_CPU_ARM_SHA2), &ce_ops);

IC_TARGET_END

#endif
