/*
 * gcm_arm_pmull.c - AES-GCM's bulk on ARMv8 (AArch64 and AArch32) with
 * counter mode (AESE / AESMC) and GHASH (PMULL) stitched together: the
 * stitched loop IC_STITCH_ARM_CE (ghash_impl.h), which the "ce" AES and the
 * "pmull" GHASH both declare, so gcm.c runs it for whole blocks when the
 * key pairs those two (aes_arm.h layout); any other pair runs ctr32 +
 * blocks.
 *
 * The trick: AESE/AESMC and PMULL run on independent data, so they overlap
 * in the pipeline.  Each batch of eight counter blocks goes through its AES
 * rounds while a batch of ciphertext is multiplied by H^8..H^1: after AES
 * round r (r = 0..7, which every key size has) comes the multiply of block
 * r of the batch being hashed, and the one reduction sits in front of the
 * remaining rounds.
 *   - decrypting, the batch hashed is the ciphertext being decrypted: it is
 *     in memory before the rounds start;
 *   - encrypting, it is the ciphertext of the previous batch, read back
 *     from out; the first batch has nothing to hash beside it and the last
 *     one is hashed alone after the loop.
 * The counter is SP 800-38D's inc32 by vector 32-bit adds (ce_counters,
 * aes_arm.h), never branched on, so IC_GCM_HOOK_CTR_PUBLIC changes nothing
 * here.  On AArch32 the 16 Q registers cannot hold the eight AES lanes,
 * the round key and the five GHASH values at once, so the compiler spills
 * one or two to the stack each round (L1 traffic, not a data-dependent
 * address).  out == in works: each input block is loaded before the same block
 * of output is stored, and GHASH reads ciphertext no later store overwrites.
 */
#include "core/target.h"

#if IC_ARM_LE
IC_TARGET_BEGIN(IC_TARGET_ARM_CE)
#include "gcm/ghash_arm.h"
#include "aes/aes_arm.h"

/* E(K, s[i]) for the eight counters and *y updated by the eight blocks at
 * g, interleaved round by round (see the file comment). */
CE_INLINE void gcm_ce_stitched(const ic_aes_key *k, const ic_ghash_key *hk, uint8x16_t s[CE_LANES],
                               const uint8_t *g, uint64x2_t *y)
{
    const unsigned nr = k->rounds;
    gh_acc a;
    _Pragma("GCC unroll 8") for (unsigned r = 0; r < 8; r++) {
        const uint64x2_t x = gh_load(g + 16 * r);
        ce_enc_round(s, CE_LANES, ce_rk(k, r));
        if (r == 0)
            gh_first(&a, veorq_u64(*y, x), gh_pow(hk, 8), gh_kx(hk, 8));
        else
            gh_mac(&a, x, gh_pow(hk, 8 - r), gh_kx(hk, 8 - r));
    }
    *y = gh_reduce(&a);
    for (unsigned t = 8; t + 1 < nr; t++)
        ce_enc_round(s, CE_LANES, ce_rk(k, t));
    ce_enc_last(k, s, CE_LANES);
}

size_t ic_gcm_arm_crypt(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, uint8_t ctr[16],
                        uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const size_t nb = nblocks - nblocks % CE_LANES;
    const int encrypt = (flags & IC_GCM_HOOK_ENCRYPT) != 0;
    uint8x16_t s[CE_LANES];
    uint64x2_t num, acc;

    if (nb == 0)   /* k is a "ce" key: the pairing (gcm.c) */
        return 0;
    num = ce_num(vld1q_u8(ctr));
    acc = gh_load(y);
    for (size_t done = 0; done < nb; done += CE_LANES) {
        const uint8_t *src = in + 16 * done;
        uint8_t *dst = out + 16 * done;
        ce_counters(s, CE_LANES, &num, 1);
        if (!encrypt)
            gcm_ce_stitched(k, hk, s, src, &acc);                  /* this batch   */
        else if (done != 0)
            gcm_ce_stitched(k, hk, s, dst - 16 * CE_LANES, &acc);  /* the previous */
        else
            ce_encrypt(k, s, CE_LANES);                            /* nothing yet  */
        CE_EACH(i, CE_LANES) vst1q_u8(dst + 16 * i, veorq_u8(s[i], vld1q_u8(src + 16 * i)));
    }
    if (encrypt) {
        /* the last batch's ciphertext, hashed alone */
        uint64x2_t x[CE_LANES];
        CE_EACH(i, CE_LANES) x[i] = gh_load(out + 16 * (nb - CE_LANES + i));
        acc = gh_update(hk, acc, x, CE_LANES);
    }
    vst1q_u8(ctr, ce_block(num));
    gh_store(y, acc);
    return nb;
}

IC_TARGET_END
#endif /* IC_ARM_LE */
