/*
 * poly1305_x86_avx2.c - Poly1305 with AVX2, 4 lanes of five 26-bit limbs:
 * the "avx2" entry of ic_impls_poly1305.
 *
 * The algorithm (complete 4-decimation Horner over a message logically
 * prefixed with zero blocks, after "Improved SIMD Implementation of
 * Poly1305") and its bounds are in
 * poly1305_x86_vec.h; this file only says what a vector is.  A group is
 * 64 bytes, two 256-bit loads unpacked into lanes holding blocks 0, 2, 1,
 * 3.  Runs of fewer than PV_MIN_BLOCKS blocks use the radix-2^64 scalar
 * code, which wins there (crossover measured, docs/backends.md, Poly1305).
 */
#include "core/target.h"

#if defined(__x86_64__)
IC_TARGET_BEGIN("avx2")
#include <immintrin.h>
#include <stdint.h>

#define PV __m256i
#define PV_L 4
#define PV_FN(name) poly1305_avx2_##name
/* IC_POLY1305_AVX2_MIN overrides the crossover at build time (1: vector
 * code at every length, for the algorithm comparison of docs/backends.md, Poly1305) */
#if defined(IC_POLY1305_AVX2_MIN)
#define PV_MIN_BLOCKS IC_POLY1305_AVX2_MIN
#else
#define PV_MIN_BLOCKS 10
#endif
#define PV_GG 1     /* also build the Goll-Gueron comparison entry "avx2-gg" */
#define PV_ADD _mm256_add_epi64
#define PV_MUL _mm256_mul_epu32
#define PV_AND _mm256_and_si256
#define PV_OR _mm256_or_si256
#define PV_SRL _mm256_srli_epi64
#define PV_SLL _mm256_slli_epi64
#define PV_SET1(v) _mm256_set1_epi64x((long long)(v))
#define PV_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define PV_STOREU(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define PV_LOAD32(p) _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define PV_MSG(p, lo, hi) do {                                        \
        __m256i x_ = PV_LOADU(p), y_ = PV_LOADU((p) + 32);            \
        lo = _mm256_unpacklo_epi64(x_, y_);                           \
        hi = _mm256_unpackhi_epi64(x_, y_);                           \
    } while (0)

/* First group: lane q gets block pos(q) - k (dword indices for
 * VPERMD), lanes of positions below k are cleared (table from pos() and
 * the unpack order, poly1305_x86_vec.h). */
static const int32_t first_idx[4][8] = {
    { 0, 1, 2, 3, 4, 5, 6, 7 }, { 0, 1, 4, 5, 0, 1, 2, 3 },
    { 0, 1, 0, 1, 0, 1, 4, 5 }, { 0, 1, 0, 1, 0, 1, 0, 1 },
};
static const int64_t first_keep[4][4] = {
    { -1, -1, -1, -1 }, { 0, -1, -1, -1 }, { 0, -1, 0, -1 }, { 0, 0, 0, -1 },
};
#define PV_FIRST(p, k, lo, hi) do {                                                      \
        __m256i i_ = PV_LOADU(first_idx[k]), z_ = PV_LOADU(first_keep[k]);                \
        PV_MSG(p, lo, hi);                                                                \
        lo = _mm256_and_si256(_mm256_permutevar8x32_epi32(lo, i_), z_);                  \
        hi = _mm256_and_si256(_mm256_permutevar8x32_epi32(hi, i_), z_);                  \
    } while (0)

static inline __attribute__((always_inline)) __m256i pv_masked_set1(unsigned mask, uint64_t v)
{
    const __m256i bits = _mm256_setr_epi64x(1, 2, 4, 8);
    __m256i sel = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x((long long)mask), bits), bits);
    return _mm256_and_si256(sel, _mm256_set1_epi64x((long long)v));
}
#define PV_MASKED_SET1 pv_masked_set1

static inline __attribute__((always_inline)) uint64_t pv_hsum(__m256i v)
{
    __m128i t = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    t = _mm_add_epi64(t, _mm_unpackhi_epi64(t, t));
    return (uint64_t)_mm_cvtsi128_si64(t);
}
#define PV_HSUM pv_hsum

static inline __attribute__((always_inline)) __m256i pv_select(unsigned mask, __m256i a, __m256i b)
{
    const __m256i bits = _mm256_setr_epi64x(1, 2, 4, 8);
    __m256i sel = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x((long long)mask), bits), bits);
    return _mm256_blendv_epi8(b, a, sel);
}
#define PV_SELECT pv_select
#define PV_BCAST0(v) _mm256_broadcastq_epi64(_mm256_castsi256_si128(v))
#define PV_LANE0(v) ((uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(v)))
/* the low dwords of the four lanes, packed into 16 bytes */
#define PV_STORE32(p, v)                                                                              \
    _mm_storeu_si128((__m128i *)(void *)(p),                                                          \
                     _mm256_castsi256_si128(_mm256_permutevar8x32_epi32((v), _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0))))

#include "poly1305/poly1305_x86_vec.h"

static const ic_poly1305_ops avx2_ops = {
    .init = poly1305_avx2_init,
    .blocks = poly1305_avx2_blocks,
    .finish = poly1305_avx2_finish,
};

/* Goll-Gueron incomplete 4-decimation (poly1305_x86_vec.h, PV_GG): same
 * state layout, init and finish. */
static const ic_poly1305_ops avx2gg_ops = {
    .init = poly1305_avx2_init,
    .blocks = poly1305_avx2_blocks_gg,
    .finish = poly1305_avx2_finish,
};

IC_BACKEND(poly1305, avx2, IC_F(IC_CPU_AVX2), &avx2_ops);
/* after "avx2" in the table, so never chosen automatically:
 * INCORE_IMPL=poly1305=avx2-gg */
IC_BACKEND_NAMED(poly1305, avx2gg, "avx2-gg", IC_F(IC_CPU_AVX2), &avx2gg_ops);

IC_TARGET_END
#endif
