/*
 * gcm_x86_vaes.c - the stitched AES-GCM loop for VAES and VPCLMULQDQ on
 * 256-bit registers (Zen 3, Alder Lake and later, no AVX-512 needed), 16
 * blocks a batch: the gcm_crypt hook of the "vpclmul" GHASH.  Built with
 * -maes -mpclmul -mssse3 -mavx2 -mvaes -mvpclmulqdq.
 *
 * Sixteen blocks in flight: eight YMM registers of two counter blocks each
 * go through the rounds together, so VAESENC's latency (4 cycles on Zen 3,
 * two issued per cycle) is covered, and the GHASH of sixteen ciphertext
 * blocks (eight VPCLMULQDQ Karatsuba triples against the powers H^16 ..
 * H^1, ghash_x86.h) is interleaved with the rounds, with one reduction per
 * batch.  The loop is gcm_x86_stitch.h, shared with the AES-NI version;
 * this file supplies the 256-bit registers.
 *
 * The counter is kept with its bytes reversed, both lanes (lane 1 one
 * ahead), so the 32-bit inc32 counter of SP 800-38D is the low dword of
 * each lane and VPADDD wraps it modulo 2^32 by itself.  Round keys are the
 * x86 layout of aes_x86.h, broadcast to both lanes.  The loop runs only
 * for keys of the "vaes" AES backend; an AES-NI key goes to the 8-block
 * loop of gcm_x86_ni.c (the GHASH key holds the powers both need), any
 * other key to the caller's plain path.  Whole batches only.
 * Constant time: VAES, VPCLMULQDQ, no data-dependent branch or index.
 */
#include "gcm/ghash_x86.h"
#include "aes/aes_x86.h"

#if defined(__x86_64__)

#define GX_V __m256i
#define GX_NBLK 16
#define GX_ACC gh256_acc

GX_INLINE __m256i gx_key(const __m128i *rk, int r) { return _mm256_broadcastsi128_si256(_mm_load_si128(rk + r)); }
GX_INLINE __m256i gx_enc(__m256i s, __m256i k) { return _mm256_aesenc_epi128(s, k); }
GX_INLINE __m256i gx_enclast(__m256i s, __m256i k) { return _mm256_aesenclast_epi128(s, k); }
GX_INLINE __m256i gx_xor(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
GX_INLINE __m256i gx_loadu(const uint8_t *p) { return _mm256_loadu_si256((const __m256i *)(const void *)p); }
GX_INLINE void gx_storeu(uint8_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)(void *)p, v); }

/* lane 0: the counter, lane 1: the counter + 1 */
GX_INLINE __m256i gx_ctr_init(const uint8_t ctr[16])
{
    return _mm256_add_epi32(_mm256_broadcastsi128_si256(gh_load(ctr)), _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0));
}
GX_INLINE __m256i gx_ctr_next(__m256i c)
{
    return _mm256_add_epi32(c, _mm256_set_epi32(0, 0, 0, GX_NBLK, 0, 0, 0, GX_NBLK));
}
GX_INLINE __m128i gx_ctr_out(__m256i c) { return _mm256_castsi256_si128(c); }

/* Counter blocks c + 0 .. c + 15 in the standard byte order, whitened
 * with round key 0.  When the counter's last byte does not wrap within
 * the batch (15 batches in 16), the blocks differ from the first pair only
 * in byte 15, so one byte swap and an add on that byte (the top byte of
 * dword 3 in a lane) make them; otherwise each pair is added in reflected
 * form and swapped, which carries through all 32 bits.  The branch is on
 * the counter, which is public (it comes from the IV). */
GX_INLINE void gx_counters(__m256i s[8], __m256i c, __m256i rk0)
{
    const __m256i bs = _mm256_broadcastsi128_si256(gh_bswap_mask());
    if ((_mm_cvtsi128_si32(_mm256_castsi256_si128(c)) & 0xff) <= 0x100 - GX_NBLK) {
        __m256i base = _mm256_shuffle_epi8(c, bs);
#pragma GCC unroll 8
        for (int i = 0; i < 8; i++) {
            __m256i ci = _mm256_add_epi32(base, _mm256_set_epi32(2 * i << 24, 0, 0, 0, 2 * i << 24, 0, 0, 0));
            s[i] = _mm256_xor_si256(ci, rk0);
        }
        return;
    }
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        __m256i ci = _mm256_add_epi32(c, _mm256_set_epi32(0, 0, 0, 2 * i, 0, 0, 0, 2 * i));
        s[i] = _mm256_xor_si256(_mm256_shuffle_epi8(ci, bs), rk0);
    }
}

GX_INLINE void gx_acc_zero(gh256_acc *a) { gh256_acc_zero(a); }
GX_INLINE void gx_pin(gh256_acc *a) { __asm__("" : "+x"(a->lo), "+x"(a->hi), "+x"(a->mid)); }
GX_INLINE __m128i gx_hash(const ghash_x86_key *gk, __m128i y, const uint8_t *p) { return gh256_batch(gk, y, p, GX_NBLK); }

/* The two lanes fold into one 128-bit sum before the single reduction. */
GX_INLINE __m128i gx_finish(gh256_acc *a)
{
    gh_acc f;
    gh_acc_zero(&f);
    gh256_fold_into(&f, a);
    return gh_finish(&f);
}

/* Blocks 2j and 2j+1 of the batch at p times H^(16-2j) and H^(15-2j). */
GX_INLINE void gx_mul(gh256_acc *a, const ghash_x86_key *gk, const uint8_t *p, int j, __m128i y)
{
    __m256i x = gh256_load(p + 32 * j);
    if (j == 0)
        x = _mm256_xor_si256(x, _mm256_zextsi128_si256(y));
    gh256_mul_acc(a, x, gk->pow + 2 * j, gk->kar + 2 * j);
}

#include "gcm/gcm_x86_stitch.h"

/* VAES keys: the 16-block loop here; AES-NI keys (ghash "vpclmul" with aes
 * "ni", e.g. under INCORE_CPU=-vaes): the 8-block loop of gcm_x86_ni.c,
 * whose powers H^8 .. H^1 this GHASH key holds too. */
size_t ic_gcm_x86_vaes_crypt(const ic_aes_key *k, const ic_ghash_key *hk, int encrypt, uint8_t ctr[16],
                          uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    if (ic_aes_key_ops(k) != &ic_aes_vaes_ops)
        return ic_gcm_x86_ni_crypt(k, hk, encrypt, ctr, y, out, in, nblocks);
    return gx_crypt(k, ghash_x86_key_of(hk), encrypt, ctr, y, out, in, nblocks);
}

#endif /* __x86_64__ */
