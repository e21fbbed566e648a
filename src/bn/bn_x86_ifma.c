/*
 * bn_x86_ifma.c - Montgomery multiplication and whole exponentiations with
 * AVX-512 IFMA (VPMADD52LUQ / VPMADD52HUQ) in radix 2^52; compiled for
 * AVX-512F and IFMA.
 *
 * The numbers are split into d digits of 52 bits, 8 to a ZMM register,
 * with R = 2^(52 d) > 4n, so that "almost Montgomery" products of inputs
 * below 2n stay below 2n and need no final subtraction until the end
 * (Gueron and Krasnov, "Software implementation of modular
 * exponentiation, using advanced vector instructions architectures",
 * WAIFI 2012, and OpenSSL's AVX-512 IFMA RSA code after it).  An
 * exponentiation (ic_mont_ops.modexp, ifma_modexp) converts its operands
 * to radix 2^52 once, keeps the window table, the accumulator and every
 * product there, and converts back once; two exponentiations of the same
 * size (the halves of an RSA-CRT signature) run their products side by
 * side, so that one's dependency chains fill the other's waits.  The
 * per-product entry (ifma_mul, the driver's contract of bn_impl.h: radix
 * 2^64 in and out, fully reduced) converts both ways around one product.
 * Constant time: every step depends on nl only; the table is read whole
 * with masks.  For moduli under 1024 bits ic_mont_init takes the next
 * entry, adx (min_limbs), so the entry needs ADX too; called directly, the
 * code here is right at every size.
 */
#include "core/target.h"

#if defined(__x86_64__)
IC_TARGET_BEGIN("avx512f,avx512vl,avx512ifma")
#include "bn/bn_impl.h"
#include "core/ct.h"          /* IC_MSAN */

#if defined(IC_BN_HAVE_ADX)
#include <immintrin.h>

#define M52 ((UINT64_C(1) << 52) - 1)
#define MAXV 20                        /* vectors for 8192 bits: 158 digits */
#define MAXD (8 * MAXV)
#define IFMA_INLINE static inline __attribute__((always_inline))

/* From 1024 bits (16 limbs) the engine beats the scalar MULX/ADX rows on
 * Zen 5 (docs/backends.md, Bignum and RSA, ifma); below, its set-up and
 * the general loop for the small shapes do not pay. */
#define IFMA_MIN_LIMBS 16

/* Digits for a modulus in nl limbs: 52 d >= 64 nl + 2, so R = 2^(52 d)
 * > 4n from the limb count alone (20 for 1024 bits, 40 for 2048, 60 for
 * 3072, 80 for 4096); the vectors hold them 8 to a register, the lanes
 * past d zero. */
static size_t ifma_digits(size_t nl)
{
    return (64 * nl + 2 + 51) / 52;
}

static size_t ifma_rbits(size_t nbits, size_t nl)
{
    (void)nbits;
    return 52 * ifma_digits(nl);
}

/* x (nl limbs of 64 bits) to d digits of 52 bits (digits past x zero). */
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

/* A modulus in radix 2^52: its digits (8 nv, zero past d), k0 = -n^-1
 * mod 2^52 and n0 2^12 (whose high 64 bits of a product with q are
 * q n0 / 2^52: one multiplication for the carry of a step). */
typedef struct {
    IC_ALIGNAS(64) uint64_t n[MAXD];
    uint64_t k0, n0s;
    size_t d, nv;
} mod52;

static void mod52_init(mod52 *m, const ic_limb *n, ic_limb n0, size_t nl)
{
    m->d = ifma_digits(nl);
    m->nv = (m->d + 7) / 8;
    to52(m->n, n, nl, 8 * m->nv);
    m->k0 = n0 & M52;          /* -n^-1 mod 2^64, so mod 2^52 as well */
    m->n0s = m->n[0] << 12;
}

/* What a product needs besides its operands and keeps in memory: the
 * scalar side's terms of each digit of a (W, U) and the sum before the
 * carries.  The caller keeps it and wipes it once at the end, not after
 * every product. */
