/*
 * ghash_ppc_p8.c - GHASH (SP 800-38D section 6.4) with POWER8's vpmsumd
 * carry-less multiply.  Registry "ghash", entry "p8"; needs AT_HWCAP2
 * vcrypto and arch_2_07 (and VSX), like the "p8" AES.
 *
 * The trick: eight blocks per reduction.  The key setup stores H^1..H^8
 * (times y, for the Montgomery reduction) in the three forms vpmsumd wants,
 * so eight blocks cost 24 independent vpmsumd, summed, and one reduction of
 * two more: the multiplies overlap in the pipeline instead of waiting on
 * each other through the accumulator.  The math, the reflected bit order
 * and the register layout are in ghash_ppc.h; chapter 6 of
 * "POWER8 in-core Cryptography: The Unofficial Guide" leaves the reduction as an exercise, and
 * ghash_ppc.h derives it.
 *
 * The same table drives the stitched AES-GCM loop (gcm_ppc_p8.c), which
 * this entry declares in the ops' stitch (IC_STITCH_PPC_P8).  Constant time: vpmsumd
 * takes the same time for any operands and nothing branches on or indexes
 * by H or the data.
 */
#include "core/target.h"

#if defined(__powerpc64__)
IC_TARGET_BEGIN(IC_TARGET_POWER8)
#include "gcm/ghash_ppc.h"

/* A register from its two 64-bit halves (through the byte-order rule). */
static p8_u8 ghash_p8_from64(uint64_t hi, uint64_t lo)
{
    uint8_t b[16];
    ic_store64_be(b, hi);
    ic_store64_be(b + 8, lo);
    p8_u8 v = p8_load_be(b);
    ic_wipe(b, sizeof b);
    return v;
}

/* Store the three multiplier forms of P = H^i y (layout in ghash_ppc.h). */
static void ghash_p8_put(ic_ghash_key *hk, unsigned i, p8_u8 p)
{
    const p8_u8 z = vec_splats((unsigned char)0), sw = vec_sld(p, p, 8); /* [P.lo : P.hi] */
    unsigned char *d = hk->storage + 48 * (i - 1);
    vec_st(vec_sld(z, sw, 8), 0, d);     /* [0 : P.lo]    */
    vec_st(sw, 16, d);                   /* [P.lo : P.hi] */
    vec_st(vec_sld(sw, z, 8), 32, d);    /* [P.hi : 0]    */
}

static void ghash_p8_init(ic_ghash_key *hk, const uint8_t h[16])
{
    /* Hy = H * y mod G: shift the 128-bit number left by one and, if y^128
     * fell out, add G - y^128 = y^127 + y^126 + y^121 + 1 (0xC2...01),
     * selected by a mask, not a branch. */
    uint64_t hi = ic_load64_be(h), lo = ic_load64_be(h + 8);
    uint64_t carry = 0 - (hi >> 63);
    hi = (hi << 1 | lo >> 63) ^ (carry & UINT64_C(0xC200000000000000));
    lo = (lo << 1) ^ (carry & 1);
    p8_u8 p = ghash_p8_from64(hi, lo);
    hi = lo = carry = 0;

    ghash_p8_put(hk, 1, p);
    for (unsigned i = 2; i <= GHASH_P8_POWERS; i++) {
        p8_u8 x[1] = {p};
        /* mont(H^(i-1) y, H y) = H^i y: ghash_p8_update with y = 0, n = 1
         * multiplies by the H^1 entry just stored. */
        p = ghash_p8_update(hk, vec_splats((unsigned char)0), x, 1);
        ghash_p8_put(hk, i, p);
    }
}

/* y = (...((y ^ X_1) H ^ X_2) H ...) H, eight blocks per reduction, then
 * the 1..7 left over with H^n..H^1. */
static void ghash_p8_blocks(const ic_ghash_key *hk, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    p8_u8 acc, x[GHASH_P8_POWERS];
    if (nblocks == 0)
        return;
    acc = p8_load_be(y);
    for (; nblocks >= GHASH_P8_POWERS; nblocks -= GHASH_P8_POWERS, in += 16 * GHASH_P8_POWERS) {
        P8_EACH(i, GHASH_P8_POWERS) x[i] = p8_load_be(in + 16 * i);
        acc = ghash_p8_update(hk, acc, x, GHASH_P8_POWERS);
    }
    if (nblocks > 0) {
        for (size_t i = 0; i < nblocks; i++)
            x[i] = p8_load_be(in + 16 * i);
        acc = ghash_p8_update(hk, acc, x, nblocks);
    }
    p8_store_be(acc, y);
}

static const ic_ghash_ops p8_ops = {
    .init = ghash_p8_init,
    .blocks = ghash_p8_blocks,
    .stitch = IC_STITCH_BIT(IC_STITCH_PPC_P8),
};
IC_BACKEND(ghash, p8, IC_F(IC_CPU_PPC_VCRYPTO) | IC_F(IC_CPU_PPC_ARCH207) | IC_F(IC_CPU_PPC_VSX), &p8_ops);

IC_TARGET_END
#endif /* __powerpc64__ */
