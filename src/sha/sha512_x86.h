/*
 * sha512_x86.h - the SHA-384/512 family's compression (FIPS 180-4, 6.4.2)
 * for x86-64 with the message schedule of two blocks at once in YMM
 * registers and the rounds in general registers: the body of
 * sha512_x86_avx2.c ("avx2") and sha512_x86_avx512.c ("avx512"), which
 * differ only in how the schedule's small sigmas are done (S512_SIG0/1,
 * and S512_ASM_SIG0/1 for the assembly form).
 * Included by those two files only, each compiled with its own flags.
 *
 * Schedule (6.4.2 step 1).  A YMM register holds two consecutive words of
 * one block (A) in its low 128-bit lane and the same two words of the next
 * block (B) in its high lane, so one instruction stream schedules two
 * blocks.  Two words at a time have no dependency inside the pair: W[t]
 * and W[t+1] need sigma1 of W[t-2] and W[t-1], the previous pair.  Eight
 * registers x[0..7] hold W[t-16..t-1]; W[t-15..t-14] and W[t-7..t-6]
 * straddle two of them (VPALIGNR, per lane).  Each pair is stored with K
 * added, as the whole register: entry j of the W + K array is
 * {A[2j], A[2j+1], B[2j], B[2j+1]} (one 32-byte store), so a round reads
 * one word with a constant offset from a pointer that moves 16 rounds at a
 * time.
 *
 * Order: the first block's 80 rounds run with the schedule of both blocks
 * interleaved, sixteen words ahead (each 16-round group computes the next
 * 16 words: x[0..7] each updated once, so the register indices are
 * constants in a loop); the second block's 80 rounds only read.  The
 * vector work goes to the FP/vector pipes while the rounds keep the
 * integer ALUs busy; an odd last block runs alone in both lanes.
 *
 * Rounds (6.4.2 steps 2-4) in general registers, as inline assembly, and
 * the schedule step too (S512_R, S512_STEP: written in C, GCC 12 spilled
 * working variables and x[] and copied W + K words through the stack:
 * 0.8x OpenSSL on Zen 3, against about 0.95x now); the
 * working variables are renamed per round by rotating macro arguments (as
 * in sha2_rounds.h); the rotations are RORX (BMI2, no flags,
 * non-destructive) and Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)), where b ^ c
 * is the a ^ b of the previous round: one operation fewer per round.
 *
 * Blocks may be at any alignment.  Constant time: only add, and, andn,
 * xor, shifts and rotations; K and W + K are indexed by round number.  The
 * W + K array is wiped at the end.
 */
#ifndef INCORE_SHA512_X86_H
#define INCORE_SHA512_X86_H

#include "sha/sha_impl.h"
#include "core/ct.h"
#include <immintrin.h>

/* ---- schedule --------------------------------------------------------- */

static inline __m256i s512_load2(const uint8_t *a, const uint8_t *b)
{
    const __m256i bswap = _mm256_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
                                            0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
    __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)a)),
                                        _mm_loadu_si128((const __m128i *)b), 1);
    return _mm256_shuffle_epi8(v, bswap);   /* 5.2.2: words are big-endian */
}

/* W + K for the pair of words in w: k points at K[t], t the first word. */
static inline __m256i s512_addk(__m256i w, const uint64_t *k)
{
    return _mm256_add_epi64(w, _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)k)));
}

/* One schedule step: words t, t+1 (both blocks) into x[j], where x[j]
 * held W[t-16], W[t-15]; stored with K (kp at K[t]) into wn[j]. */
#if defined(IC_MSAN)
/* MemorySanitizer marks an asm's outputs clean, which would drop the
 * secrets' taint (core/ct.h): there the step is intrinsics. */
#define S512_STEP(j, wn, kp) do {                                                       \
        __m256i w15_ = _mm256_alignr_epi8(x[((j) + 1) & 7], x[j], 8);                     \
        __m256i w7_ = _mm256_alignr_epi8(x[((j) + 5) & 7], x[((j) + 4) & 7], 8);          \
        x[j] = _mm256_add_epi64(_mm256_add_epi64(x[j], S512_SIG0(w15_)),                  \
                                _mm256_add_epi64(w7_, S512_SIG1(x[((j) + 7) & 7])));      \
        _mm256_store_si256((wn) + (j), s512_addk(x[j], (kp) + 2 * (j)));                  \
    } while (0)
#else
/* As assembly: written with intrinsics, GCC 12 kept x[] partly on the
 * stack (it has 16 YMM registers for x[0..7], the temporaries and the
 * byte-rotation mask, and spilled besides).  The including file supplies
 * S512_ASM_SIG0 (sigma0 of %[w] into %[s]) and S512_ASM_SIG1 (sigma1 of
 * %[x7] into %[s]), with %[t], %[u] as scratch and %[m8] a VPSHUFB mask
 * for a rotation by 8. */
