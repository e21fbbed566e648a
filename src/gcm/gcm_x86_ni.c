/*
 * gcm_x86_ni.c - the stitched AES-GCM loop for AES-NI and PCLMULQDQ on
 * 128-bit registers: the gcm_crypt hook of the "clmul" GHASH (and of
 * "vpclmul" when the AES key is an AES-NI one).  Built with -maes -mpclmul
 * -mssse3.
 *
 * Why stitch: counter mode keeps eight AESENC in flight per round and
 * GHASH eight independent PCLMULQDQ products per batch, and the two use
 * different execution units.  Run one after the other, each leaves the
 * other's units idle; interleaved in one loop, the out-of-order core fills
 * the gaps (the approach of S. Gueron and V. Krasnov, "The fragility of
 * AES-GCM authentication algorithm", 2014, and of the Linux kernel's
 * aesni-intel GCM).  Here the loop hashes one block of the batch per AES
 * round: when encrypting, the ciphertext of the previous batch (the
 * current one does not exist yet) with a final batch hashed after the
 * loop; when decrypting, the ciphertext of the current batch, which is the
 * input.  Each batch is one aggregated GHASH (powers H^8 .. H^1, one
 * reduction, see ghash_x86.h).
 *
 * The counter (SP 800-38D inc32) is kept with its bytes reversed, so its
 * 32-bit big-endian tail is the low dword of the register and PADDD adds
 * modulo 2^32 there without touching the 96 fixed bits - the wrap inc32
 * asks for.  Round keys come from the x86 AES layout (aes_x86.h); the
 * function does nothing (returns 0) for a key of any other backend.
 * Only whole batches of 8 blocks are done here; gcm.c does the rest.
 * Constant time: AES-NI and PCLMULQDQ, no data-dependent branch or index.
 */
#include "gcm/ghash_x86.h"
#include "aes/aes_x86.h"

#if defined(__x86_64__)

#define NI_BATCH 8
#define GCM_INLINE static inline __attribute__((always_inline))

/* Counter blocks c + 0 .. c + 7 (reflected form), back in the standard
 * byte order and whitened with round key 0. */
GCM_INLINE void ni_counters(__m128i s[NI_BATCH], __m128i c, __m128i rk0)
{
    const __m128i bs = gh_bswap_mask();
#pragma GCC unroll 8
    for (int i = 0; i < NI_BATCH; i++)
        s[i] = _mm_xor_si128(_mm_shuffle_epi8(_mm_add_epi32(c, _mm_set_epi32(0, 0, 0, i)), bs), rk0);
}

/* One batch: the AES rounds 1 .. rounds of the eight counter blocks in s
 * and, when gsrc is not NULL, the GHASH of its eight blocks into *y, one
 * block's product before each of the first eight rounds.  Written as
 * gcm_x86_vaes.c's va_batch (see there for why, measured): block 0, the
 * one that carries the previous batch's y, is multiplied last; the sums
 * are pinned in registers by an empty asm so they are not re-associated
 * and spilled; gsrc is reloaded from memory, not kept live; and the input
 * is XORed into the AESENCLAST key, off the chain of rounds.  Returns the
 * output blocks in s.  rounds is a constant after inlining. */
