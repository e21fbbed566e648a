/*
 * ghash_x86_vpclmul.c - GHASH (SP 800-38D section 6.4) with VPCLMULQDQ on
 * 256-bit registers, two blocks per register.  Registry "ghash", entry
 * "vpclmul", needs VPCLMULQDQ, AVX2 (and AVX), PCLMUL and SSSE3, the
 * instruction sets it is compiled for; no AVX-512.
 *
 * The trick is that of ghash_x86_clmul.c (ghash_x86.h: reflected blocks,
 * "H << 1", Karatsuba, one Montgomery reduction per batch) with sixteen
 * blocks per batch: a 256-bit load takes blocks 2j and 2j+1, and a 256-bit
 * load of pow[2j] (the key layout keeps the powers in block order) gives
 * H^(16-2j) and H^(15-2j) in the matching lanes, so one VPCLMULQDQ does
 * two products.  The three Karatsuba sums stay 256 bits wide over the
 * whole batch; the two lanes are folded together only before the single
 * reduction, which stays 128-bit.
 *
 * The stitched AES-GCM loops its key serves (the ops' stitch) are
 * gcm_x86_vaes.c (VAES keys, 16 blocks in flight) and gcm_x86_ni.c
 * (AES-NI keys): the key holds H^16 .. H^1, which both read.  Constant time: carry-less multiplies, no secret branch or
 * index.
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("pclmul,ssse3,avx2,vpclmulqdq")
#include "gcm/ghash_x86.h"

#define VP_BATCH 16

static void ghash_vpclmul_init(ic_ghash_key *hk, const uint8_t h[16])
{
    gh_key_init(hk, h, VP_BATCH);
}

static void ghash_vpclmul_blocks(const ic_ghash_key *hk, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    gh_blocks(hk, y, in, nblocks, VP_BATCH, gh256_batch);
}

static const ic_ghash_ops vpclmul_ops = {
    .init = ghash_vpclmul_init,
    .blocks = ghash_vpclmul_blocks,
    .stitch = IC_STITCH_BIT(IC_STITCH_X86_XMM) | IC_STITCH_BIT(IC_STITCH_X86_YMM),
};
#define VPCLMUL_NEEDS (IC_F(IC_CPU_VPCLMUL) | IC_F(IC_CPU_AVX2) | IC_F(IC_CPU_AVX) | IC_F(IC_CPU_PCLMUL) \
                       | IC_F(IC_CPU_SSSE3))
IC_BACKEND(ghash, vpclmul, VPCLMUL_NEEDS, &vpclmul_ops);

IC_TARGET_END
#endif /* x86 */