typedef struct {
    IC_ALIGNAS(64) uint64_t w[2][MAXD], u[2][MAXD], t[2][MAXD];
} scratch52;

/* One vector's operations: all 8 lanes, or with half only the low 4, as
 * a YMM operation (the last vector of a product whose digits fill half of
 * it: the 20 digits of a 1024-bit modulus are two ZMM and one YMM
 * register, not three ZMM).  A half vector's upper lanes are undefined
 * and never read. */
IFMA_INLINE __m256i lo256(__m512i x) { return _mm512_castsi512_si256(x); }
IFMA_INLINE __m512i up512(__m256i x) { return _mm512_castsi256_si512(x); }
IFMA_INLINE __m512i v_madd_lo(__m512i acc, __m512i x, __m512i y, int half)
{
    return half ? up512(_mm256_madd52lo_epu64(lo256(acc), lo256(x), lo256(y))) : _mm512_madd52lo_epu64(acc, x, y);
}
IFMA_INLINE __m512i v_madd_hi(__m512i acc, __m512i x, __m512i y, int half)
{
    return half ? up512(_mm256_madd52hi_epu64(lo256(acc), lo256(x), lo256(y))) : _mm512_madd52hi_epu64(acc, x, y);
}
IFMA_INLINE __m512i v_add(__m512i a, __m512i b, int half)
{
    return half ? up512(_mm256_add_epi64(lo256(a), lo256(b))) : _mm512_add_epi64(a, b);
}
IFMA_INLINE __m512i v_load(const uint64_t *p, int half)
{
    return half ? up512(_mm256_load_si256((const __m256i *)(const void *)p)) : _mm512_load_si512((const void *)p);
}
IFMA_INLINE void v_store(uint64_t *p, __m512i x, int half)
{
    if (half)
        _mm256_store_si256((__m256i *)(void *)p, lo256(x));
    else
        _mm512_store_si512((void *)p, x);
}

/* x (nv vectors, the last a half one with hl) one lane down, a zero lane
 * in at the top. */
IFMA_INLINE void shift_down(__m512i *x, const size_t nv, const int hl)
{
    for (size_t v = 0; v + 1 < nv; v++)
        x[v] = _mm512_alignr_epi64(x[v + 1], x[v], 1);
    x[nv - 1] = hl ? up512(_mm256_alignr_epi64(_mm256_setzero_si256(), lo256(x[nv - 1]), 1))
                   : _mm512_alignr_epi64(_mm512_setzero_si512(), x[nv - 1], 1);
}