#define S512_STEP(j, wn, kp) do {                                                       \
        __m256i w_, s_, t_, u_;                                                          \
        __asm__("vpalignr $8, %[x0], %[x1], %[w]\n\t"                                  \
                S512_ASM_SIG0                                                            \
                "vpaddq %[s], %[x0], %[x0]\n\t"                                          \
                "vpalignr $8, %[x4], %[x5], %[w]\n\t"                                   \
                "vpaddq %[w], %[x0], %[x0]\n\t"                                          \
                S512_ASM_SIG1                                                            \
                "vpaddq %[s], %[x0], %[x0]\n\t"                                          \
                "vbroadcasti128 %[k], %[w]\n\t"                                         \
                "vpaddq %[x0], %[w], %[w]\n\t"                                           \
                "vmovdqa %[w], %[out]"                                                   \
                : [x0] "+x"(x[j]), [out] "=m"((wn)[j]),                                  \
                  [w] "=&x"(w_), [s] "=&x"(s_), [t] "=&x"(t_), [u] "=&x"(u_)             \
                : [x1] "x"(x[((j) + 1) & 7]), [x4] "x"(x[((j) + 4) & 7]),                \
                  [x5] "x"(x[((j) + 5) & 7]), [x7] "x"(x[((j) + 7) & 7]),                \
                  [m8] "x"(m8), [k] "m"(*(const __m128i *)((kp) + 2 * (j))));            \
        (void)t_; (void)u_;                                                              \
    } while (0)
#endif
#define S512_NOSTEP(j, wn, kp) do { } while (0)

/* ---- rounds ------------------------------------------------------------- */

/* Word r (0..15) of the current 16-round group: wp points at the group's
 * first entry, offset 0 (block A) or 2 (block B). */
#define S512_WK(r) wp[((r) >> 1) * 4 + ((r) & 1)]

#if defined(IC_MSAN)
/* MemorySanitizer (the ct_msan leg) marks an asm's outputs clean, which
 * would drop the secrets' taint (core/ct.h): there the round is C. */
#define S512_ROR(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define S512_R(a, b, c, d, e, f, g, h, r) do {                                    \
        uint64_t t1_ = h + S512_WK(r) + (g ^ (e & (f ^ g)))                       \
                     + (S512_ROR(e, 14) ^ S512_ROR(e, 18) ^ S512_ROR(e, 41));     \
        uint64_t ab_ = a ^ b;                                                     \
        d += t1_;                                                                 \
        h = t1_ + (S512_ROR(a, 28) ^ S512_ROR(a, 34) ^ S512_ROR(a, 39))           \
          + (b ^ (ab_ & bc));                                                     \
        bc = ab_;                                                                 \
    } while (0)
#else
/*
 * One round, 22 integer operations and two register moves.  T1 = h + W + K
 * + Ch(e, f, g) + Sigma1(e) goes into h and d (d becomes the new e), then
 * Sigma0(a) + Maj(a, b, c), which does not depend on e, completes the new
 * a in h.  Ch = (e & f) + (~e & g): the two ANDs have no bit in common, so
 * the sum is their XOR, and ANDN spares a copy.  The e to new-e path is
 * five operations deep (RORX, XOR, XOR, ADD, ADD); the rest overlaps.
 * t1 ends as a ^ b, the next round's b ^ c (bc; c itself is not read).
 */
#define S512_R(a, b, c, d, e, f, g, h, r) do {                                    \
        uint64_t t0_, t1_;                                                        \
        __asm__("add %[W], %[H]\n\t"                                              \
                "rorx $14, %[E], %[T0]\n\t"                                       \
                "rorx $18, %[E], %[T1]\n\t"                                       \
                "xor %[T1], %[T0]\n\t"                                            \
                "andn %[G], %[E], %[T1]\n\t"                                      \
                "add %[T1], %[H]\n\t"                                             \
                "rorx $41, %[E], %[T1]\n\t"                                       \
                "xor %[T1], %[T0]\n\t"                                            \
                "mov %[F], %[T1]\n\t"                                             \
                "and %[E], %[T1]\n\t"                                             \
                "add %[T1], %[H]\n\t"                                             \
                "add %[T0], %[H]\n\t"                                             \
                "add %[H], %[D]\n\t"                                              \
                "rorx $28, %[A], %[T0]\n\t"                                       \
                "rorx $34, %[A], %[T1]\n\t"                                       \
                "xor %[T1], %[T0]\n\t"                                            \
                "rorx $39, %[A], %[T1]\n\t"                                       \
                "xor %[T1], %[T0]\n\t"                                            \
                "mov %[A], %[T1]\n\t"                                             \
                "xor %[B], %[T1]\n\t"                                             \
                "and %[T1], %[BC]\n\t"                                            \
                "xor %[B], %[BC]\n\t"                                             \
                "add %[BC], %[T0]\n\t"                                            \
                "add %[T0], %[H]"                                                 \
                : [H] "+r"(h), [D] "+r"(d), [BC] "+r"(bc), [T0] "=&r"(t0_), [T1] "=&r"(t1_) \
                : [A] "r"(a), [B] "r"(b), [E] "r"(e), [F] "r"(f), [G] "r"(g),     \
                  [W] "m"(S512_WK(r))                                             \
                : "cc");                                                          \
        bc = t1_;                                                                 \
    } while (0)
