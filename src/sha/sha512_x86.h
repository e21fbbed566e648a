/*
 * sha512_x86.h - the SHA-384/512 family's compression (FIPS 180-4, 6.4.2)
 * for x86-64 with the message schedule of two blocks at once in YMM
 * registers and the rounds in general registers: the body of
 * sha512_x86_avx2.c ("avx2") and sha512_x86_avx512.c ("avx512"), which
 * differ only in how the schedule's rotations are done (see S512_SIG).
 * Included by those two files only, each compiled with its own flags.
 *
 * Schedule (6.4.2 step 1).  A YMM register holds two consecutive words of
 * one block in its low 128-bit lane and the same two words of the next
 * block in its high lane, so one instruction stream schedules two blocks.
 * Two words at a time have no dependency inside the pair: W[t] and W[t+1]
 * need sigma1 of W[t-2] and W[t-1], the previous pair.  Eight registers
 * hold W[t-16..t-1]; W[t-15..t-14] and W[t-7..t-6] straddle two of them
 * (VPALIGNR, per lane).  Each pair of words is stored with K added (W + K,
 * one array per block), so a round reads one word.  The schedule of the
 * next two blocks runs interleaved with the rounds of the current two.
 *
 * Rounds (6.4.2 steps 2-4) in general registers: the working variables are
 * renamed per round by rotating macro arguments (as in sha2_rounds.h); the
 * rotations are RORX (BMI2, no flags, non-destructive: no register copies)
 * and Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)), where b ^ c is the a ^ b of
 * the previous round: one operation fewer per round.
 *
 * Blocks are taken two by two; an odd last block is scheduled in both
 * lanes and its second copy's words left unused.  Blocks may be at any
 * alignment.  Constant time: only add, and, xor, shifts and rotations; K
 * is indexed by round number.  The W + K arrays are wiped at the end.
 */
#ifndef INCORE_SHA512_X86_H
#define INCORE_SHA512_X86_H

#include "sha/sha_impl.h"
#include <immintrin.h>

/* Rotations as the compiler emits RORX for them under -mbmi2. */
#define S512_ROR(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

/* ---- schedule --------------------------------------------------------- */

static inline __m256i s512_load2(const uint8_t *a, const uint8_t *b, __m256i bswap)
{
    __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)a)),
                                        _mm_loadu_si128((const __m128i *)b), 1);
    return _mm256_shuffle_epi8(v, bswap);   /* 5.2.2: words are big-endian */
}

/* W + K for words t, t+1 of both blocks. */
static inline void s512_store2(uint64_t wk[2][80], int t, __m256i w)
{
    __m256i k = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(ic_sha512_k + t)));
    __m256i s = _mm256_add_epi64(w, k);
    _mm_storeu_si128((__m128i *)(wk[0] + t), _mm256_castsi256_si128(s));
    _mm_storeu_si128((__m128i *)(wk[1] + t), _mm256_extracti128_si256(s, 1));
}

static inline void s512_schedule2(uint64_t wk[2][80], const uint8_t *pa, const uint8_t *pb)
{
    const __m256i bswap = _mm256_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
                                            0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
    __m256i x[8];

    for (int j = 0; j < 8; j++) {
        x[j] = s512_load2(pa + 16 * j, pb + 16 * j, bswap);
        s512_store2(wk, 2 * j, x[j]);
    }
#pragma GCC unroll 32
    for (int t = 16; t < 80; t += 2) {
        int j = (t / 2) & 7;                 /* x[j] holds W[t-16], W[t-15] */
        __m256i w15 = _mm256_alignr_epi8(x[(j + 1) & 7], x[j], 8);
        __m256i w7 = _mm256_alignr_epi8(x[(j + 5) & 7], x[(j + 4) & 7], 8);
        __m256i w2 = x[(j + 7) & 7];
        x[j] = _mm256_add_epi64(_mm256_add_epi64(x[j], S512_SIG0(w15)),
                                _mm256_add_epi64(w7, S512_SIG1(w2)));
        s512_store2(wk, t, x[j]);
    }
}

/* ---- rounds ------------------------------------------------------------- */

/* One round; ab is a ^ b of this round, which becomes the next round's
 * b ^ c (bc). */
#define S512_R(a, b, c, d, e, f, g, h, t) do {                                    \
        uint64_t hk_ = h + wk[t];                                                 \
        uint64_t ch_ = g ^ (e & (f ^ g));                                         \
        uint64_t s1_ = S512_ROR(e, 14) ^ S512_ROR(e, 18) ^ S512_ROR(e, 41);       \
        uint64_t t1_ = (hk_ + ch_) + s1_;                                         \
        uint64_t ab_ = a ^ b;                                                     \
        d += t1_;                                                                 \
        h = t1_ + (S512_ROR(a, 28) ^ S512_ROR(a, 34) ^ S512_ROR(a, 39))             \
          + (b ^ (ab_ & bc));                                                     \
        bc = ab_;                                                                 \
    } while (0)

/* Eight rounds with the arguments rotated: sha2_rounds.h's ROUND8, over
 * this file's round (ROUND is expanded where ROUND8 is used). */
#include "sha/sha2_rounds.h"
#undef ROUND
#define ROUND S512_R
#define S512_R8(t) ROUND8(t)

