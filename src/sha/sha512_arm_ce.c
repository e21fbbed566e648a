/*
 * sha512_arm_ce.c - SHA-384/512/512-224/512-256 compression (FIPS 180-4,
 * 6.4.2) with the ARMv8.2 SHA512 instructions, the "ce" entry of the
 * sha512 registry.
 *
 * The eight working variables are four registers of two 64-bit words,
 * ab = (a, b), cd, ef, gh, lane 0 first (h[0..7] loaded with vld1q_u64).
 * Two rounds are one SHA512H and one SHA512H2 (Arm ARM, "SHA512H"):
 *   - SHA512H takes gh + (W[t+1] + K[t+1], W[t] + K[t]) (the two sums in
 *     swapped lanes), (f, g) and (d, e), and returns the T1 values of the
 *     two rounds (4.1.3 Sigma1 and Ch, for round t and then t+1, whose e
 *     it forms as d + T1 internally);
 *   - cd + that result is the new (e, f) pair: e' = d + T1 (6.4.2 step 3);
 *   - SHA512H2 takes that result, cd and ab and adds Sigma0 and Maj: the
 *     new (a, b).
 * After the two rounds the pairs move down one register: (a, b) -> (c, d),
 * (e, f) -> (g, h), so the names are rotated instead of values copied.
 * (f, g) and (d, e) straddle registers and are formed by EXT.
 *
 * The schedule (6.4.2 step 1) is eight registers of two words:
 * W[t..t+1] = SHA512SU1(SHA512SU0(W[t-16..t-15], W[t-14..t-13]),
 *                       W[t-2..t-1], W[t-7..t-6]),
 * SU0 adding sigma0(W[t-15]) and SU1 sigma1(W[t-2]) and W[t-7] (EXT again
 * for the straddling pair).  Words are big-endian (5.2.2): REV64 on each
 * load, so a little-endian AArch64 is assumed.
 *
 * Constant time: no branch or address depends on the data; the
 * instructions' timing does not depend on their operands.
 *
 * Compiled for ARMv8.2 with the SHA3 extension (SHA512 is part of it in
 * GCC's option names); selected when AT_HWCAP reports SHA512
 * (IC_CPU_ARM_SHA512), which ARMv8.2 makes optional.
 */
#include "core/target.h"

#if defined(__aarch64__) && !defined(__AARCH64EB__)
IC_TARGET_BEGIN("arch=armv8.2-a+sha3")
#include "sha/sha_impl.h"
#if !defined(__ARM_FEATURE_SHA512)
#error "sha512_arm_ce.c needs the SHA512 instructions (its IC_TARGET_BEGIN)"
#endif
#include <arm_neon.h>

/* Rounds t and t+1 with schedule words w = W[t..t+1]; rotates the names
 * (ab, cd, ef, gh) -> (new ab, old ab, new ef, old ef). */
#define DROUND(t, w) do {                                              \
        uint64x2_t wk_ = vaddq_u64(w, vld1q_u64(ic_sha512_k + (t)));           \
        uint64x2_t fg_ = vextq_u64(ef, gh, 1);                          \
        uint64x2_t de_ = vextq_u64(cd, ef, 1);                          \
        uint64x2_t t1_ = vsha512hq_u64(vaddq_u64(gh, vextq_u64(wk_, wk_, 1)), fg_, de_); \
        uint64x2_t nef_ = vaddq_u64(cd, t1_);                           \
        uint64x2_t nab_ = vsha512h2q_u64(t1_, cd, ab);                  \
        gh = ef; ef = nef_; cd = ab; ab = nab_;                          \
    } while (0)

/* w0 = W[t-16..t-15] becomes W[t..t+1]. */
#define SCHED(w0, w1, w4, w5, w7) \
    (w0 = vsha512su1q_u64(vsha512su0q_u64(w0, w1), w7, vextq_u64(w4, w5, 1)))

static void sha512_ce_compress(uint64_t state[8], const uint8_t *p, size_t nblocks)
{
    uint64x2_t ab = vld1q_u64(state), cd = vld1q_u64(state + 2);
    uint64x2_t ef = vld1q_u64(state + 4), gh = vld1q_u64(state + 6);

    for (; nblocks; nblocks--, p += IC_SHA512_BLOCK_SIZE) {
        uint64x2_t ab_in = ab, cd_in = cd, ef_in = ef, gh_in = gh;
        uint64x2_t m[8];
        for (int i = 0; i < 8; i++)
            m[i] = vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(p + 16 * i)));

        /* Rounds 0-63 use W[t..t+1], then replace it by W[t+16..t+17].
         * The index arithmetic is on constants once the loop is unrolled;
         * it never depends on data. */
        for (int t = 0; t < 64; t += 16) {
            for (int i = 0; i < 8; i++) {
                DROUND(t + 2 * i, m[i]);
                SCHED(m[i], m[(i + 1) & 7], m[(i + 4) & 7], m[(i + 5) & 7], m[(i + 7) & 7]);
            }
        }
        for (int i = 0; i < 8; i++)
            DROUND(64 + 2 * i, m[i]);

        ab = vaddq_u64(ab, ab_in);
        cd = vaddq_u64(cd, cd_in);
        ef = vaddq_u64(ef, ef_in);
        gh = vaddq_u64(gh, gh_in);
    }
    vst1q_u64(state, ab);
    vst1q_u64(state + 2, cd);
    vst1q_u64(state + 4, ef);
    vst1q_u64(state + 6, gh);
}

static const ic_sha512_ops ce_ops = { sha512_ce_compress };
IC_BACKEND(sha512, ce, IC_F(IC_CPU_ARM_SHA512), &ce_ops);

IC_TARGET_END

#endif