/* K (1 or 2) almost-Montgomery products side by side:
 * r[k] = a[k] b[k] 2^(-52 d) mod m[k], below 2 m[k] for inputs below
 * 2 m[k], normalised digits, 8 nv of them (zero past d); r may be a or b.
 *
 * Per digit x = a[k][i]: add the low halves of x b and of q n, q chosen so
 * the lowest lane becomes divisible by 2^52, shift everything down one
 * lane (VALIGNQ across the registers), then add the high halves, which
 * belong one digit up and so land where they should after the shift.
 * NACC says where the terms collect.  With 2, the x b terms and the q n
 * terms in separate registers (A, M): the A chain does not wait for q,
 * and each chain is two multiply-adds and a shift a digit instead of four
 * and a shift.  With 4 (one product of up to 6 vectors: beyond, the
 * registers spill) the high halves collect in two more (AH, MH), and each
 * chain is one multiply-add and a shift.  With 1, all of them in A: the
 * chain is four multiply-adds and a shift, but a digit shifts nv vectors
 * instead of 2 nv, and the shifts (VALIGNQ) all issue on one port of the
 * two the multiply-adds share.  Two products side by side overlap their
 * chains, so they are bound by that issue rate and take 1: RSA-CRT
 * signatures 1.05x (2048 bits), 1.05x (3072) and 1.25x (4096) the speed
 * of 2 on an AVX-512 Xeon (Emerald Rapids, --stat best), where one
 * product takes 4 (shorter chains).  With MEMOP, B
 * and N are read from memory at every digit (memory operands of the
 * multiply-adds) instead of kept in registers, for the sizes where the
 * accumulators need the registers.  Lane 0 is tracked in a
 * scalar (L0), so q, the one value each step waits for, comes from scalar
 * arithmetic: lane 1 of A + M, read as a step begins, is all the next L0
 * needs from the vectors; the vectors' own lane 0 is dropped by the shift
 * and never read, and L0 takes its place at the end.  What L0 needs of x
 * (the low halves of x b0 and x b1, the high half of x b0) is computed for
 * every digit beforehand on the vector unit (W, U), so the scalar side
 * multiplies only by q.  Lanes are 64 bits and each of A, M collects at
 * most 2 d terms below 2^52 (with NACC 1, A collects 4 d), d <= 158, so
 * nothing overflows (4 x 158 x 2^52 < 2^62).
 *
 * On Zen 5 one product's steps are bound by those chains (VALIGNQ has 5
 * to 6 cycles of latency there, the multiply-adds 4, with bypasses on
 * top), not by the multipliers; with K = 2 the two independent chains
 * overlap almost completely, which is the point of running the RSA-CRT
 * halves together.  (Moving the multiplicands instead of the
 * accumulators, a frame that shifts every 4 or 8 digits, measured slower:
 * docs/backends.md.) */
