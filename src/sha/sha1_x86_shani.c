/*
 * sha1_x86_shani.c - SHA-1 compression (FIPS 180-4, 6.1.2) with the x86
 * SHA extensions, the "shani" entry of the sha1 registry.
 *
 * abcd = (a, b, c, d) in one register with a in the highest 32-bit lane,
 * and e in the highest lane of another, for the whole call (converted once
 * on entry and exit).  SHA1RNDS4 does four rounds with the function and
 * constant chosen by its immediate (0: Ch/K0, 1: Parity/K1, 2: Maj/K2, 3:
 * Parity/K3), given abcd and the words W[t..t+3] with e of round t already
 * added to W[t] (the top lane).  The e of the next four rounds is ROTL30 of
 * the current a (four shifts of 6.1.2 step 3 move a to e through b, c and
 * d, with b -> c the ROTL30): SHA1NEXTE computes exactly that from the abcd
 * saved before the previous SHA1RNDS4 and adds it to the next four words.
 * For the first group e is added with PADDD; after the last, SHA1NEXTE
 * against the e the block started with gives the new e (6.1.2 step 4).
 *
 * The schedule (6.1.2 step 1) is four registers of four words, W[t] in the
 * highest lane: SHA1MSG1 xors W[t-16+i] and W[t-14+i], PXOR adds W[t-8+i],
 * SHA1MSG2 xors W[t-3+i] and rotates, including the dependency of W[t+3]
 * on W[t] inside the four words.  Each group of four rounds computes the
 * words of the group 12 rounds ahead, interleaved with the rounds.  Message
 * words are big-endian (5.2.1) and the first must land in the highest
 * lane: PSHUFB reverses the whole 16-byte load.
 *
 * SHA-1 is here for HMAC-SHA-1 and interoperability (see sha1_port.c).
 * Constant time: no branch or address depends on the data; the
 * instructions' timing does not depend on their operands.
 *
 * Compiled for SHA, SSSE3 and SSE4.1; selected when CPUID reports SHA,
 * SSSE3 and SSE4.2.
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("sha,ssse3,sse4.1")
#include "sha/sha_impl.h"
#include <immintrin.h>
#include "core/ct.h"

/* SHA1RNDS4 takes its function as an immediate; MemorySanitizer (the
 * ct_msan leg) has no rule for it and would report every call on secret
 * data (HMAC keys), so there it runs on unpoisoned operands and the result
 * is poisoned when an operand was (core/ct.h, IC_MSAN). */
#if defined(IC_MSAN)
#define RNDS4(a, e, F) __extension__({ __m128i a_ = (a), e_ = (e);                 \
        int p_ = __msan_test_shadow(&a_, 16) >= 0 || __msan_test_shadow(&e_, 16) >= 0; \
        __msan_unpoison(&a_, 16);                                                  \
        __msan_unpoison(&e_, 16);                                                  \
        __m128i r_ = _mm_sha1rnds4_epu32(a_, e_, F);                               \
        if (p_)                                                                    \
            __msan_poison(&r_, 16);                                                \
        r_; })
#define NEXTE(p, w) _mm_sha1nexte_epu32(p, w)
#else
/* As volatile asm, which GCC keeps in program order: left to itself it
 * placed each SHA1NEXTE that reads the newest abcd ahead of the SHA1RNDS4
 * that reads it too, and the two competed for the SHA unit on the
 * critical path (the SHA1RNDS4 chain) every group on Zen 3. */
#define RNDS4(a, e, F) __extension__({ __m128i r_ = (a);                            \
        __asm__ __volatile__("sha1rnds4 %[FN], %[EW], %[R]" : [R] "+x"(r_) : [EW] "x"(e), [FN] "i"(F)); \
        r_; })
#define NEXTE(p, w) __extension__({ __m128i r_ = (p);                               \
        __asm__ __volatile__("sha1nexte %[W], %[R]" : [R] "+x"(r_) : [W] "x"(w));  \
        r_; })
#endif

/* Four rounds of group g (function/constant F = g / 5) on words w. */
#define QROUND(w, F) do {                                   \
        e = NEXTE(prev, w);                                 \
        prev = abcd;                                        \
        abcd = RNDS4(abcd, e, F);             \
    } while (0)

/* w0 = W[t-16..t-13] becomes W[t..t+3]. */
#define SCHED(w0, w1, w2, w3) \
    (w0 = _mm_sha1msg2_epu32(_mm_xor_si128(_mm_sha1msg1_epu32(w0, w1), w2), w3))

/* Groups 4k..4k+3 (16 rounds) with their functions, each followed (when
 * SCH) by the words four groups further on. */
#define ROUNDS16(F0, F1, F2, F3, SCH) do {                   \
        QROUND(m0, F0); if (SCH) SCHED(m0, m1, m2, m3);       \
        QROUND(m1, F1); if (SCH) SCHED(m1, m2, m3, m0);       \
        QROUND(m2, F2); if (SCH) SCHED(m2, m3, m0, m1);       \
        QROUND(m3, F3); if (SCH) SCHED(m3, m0, m1, m2);       \
    } while (0)

static void sha1_shani_compress(uint32_t state[5], const uint8_t *p, size_t nblocks)
{
    const __m128i bswap = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL);
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0x1b);
    __m128i e0 = _mm_set_epi32((int)state[4], 0, 0, 0);

    for (; nblocks; nblocks--, p += IC_SHA1_BLOCK_SIZE) {
        __m128i abcd_in = abcd, e, prev;
        __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), bswap);
        __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), bswap);
        __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), bswap);
        __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), bswap);

        /* group 0: e comes from the chaining value, not from SHA1NEXTE */
        e = _mm_add_epi32(e0, m0);
        prev = abcd;
        abcd = RNDS4(abcd, e, 0);
        SCHED(m0, m1, m2, m3);
        QROUND(m1, 0); SCHED(m1, m2, m3, m0);
        QROUND(m2, 0); SCHED(m2, m3, m0, m1);
        QROUND(m3, 0); SCHED(m3, m0, m1, m2);     /* rounds 0-15  */
        ROUNDS16(0, 1, 1, 1, 1);                  /* rounds 16-31 */
        ROUNDS16(1, 1, 2, 2, 1);                  /* rounds 32-47 */
        ROUNDS16(2, 2, 2, 3, 1);                  /* rounds 48-63 */
        ROUNDS16(3, 3, 3, 3, 0);                  /* rounds 64-79 */

        e0 = NEXTE(prev, e0);                     /* e + ROTL30(a of round 76) */
        abcd = _mm_add_epi32(abcd, abcd_in);
    }
    _mm_storeu_si128((__m128i *)state, _mm_shuffle_epi32(abcd, 0x1b));
    state[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}

static const ic_sha1_ops shani_ops = { sha1_shani_compress, NULL };
IC_BACKEND(sha1, shani, IC_F(IC_CPU_SHANI) | IC_F(IC_CPU_SSSE3) | IC_F(IC_CPU_SSE42), &shani_ops);

IC_TARGET_END

#endif
