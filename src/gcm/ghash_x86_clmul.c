/*
 * ghash_x86_clmul.c - GHASH (SP 800-38D section 6.4) with PCLMULQDQ on
 * 128-bit registers.  Registry "ghash", entry "clmul", needs PCLMUL and
 * SSSE3 (PSHUFB for the byte order), the only instruction sets it is
 * compiled for.
 *
 * The trick (ghash_x86.h): blocks are kept bit-reflected, H is stored as
 * "H << 1" so that a product divided by X^128 is the GF(2^128) product,
 * and eight blocks are multiplied by H^8 .. H^1 (Karatsuba, three
 * PCLMULQDQ each) and summed before one two-multiply reduction.  The eight
 * products are independent, so their latencies overlap; only the reduction
 * is on the chain from one batch to the next.
 *
 * The AES-GCM loop that runs AES-NI and this GHASH in one pass is in
 * gcm_x86_ni.c (IC_STITCH_X86_XMM, declared in the ops' stitch).
 * Constant time: PCLMULQDQ's timing does not depend on its operands, and
 * nothing here branches on or indexes by H or the data.
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("pclmul,ssse3")
#include "gcm/ghash_x86.h"

#define CLMUL_BATCH 8

static void ghash_clmul_init(ic_ghash_key *hk, const uint8_t h[16])
{
    gh_key_init(hk, h, CLMUL_BATCH);
}

static void ghash_clmul_blocks(const ic_ghash_key *hk, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    gh_blocks(hk, y, in, nblocks, CLMUL_BATCH, gh_batch);
}

static const ic_ghash_ops clmul_ops = {
    .init = ghash_clmul_init,
    .blocks = ghash_clmul_blocks,
    .stitch = IC_STITCH_BIT(IC_STITCH_X86_XMM),
};
IC_BACKEND(ghash, clmul, IC_F(IC_CPU_PCLMUL) | IC_F(IC_CPU_SSSE3), &clmul_ops);

IC_TARGET_END
#endif /* x86 */