IFMA_INLINE void amm_k(const size_t K, const size_t nv, const int NACC, const int MEMOP, const int HL,
                       scratch52 *sc, uint64_t *const r[], const uint64_t *const a[], const uint64_t *const b[],
                       const mod52 *const m[])
{
    __m512i A[2][MAXV], M[2][MAXV], B[2][MAXV], N[2][MAXV], AH[2][MAXV], MH[2][MAXV];
    uint64_t L0[2], n0s[2], n1[2], k0[2];
    const __m512i zero = _mm512_setzero_si512();
    const size_t d = m[0]->d;
    const int SPLIT = NACC == 4, ONE = NACC == 1;
    for (size_t k = 0; k < K; k++) {
        const __m512i b0 = _mm512_set1_epi64((long long)b[k][0]), b1 = _mm512_set1_epi64((long long)b[k][1]);
        for (size_t v = 0; v < nv; v++) {
            const int h = HL && v == nv - 1;
            A[k][v] = M[k][v] = AH[k][v] = MH[k][v] = zero;
            B[k][v] = v_load(b[k] + 8 * v, h);
            N[k][v] = v_load(m[k]->n + 8 * v, h);
            const __m512i x = v_load(a[k] + 8 * v, h);
            v_store(sc->w[k] + 8 * v, v_madd_lo(zero, x, b0, h), h);
            v_store(sc->u[k] + 8 * v, v_madd_lo(v_madd_hi(zero, x, b0, h), x, b1, h), h);
        }
        L0[k] = 0;
        n0s[k] = m[k]->n0s, n1[k] = m[k]->n[1];
        k0[k] = m[k]->k0;
    }
    for (size_t i = 0; i < d; i++) {
        for (size_t k = 0; k < K; k++) {
            __m512i s = ONE ? A[k][0] : _mm512_add_epi64(A[k][0], M[k][0]);
            if (SPLIT)
                s = _mm512_add_epi64(s, _mm512_add_epi64(AH[k][0], MH[k][0]));
            const uint64_t L1 = (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(s), 1);
            const uint64_t t0 = L0[k] + sc->w[k][i];
            const uint64_t q = (t0 * k0[k]) & M52;
            const __m512i xv = _mm512_set1_epi64((long long)a[k][i]), qv = _mm512_set1_epi64((long long)q);
            if (MEMOP) {
                /* b and n read from memory at every digit (memory operands
                 * of the multiply-adds): the pointers laundered through an
                 * empty asm, so the compiler cannot keep the loads out of
                 * the loop and spill the accumulators for them */
                const uint64_t *bp = b[k], *np = m[k]->n;
                __asm__("" : "+r"(bp), "+r"(np));
                for (size_t v = 0; v < nv; v++) {
                    B[k][v] = v_load(bp + 8 * v, HL && v == nv - 1);
                    N[k][v] = v_load(np + 8 * v, HL && v == nv - 1);
                }
            }
            for (size_t v = 0; v < nv; v++) {
                const int h = HL && v == nv - 1;
                A[k][v] = v_madd_lo(A[k][v], xv, B[k][v], h);
                if (ONE)
                    A[k][v] = v_madd_lo(A[k][v], qv, N[k][v], h);
                else
                    M[k][v] = v_madd_lo(M[k][v], qv, N[k][v], h);
            }
            shift_down(A[k], nv, HL);
            if (!ONE)
                shift_down(M[k], nv, HL);
            if (SPLIT) {
                shift_down(AH[k], nv, HL);
                shift_down(MH[k], nv, HL);
            }
            for (size_t v = 0; v < nv; v++) {
                const int h = HL && v == nv - 1;
                __m512i *ah = SPLIT ? &AH[k][v] : &A[k][v];
                __m512i *mh = SPLIT ? &MH[k][v] : ONE ? &A[k][v] : &M[k][v];
                *ah = v_madd_hi(*ah, xv, B[k][v], h);
                *mh = v_madd_hi(*mh, qv, N[k][v], h);
            }
            /* the lowest lane + q n0, a multiple of 2^52, carries into
             * the new lowest lane (old lane 1 and the terms of x and q
             * that land there); with t0 = h 2^52 + l that carry is
             * (q n0) / 2^52 + h + (l != 0), as l + (q n0 mod 2^52) is 0
             * or 2^52 */
            const uint64_t up = (uint64_t)(((unsigned __int128)q * n0s[k]) >> 64) + (t0 >> 52) +
                                ((t0 & M52) != 0);
            L0[k] = L1 + sc->u[k][i] + ((q * n1[k]) & M52) + up;
        }
    }
    if (SPLIT)
        for (size_t k = 0; k < K; k++)
            for (size_t v = 0; v < nv; v++) {
                A[k][v] = v_add(A[k][v], AH[k][v], HL && v == nv - 1);
                M[k][v] = v_add(M[k][v], MH[k][v], HL && v == nv - 1);
            }
    for (size_t k = 0; k < K; k++) {
        for (size_t v = 0; v < nv; v++) {
            const int h = HL && v == nv - 1;
            v_store(sc->t[k] + 8 * v, ONE ? A[k][v] : v_add(A[k][v], M[k][v], h), h);
        }
        sc->t[k][0] = L0[k];
    }
    uint64_t c[2] = { 0, 0 };
    for (size_t j = 0; j < d; j++)            /* normalise: carries up */
        for (size_t k = 0; k < K; k++) {
            const uint64_t x = sc->t[k][j] + c[k];
            r[k][j] = x & M52;
            c[k] = x >> 52;
        }
    for (size_t k = 0; k < K; k++)
        for (size_t j = d; j < 8 * nv; j++)
            r[k][j] = 0;
}

/* amm_k on three vectors: with 20 digits or fewer (a 1024-bit modulus,
 * an RSA-2048 half) the last one is a YMM register (HL). */
IFMA_INLINE void amm_3(const size_t K, const int NACC, scratch52 *sc, uint64_t *const r[],
                       const uint64_t *const a[], const uint64_t *const b[], const mod52 *const m[])
{
    if (m[0]->d <= 8 * 3 - 4)
        amm_k(K, 3, NACC, 0, 1, sc, r, a, b, m);
    else
        amm_k(K, 3, NACC, 0, 0, sc, r, a, b, m);
}

