/*
 * ghash_x86_vpclmul512.c - GHASH (SP 800-38D section 6.4) with VPCLMULQDQ
 * on 512-bit registers, four blocks per register.  Registry "ghash", entry
 * "vpclmul512", needs VPCLMULQDQ, AVX-512F/BW (and AVX2, AVX, PCLMUL,
 * SSSE3 for the shared 128- and 256-bit code), compiled for those and
 * AVX-512VL.
 *
 * The method is that of ghash_x86_vpclmul.c (ghash_x86.h: reflected blocks,
 * "H << 1", Karatsuba, aggregated Montgomery reduction), with batches on
 * four or eight ZMM registers: a 512-bit load of four consecutive powers
 * gives the multipliers of four blocks, so one VPCLMULQDQ does four
 * products.  The key (ghash_x86_key32, 1 KiB) is the "vpclmul" one
 * (pow[0..15] = H^16 .. H^1 and their Karatsuba halves, so every x86
 * stitched loop can run on it) followed by H^32 .. H^17, made once here.
 * Messages go 32 blocks a batch with one reduction each, the rest (0..31
 * blocks) as 16-block batches: 16-block batches alone are bound by the
 * chain from one batch's y to the next (a fold and a reduction every 16
 * blocks), 32-block ones by the multiplier (Zen 5, 16 KiB: 0.125 -> 0.069
 * TSC c/B).
 *
 * The stitched AES-GCM loops its key serves (the ops' stitch) are
 * gcm_x86_vaes512.c and, for AES backends without ZMM, the YMM and XMM
 * loops, whose powers the key starts with.  Constant time: carry-less multiplies, no secret
 * branch or index.
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("pclmul,ssse3,avx2,vpclmulqdq,avx512f,avx512vl,avx512bw")
#include "gcm/ghash_x86.h"

#define VP512_BATCH 16

static void ghash_vpclmul512_init(ic_ghash_key *hk, const uint8_t h[16])
{
    gh512_key_init((ghash_x86_key32 *)(void *)hk->storage, h);
}

static void ghash_vpclmul512_blocks(const ic_ghash_key *hk, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    if (nblocks >= 2 * VP512_BATCH) {
        const ghash_x86_key32 *k = ghash_x86_key32_of(hk);
        __m128i acc = gh_load(y);
        for (; nblocks >= 2 * VP512_BATCH; nblocks -= 2 * VP512_BATCH, in += 32 * VP512_BATCH)
            acc = gh512_batch32(k, acc, in);
        gh_store(y, acc);
    }
    gh_blocks(hk, y, in, nblocks, VP512_BATCH, gh512_batch);
}

static const ic_ghash_ops vpclmul512_ops = {
    .init = ghash_vpclmul512_init,
    .blocks = ghash_vpclmul512_blocks,
    .stitch = IC_STITCH_BIT(IC_STITCH_X86_XMM) | IC_STITCH_BIT(IC_STITCH_X86_YMM) | IC_STITCH_BIT(IC_STITCH_X86_ZMM),
};
#define VPCLMUL512_NEEDS (IC_F(IC_CPU_VPCLMUL) | IC_F(IC_CPU_AVX512F) | IC_F(IC_CPU_AVX512VL) | IC_F(IC_CPU_AVX512BW) \
                          | IC_F(IC_CPU_AVX2) | IC_F(IC_CPU_AVX) | IC_F(IC_CPU_PCLMUL) | IC_F(IC_CPU_SSSE3))
IC_BACKEND(ghash, vpclmul512, VPCLMUL512_NEEDS, &vpclmul512_ops);

IC_TARGET_END
#endif /* x86 */
