/*
 * poly1305_x86_avx512.c - Poly1305 with AVX-512F, 8 lanes of five 26-bit limbs:
 * the "avx512" entry of ic_impls_poly1305.
 *
 * The algorithm (complete 8-decimation Horner over a message logically
 * prefixed with zero blocks, after "Improved SIMD Implementation of
 * Poly1305") and its bounds are in
 * poly1305_x86_vec.h; this file only says what a vector is.  A group is
 * 128 bytes, two 512-bit loads unpacked into lanes holding blocks 0, 4, 1,
 * 5, 2, 6, 3, 7.  Runs of fewer than PV_MIN_BLOCKS blocks use the
 * radix-2^64 scalar code, which wins there (crossover measured,
 * docs/backends.md, Poly1305).
 */
#include "core/target.h"

#if defined(__x86_64__)
IC_TARGET_BEGIN("avx2,avx512f,avx512vl")
#include <immintrin.h>

#define PV __m512i
#define PV_L 8
#define PV_FN(name) poly1305_avx512_##name
#define PV_MIN_BLOCKS 13
#define PV_ADD _mm512_add_epi64
#define PV_MUL _mm512_mul_epu32
#define PV_AND _mm512_and_si512
#define PV_OR _mm512_or_si512
#define PV_SRL _mm512_srli_epi64
#define PV_SLL _mm512_slli_epi64
#define PV_SET1(v) _mm512_set1_epi64((long long)(v))
#define PV_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define PV_STOREU(p, v) _mm512_storeu_si512((void *)(p), (v))
#define PV_LOAD32(p) _mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define PV_MSG(p, lo, hi) do {                                        \
        __m512i x_ = PV_LOADU(p), y_ = PV_LOADU((p) + 64);            \
        lo = _mm512_unpacklo_epi64(x_, y_);                           \
        hi = _mm512_unpackhi_epi64(x_, y_);                           \
    } while (0)

/* First group: lane q gets block pos(q) - k (VPERMQ indices), lanes of
 * positions below k cleared by the mask (table from pos() and the unpack
 * order, poly1305_x86_vec.h); shared with poly1305_x86_ifma.c. */
#include "poly1305/poly1305_x86_first8.h"
#define PV_FIRST(p, k, lo, hi) do {                                                      \
        __m512i i_ = _mm512_loadu_si512((const void *)ic_poly1305_first8_idx[k]);         \
        __mmask8 m_ = (__mmask8)ic_poly1305_first8_keep[k];                               \
        PV_MSG(p, lo, hi);                                                                \
        lo = _mm512_maskz_permutexvar_epi64(m_, i_, lo);                                  \
        hi = _mm512_maskz_permutexvar_epi64(m_, i_, hi);                                  \
    } while (0)
#define PV_MASKED_SET1(mask, v) _mm512_maskz_set1_epi64((__mmask8)(mask), (long long)(v))
#define PV_HSUM(v) ((uint64_t)_mm512_reduce_add_epi64(v))
#define PV_SELECT(mask, a, b) _mm512_mask_blend_epi64((__mmask8)(mask), (b), (a))
#define PV_BCAST0(v) _mm512_broadcastq_epi64(_mm512_castsi512_si128(v))
#define PV_LANE0(v) ((uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(v)))
#define PV_STORE32(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), _mm512_cvtepi64_epi32(v))

#include "poly1305/poly1305_x86_vec.h"

static const ic_poly1305_ops avx512_ops = {
    .init = poly1305_avx512_init,
    .blocks = poly1305_avx512_blocks,
    .finish = poly1305_avx512_finish,
};
/* compiled for AVX-512VL too: the compiler may use VL forms (the final
 * lane sums), so VL is a need */
IC_BACKEND(poly1305, avx512, IC_F(IC_CPU_AVX512F) | IC_F(IC_CPU_AVX512VL) | IC_F(IC_CPU_AVX2), &avx512_ops);

IC_TARGET_END
#endif