/* Moduli of 1024 to 4096 bits (3 to 10 vectors) get code with nv known,
 * so that A, M, B and N live in registers up to 7 vectors; from 8 (3072
 * bits and up) B and N are memory operands (MEMOP: the compiler's own
 * choice there kept them in registers and spilled the accumulators, 1.7
 * times slower at 3072 bits); the rest takes the general loop, about 3
 * times slower a digit. */
static void amm1(scratch52 *sc, uint64_t *r, const uint64_t *a, const uint64_t *b, const mod52 *m)
{
    uint64_t *const R[1] = { r };
    const uint64_t *const X[1] = { a }, *const Y[1] = { b };
    const mod52 *const P[1] = { m };
    switch (m->nv) {
    case 3: amm_3(1, 4, sc, R, X, Y, P); break;
    case 4: amm_k(1, 4, 4, 0, 0, sc, R, X, Y, P); break;
    case 5: amm_k(1, 5, 4, 0, 0, sc, R, X, Y, P); break;
    case 6: amm_k(1, 6, 4, 0, 0, sc, R, X, Y, P); break;
    case 7: amm_k(1, 7, 2, 0, 0, sc, R, X, Y, P); break;
    case 8: amm_k(1, 8, 2, 1, 0, sc, R, X, Y, P); break;
    case 9: amm_k(1, 9, 2, 1, 0, sc, R, X, Y, P); break;
    case 10: amm_k(1, 10, 2, 1, 0, sc, R, X, Y, P); break;
    default: amm_k(1, m->nv, 2, 0, 0, sc, R, X, Y, P); break;
    }
}

/* Two products with moduli of the same size (the RSA-CRT halves of 2048,
 * 3072 and 4096 bits), one accumulator each (NACC 1, amm_k).  Up to 4
 * vectors everything is in registers; at 5 (2048-bit halves) B and N are
 * memory operands (MEMOP; in registers measured the same).  From 6
 * vectors one product after the other measured faster (2560 and 3072
 * bits, with two accumulators each; not measured again with one). */
static void amm2(scratch52 *sc, uint64_t *r0, const uint64_t *a0, const uint64_t *b0, const mod52 *m0,
                 uint64_t *r1, const uint64_t *a1, const uint64_t *b1, const mod52 *m1)
{
    uint64_t *const R[2] = { r0, r1 };
    const uint64_t *const X[2] = { a0, a1 }, *const Y[2] = { b0, b1 };
    const mod52 *const P[2] = { m0, m1 };
    switch (m0->nv) {
    case 3: amm_3(2, 1, sc, R, X, Y, P); break;
    case 4: amm_k(2, 4, 1, 0, 0, sc, R, X, Y, P); break;
    case 5: amm_k(2, 5, 1, 1, 0, sc, R, X, Y, P); break;
    default:
        amm1(sc, r0, a0, b0, m0);
        amm1(sc, r1, a1, b1, m1);
        break;
    }
}

/* r = a b R^-1 mod n through radix 2^52: the per-product entry the driver
 * uses outside exponentiations (bn_mod.c), converting both ways. */
static void ifma_mul(ic_limb *r, const ic_limb *a, const ic_limb *b,
                     const ic_limb *n, ic_limb n0, size_t nl)
{
    struct {
        mod52 m;
        scratch52 sc;
        IC_ALIGNAS(64) uint64_t a52[MAXD], b52[MAXD], r52[MAXD];
        uint64_t t[IC_BN_MAX_LIMBS + 1];
    } x;
    mod52_init(&x.m, n, n0, nl);
    to52(x.a52, a, nl, 8 * x.m.nv);
    to52(x.b52, b, nl, 8 * x.m.nv);
    amm1(&x.sc, x.r52, x.a52, x.b52, &x.m);
    /* r52 < 2n: back to limbs with one more for the top, then subtract */
    from52(x.t, x.r52, nl + 1, x.m.d);
    ic_mont_final_sub(r, x.t, x.t[nl], n, nl);
    const size_t used = 8 * x.m.nv * sizeof(uint64_t);   /* what this size touched */
    ic_wipe(x.m.n, used);
    ic_wipe(x.a52, used), ic_wipe(x.b52, used), ic_wipe(x.r52, used);
    ic_wipe(x.sc.w[0], used), ic_wipe(x.sc.u[0], used), ic_wipe(x.sc.t[0], used);
    ic_wipe(x.t, (nl + 1) * sizeof x.t[0]);
}