#endif

/* Sixteen rounds (the names line up again after eight), one schedule step
 * STEP(j, wn, kp) after every second round. */
#define S512_R16(STEP, wn, kp) do {                                                  \
        S512_R(a, b, c, d, e, f, g, h, 0);  S512_R(h, a, b, c, d, e, f, g, 1);     \
        STEP(0, wn, kp);                                                           \
        S512_R(g, h, a, b, c, d, e, f, 2);  S512_R(f, g, h, a, b, c, d, e, 3);     \
        STEP(1, wn, kp);                                                           \
        S512_R(e, f, g, h, a, b, c, d, 4);  S512_R(d, e, f, g, h, a, b, c, 5);     \
        STEP(2, wn, kp);                                                           \
        S512_R(c, d, e, f, g, h, a, b, 6);  S512_R(b, c, d, e, f, g, h, a, 7);     \
        STEP(3, wn, kp);                                                           \
        S512_R(a, b, c, d, e, f, g, h, 8);  S512_R(h, a, b, c, d, e, f, g, 9);     \
        STEP(4, wn, kp);                                                           \
        S512_R(g, h, a, b, c, d, e, f, 10); S512_R(f, g, h, a, b, c, d, e, 11);    \
        STEP(5, wn, kp);                                                           \
        S512_R(e, f, g, h, a, b, c, d, 12); S512_R(d, e, f, g, h, a, b, c, 13);    \
        STEP(6, wn, kp);                                                           \
        S512_R(c, d, e, f, g, h, a, b, 14); S512_R(b, c, d, e, f, g, h, a, 15);    \
        STEP(7, wn, kp);                                                           \
    } while (0)

/* 6.4.2 step 4, with the sums kept in the working variables: the next
 * block starts from them without reloading st (a reload right after the
 * store would put a store-to-load forwarding on the rounds' dependency
 * chain at every block). */
#define S512_FEED(st) do {                                                        \
        a += st[0]; b += st[1]; c += st[2]; d += st[3];                           \
        e += st[4]; f += st[5]; g += st[6]; h += st[7];                           \
        st[0] = a; st[1] = b; st[2] = c; st[3] = d;                               \
        st[4] = e; st[5] = f; st[6] = g; st[7] = h;                               \
    } while (0)

/*
 * Blocks are taken two by two (pa, pb = pa + 128); an odd last block goes
 * alone with pb = pa (its copy in the high lane scheduled and not used).
 * wk: 40 entries, W + K of both blocks.
 */
static inline void s512_compress(uint64_t st[8], const uint8_t *p, size_t nblocks)
{
    __m256i wk[40];
    __m256i x[8];
    const uint64_t *wp;
    uint64_t a = st[0], b = st[1], c = st[2], d = st[3];
    uint64_t e = st[4], f = st[5], g = st[6], h = st[7];
    uint64_t bc;
    /* per 64-bit lane, byte i takes byte i + 1: a rotation right by 8 */
    const __m256i m8 = _mm256_set_epi64x(0x080f0e0d0c0b0a09LL, 0x0007060504030201LL,
                                         0x080f0e0d0c0b0a09LL, 0x0007060504030201LL);

    (void)m8;
    if (!nblocks)
        return;
    for (;;) {
        const uint8_t *pa = p, *pb = nblocks >= 2 ? p + IC_SHA512_BLOCK_SIZE : p;

        for (int j = 0; j < 8; j++) {
            x[j] = s512_load2(pa + 16 * j, pb + 16 * j);
            _mm256_store_si256(wk + j, s512_addk(x[j], ic_sha512_k + 2 * j));
        }
        /* block A: rounds 16i..16i+15 with words 16(i+1)..16(i+1)+15 */
        bc = b ^ c;
        wp = (const uint64_t *)wk;
        for (int i = 0; i < 4; i++, wp += 32) {
            __m256i *wn = wk + 8 * (i + 1);
            const uint64_t *kp = ic_sha512_k + 16 * (i + 1);
            S512_R16(S512_STEP, wn, kp);
        }
        S512_R16(S512_NOSTEP, wk, ic_sha512_k);
        S512_FEED(st);
        if (nblocks < 2)
            break;
        /* block B */
        bc = b ^ c;
        wp = (const uint64_t *)wk + 2;
        for (int i = 0; i < 5; i++, wp += 32)
            S512_R16(S512_NOSTEP, wk, ic_sha512_k);
        S512_FEED(st);
        nblocks -= 2;
        p += 2 * IC_SHA512_BLOCK_SIZE;
        if (!nblocks)
            break;
    }
    ic_wipe(wk, sizeof wk);
}

#endif
