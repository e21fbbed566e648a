/*
 * x86_lanes.h - moves between a 64-bit integer and the low or high lane of
 * an XMM register that also compile for 32-bit x86, where MOVQ, PEXTRQ and
 * PINSRQ with a general register do not exist (no 64-bit GPRs): there they
 * go through two 32-bit moves or a shuffle.  Include after IC_TARGET_BEGIN
 * (core/target.h) of a target with SSE2; the x86-64 forms are the plain
 * intrinsics, so the 64-bit object code is what it was.
 */
#ifndef INCORE_X86_LANES_H
#define INCORE_X86_LANES_H

#include <stdint.h>
#include <immintrin.h>

static inline uint64_t ic_xmm_lo64(__m128i v)
{
#if defined(__x86_64__)
    return (uint64_t)_mm_cvtsi128_si64(v);
#else
    return (uint64_t)(uint32_t)_mm_cvtsi128_si32(v) |
           (uint64_t)(uint32_t)_mm_cvtsi128_si32(_mm_srli_epi64(v, 32)) << 32;
#endif
}

/* the high lane: PUNPCKHQDQ then the low-lane move (SSE2 only, where
 * PEXTRQ would need SSE4.1) */
static inline uint64_t ic_xmm_hi64(__m128i v)
{
    return ic_xmm_lo64(_mm_unpackhi_epi64(v, v));
}

/* x in the low lane, the high lane zero */
static inline __m128i ic_xmm_from64(uint64_t x)
{
#if defined(__x86_64__)
    return _mm_cvtsi64_si128((long long)x);
#else
    return _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)(uint32_t)x), _mm_cvtsi32_si128((int)(uint32_t)(x >> 32)));
#endif
}

#endif