GCM_INLINE void ni_batch(__m128i s[NI_BATCH], const __m128i *rk, int rounds, const ghash_x86_key *gk,
                         const uint8_t *gsrc, __m128i *y, const uint8_t *in)
{
    const __m128i *pw = gk->pow + (GHASH_X86_MAXPOW - NI_BATCH);
    const __m128i *kr = gk->kar + (GHASH_X86_MAXPOW - NI_BATCH);
    gh_acc acc;
    gh_acc_zero(&acc);
    if (gsrc != NULL)
        __asm__("" : "+r"(gsrc));
#pragma GCC unroll 14
    for (int r = 1; r < rounds; r++) {
        __m128i key = _mm_load_si128(rk + r);
        if (gsrc != NULL && r <= NI_BATCH) {
            int j = r % NI_BATCH;
            __m128i x = gh_load(gsrc + 16 * j);
            if (j == 0)
                x = _mm_xor_si128(x, *y);
            gh_mul_acc(&acc, x, pw[j], kr[j]);
            __asm__("" : "+x"(acc.lo), "+x"(acc.hi), "+x"(acc.mid));
        }
#pragma GCC unroll 8
        for (int i = 0; i < NI_BATCH; i++)
            s[i] = _mm_aesenc_si128(s[i], key);
    }
    {
        __m128i key = _mm_load_si128(rk + rounds);
#pragma GCC unroll 8
        for (int i = 0; i < NI_BATCH; i++) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(in + 16 * i));
            s[i] = _mm_aesenclast_si128(s[i], _mm_xor_si128(key, x));
        }
    }
    if (gsrc != NULL)
        *y = gh_finish(&acc);
}

GCM_INLINE void ni_store(uint8_t *out, const __m128i s[NI_BATCH])
{
#pragma GCC unroll 8
    for (int i = 0; i < NI_BATCH; i++)
        _mm_storeu_si128((__m128i *)(void *)(out + 16 * i), s[i]);
}

/* nb > 0 blocks, a multiple of 8.  Encrypting, batch j's ciphertext is
 * hashed during batch j + 1 (it is read back from out, where it was just
 * stored: the store-to-load forwarding makes that cheap), the last one
 * after the loop.  Decrypting, batch j's input is hashed during batch j;
 * all of it is loaded before the results are stored, so out == in works. */
GCM_INLINE void ni_crypt(const ic_aes_key *k, int rounds, const ghash_x86_key *gk, int encrypt,
                         uint8_t ctr[16], uint8_t yb[16], uint8_t *out, const uint8_t *in, size_t nb)
{
    const __m128i *rk = (const __m128i *)(const void *)aes_x86_enc_rk(k);
    const __m128i eight = _mm_set_epi32(0, 0, 0, NI_BATCH);
    __m128i c = gh_load(ctr), y = gh_load(yb), s[NI_BATCH];

    if (encrypt) {
        ni_counters(s, c, rk[0]);
        ni_batch(s, rk, rounds, gk, NULL, &y, in);
        ni_store(out, s);
        c = _mm_add_epi32(c, eight);
        for (size_t done = NI_BATCH; done < nb; done += NI_BATCH) {
            ni_counters(s, c, rk[0]);
            ni_batch(s, rk, rounds, gk, out + 16 * (done - NI_BATCH), &y, in + 16 * done);
            ni_store(out + 16 * done, s);
            c = _mm_add_epi32(c, eight);
        }
        y = gh_batch(gk, y, out + 16 * (nb - NI_BATCH), NI_BATCH);
    } else {
        for (size_t done = 0; done < nb; done += NI_BATCH) {
            ni_counters(s, c, rk[0]);
            ni_batch(s, rk, rounds, gk, in + 16 * done, &y, in + 16 * done);
            ni_store(out + 16 * done, s);
            c = _mm_add_epi32(c, eight);
        }
    }
    gh_store(ctr, c);
    gh_store(yb, y);
}

size_t gcm_x86_ni_crypt(const ic_aes_key *k, const ic_ghash_key *hk, int encrypt, uint8_t ctr[16],
                        uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const ghash_x86_key *gk = ghash_x86_key_of(hk);
    size_t nb = nblocks - nblocks % NI_BATCH;
    if (nb == 0 || !aes_x86_key_native(k))
        return 0;
    switch (k->rounds) {
    case 10: ni_crypt(k, 10, gk, encrypt, ctr, y, out, in, nb); break;
    case 12: ni_crypt(k, 12, gk, encrypt, ctr, y, out, in, nb); break;
    case 14: ni_crypt(k, 14, gk, encrypt, ctr, y, out, in, nb); break;
    default: return 0;
    }
    return nb;
}

#endif /* __x86_64__ */
