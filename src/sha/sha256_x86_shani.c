/*
 * sha256_x86_shani.c - SHA-224/256 compression (FIPS 180-4, 6.2.2) with the
 * x86 SHA extensions, the "shani" entry of the sha256 registry.
 *
 * SHA256RNDS2 does two rounds.  It wants the eight working variables split
 * over two registers as (A, B, E, F) and (C, D, G, H), the first letter in
 * the highest 32-bit lane, and W[t] + K[t], W[t+1] + K[t+1] in the two low
 * lanes of its implicit third operand.  So four rounds are two RNDS2, the
 * second fed the high half of the same four words (PSHUFD 0x0e), with the
 * two state registers swapping roles.  The state is converted to and from
 * that layout once per call, not per block: it stays in registers across
 * blocks.
 *
 * The schedule (6.2.2 step 1) is four registers of four words.  For words
 * t..t+3: SHA256MSG1(W[t-16..t-13], W[t-12..t-9]) gives W[t-16+i] +
 * sigma0(W[t-15+i]); W[t-7..t-4] (PALIGNR of the two youngest registers)
 * is added; SHA256MSG2 adds sigma1(W[t-2+i]), including the dependency of
 * W[t+2], W[t+3] on W[t], W[t+1] inside the four words.  Each group of four
 * rounds computes the words of the group 12 rounds ahead of it, so the
 * schedule runs interleaved with the rounds (the macros below are written
 * in program order; the out-of-order core overlaps the two chains).
 *
 * Message words are big-endian (5.2.1): PSHUFB reverses each 32-bit lane of
 * the 16-byte loads.  Blocks may be at any alignment (unaligned loads).
 *
 * Constant time: the instructions take the same time for any data; no
 * branch or address depends on the message or the state.
 *
 * Compiled for SHA, SSSE3 and SSE4.1; the registry runs it only when
 * CPUID reports SHA, SSSE3 and SSE4.2 (which implies the SSE4.1 PBLENDW
 * used here).
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("sha,ssse3,sse4.1")
#include "sha/sha_impl.h"
#include <immintrin.h>

/* Four rounds on w = W[t..t+3]: k is the index of the group (t = 4k). */
#define QROUND(w, k) do {                                                            \
        __m128i wk_ = _mm_add_epi32(w, _mm_loadu_si128((const __m128i *)(ic_sha256_k + 4 * (k)))); \
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk_);                               \
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk_, 0x0e));      \
    } while (0)

/* w0 = W[t-16..t-13] becomes W[t..t+3] (w1, w2, w3: the next older groups). */
#define SCHED(w0, w1, w2, w3)                                                        \
    (w0 = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(w0, w1),           \
                                             _mm_alignr_epi8(w3, w2, 4)), w3))

/* Sixteen rounds, groups 4k..4k+3, each followed (when SCH) by the words
 * of the group four further on, which replace the words just used. */
#define ROUNDS16(k, SCH) do {                                  \
        QROUND(m0, 4 * (k) + 0); if (SCH) SCHED(m0, m1, m2, m3); \
        QROUND(m1, 4 * (k) + 1); if (SCH) SCHED(m1, m2, m3, m0); \
        QROUND(m2, 4 * (k) + 2); if (SCH) SCHED(m2, m3, m0, m1); \
        QROUND(m3, 4 * (k) + 3); if (SCH) SCHED(m3, m0, m1, m2); \
    } while (0)

static void sha256_shani_compress(uint32_t state[8], const uint8_t *p, size_t nblocks)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    /* (a, b, c, d), (e, f, g, h) lane 0 first -> (A B E F), (C D G H) with the
     * first letter in lane 3. */
    __m128i dcba = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0x1b);
    __m128i hgfe = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(state + 4)), 0x1b);
    __m128i abef = _mm_unpackhi_epi64(hgfe, dcba);   /* lanes f e b a */
    __m128i cdgh = _mm_unpacklo_epi64(hgfe, dcba);   /* lanes h g d c */

    for (; nblocks; nblocks--, p += IC_SHA256_BLOCK_SIZE) {
        __m128i abef_in = abef, cdgh_in = cdgh;
        __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), bswap);
        __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), bswap);
        __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), bswap);
        __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), bswap);

        ROUNDS16(0, 1);
        ROUNDS16(1, 1);
        ROUNDS16(2, 1);
        ROUNDS16(3, 0);

        abef = _mm_add_epi32(abef, abef_in);   /* 6.2.2 step 4 */
        cdgh = _mm_add_epi32(cdgh, cdgh_in);
    }
    /* back: (f e b a), (h g d c) -> (a b c d), (e f g h) */
    dcba = _mm_unpackhi_epi64(cdgh, abef);           /* lanes d c b a */
    hgfe = _mm_unpacklo_epi64(cdgh, abef);           /* lanes h g f e */
    _mm_storeu_si128((__m128i *)state, _mm_shuffle_epi32(dcba, 0x1b));
    _mm_storeu_si128((__m128i *)(state + 4), _mm_shuffle_epi32(hgfe, 0x1b));
}

static const ic_sha256_ops shani_ops = { sha256_shani_compress, NULL };
IC_BACKEND(sha256, shani, IC_F(IC_CPU_SHANI) | IC_F(IC_CPU_SSSE3) | IC_F(IC_CPU_SSE42), &shani_ops);

IC_TARGET_END

#endif
