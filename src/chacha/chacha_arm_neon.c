/*
 * chacha_arm_neon.c - ChaCha20 (RFC 8439 section 2.3) on 128-bit NEON
 * registers: the "neon" entry of ic_impls_chacha20, for AArch64 and 32-bit
 * ARM (one source: only <arm_neon.h> intrinsics both have, the AArch64-only
 * byte table lookup aside).  Needs NEON (HWCAP_ASIMD / HWCAP_NEON), which
 * 32-bit ARM builds ask for in this file only (IC_TARGET_ARM_NEON).
 *
 * Runs of 4 blocks and up go 4 blocks per pass with the state transposed
 * across lanes: register i holds state word i of 4 consecutive blocks
 * (counters c..c+3 in word 12), so a quarter round is 4-lane adds, xors and
 * rotations with no shuffle inside the rounds, four independent quarter
 * rounds at a time to fill the pipeline.  After the 20 rounds and the
 * feed-forward, 4x4 transposes (VTRN + moving 64-bit halves) turn the 16
 * registers back into 4 consecutive blocks.  Same layout as the AVX2 code
 * (chacha_x86_avx2.c) at half the width.  A tail of 3 blocks takes one
 * more such pass and stores three of its blocks (the fourth, counter
 * c+3, is computed and dropped).
 * The short path, 1 or 2 blocks (a short message, or the end of a run),
 * keeps one block in row order in 4 registers (rows a, b, c, d); the
 * diagonal round turns rows b, c, d by 1, 2, 3 words with VEXT.  Two
 * blocks run as two independent row sets side by side.
 *
 * Rotations: by 16, VREV32 on 16-bit lanes (one instruction); by 8 on
 * AArch64 a TBL byte permutation, on 32-bit ARM like 12 and 7, a shift
 * right then a shift-left-and-insert (VSRI/VSLI: two instructions).
 *
 * Instruction count (why it is registered on 32-bit ARM too, where QEMU
 * cannot time it): a 4-lane quarter round is 4 adds, 4 xors and 7 rotation
 * instructions = 15, so a 4-block double round is 120 NEON instructions,
 * 1200 per 256 bytes plus about 100 for feed-forward, transpose and the
 * xor with the input: ~5 per byte, and some spills on AArch32's 16 Q
 * registers.  The portable code is, per block and double round, 8 quarter
 * rounds of 12 integer operations (4 add, 4 xor, 4 rotate) = 96, 15 per
 * byte, with 16 state words in 13 usable core registers spilling on
 * 32-bit ARM.  On a 64-bit NEON datapath (Cortex-A7/A53 take two cycles
 * per 128-bit operation) that is still ~10 NEON cycles against ~15 scalar
 * ones per byte on a dual-issue integer core.
 *
 * Constant time: ChaCha is add, xor and rotation by constants; the only
 * branches are on the (public) block count.  Little-endian only: words
 * are loaded and stored as the host's 32-bit lanes.
 */
#include "core/target.h"

#if IC_ARM_LE
IC_TARGET_BEGIN(IC_TARGET_ARM_NEON)
#include "chacha/chacha_impl.h"
#include "core/cpu_arm.h"

#if !defined(__ARM_NEON) && !defined(__ARM_NEON__)
#error "chacha_arm_neon.c needs NEON code generation (its IC_TARGET_BEGIN)"
#endif
#include <arm_neon.h>

#define NE_INLINE static inline __attribute__((always_inline))

NE_INLINE uint32x4_t rotl16(uint32x4_t x)
{
    return vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(x)));
}

#define ROTL(x, n) vsliq_n_u32(vshrq_n_u32((x), 32 - (n)), (x), (n))

NE_INLINE uint32x4_t rotl8(uint32x4_t x)
{
#if defined(__aarch64__)
    /* byte j of each word from byte (j + 3) mod 4: a left rotation by 8 */
    static const uint8_t idx[16] = {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14};
    return vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(x), vld1q_u8(idx)));
#else
    return ROTL(x, 8);
#endif
}

/* One quarter round (RFC 8439 section 2.1) on four lanes. */
#define QR(a, b, c, d) do {                                                       \
        a = vaddq_u32(a, b); d = veorq_u32(d, a); d = rotl16(d);                  \
        c = vaddq_u32(c, d); b = veorq_u32(b, c); b = ROTL(b, 12);                \
        a = vaddq_u32(a, b); d = veorq_u32(d, a); d = rotl8(d);                   \
        c = vaddq_u32(c, d); b = veorq_u32(b, c); b = ROTL(b, 7);                 \
    } while (0)

/* out = in xor the 16 bytes of keystream k (any alignment). */
NE_INLINE void xor16(uint8_t *out, const uint8_t *in, uint32x4_t k)
{
    vst1q_u8(out, veorq_u8(vld1q_u8(in), vreinterpretq_u8_u32(k)));
}

/* 4x4 transpose of 32-bit words: in, a..d hold word w..w+3 (a = w) of
 * blocks 0..3 (lane = block); out, register j holds words w..w+3 of
 * block j. */
NE_INLINE void transpose4(uint32x4_t *a, uint32x4_t *b, uint32x4_t *c, uint32x4_t *d)
{
    const uint32x4x2_t ab = vtrnq_u32(*a, *b), cd = vtrnq_u32(*c, *d);
    /* ab.val[0] = a0 b0 a2 b2, ab.val[1] = a1 b1 a3 b3; cd likewise */
    *a = vcombine_u32(vget_low_u32(ab.val[0]), vget_low_u32(cd.val[0]));
    *b = vcombine_u32(vget_low_u32(ab.val[1]), vget_low_u32(cd.val[1]));
    *c = vcombine_u32(vget_high_u32(ab.val[0]), vget_high_u32(cd.val[0]));
    *d = vcombine_u32(vget_high_u32(ab.val[1]), vget_high_u32(cd.val[1]));
}

