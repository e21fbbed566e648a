/*
 * gcm_x86_vaes.c - the stitched AES-GCM loop for VAES and VPCLMULQDQ on
 * 256-bit registers (Zen 3, Alder Lake and later, no AVX-512 needed): the
 * gcm_crypt hook of the "vpclmul" GHASH.  Built with -maes -mpclmul -mssse3
 * -mavx2 -mvaes -mvpclmulqdq.
 *
 * Sixteen blocks in flight: eight YMM registers of two counter blocks each
 * go through the rounds together, so VAESENC's latency (4 cycles on Zen 3,
 * two issued per cycle) is covered eight times over, and the GHASH of
 * sixteen ciphertext blocks (eight VPCLMULQDQ triples, ghash_x86.h and
 * ghash_x86_vpclmul.c) is interleaved with the rounds, one register pair
 * per round, with one reduction per batch.  As in gcm_x86_ni.c, encryption
 * hashes the previous batch's ciphertext (and the last batch after the
 * loop), decryption the current batch's input before anything is stored.
 *
 * The counter is kept with its bytes reversed (lane-wise VPSHUFB), so the
 * 32-bit inc32 counter of SP 800-38D is the low dword of each lane and
 * VPADDD wraps it modulo 2^32 by itself.  Round keys are the x86 layout of
 * aes_x86.h, broadcast to both lanes once per round.  This loop runs only
 * for keys of the "vaes" AES backend; an AES-NI key goes to the 8-block
 * loop of gcm_x86_ni.c (the GHASH key holds the powers both need), any
 * other key to the caller's plain path.  Whole batches of 16 blocks only.
 * Constant time: VAES, VPCLMULQDQ, no data-dependent branch or index.
 */
#include "gcm/ghash_x86.h"
#include "aes/aes_x86.h"

#if defined(__x86_64__)

#define VA_BATCH 16
#define VA_REGS (VA_BATCH / 2)
#define GCM_INLINE static inline __attribute__((always_inline))

/* Counter blocks c + 0 .. c + 15 (c in reflected form, both lanes, lane 1
 * one ahead), in the standard byte order and whitened with round key 0.
 * When the counter's last byte does not wrap within the batch (15 batches
 * in 16), the blocks differ from the first pair only in byte 15, so one
 * byte swap and an add on that byte (the top byte of dword 3 in a lane)
 * make them; otherwise each pair is added in reflected form and swapped,
 * which carries through all 32 bits.  The branch is on the counter, which
 * is public (it comes from the IV). */
GCM_INLINE void va_counters(__m256i s[VA_REGS], __m256i c, __m256i rk0)
{
    const __m256i bs = _mm256_broadcastsi128_si256(gh_bswap_mask());
    if ((_mm_cvtsi128_si32(_mm256_castsi256_si128(c)) & 0xff) <= 0x100 - VA_BATCH) {
        __m256i base = _mm256_shuffle_epi8(c, bs);
#pragma GCC unroll 8
        for (int i = 0; i < VA_REGS; i++) {
            __m256i ci = _mm256_add_epi32(base, _mm256_set_epi32(2 * i << 24, 0, 0, 0, 2 * i << 24, 0, 0, 0));
            s[i] = _mm256_xor_si256(ci, rk0);
        }
        return;
    }
#pragma GCC unroll 8
    for (int i = 0; i < VA_REGS; i++) {
        __m256i ci = _mm256_add_epi32(c, _mm256_set_epi32(0, 0, 0, 2 * i, 0, 0, 0, 2 * i));
        s[i] = _mm256_xor_si256(_mm256_shuffle_epi8(ci, bs), rk0);
    }
}

/* One batch: rounds 1 .. rounds of the sixteen counter blocks in s, and,
 * when gsrc is not NULL, the GHASH of its sixteen blocks into *y.  Why
 * it is written this way (each measured on Zen 3, where VPCLMULQDQ issues
 * once per two cycles on a pipe that also runs VAESENC, so the two
 * compete and every extra vector instruction shows):
 *  - the product of one register pair is issued before each of the first
 *    eight rounds, pairs 1..7 first and pair 0 (the one that carries the
 *    previous batch's y) last, so the chain from one batch's reduction to
 *    the next batch's products has a whole batch of rounds to hide in;
 *  - the empty asm keeps each sum in a register as it grows: without it
 *    the compiler re-associates the 24 XORs into a tree at the end of the
 *    batch, spilling every product to the stack on the way;
 *  - gsrc is laundered through an asm so that, encrypting, the previous
 *    batch's ciphertext is reloaded from out (store-to-load forwarding)
 *    instead of being kept live in eight registers across the loop;
 *  - the input is XORed into the last round key, not into the result
 *    (AESENCLAST ends with AddRoundKey, so the two are the same): the XOR
 *    leaves the chain of dependent rounds and runs while they do.
 * Returns the output blocks in s.  rounds is a constant after inlining. */