/* ---- whole exponentiations in radix 2^52 (ic_mont_ops.modexp) ------------ */

/* One exponentiation's state: the modulus, base R, the window table with
 * entries of 8 nv digits, the accumulator and a looked-up entry. */
typedef struct {
    mod52 m;
    const ic_mont_exp *job;
    unsigned w;
    size_t nwin, stride;
    uint64_t *table;                             /* 2^w entries of stride words */
    IC_ALIGNAS(64) uint64_t bm[MAXD], acc[MAXD], t[MAXD];
} exp52;

/* Side by side only up to this many vectors (amm2); two larger
 * exponentiations run one after the other, so that one table area serves
 * every case: two of 5 vectors or one of 20 (the 8192-bit bound). */
#define DUAL_MAXV 5
#define TABLE_WORDS ((1u << IC_BN_MAX_WIN) * MAXD)

/* r = table[idx] (entries of 8 nv digits), reading every entry: each
 * entry's mask (all ones for the one wanted, else zero, computed without a
 * branch) broadcast once, then acc |= row & mask (or_masked) per vector;
 * two partial sums per vector halve the chain. */
IFMA_INLINE __m512i entry_mask(uint64_t e, uint64_t idx)
{
    const uint64_t diff = e ^ idx;
    return _mm512_set1_epi64((long long)(((diff | (0 - diff)) >> 63) - 1));
}

/* acc | (row & mask): one VPTERNLOGQ, except under MemorySanitizer (the
 * ct_msan leg, IC_MSAN), which checks that intrinsic's operands strictly
 * instead of following the secret through it: AND and OR there. */
IFMA_INLINE __m512i or_masked(__m512i acc, __m512i row, __m512i mask)
{
#if defined(IC_MSAN)
    return _mm512_or_si512(acc, _mm512_and_si512(row, mask));
#else
    return _mm512_ternarylogic_epi64(acc, row, mask, 0xf8);
#endif
}

IFMA_INLINE void lookup_k(uint64_t *r, const uint64_t *table, size_t entries, const size_t nv, uint64_t idx)
{
    __m512i even[MAXV], odd[MAXV];
    for (size_t v = 0; v < nv; v++)
        even[v] = odd[v] = _mm512_setzero_si512();
    for (size_t e = 0; e < entries; e += 2) {        /* entries: a power of 2, at least 2 */
        const __m512i m0 = entry_mask(e, idx), m1 = entry_mask(e + 1, idx);
        const uint64_t *row = table + e * 8 * nv;
        for (size_t v = 0; v < nv; v++) {
            even[v] = or_masked(even[v], _mm512_load_si512((const void *)(row + 8 * v)), m0);
            odd[v] = or_masked(odd[v], _mm512_load_si512((const void *)(row + 8 * (nv + v))), m1);
        }
    }
    for (size_t v = 0; v < nv; v++)
        _mm512_store_si512((void *)(r + 8 * v), _mm512_or_si512(even[v], odd[v]));
}

static void lookup52(uint64_t *r, const uint64_t *table, size_t entries, size_t nv, uint64_t idx)
{
    switch (nv) {
    case 3: lookup_k(r, table, entries, 3, idx); break;
    case 5: lookup_k(r, table, entries, 5, idx); break;
    default: lookup_k(r, table, entries, nv, idx); break;
    }
}

/* The set-up of one job: the modulus, base R mod n in bm and R mod n in
 * table[0] (from R^2 mod n, the context's rr for this backend's R). */
