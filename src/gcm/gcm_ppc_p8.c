/*
 * gcm_ppc_p8.c - AES-GCM's bulk on POWER8 with counter mode and GHASH
 * stitched together: the stitched loop IC_STITCH_PPC_P8 (ghash_impl.h),
 * which the "p8" AES and GHASH both declare, so gcm.c runs it for whole
 * blocks when the key pairs those two.
 *
 * The trick: vcipher and vpmsumd run on independent data, so they overlap.
 * Each batch of eight counter blocks goes through its AES rounds while a
 * batch of ciphertext is multiplied by H^8..H^1: after round r (r = 1..8)
 * comes the multiply of block r of the batch being hashed, and the one
 * reduction sits in front of the remaining rounds.  Chapter 8 of
 * "POWER8 in-core Cryptography: The Unofficial Guide" measures AES-GCM at 1.35 cycles/byte against
 * 1.27 for CTR alone on POWER8: GHASH has to hide almost entirely behind
 * the AES rounds, and the eight AES chains and the GHASH products here
 * never wait on each other.
 *   - decrypting, the batch hashed is the ciphertext being decrypted: it is
 *     in memory before the rounds start;
 *   - encrypting, it is the ciphertext of the previous batch, read back
 *     from out; the first batch has nothing to hash beside it and the
 *     last one is hashed alone after the loop.
 * The counter is SP 800-38D's inc32 (p8_counters, aes_ppc.h) and stays in
 * a register.  out == in works: each input block is loaded before the same
 * block of output is stored, and what GHASH reads is ciphertext that no
 * later store overwrites.  Round keys and H powers are read in the layouts
 * of aes_ppc.h and ghash_ppc.h, which is why the hook does nothing for an
 * AES key expanded by another implementation.
 */
#include "core/target.h"

#if defined(__powerpc64__)
IC_TARGET_BEGIN(IC_TARGET_POWER8)
#include "gcm/ghash_ppc.h"

/* E(K, s[i]) for the eight counters, and *y = GHASH update of *y by the
 * eight blocks at g, interleaved round by round (see the file comment).
 * Each block of g is loaded just before its multiply rather than held in
 * a register through the rounds: the eight AES lanes, the accumulators
 * and the round key already fill most of the 32 vector registers. */
P8_INLINE void gcm_p8_stitched(const ic_aes_key *k, const ic_ghash_key *hk, p8_u8 s[P8_LANES],
                               const uint8_t *g, p8_u8 *y)
{
    ghash_p8_acc a = ghash_p8_acc_zero();
    p8_whiten(k, s, P8_LANES, 0);
    _Pragma("GCC unroll 8") for (unsigned r = 1; r <= 8; r++) {
        p8_u8 x = p8_load_be(g + 16 * (r - 1));
        p8_round(k, s, P8_LANES, r, 0);
        ghash_p8_mulacc(&a, r == 1 ? vec_xor(*y, x) : x, hk, 9 - r);
    }
    *y = ghash_p8_reduce(a);
    p8_cipher_tail(k, s, P8_LANES, 0);
}

size_t ic_gcm_p8_crypt(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, uint8_t ctr[16],
                    uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const size_t nb = nblocks - nblocks % P8_LANES;
    const int encrypt = (flags & IC_GCM_HOOK_ENCRYPT) != 0;  /* counters: vadduwm, no shortcut */
    const p8_u8 one = p8_word(1), two = p8_word(2);
    p8_u8 s[P8_LANES], c, acc;

    if (nb == 0)   /* k is a "p8" key: the pairing (gcm.c) */
        return 0;
    c = p8_load_be(ctr);
    acc = p8_load_be(y);
    for (size_t done = 0; done < nb; done += P8_LANES) {
        const uint8_t *src = in + 16 * done;
        uint8_t *dst = out + 16 * done;
        p8_counters(s, P8_LANES, &c, one, two, 1);
        if (!encrypt)
            gcm_p8_stitched(k, hk, s, src, &acc);                  /* this batch   */
        else if (done != 0)
            gcm_p8_stitched(k, hk, s, dst - 16 * P8_LANES, &acc);  /* the previous */
        else
            p8_cipher(k, s, P8_LANES, 0);                          /* nothing yet  */
        P8_EACH(i, P8_LANES) p8_store_be(vec_xor(s[i], p8_load_be(src + 16 * i)), dst + 16 * i);
    }
    if (encrypt) {
        /* the last batch's ciphertext, hashed alone */
        P8_EACH(i, P8_LANES) s[i] = p8_load_be(out + 16 * (nb - P8_LANES + i));
        acc = ghash_p8_update(hk, acc, s, P8_LANES);
    }
    p8_store_be(c, ctr);
    p8_store_be(acc, y);
    return nb;
}

IC_TARGET_END
#endif /* __powerpc64__ */
