/*
 * ghash_arm_pmull.c - GHASH (SP 800-38D section 6.4) with the ARMv8
 * PMULL / PMULL2 64x64 carry-less multiplies (VMULL.P64 on AArch32).
 * Registry "ghash", entry "pmull"; needs HWCAP_PMULL, or HWCAP2_PMULL on
 * 32-bit ARM (IC_CPU_ARM_PMULL).  One source for AArch64 and AArch32 (see
 * core/cpu_arm.h), compiled for the crypto extension (IC_TARGET_ARM_CE);
 * compiles to nothing elsewhere.
 *
 * The trick: eight blocks per reduction.  The key setup stores H^1..H^8
 * (and the xor of each power's halves, for Karatsuba), so eight blocks
 * cost 24 independent PMULLs, summed, then one combination and one
 * reduction of two more PMULLs by the constant 0x87: the multiplies overlap
 * in the pipeline instead of waiting on each other through the accumulator.
 * Math and layout: ghash_arm.h.  Constant time: PMULL takes the same time
 * for any operands, and nothing branches on or indexes by H or the data.
 * The same table drives the stitched AES-GCM loop (gcm_arm_pmull.c,
 * IC_STITCH_ARM_CE, declared in the ops' stitch).
 */
#include "core/target.h"

#if IC_ARM_LE
IC_TARGET_BEGIN(IC_TARGET_ARM_CE)
#include "gcm/ghash_arm.h"

static void ghash_pmull_put(ic_ghash_key *hk, unsigned i, uint64x2_t p)
{
    const uint64x2_t kx = vsetq_lane_u64(vgetq_lane_u64(p, 0) ^ vgetq_lane_u64(p, 1), vdupq_n_u64(0), 0);
    vst1q_u8(hk->storage + 16 * (i - 1), vreinterpretq_u8_u64(p));
    vst1q_u8(hk->storage + 128 + 16 * (i - 1), vreinterpretq_u8_u64(kx));
}

static void ghash_pmull_init(ic_ghash_key *hk, const uint8_t h[16])
{
    const uint64x2_t h1 = gh_load(h);
    uint64x2_t p = h1;
    ghash_pmull_put(hk, 1, p);
    for (unsigned i = 2; i <= GHASH_ARM_POWERS; i++) {
        /* H^i = H^(i-1) * H: gh_update with y = 0, n = 1 multiplies by the
         * H^1 entry just stored. */
        uint64x2_t x[1] = {p};
        p = gh_update(hk, vdupq_n_u64(0), x, 1);
        ghash_pmull_put(hk, i, p);
    }
}

/* Eight blocks per reduction, then the 1..7 left over with H^n..H^1. */
static void ghash_pmull_blocks(const ic_ghash_key *hk, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    uint64x2_t acc, x[GHASH_ARM_POWERS];
    if (nblocks == 0)
        return;
    acc = gh_load(y);
    for (; nblocks >= GHASH_ARM_POWERS; nblocks -= GHASH_ARM_POWERS, in += 16 * GHASH_ARM_POWERS) {
        _Pragma("GCC unroll 8") for (size_t i = 0; i < GHASH_ARM_POWERS; i++)
            x[i] = gh_load(in + 16 * i);
        acc = gh_update(hk, acc, x, GHASH_ARM_POWERS);
    }
    if (nblocks > 0) {
        for (size_t i = 0; i < nblocks; i++)
            x[i] = gh_load(in + 16 * i);
        acc = gh_update(hk, acc, x, nblocks);
    }
    gh_store(y, acc);
}

static const ic_ghash_ops pmull_ops = {
    .init = ghash_pmull_init,
    .blocks = ghash_pmull_blocks,
    .stitch = IC_STITCH_BIT(IC_STITCH_ARM_CE),
};
IC_BACKEND(ghash, pmull, IC_F(IC_CPU_ARM_PMULL), &pmull_ops);

IC_TARGET_END
#endif /* IC_ARM_LE */
