/*
 * gcm_ppc_p8.c - AES-GCM's bulk on POWER8 with counter mode and GHASH
 * stitched together: the gcm_crypt hook of the "p8" GHASH (ghash_impl.h),
 * used by gcm.c for whole blocks when the AES key is a "p8" key.
 *
 * The trick: vcipher and vpmsumd run on independent data, so they overlap.
 * Each batch of eight counter blocks goes through its AES rounds while a
 * batch of ciphertext is multiplied by H^8..H^1: after round r (r = 1..8)
 * comes the multiply of block r of the batch being hashed, and the one
 * reduction sits in front of the remaining rounds.  Chapter 8 of
 * 000_6ee591281a7c6f71.txt measures AES-GCM at 1.35 cycles/byte against
 * 1.27 for CTR alone on POWER8: GHASH has to hide almost entirely behind
 * the AES rounds, and the eight AES chains and the GHASH products here
 * never wait on each other.
 *   - decrypting, the batch hashed is the ciphertext being decrypted: it is
 *     in memory before the rounds start;
 *   - encrypting, it is the ciphertext of the previous batch, kept in
 *     registers; the first batch has nothing to hash beside it and the
 *     last one is hashed alone after the loop.
 * The counter is SP 800-38D's inc32 (vadduwm, aes_ppc.h) and stays in a
 * register; all inputs of a batch are loaded before its outputs are stored,
 * so out == in works.  Round keys and H powers are read in the layouts of
 * aes_ppc.h and ghash_ppc.h, which is why the hook does nothing for an AES
 * key expanded by another implementation.
 */
#include "gcm/ghash_ppc.h"

#if defined(__powerpc64__)

/* s[] = the next eight counter blocks, *ctr advanced past them. */
static inline void gcm_p8_counters(p8_u8 s[P8_LANES], p8_u8 *ctr, const p8_u8 inc[P8_LANES + 1])
{
    P8_EACH(i, P8_LANES) s[i] = (p8_u8)vec_add((p8_u32)*ctr, (p8_u32)inc[i]);
    *ctr = (p8_u8)vec_add((p8_u32)*ctr, (p8_u32)inc[P8_LANES]);
}

/* E(K, s[i]) for the eight counters, and *y = GHASH update of *y by the
 * eight blocks g[], interleaved round by round (see the file comment). */
static inline void gcm_p8_stitched(const ic_aes_key *k, const ic_ghash_key *hk, p8_u8 s[P8_LANES],
                                   const p8_u8 g[P8_LANES], p8_u8 *y)
{
    ghash_p8_acc a = ghash_p8_acc_zero();
    P8_ROUNDS(P8_LANES, s, vec_xor, p8_rk(k, 0));
    _Pragma("GCC unroll 8") for (unsigned r = 1; r <= 8; r++) {
        P8_ROUNDS(P8_LANES, s, p8_enc, p8_rk(k, r));
        ghash_p8_mulacc(&a, r == 1 ? vec_xor(*y, g[0]) : g[r - 1], hk, 9 - r);
    }
    *y = ghash_p8_reduce(a);
    p8_encrypt_tail(k, s, P8_LANES);
}

size_t gcm_p8_crypt(const ic_aes_key *k, const ic_ghash_key *hk, int encrypt, uint8_t ctr[16],
                    uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    p8_u8 inc[P8_LANES + 1], s[P8_LANES], g[P8_LANES], c, acc;
    size_t done = 0;

    if (!aes_ppc_key_native(k) || nblocks < P8_LANES)
        return 0;
    P8_EACH(i, P8_LANES + 1) inc[i] = p8_word((uint32_t)i);
    c = p8_load_be(ctr);
    acc = p8_load_be(y);

    if (encrypt) {
        /* First batch: AES only; its ciphertext waits in g[]. */
        gcm_p8_counters(s, &c, inc);
        p8_encrypt(k, s, P8_LANES);
        P8_EACH(i, P8_LANES) {
            g[i] = vec_xor(s[i], p8_load_be(in + 16 * i));
            p8_store_be(g[i], out + 16 * i);
        }
        for (done = P8_LANES; nblocks - done >= P8_LANES; done += P8_LANES) {
            const uint8_t *src = in + 16 * done;
            uint8_t *dst = out + 16 * done;
            gcm_p8_counters(s, &c, inc);
            gcm_p8_stitched(k, hk, s, g, &acc);
            P8_EACH(i, P8_LANES) {
                g[i] = vec_xor(s[i], p8_load_be(src + 16 * i));
                p8_store_be(g[i], dst + 16 * i);
            }
        }
        acc = ghash_p8_update(hk, acc, g, P8_LANES);
    } else {
        for (; nblocks - done >= P8_LANES; done += P8_LANES) {
            const uint8_t *src = in + 16 * done;
            uint8_t *dst = out + 16 * done;
            P8_EACH(i, P8_LANES) g[i] = p8_load_be(src + 16 * i);
            gcm_p8_counters(s, &c, inc);
            gcm_p8_stitched(k, hk, s, g, &acc);
            P8_EACH(i, P8_LANES) p8_store_be(vec_xor(s[i], g[i]), dst + 16 * i);
        }
    }
    p8_store_be(c, ctr);
    p8_store_be(acc, y);
    return done;
}

#endif /* __powerpc64__ */