/*
 * Two blocks (A, B) of rounds, with the schedule of the next two blocks
 * (at na, nb) interleaved: the vector unit computes it while the integer
 * units run the rounds (the two use different execution ports; a schedule
 * run before the rounds would only partly overlap them).  The 40 schedule
 * steps of a pair (8 loads, 32 recurrences) go two after each group of
 * eight rounds.  x[] is indexed by constants after the macros expand, so
 * it lives in registers.
 */
#define S512_STEP(i) do {                                                            \
        if ((i) < 8) {                                                               \
            x[(i) & 7] = s512_load2(na + 16 * (i), nb + 16 * (i), bswap);             \
        } else {                                                                     \
            __m256i w15_ = _mm256_alignr_epi8(x[((i) + 1) & 7], x[(i) & 7], 8);        \
            __m256i w7_ = _mm256_alignr_epi8(x[((i) + 5) & 7], x[((i) + 4) & 7], 8);   \
            x[(i) & 7] = _mm256_add_epi64(_mm256_add_epi64(x[(i) & 7], S512_SIG0(w15_)), \
                                          _mm256_add_epi64(w7_, S512_SIG1(x[((i) + 7) & 7]))); \
        }                                                                            \
        s512_store2(wkn, 2 * (i), x[(i) & 7]);                                       \
    } while (0)

#define S512_G(t, i) do { S512_R8(t); S512_STEP(i); S512_STEP((i) + 1); } while (0)

static inline void s512_block_pair(uint64_t st[8], uint64_t wkc[2][80], uint64_t wkn[2][80],
                                   const uint8_t *na, const uint8_t *nb)
{
    const __m256i bswap = _mm256_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
                                            0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
    __m256i x[8];
    for (int blk = 0; blk < 2; blk++) {
        const uint64_t *wk = wkc[blk];
        uint64_t a = st[0], b = st[1], c = st[2], d = st[3];
        uint64_t e = st[4], f = st[5], g = st[6], h = st[7];
        uint64_t bc = b ^ c;
        if (blk == 0) {
            S512_G(0, 0);   S512_G(8, 2);   S512_G(16, 4);  S512_G(24, 6);  S512_G(32, 8);
            S512_G(40, 10); S512_G(48, 12); S512_G(56, 14); S512_G(64, 16); S512_G(72, 18);
        } else {
            S512_G(0, 20);  S512_G(8, 22);  S512_G(16, 24); S512_G(24, 26); S512_G(32, 28);
            S512_G(40, 30); S512_G(48, 32); S512_G(56, 34); S512_G(64, 36); S512_G(72, 38);
        }
        st[0] += a; st[1] += b; st[2] += c; st[3] += d;   /* 6.4.2 step 4 */
        st[4] += e; st[5] += f; st[6] += g; st[7] += h;
    }
}

/*
 * One block alone (a one-block call: the padding block of a short message,
 * or the odd last block), its own schedule interleaved with its rounds,
 * sixteen words ahead: the eight loads first, then four steps (eight
 * words) after each group of eight rounds.  Both lanes carry the same
 * block: the instruction count is that of a one-lane schedule.
 */
#define S512_G1(t, i) do { S512_R8(t); S512_STEP(i); S512_STEP((i) + 1);              \
                           S512_STEP((i) + 2); S512_STEP((i) + 3); } while (0)

static inline void s512_block1(uint64_t st[8], uint64_t wkn[2][80], const uint8_t *p)
{
    const __m256i bswap = _mm256_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
                                            0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
    const uint8_t *na = p, *nb = p;
    const uint64_t *wk = wkn[0];
    __m256i x[8];
    uint64_t a = st[0], b = st[1], c = st[2], d = st[3];
    uint64_t e = st[4], f = st[5], g = st[6], h = st[7];
    uint64_t bc = b ^ c;

    S512_STEP(0); S512_STEP(1); S512_STEP(2); S512_STEP(3);
    S512_STEP(4); S512_STEP(5); S512_STEP(6); S512_STEP(7);
    S512_G1(0, 8);   S512_G1(8, 12);  S512_G1(16, 16); S512_G1(24, 20);
    S512_G1(32, 24); S512_G1(40, 28); S512_G1(48, 32); S512_G1(56, 36);
    S512_R8(64); S512_R8(72);
    st[0] += a; st[1] += b; st[2] += c; st[3] += d;   /* 6.4.2 step 4 */
    st[4] += e; st[5] += f; st[6] += g; st[7] += h;
}

static inline void s512_compress(uint64_t state[8], const uint8_t *p, size_t nblocks)
{
    uint64_t wk[2][2][80];
    int cur = 0, used_pairs = nblocks >= 2;

    if (nblocks >= 2)
        s512_schedule2(wk[0], p, p + IC_SHA512_BLOCK_SIZE);
    for (; nblocks >= 2; nblocks -= 2, p += 2 * IC_SHA512_BLOCK_SIZE, cur ^= 1) {
        /* the next pair, or (last pair) this one again: schedule unused */
        const uint8_t *n = nblocks >= 4 ? p + 2 * IC_SHA512_BLOCK_SIZE : p;
        s512_block_pair(state, wk[cur], wk[cur ^ 1], n, n + IC_SHA512_BLOCK_SIZE);
    }
    if (nblocks)
        s512_block1(state, wk[0], p);
    /* only what was written: a one-block call (the padding block of a
     * short message) used wk[0] alone */
    ic_wipe(wk, used_pairs ? sizeof wk : sizeof wk[0]);
}

#endif