/* Blocks ctr .. ctr+3 of the keystream; the first n (3 or 4) xored into
 * out. */
NE_INLINE void chacha4(const uint32_t input[16], uint8_t *out, const uint8_t *in, uint32_t ctr, const size_t n)
{
    static const uint32_t lane[4] = {0, 1, 2, 3};
    uint32x4_t x[16];
    for (int i = 0; i < 16; i++)
        x[i] = vdupq_n_u32(input[i]);
    const uint32x4_t c12 = vaddq_u32(vdupq_n_u32(ctr), vld1q_u32(lane));
    x[12] = c12;
    IC_CHACHA20_ROUNDS(QR, x);
    /* feed-forward: the input state (reloaded: AArch32 has 16 Q registers) */
    for (int i = 0; i < 16; i++)
        x[i] = vaddq_u32(x[i], i == 12 ? c12 : vdupq_n_u32(input[i]));
    for (int g = 0; g < 4; g++)
        transpose4(&x[4 * g], &x[4 * g + 1], &x[4 * g + 2], &x[4 * g + 3]);
    /* block j: words 4g..4g+3 in x[4g + j] */
    for (size_t j = 0; j < n; j++)
        for (int g = 0; g < 4; g++)
            xor16(out + 64 * j + 16 * g, in + 64 * j + 16 * g, x[4 * g + j]);
}

/* ---- 1 or 2 blocks: rows --------------------------------------------------- */

/* A double round on one row-ordered block: the column round, rows b, c, d
 * turned by 1, 2, 3 words so the diagonals become columns, the diagonal
 * round, and the turn undone. */
#define ROW_DOUBLE(a, b, c, d) do {                                   \
        QR(a, b, c, d);                                               \
        b = vextq_u32(b, b, 1); c = vextq_u32(c, c, 2); d = vextq_u32(d, d, 3); \
        QR(a, b, c, d);                                               \
        b = vextq_u32(b, b, 3); c = vextq_u32(c, c, 2); d = vextq_u32(d, d, 1); \
    } while (0)

NE_INLINE void rows_store(uint8_t *out, const uint8_t *in, uint32x4_t a, uint32x4_t b, uint32x4_t c,
                          uint32x4_t d)
{
    xor16(out, in, a);
    xor16(out + 16, in + 16, b);
    xor16(out + 32, in + 32, c);
    xor16(out + 48, in + 48, d);
}

/* n = 1 or 2 blocks from counter ctr. */
static void chacha_rows(const uint32_t input[16], uint8_t *out, const uint8_t *in, size_t n, uint32_t ctr)
{
    const uint32x4_t sa = vld1q_u32(input), sb = vld1q_u32(input + 4), sc = vld1q_u32(input + 8);
    const uint32x4_t sd = vsetq_lane_u32(ctr, vld1q_u32(input + 12), 0);
    const uint32x4_t sd2 = vsetq_lane_u32(ctr + 1, sd, 0);
    uint32x4_t a = sa, b = sb, c = sc, d = sd;
    if (n == 1) {
        for (int i = 0; i < 10; i++)
            ROW_DOUBLE(a, b, c, d);
    } else {
        uint32x4_t a2 = sa, b2 = sb, c2 = sc, d2 = sd2;
        for (int i = 0; i < 10; i++) {
            ROW_DOUBLE(a, b, c, d);
            ROW_DOUBLE(a2, b2, c2, d2);
        }
        rows_store(out + 64, in + 64, vaddq_u32(a2, sa), vaddq_u32(b2, sb), vaddq_u32(c2, sc),
                   vaddq_u32(d2, sd2));
    }
    rows_store(out, in, vaddq_u32(a, sa), vaddq_u32(b, sb), vaddq_u32(c, sc), vaddq_u32(d, sd));
}

static void chacha20_neon_xor_blocks(const uint32_t input[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    uint32_t ctr = input[12];
    for (; nblocks >= 4; nblocks -= 4, in += 256, out += 256, ctr += 4)
        chacha4(input, out, in, ctr, 4);
    if (nblocks == 3)
        chacha4(input, out, in, ctr, 3);
    else if (nblocks != 0)
        chacha_rows(input, out, in, nblocks, ctr);
}

/* HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2) on the row path: no
 * feed-forward, words 0-3 and 12-15 out. */
static void chacha20_neon_hchacha20(uint8_t subkey[32], const uint8_t key[32], const uint8_t in16[16])
{
    static const uint32_t sigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    uint32x4_t a = vld1q_u32(sigma);
    uint32x4_t b = vreinterpretq_u32_u8(vld1q_u8(key));
    uint32x4_t c = vreinterpretq_u32_u8(vld1q_u8(key + 16));
    uint32x4_t d = vreinterpretq_u32_u8(vld1q_u8(in16));
    for (int i = 0; i < 10; i++)
        ROW_DOUBLE(a, b, c, d);
    vst1q_u8(subkey, vreinterpretq_u8_u32(a));
    vst1q_u8(subkey + 16, vreinterpretq_u8_u32(d));
}

static const ic_chacha20_ops neon_ops = {
    .xor_blocks = chacha20_neon_xor_blocks,
    .hchacha20 = chacha20_neon_hchacha20,
};
IC_BACKEND(chacha20, neon, IC_F(IC_CPU_NEON), &neon_ops);

IC_TARGET_END

#endif /* IC_ARM_LE */
