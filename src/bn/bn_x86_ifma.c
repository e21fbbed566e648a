/*
 * bn_x86_ifma.c - Montgomery multiplication with AVX-512 IFMA
 * (VPMADD52LUQ / VPMADD52HUQ) in radix 2^52; built with -mavx512f
 * -mavx512ifma (cmake/backend_flags.cmake).
 *
 * The numbers are split into D digits of 52 bits, D a multiple of 8 (one
 * ZMM register holds 8) with 52 D >= bits + 2, so that R = 2^(52 D) > 4n
 * and "almost Montgomery" products stay below 2n (Gueron and Krasnov,
 * "Software implementation of modular exponentiation, using advanced
 * vector instructions architectures", WAIFI 2012, and OpenSSL's AVX-512
 * IFMA RSA code after it).  Per digit a[i] of a: add the low halves of
 * a[i] * b and of m * n, m chosen so the lowest lane becomes divisible by
 * 2^52, shift the accumulator down one lane (VALIGNQ across registers),
 * carry the lowest lane's excess into the next, then add the high halves,
 * which belong one digit up and so land where they should after the shift.
 * Lanes are 64 bits and collect at most 4 D terms below 2^52 each, so they
 * never overflow (D <= 160: 640 * 2^52 < 2^62).  The backend keeps the
 * driver's contract (bn_impl.h): radix 2^64 in and out, fully reduced; it
 * converts on entry and exit and ends with a masked subtraction.
 * Constant time: every step depends on nl only.  For moduli under 3072
 * bits ic_mont_init takes the next entry, adx (min_limbs), so the entry
 * needs ADX too; called directly, the code here is right at every size.
 */
#include "bn/bn_impl.h"

#if defined(IC_BN_HAVE_ADX)
#include <immintrin.h>

#define M52 ((UINT64_C(1) << 52) - 1)
#define MAXD 160                       /* digits for 128 limbs (8192 bits), a multiple of 8 */

/* Digits for a modulus in nl limbs: 52 D >= 64 nl + 2, D a multiple of 8
 * (from the limb count, not the bit length, so that the product needs
 * nothing but nl: 40 digits for 2048 bits, 64 for 3072, 80 for 4096). */
static size_t ifma_digits(size_t nl)
{
    size_t d = (64 * nl + 2 + 51) / 52;
    return (d + 7) / 8 * 8;
}

/* Below 48 limbs (3072 bits) one product at a time is faster on the
 * scalar MULX/ADX rows (docs/benchmarks.md: 0.9x at 2048 bits, 1.1x at
 * 3072, 1.3-1.4x at 4096 on Zen 4), so contexts of those sizes take the
 * `adx` entry at init and say so (ic_mont_ops.min_limbs). */
#define IFMA_MIN_LIMBS 48

static size_t ifma_rbits(size_t nbits, size_t nl)
{
    (void)nbits;
    return 52 * ifma_digits(nl);
}

/* x (nl limbs of 64 bits) to d digits of 52 bits. */
static void to52(uint64_t *x52, const uint64_t *x, size_t nl, size_t d)
{
    for (size_t k = 0; k < d; k++) {
        size_t bit = 52 * k, w = bit / 64, sh = bit % 64;
        uint64_t v = w < nl ? x[w] >> sh : 0;
        if (sh > 12 && w + 1 < nl)
            v |= x[w + 1] << (64 - sh);
        x52[k] = v & M52;
    }
}

/* d normalised digits (each < 2^52) back to nl limbs; bits past nl limbs
 * are dropped (the caller knows the value fits, or keeps the top apart). */
static void from52(uint64_t *x, const uint64_t *x52, size_t nl, size_t d)
{
    memset(x, 0, nl * sizeof x[0]);
    for (size_t k = 0; k < d; k++) {
        size_t bit = 52 * k, w = bit / 64, sh = bit % 64;
        if (w < nl)
            x[w] |= x52[k] << sh;
        if (sh > 12 && w + 1 < nl)
            x[w + 1] |= x52[k] >> (64 - sh);
    }
}