GCM_INLINE void va_batch(__m256i s[VA_REGS], const __m128i *rk, int rounds, const ghash_x86_key *gk,
                         const uint8_t *gsrc, __m128i *y, const uint8_t *in)
{
    gh256_acc acc;
    gh_acc fold;
    gh256_acc_zero(&acc);
    if (gsrc != NULL)
        __asm__("" : "+r"(gsrc));
#pragma GCC unroll 14
    for (int r = 1; r < rounds; r++) {
        __m256i key = _mm256_broadcastsi128_si256(_mm_load_si128(rk + r));
        if (gsrc != NULL && r <= VA_REGS) {
            int j = r % VA_REGS;
            __m256i x = gh256_load(gsrc + 32 * j);
            if (j == 0)
                x = _mm256_xor_si256(x, _mm256_zextsi128_si256(*y));
            gh256_mul_acc(&acc, x, gk->pow + 2 * j, gk->kar + 2 * j);
            __asm__("" : "+x"(acc.lo), "+x"(acc.hi), "+x"(acc.mid));
        }
#pragma GCC unroll 8
        for (int i = 0; i < VA_REGS; i++)
            s[i] = _mm256_aesenc_epi128(s[i], key);
    }
    {
        __m256i key = _mm256_broadcastsi128_si256(_mm_load_si128(rk + rounds));
#pragma GCC unroll 8
        for (int i = 0; i < VA_REGS; i++) {
            __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(in + 32 * i));
            s[i] = _mm256_aesenclast_epi128(s[i], _mm256_xor_si256(key, x));
        }
    }
    if (gsrc != NULL) {
        gh_acc_zero(&fold);
        gh256_fold_into(&fold, &acc);
        *y = gh_finish(&fold);
    }
}

GCM_INLINE void va_store(uint8_t *out, const __m256i s[VA_REGS])
{
#pragma GCC unroll 8
    for (int i = 0; i < VA_REGS; i++)
        _mm256_storeu_si256((__m256i *)(void *)(out + 32 * i), s[i]);
}

/* nb > 0 blocks, a multiple of 16; the batch order is that of ni_crypt in
 * gcm_x86_ni.c. */
GCM_INLINE void va_crypt(const ic_aes_key *k, int rounds, const ghash_x86_key *gk, int encrypt,
                         uint8_t ctr[16], uint8_t yb[16], uint8_t *out, const uint8_t *in, size_t nb)
{
    const __m128i *rk = (const __m128i *)(const void *)aes_x86_enc_rk(k);
    const __m256i step = _mm256_set_epi32(0, 0, 0, VA_BATCH, 0, 0, 0, VA_BATCH);
    const __m256i rk0 = _mm256_broadcastsi128_si256(_mm_load_si128(rk));
    __m128i y = gh_load(yb);
    /* lane 0: the counter, lane 1: the counter + 1 */
    __m256i c = _mm256_add_epi32(_mm256_broadcastsi128_si256(gh_load(ctr)),
                                 _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0));
    __m256i s[VA_REGS];

    if (encrypt) {
        va_counters(s, c, rk0);
        va_batch(s, rk, rounds, gk, NULL, &y, in);
        va_store(out, s);
        c = _mm256_add_epi32(c, step);
        for (size_t done = VA_BATCH; done < nb; done += VA_BATCH) {
            va_counters(s, c, rk0);
            va_batch(s, rk, rounds, gk, out + 16 * (done - VA_BATCH), &y, in + 16 * done);
            va_store(out + 16 * done, s);
            c = _mm256_add_epi32(c, step);
        }
        y = gh256_batch(gk, y, out + 16 * (nb - VA_BATCH), VA_BATCH);
    } else {
        for (size_t done = 0; done < nb; done += VA_BATCH) {
            va_counters(s, c, rk0);
            va_batch(s, rk, rounds, gk, in + 16 * done, &y, in + 16 * done);
            va_store(out + 16 * done, s);
            c = _mm256_add_epi32(c, step);
        }
    }
    gh_store(ctr, _mm256_castsi256_si128(c));
    gh_store(yb, y);
}

/* VAES keys: the 16-block loop here; AES-NI keys (ghash "vpclmul" with aes
 * "ni", e.g. under INCORE_CPU=-vaes): the 8-block loop of gcm_x86_ni.c,
 * whose powers H^8 .. H^1 this GHASH key holds too. */
size_t gcm_x86_vaes_crypt(const ic_aes_key *k, const ic_ghash_key *hk, int encrypt, uint8_t ctr[16],
                          uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const ghash_x86_key *gk = ghash_x86_key_of(hk);
    size_t nb = nblocks - nblocks % VA_BATCH;
    if (k->ops != (const void *)&ic_aes_vaes_ops)
        return gcm_x86_ni_crypt(k, hk, encrypt, ctr, y, out, in, nblocks);
    if (nb == 0)
        return 0;
    switch (k->rounds) {
    case 10: va_crypt(k, 10, gk, encrypt, ctr, y, out, in, nb); break;
    case 12: va_crypt(k, 12, gk, encrypt, ctr, y, out, in, nb); break;
    case 14: va_crypt(k, 14, gk, encrypt, ctr, y, out, in, nb); break;
    default: return 0;
    }
    return nb;
}

#endif /* __x86_64__ */