static void exp52_begin(exp52 *x, scratch52 *sc, const ic_mont_exp *job, uint64_t *table)
{
    mod52 *m = &x->m;
    mod52_init(m, job->n, job->n0, job->nl);
    x->job = job;
    x->table = table;
    x->stride = 8 * m->nv;
    x->w = job->pub ? 1 : ic_bn_window_bits(job->elen * 8);
    x->nwin = (job->elen * 8 + x->w - 1) / x->w;
    to52(x->t, job->rr, job->nl, x->stride);
    to52(x->acc, job->base, job->nl, x->stride);
    amm1(sc, x->bm, x->acc, x->t, m);
    memset(x->acc, 0, x->stride * sizeof x->acc[0]);
    x->acc[0] = 1;
    amm1(sc, x->table, x->t, x->acc, m);
}

/* The result out of Montgomery form, fully reduced, to the job's r. */
static void exp52_end(exp52 *x, scratch52 *sc)
{
    const ic_mont_exp *job = x->job;
    uint64_t t[IC_BN_MAX_LIMBS + 1];
    memset(x->t, 0, x->stride * sizeof x->t[0]);
    x->t[0] = 1;
    amm1(sc, x->acc, x->acc, x->t, &x->m);       /* below n + 1: see ic_mont_final_sub */
    from52(t, x->acc, job->nl + 1, x->m.d);
    ic_mont_final_sub(job->r, t, t[job->nl], job->n, job->nl);
    ic_wipe(t, sizeof t);
}

/* The window at position win (from the bottom) of the job's exponent. */
static uint64_t exp52_window(const exp52 *x, size_t win)
{
    return ic_bn_exp_window(x->job->exp, x->job->elen, win * x->w, x->w);
}

/* table[i] = base^i R for i < 2^w, and acc = the top window's entry; for
 * two jobs (same sizes) the products in pairs. */
static void exp52_table(exp52 *x, scratch52 *sc, size_t K)
{
    const size_t entries = (size_t)1 << x[0].w, s = x[0].stride;
    for (size_t k = 0; k < K; k++)
        memcpy(x[k].table + s, x[k].bm, s * sizeof x[k].bm[0]);
    for (size_t i = 2; i < entries; i++) {
        if (K == 2)
            amm2(sc, x[0].table + i * s, x[0].table + (i - 1) * s, x[0].bm, &x[0].m,
                 x[1].table + i * s, x[1].table + (i - 1) * s, x[1].bm, &x[1].m);
        else
            amm1(sc, x[0].table + i * s, x[0].table + (i - 1) * s, x[0].bm, &x[0].m);
    }
    for (size_t k = 0; k < K; k++)
        lookup52(x[k].acc, x[k].table, entries, x[k].m.nv, exp52_window(&x[k], x[k].nwin - 1));
}

/* Every window below the top one: w squarings, then the product with the
 * entry the window's bits pick. */
static void exp52_windows(exp52 *x, scratch52 *sc, size_t K)
{
    const size_t entries = (size_t)1 << x[0].w;
    for (size_t win = x[0].nwin - 1; win-- > 0;) {
        for (unsigned j = 0; j < x[0].w; j++) {
            if (K == 2)
                amm2(sc, x[0].acc, x[0].acc, x[0].acc, &x[0].m, x[1].acc, x[1].acc, x[1].acc, &x[1].m);
            else
                amm1(sc, x[0].acc, x[0].acc, x[0].acc, &x[0].m);
        }
        for (size_t k = 0; k < K; k++)
            lookup52(x[k].t, x[k].table, entries, x[k].m.nv, exp52_window(&x[k], win));
        if (K == 2)
            amm2(sc, x[0].acc, x[0].acc, x[0].t, &x[0].m, x[1].acc, x[1].acc, x[1].t, &x[1].m);
        else
            amm1(sc, x[0].acc, x[0].acc, x[0].t, &x[0].m);
    }
}

/* A public exponent: square and multiply from its top set bit, branching
 * on its bits (ic_mont_modexp_public's contract). */