/* r52 = a52 * b52 * 2^(-52 d) mod n, below 2n, normalised digits. */
static void amm52(uint64_t *r52, const uint64_t *a52, const uint64_t *b52, const uint64_t *n52,
                  uint64_t k0, size_t d)
{
    __m512i acc[MAXD / 8], B[MAXD / 8], N[MAXD / 8];
    const size_t nv = d / 8;
    const __m512i zero = _mm512_setzero_si512();
    for (size_t v = 0; v < nv; v++) {
        acc[v] = zero;
        B[v] = _mm512_loadu_si512((const void *)(b52 + 8 * v));
        N[v] = _mm512_loadu_si512((const void *)(n52 + 8 * v));
    }
    /* Lane 0 is also tracked in scalar registers (L0), so that m, the
     * only thing each step waits for, comes from a few scalar multiplies
     * instead of a round trip through the vector unit: lane 1, read at
     * the start of a step, is all the next L0 needs from the vectors. */
    const uint64_t b0 = b52[0], b1 = b52[1], q0 = n52[0], q1 = n52[1];
    uint64_t L0 = 0;
    for (size_t i = 0; i < d; i++) {
        const uint64_t x = a52[i];
        const uint64_t L1 = (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(acc[0]), 1);
        const uint64_t t0 = L0 + ((x * b0) & M52);          /* lane 0 plus lo(a[i] b[0]) */
        const uint64_t m = (t0 * k0) & M52;
        const __m512i ai = _mm512_set1_epi64((long long)x);
        const __m512i mi = _mm512_set1_epi64((long long)m);
        for (size_t v = 0; v < nv; v++) {
            acc[v] = _mm512_madd52lo_epu64(acc[v], ai, B[v]);
            acc[v] = _mm512_madd52lo_epu64(acc[v], mi, N[v]);
        }
        /* lane 0 is now a multiple of 2^52: its excess moves up a digit */
        const uint64_t c = (t0 + ((m * q0) & M52)) >> 52;
        for (size_t v = 0; v + 1 < nv; v++)
            acc[v] = _mm512_alignr_epi64(acc[v + 1], acc[v], 1);
        acc[nv - 1] = _mm512_alignr_epi64(zero, acc[nv - 1], 1);
        acc[0] = _mm512_mask_add_epi64(acc[0], 1, acc[0], _mm512_set1_epi64((long long)c));
        for (size_t v = 0; v < nv; v++) {
            acc[v] = _mm512_madd52hi_epu64(acc[v], ai, B[v]);
            acc[v] = _mm512_madd52hi_epu64(acc[v], mi, N[v]);
        }
        /* the new lane 0: old lane 1, its low halves, the carry, and the
         * high halves of lane 0's products */
        L0 = L1 + ((x * b1) & M52) + ((m * q1) & M52) + c +
             (uint64_t)(((unsigned __int128)x * b0) >> 52) + (uint64_t)(((unsigned __int128)m * q0) >> 52);
    }
    uint64_t t[MAXD];
    for (size_t v = 0; v < nv; v++)
        _mm512_storeu_si512((void *)(t + 8 * v), acc[v]);
    uint64_t c = 0;
    for (size_t k = 0; k < d; k++) {             /* normalise: carries up */
        uint64_t x = t[k] + c;
        r52[k] = x & M52;
        c = x >> 52;
    }
    ic_wipe(t, d * sizeof t[0]);
}

static void ifma_mul(ic_limb *r, const ic_limb *a, const ic_limb *b,
                     const ic_limb *n, ic_limb n0, size_t nl)
{
    size_t d = ifma_digits(nl);
    uint64_t a52[MAXD], b52[MAXD], n52[MAXD], r52[MAXD];
    uint64_t t[IC_BN_MAX_LIMBS + 1];
    to52(a52, a, nl, d);
    to52(b52, b, nl, d);
    to52(n52, n, nl, d);
    amm52(r52, a52, b52, n52, n0 & M52, d);
    /* r52 < 2n: back to limbs with one more for the top, then subtract */
    from52(t, r52, nl + 1, d);
    ic_mont_final_sub(r, t, t[nl], n, nl);
    ic_wipe(a52, d * sizeof a52[0]);
    ic_wipe(b52, d * sizeof b52[0]);
    ic_wipe(r52, d * sizeof r52[0]);
    ic_wipe(t, (nl + 1) * sizeof t[0]);
}

const ic_mont_ops ic_mont_ifma_ops = { ifma_mul, NULL, ifma_rbits, IFMA_MIN_LIMBS };
#endif
