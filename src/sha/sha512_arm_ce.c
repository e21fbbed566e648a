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
 * Built with -march=armv8.2-a+sha3 for this file only (SHA512 is part of
 * the SHA3 extension in GCC's option names); selected when AT_HWCAP reports
 * SHA512 (IC_CPU_ARM_SHA512), which ARMv8.2 makes optional.
 */
#include "sha/sha_impl.h"

#if defined(__aarch64__) && defined(__ARM_FEATURE_SHA512) && !defined(__AARCH64EB__)
#include <arm_neon.h>

/* 4.2.3 */
static const uint64_t K512[80] = {
    UINT64_C(0x428a2f98d728ae22), UINT64_C(0x7137449123ef65cd), UINT64_C(0xb5c0fbcfec4d3b2f), UINT64_C(0xe9b5dba58189dbbc),
    UINT64_C(0x3956c25bf348b538), UINT64_C(0x59f111f1b605d019), UINT64_C(0x923f82a4af194f9b), UINT64_C(0xab1c5ed5da6d8118),
    UINT64_C(0xd807aa98a3030242), UINT64_C(0x12835b0145706fbe), UINT64_C(0x243185be4ee4b28c), UINT64_C(0x550c7dc3d5ffb4e2),
    UINT64_C(0x72be5d74f27b896f), UINT64_C(0x80deb1fe3b1696b1), UINT64_C(0x9bdc06a725c71235), UINT64_C(0xc19bf174cf692694),
    UINT64_C(0xe49b69c19ef14ad2), UINT64_C(0xefbe4786384f25e3), UINT64_C(0x0fc19dc68b8cd5b5), UINT64_C(0x240ca1cc77ac9c65),
    UINT64_C(0x2de92c6f592b0275), UINT64_C(0x4a7484aa6ea6e483), UINT64_C(0x5cb0a9dcbd41fbd4), UINT64_C(0x76f988da831153b5),
    UINT64_C(0x983e5152ee66dfab), UINT64_C(0xa831c66d2db43210), UINT64_C(0xb00327c898fb213f), UINT64_C(0xbf597fc7beef0ee4),
    UINT64_C(0xc6e00bf33da88fc2), UINT64_C(0xd5a79147930aa725), UINT64_C(0x06ca6351e003826f), UINT64_C(0x142929670a0e6e70),
    UINT64_C(0x27b70a8546d22ffc), UINT64_C(0x2e1b21385c26c926), UINT64_C(0x4d2c6dfc5ac42aed), UINT64_C(0x53380d139d95b3df),
    UINT64_C(0x650a73548baf63de), UINT64_C(0x766a0abb3c77b2a8), UINT64_C(0x81c2c92e47edaee6), UINT64_C(0x92722c851482353b),
    UINT64_C(0xa2bfe8a14cf10364), UINT64_C(0xa81a664bbc423001), UINT64_C(0xc24b8b70d0f89791), UINT64_C(0xc76c51a30654be30),
    UINT64_C(0xd192e819d6ef5218), UINT64_C(0xd69906245565a910), UINT64_C(0xf40e35855771202a), UINT64_C(0x106aa07032bbd1b8),
    UINT64_C(0x19a4c116b8d2d0c8), UINT64_C(0x1e376c085141ab53), UINT64_C(0x2748774cdf8eeb99), UINT64_C(0x34b0bcb5e19b48a8),
    UINT64_C(0x391c0cb3c5c95a63), UINT64_C(0x4ed8aa4ae3418acb), UINT64_C(0x5b9cca4f7763e373), UINT64_C(0x682e6ff3d6b2b8a3),
    UINT64_C(0x748f82ee5defb2fc), UINT64_C(0x78a5636f43172f60), UINT64_C(0x84c87814a1f0ab72), UINT64_C(0x8cc702081a6439ec),
    UINT64_C(0x90befffa23631e28), UINT64_C(0xa4506cebde82bde9), UINT64_C(0xbef9a3f7b2c67915), UINT64_C(0xc67178f2e372532b),
    UINT64_C(0xca273eceea26619c), UINT64_C(0xd186b8c721c0c207), UINT64_C(0xeada7dd6cde0eb1e), UINT64_C(0xf57d4f7fee6ed178),
    UINT64_C(0x06f067aa72176fba), UINT64_C(0x0a637dc5a2c898a6), UINT64_C(0x113f9804bef90dae), UINT64_C(0x1b710b35131c471b),
    UINT64_C(0x28db77f523047d84), UINT64_C(0x32caab7b40c72493), UINT64_C(0x3c9ebe0a15c9bebc), UINT64_C(0x431d67c49c100d4c),
    UINT64_C(0x4cc5d4becb3e42b6), UINT64_C(0x597f299cfc657e2a), UINT64_C(0x5fcb6fab3ad6faec), UINT64_C(0x6c44198c4a475817),
};

/* Rounds t and t+1 with schedule words w = W[t..t+1]; rotates the names
 * (ab, cd, ef, gh) -> (new ab, old ab, new ef, old ef). */
#define DROUND(t, w) do {                                              \
        uint64x2_t wk_ = vaddq_u64(w, vld1q_u64(K512 + (t)));           \
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

const ic_sha512_ops ic_sha512_ce_ops = { sha512_ce_compress };

#endif