static void exp52_public(exp52 *x, scratch52 *sc)
{
    const uint8_t *e = x->job->exp;
    size_t b = x->job->elen * 8;
    while (!((e[x->job->elen - 1 - (b - 1) / 8] >> ((b - 1) % 8)) & 1))
        b--;                                     /* exp != 0: stops */
    memcpy(x->acc, x->bm, x->stride * sizeof x->acc[0]);
    while (--b > 0) {
        amm1(sc, x->acc, x->acc, x->acc, &x->m);
        if ((e[x->job->elen - 1 - (b - 1) / 8] >> ((b - 1) % 8)) & 1)
            amm1(sc, x->acc, x->acc, x->bm, &x->m);
    }
}

/* What of an exponentiation's state held secrets: the parts its size
 * used, not the whole struct sized for 8192 bits. */
static void exp52_wipe(exp52 *x)
{
    const size_t s = x->stride * sizeof(uint64_t);
    ic_wipe(x->m.n, s);
    ic_wipe(x->bm, s);
    ic_wipe(x->acc, s);
    ic_wipe(x->t, s);
    ic_wipe(x->table, ((size_t)1 << x->w) * s);
}

static void scratch52_wipe(scratch52 *sc, size_t njobs, size_t words)
{
    for (size_t k = 0; k < njobs; k++) {
        ic_wipe(sc->w[k], words * sizeof(uint64_t));
        ic_wipe(sc->u[k], words * sizeof(uint64_t));
        ic_wipe(sc->t[k], words * sizeof(uint64_t));
    }
}

/* One exponentiation, or two of up to DUAL_MAXV vectors side by side,
 * with the table area given; everything wiped at the end. */
static void exp52_run(exp52 *x, scratch52 *sc, const ic_mont_exp *job, size_t njobs, uint64_t *table)
{
    exp52_begin(&x[0], sc, &job[0], table);
    if (njobs == 2)
        exp52_begin(&x[1], sc, &job[1], table + TABLE_WORDS / 2);
    if (njobs == 1 && job[0].pub) {
        exp52_public(&x[0], sc);
    } else {
        exp52_table(x, sc, njobs);
        exp52_windows(x, sc, njobs);
    }
    for (size_t k = 0; k < njobs; k++)
        exp52_end(&x[k], sc);
    scratch52_wipe(sc, njobs, x[0].stride);
    for (size_t k = 0; k < njobs; k++)
        exp52_wipe(&x[k]);
}

/* The engine (about 50 KB of stack at most: one table area of 2^5
 * entries of 8192 bits, which two tables of up to 5 vectors share). */
static void ifma_modexp(const ic_mont_exp *job, size_t njobs)
{
    struct {
        exp52 x[2];
        scratch52 sc;
        IC_ALIGNAS(64) uint64_t table[TABLE_WORDS];
    } st;
    if (njobs == 2 && (ifma_digits(job[0].nl) + 7) / 8 <= DUAL_MAXV) {
        exp52_run(st.x, &st.sc, job, 2, st.table);
    } else {
        exp52_run(st.x, &st.sc, &job[0], 1, st.table);
        if (njobs == 2)
            exp52_run(st.x, &st.sc, &job[1], 1, st.table);
    }
}

static const ic_mont_ops ifma_ops = { ifma_mul, NULL, ifma_rbits, IFMA_MIN_LIMBS, ifma_modexp };
/* IFMA from 1024 bits (IFMA_MIN_LIMBS); a smaller context records adx (min_limbs), so the
 * entry needs what adx needs */
IC_BACKEND(montmul, ifma,
           IC_F(IC_CPU_AVX512F) | IC_F(IC_CPU_AVX512VL) | IC_F(IC_CPU_AVX512IFMA) | IC_F(IC_CPU_BMI2) | IC_F(IC_CPU_ADX),
           &ifma_ops);

#endif /* IC_BN_HAVE_ADX */
IC_TARGET_END
#endif
