/*
 * ghash_x86.h - what the x86-64 GHASH backends (ghash_x86_clmul.c,
 * ghash_x86_vpclmul.c) and the stitched AES-GCM loops (gcm_x86_*.c) share:
 * the key layout in ic_ghash_key.storage, the carry-less Karatsuba product
 * and the Montgomery-style reduction.  Include it only from files compiled
 * for at least PCLMULQDQ and SSSE3, after their IC_TARGET_BEGIN.
 *
 * Representation.  GHASH (SP 800-38D section 6.3) writes the coefficient of
 * x^0 in the most significant bit of byte 0.  Loading a block with its 16
 * bytes reversed (PSHUFB) gives a 128-bit integer A whose bit i is the
 * coefficient of x^(127-i): phi(a) = X^127 a(1/X), the bit-reflected
 * polynomial.  PCLMULQDQ multiplies such integers as polynomials in X, and
 * phi(u) * phi(v) = X^127 phi(u v) modulo Q(X) = X^128 + X^127 + X^126 +
 * X^121 + 1 (the reflection of x^128 + x^7 + x^2 + x + 1).
 *
 * The key holds psi(h) = X phi(h) mod Q ("H << 1", as in S. Gueron and
 * M. Kounavis, "Intel Carry-Less Multiplication Instruction and its Usage
 * for Computing the GCM Mode", 2010/2014).  Then phi(a) * psi(h) =
 * X^128 phi(a h) mod Q, so dividing the 256-bit product by X^128 modulo Q
 * (a Montgomery reduction, which is exact at a 128-bit boundary) gives
 * phi(a h) with no bit shift of the product.  Because Q = 1 mod X^64, each
 * 64-bit step of that division is one multiply by the constant
 * X^63 + X^62 + X^57 (0xC2 << 56) plus a swap of halves: two PCLMULQDQ per
 * reduction.  Since the reduction is linear, a batch of n blocks is hashed
 * as sum_i phi(x_i) * psi(H^(n-i)) and reduced once ("aggregated
 * reduction"), and the powers psi(H^k) are themselves Montgomery products:
 * mont(psi(u), psi(v)) = psi(u v).
 *
 * Karatsuba: a 128x128 product is a0 h0, a1 h1 and (a0 ^ a1)(h0 ^ h1),
 * whose XOR with the other two is the middle term a0 h1 ^ a1 h0.  The
 * (h0 ^ h1) halves are precomputed per power.
 *
 * Layout (64-byte aligned storage, 512 bytes): pow[i] = psi(H^(16 - i)),
 * so pow[15] = H^1 and pow[16 - n .. 15] are the powers for a batch of n
 * blocks, in block order; kar[i] holds pow[i].lo ^ pow[i].hi in both
 * halves.  A 256-bit load of pow[2j] therefore gives the two powers for
 * blocks 2j and 2j+1 of a 16-block batch in its two lanes.  The "clmul"
 * backend fills i = 8..15 (8-block batches), "vpclmul" all sixteen, and the
 * stitched loops read whichever range their batch size needs: a key made by
 * either backend serves the 8-block AES-NI loop.  The "vpclmul512" key
 * (ghash_x86_key32, 1 KiB) is this layout followed by H^32 .. H^17 in the
 * same form, for its 32-block batches.
 */
#ifndef INCORE_GHASH_X86_H
#define INCORE_GHASH_X86_H

#include "gcm/ghash_impl.h"
#include "core/target.h"   /* IC_TARGET_MACROS */

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define GHASH_X86_MAXPOW 16
#define GX_INLINE static inline __attribute__((always_inline))

typedef struct {
    __m128i pow[GHASH_X86_MAXPOW];   /* pow[i] = psi(H^(16 - i))         */
    __m128i kar[GHASH_X86_MAXPOW];   /* pow[i].lo ^ pow[i].hi, twice     */
} ghash_x86_key;

_Static_assert(sizeof(ghash_x86_key) <= IC_GHASH_KEY_STORAGE, "x86 GHASH key too large");

static inline const ghash_x86_key *ghash_x86_key_of(const ic_ghash_key *hk)
{
    return (const ghash_x86_key *)(const void *)hk->storage;
}

/* PSHUFB mask reversing the 16 bytes: the standard's byte order <-> phi. */
static inline __m128i gh_bswap_mask(void)
{
    return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

/* A running sum of unreduced products: lo = sum a0 h0, hi = sum a1 h1,
 * mid = sum (a0 ^ a1)(h0 ^ h1). */
typedef struct {
    __m128i lo, hi, mid;
} gh_acc;

static inline void gh_acc_zero(gh_acc *s)
{
    s->lo = s->hi = s->mid = _mm_setzero_si128();
}

/* s += a * p, Karatsuba, with k = p.lo ^ p.hi in its low half. */
static inline void gh_mul_acc(gh_acc *s, __m128i a, __m128i p, __m128i k)
{
    __m128i am = _mm_xor_si128(a, _mm_shuffle_epi32(a, 0x4E));
    s->lo = _mm_xor_si128(s->lo, _mm_clmulepi64_si128(a, p, 0x00));
    s->hi = _mm_xor_si128(s->hi, _mm_clmulepi64_si128(a, p, 0x11));
    s->mid = _mm_xor_si128(s->mid, _mm_clmulepi64_si128(am, k, 0x00));
}

/* Divide the 256-bit value hi:lo by X^128 modulo Q (see the file comment).
 * Step: with lo = [c1:c0], c0 * Q cancels c0 and adds c0 X^64 (the swap)
 * and c0 (X^63 + X^62 + X^57) (the multiply) one word higher. */
static inline __m128i gh_mont_reduce(__m128i lo, __m128i hi)
{
    const __m128i poly = _mm_set_epi64x((long long)0xC200000000000000ULL, 0);
    __m128i t = _mm_clmulepi64_si128(lo, poly, 0x10);
    lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4E), t);
    t = _mm_clmulepi64_si128(lo, poly, 0x10);
    lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4E), t);
    return _mm_xor_si128(lo, hi);
}

/* Close a Karatsuba sum: the middle term is mid ^ lo ^ hi, spread over the
 * two halves at X^64, then the reduction. */
static inline __m128i gh_finish(const gh_acc *s)
{
    __m128i m = _mm_xor_si128(s->mid, _mm_xor_si128(s->lo, s->hi));
    __m128i lo = _mm_xor_si128(s->lo, _mm_slli_si128(m, 8));
    __m128i hi = _mm_xor_si128(s->hi, _mm_srli_si128(m, 8));
    return gh_mont_reduce(lo, hi);
}

/* The Karatsuba half of a power, in both halves of the register. */
static inline __m128i gh_kar_of(__m128i p)
{
    return _mm_xor_si128(p, _mm_shuffle_epi32(p, 0x4E));
}

/* psi(h) = X phi(h) mod Q from the 16 bytes of H: shift the reflected value
 * left by one and, when X^128 appears, subtract Q (its low 128 bits are
 * 0xC2000000_00000000_00000000_00000001).  The carry is turned into a mask
 * arithmetically, not by a branch. */
static inline __m128i gh_psi_from_bytes(const uint8_t h[16])
{
    const __m128i q = _mm_set_epi64x((long long)0xC200000000000000ULL, 1);
    __m128i v = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)h), gh_bswap_mask());
    __m128i top = _mm_shuffle_epi32(_mm_srai_epi32(v, 31), 0xFF);     /* bit 127, everywhere */
    __m128i sh = _mm_or_si128(_mm_slli_epi64(v, 1), _mm_slli_si128(_mm_srli_epi64(v, 63), 8));
    return _mm_xor_si128(sh, _mm_and_si128(top, q));
}

/* Montgomery product of two psi values: psi(u) psi(v) / X^128 = psi(u v). */
static inline __m128i gh_mont_mul(__m128i a, __m128i b)
{
    gh_acc s;
    gh_acc_zero(&s);
    gh_mul_acc(&s, a, b, gh_kar_of(b));
    return gh_finish(&s);
}

/* The square: over GF(2) the cross terms cancel, so two multiplies and
 * no middle term. */
static inline __m128i gh_mont_sqr(__m128i a)
{
    return gh_mont_reduce(_mm_clmulepi64_si128(a, a, 0x00), _mm_clmulepi64_si128(a, a, 0x11));
}

/* Fill pow[16 - n .. 15] = psi(H^n .. H^1) and their Karatsuba halves.
 * H^m = H^(m/2) H^(m - m/2), computed in place (P(m) is pow[16 - m]): the
 * products of one doubling are independent, so the chain of dependent
 * multiplies is 4 long for 16 powers instead of 15 (this runs in every
 * ic_aes_gcm_key_init, hence in every raw-key one-shot seal and open),
 * and that chain is of squares. */
static inline void gh_key_powers(ghash_x86_key *k, const uint8_t h[16], int n)
{
#define P(m) k->pow[GHASH_X86_MAXPOW - (m)]
    P(1) = gh_psi_from_bytes(h);
    for (int m = 2; m <= n; m++)
        P(m) = m % 2 == 0 ? gh_mont_sqr(P(m / 2)) : gh_mont_mul(P(m / 2), P(m - m / 2));
#undef P
    for (int i = GHASH_X86_MAXPOW - n; i < GHASH_X86_MAXPOW; i++)
        k->kar[i] = gh_kar_of(k->pow[i]);
}

/* init of the 128- and 256-bit backends: the whole storage cleared (the
 * powers a backend does not fill stay zero, and nothing of an earlier
 * "vpclmul512" key is left above its 512 bytes), then psi(H^n .. H^1). */
static inline void gh_key_init(ic_ghash_key *hk, const uint8_t h[16], int n)
{
    memset(hk->storage, 0, sizeof hk->storage);
    gh_key_powers((ghash_x86_key *)(void *)hk->storage, h, n);
}

/* Load one block (any alignment) as phi(block). */
static inline __m128i gh_load(const uint8_t *p)
{
    return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), gh_bswap_mask());
}

static inline void gh_store(uint8_t *p, __m128i v)
{
    _mm_storeu_si128((__m128i *)(void *)p, _mm_shuffle_epi8(v, gh_bswap_mask()));
}

/* y = (y + x_0) H^n + x_1 H^(n-1) + ... + x_(n-1) H for 1 <= n <= 16 blocks
 * of in, with one reduction; y and the result in phi form. */
static inline __m128i gh_batch(const ghash_x86_key *k, __m128i y, const uint8_t *in, size_t n)
{
    const __m128i *p = k->pow + (GHASH_X86_MAXPOW - n), *q = k->kar + (GHASH_X86_MAXPOW - n);
    gh_acc s;
    gh_acc_zero(&s);
    gh_mul_acc(&s, _mm_xor_si128(y, gh_load(in)), p[0], q[0]);
    for (size_t i = 1; i < n; i++)
        gh_mul_acc(&s, gh_load(in + 16 * i), p[i], q[i]);
    return gh_finish(&s);
}

/* ---- 256-bit registers (files compiled for AVX2 and VPCLMULQDQ; clang
 * defines no feature macros for a target, so there every file sees the
 * section, and compiles only what it calls) ---------------------------- */
#if !IC_TARGET_MACROS || (defined(__AVX2__) && defined(__VPCLMULQDQ__))

/* Karatsuba sums of two products per register (lane 0 and lane 1). */
typedef struct {
    __m256i lo, hi, mid;
} gh256_acc;

static inline void gh256_acc_zero(gh256_acc *s)
{
    s->lo = s->hi = s->mid = _mm256_setzero_si256();
}

/* Two blocks (any alignment) as phi(block) in the two lanes. */
static inline __m256i gh256_load(const uint8_t *p)
{
    return _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)p),
                               _mm256_broadcastsi128_si256(gh_bswap_mask()));
}

/* s += x * (pow[i], pow[i+1]) lane by lane, kr their Karatsuba halves;
 * pw and kr point at pow + i and kar + i (16-byte aligned). */
static inline void gh256_mul_acc(gh256_acc *s, __m256i x, const __m128i *pw, const __m128i *kr)
{
    __m256i p = _mm256_loadu_si256((const __m256i *)(const void *)pw);
    __m256i k = _mm256_loadu_si256((const __m256i *)(const void *)kr);
    __m256i xm = _mm256_xor_si256(x, _mm256_shuffle_epi32(x, 0x4E));
    s->lo = _mm256_xor_si256(s->lo, _mm256_clmulepi64_epi128(x, p, 0x00));
    s->hi = _mm256_xor_si256(s->hi, _mm256_clmulepi64_epi128(x, p, 0x11));
    s->mid = _mm256_xor_si256(s->mid, _mm256_clmulepi64_epi128(xm, k, 0x00));
}

static inline __m128i gh256_fold(__m256i v)
{
    return _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}

/* Fold the lanes of s into t (both are sums of products, so XOR). */
static inline void gh256_fold_into(gh_acc *t, const gh256_acc *s)
{
    t->lo = _mm_xor_si128(t->lo, gh256_fold(s->lo));
    t->hi = _mm_xor_si128(t->hi, gh256_fold(s->hi));
    t->mid = _mm_xor_si128(t->mid, gh256_fold(s->mid));
}

/* gh_batch for 1 <= n <= 16 blocks, two per register: pairs of blocks
 * meet pairs of powers (pow[16-n+i], pow[16-n+i+1]); an odd last block
 * (power H^1) goes through the 128-bit path.  One reduction. */
static inline __m128i gh256_batch(const ghash_x86_key *k, __m128i y, const uint8_t *in, size_t n)
{
    const __m128i *p = k->pow + (GHASH_X86_MAXPOW - n), *q = k->kar + (GHASH_X86_MAXPOW - n);
    __m256i a = _mm256_zextsi128_si256(y);   /* y, added to block 0 */
    gh256_acc s2;
    gh_acc s;
    size_t i = 0;

    gh_acc_zero(&s);
    gh256_acc_zero(&s2);
    if (n >= 2) {
        /* pairs 1.. first and the pair with y last (as in gh512_batch:
         * the chain from y to the next y is one product and one XOR
         * shorter per pair) */
        for (i = 2; i + 2 <= n; i += 2)
            gh256_mul_acc(&s2, gh256_load(in + 16 * i), p + i, q + i);
        gh256_mul_acc(&s2, _mm256_xor_si256(gh256_load(in), a), p, q);
        a = _mm256_setzero_si256();
    }
    if (i < n)   /* an odd last block, or n == 1 (then y is still in a) */
        gh_mul_acc(&s, _mm_xor_si128(gh_load(in + 16 * i), _mm256_castsi256_si128(a)), p[i], q[i]);
    gh256_fold_into(&s, &s2);
    return gh_finish(&s);
}

#endif /* 256-bit registers */

/* ---- 512-bit registers (files compiled for AVX-512F/BW and VPCLMULQDQ;
 * every file under clang): four blocks per register ------------------- */
#if !IC_TARGET_MACROS || (defined(__AVX512F__) && defined(__AVX512BW__) && defined(__VPCLMULQDQ__))

typedef struct {
    __m512i lo, hi, mid;
} gh512_acc;

static inline void gh512_acc_zero(gh512_acc *s)
{
    s->lo = s->hi = s->mid = _mm512_setzero_si512();
}

/* Four blocks (any alignment) as phi(block) in the four lanes. */
static inline __m512i gh512_load(const uint8_t *p)
{
    return _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)p), _mm512_broadcast_i32x4(gh_bswap_mask()));
}

/* s += x * (pow[i] .. pow[i+3]) lane by lane; pw, kr = pow + i, kar + i. */
static inline void gh512_mul_acc(gh512_acc *s, __m512i x, const __m128i *pw, const __m128i *kr)
{
    __m512i p = _mm512_loadu_si512((const void *)pw);
    __m512i k = _mm512_loadu_si512((const void *)kr);
    __m512i xm = _mm512_xor_si512(x, _mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0x4E));
    s->lo = _mm512_xor_si512(s->lo, _mm512_clmulepi64_epi128(x, p, 0x00));
    s->hi = _mm512_xor_si512(s->hi, _mm512_clmulepi64_epi128(x, p, 0x11));
    s->mid = _mm512_xor_si512(s->mid, _mm512_clmulepi64_epi128(xm, k, 0x00));
}

static inline __m128i gh512_fold(__m512i v)
{
    __m256i h = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

static inline void gh512_fold_into(gh_acc *t, const gh512_acc *s)
{
    t->lo = _mm_xor_si128(t->lo, gh512_fold(s->lo));
    t->hi = _mm_xor_si128(t->hi, gh512_fold(s->hi));
    t->mid = _mm_xor_si128(t->mid, gh512_fold(s->mid));
}

/* Montgomery products (as gh_mont_mul) lane by lane: lane l of the result
 * is psi(b_l) psi(p_l) / X^128, b holding the multiplier in every lane
 * where the key's powers are made (gh512_key_init).  Schoolbook, four
 * VPCLMULQDQ and two for the reduction: Karatsuba's three would need
 * b.lo ^ b.hi first, two more steps on the chain of dependent multiplies
 * that gh512_key_init's time is. */
static inline __m512i gh512_mont_reduce(__m512i lo, __m512i hi)
{
    const __m512i poly = _mm512_broadcast_i32x4(_mm_set_epi64x((long long)0xC200000000000000ULL, 0));
    for (int step = 0; step < 2; step++)   /* gh_mont_reduce, per lane */
        lo = _mm512_xor_si512(_mm512_shuffle_epi32(lo, (_MM_PERM_ENUM)0x4E), _mm512_clmulepi64_epi128(lo, poly, 0x10));
    return _mm512_xor_si512(lo, hi);
}

static inline __m512i gh512_mont_mul(__m512i b, __m512i p)
{
    __m512i lo = _mm512_clmulepi64_epi128(p, b, 0x00);
    __m512i hi = _mm512_clmulepi64_epi128(p, b, 0x11);
    __m512i m = _mm512_xor_si512(_mm512_clmulepi64_epi128(p, b, 0x01), _mm512_clmulepi64_epi128(p, b, 0x10));
    lo = _mm512_xor_si512(lo, _mm512_bslli_epi128(m, 8));
    hi = _mm512_xor_si512(hi, _mm512_bsrli_epi128(m, 8));
    return gh512_mont_reduce(lo, hi);
}

/* The square of each lane: over GF(2) the cross terms a0 a1 cancel, so
 * two multiplies and no middle term before the reduction. */
static inline __m512i gh512_mont_sqr(__m512i b)
{
    return gh512_mont_reduce(_mm512_clmulepi64_epi128(b, b, 0x00), _mm512_clmulepi64_epi128(b, b, 0x11));
}

/* gh_psi_from_bytes in every lane, from H loaded into all four. */
static inline __m512i gh512_psi_bcast(const uint8_t h[16])
{
    const __m512i q = _mm512_broadcast_i32x4(_mm_set_epi64x((long long)0xC200000000000000ULL, 1));
    __m512i v = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)h));
    v = _mm512_shuffle_epi8(v, _mm512_broadcast_i32x4(gh_bswap_mask()));
    __m512i top = _mm512_shuffle_epi32(_mm512_srai_epi32(v, 31), (_MM_PERM_ENUM)0xFF);
    __m512i sh = _mm512_or_si512(_mm512_slli_epi64(v, 1), _mm512_bslli_epi128(_mm512_srli_epi64(v, 63), 8));
    return _mm512_xor_si512(sh, _mm512_and_si512(top, q));
}

/* The "vpclmul512" key: the x86 layout above (H^16 .. H^1, which the
 * 256-bit and AES-NI loops also read, so ghash_x86_key_of works on it)
 * followed by H^32 .. H^17 in the same form (hpow[i] = psi(H^(32 - i)),
 * hkar[i] its Karatsuba half) for the 32-block batches: 1 KiB, made once
 * per key. */
typedef struct {
    ghash_x86_key k;
    __m128i hpow[GHASH_X86_MAXPOW];
    __m128i hkar[GHASH_X86_MAXPOW];
} ghash_x86_key32;

_Static_assert(sizeof(ghash_x86_key32) <= IC_GHASH_KEY_STORAGE, "vpclmul512 GHASH key too large");

static inline const ghash_x86_key32 *ghash_x86_key32_of(const ic_ghash_key *hk)
{
    return (const ghash_x86_key32 *)(const void *)hk->storage;
}

/* Four powers (lane l = pw[l]) and their Karatsuba halves into pw, kr. */
static inline void gh512_store_pow(__m128i *pw, __m128i *kr, __m512i v)
{
    _mm512_storeu_si512((void *)pw, v);
    _mm512_storeu_si512((void *)kr, _mm512_xor_si512(v, _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)0x4E)));
}

/* The whole key from H in five levels of products, four lanes to a
 * VPCLMULQDQ: H^2; H^3, H^4; (H^8 .. H^5) = H^4 (H^4 .. H^1); H^8 times
 * both of those; H^16 times all sixteen.  This runs in every
 * ic_aes_gcm_key_init, hence in every raw-key one-shot, and its time is
 * the chain H -> H^2 -> H^4 -> H^8 -> H^16 -> H^32.  So the multipliers
 * are made in every lane at once (b2 .. b16, squares: no middle term),
 * where a 128-bit H^4 or H^8 would wait for a broadcast and its
 * Karatsuba half at each level; (H^4 .. H^1) is a blend of lanes.  On the
 * Xeon with VPCLMULQDQ this was written on, ic_aes_gcm_key_init (AES-128)
 * went from 242 to 227 TSC ticks that way.  Each level takes its operands from
 * registers: a 64-byte load of powers just stored 16 bytes at a time
 * would wait for the stores to reach the cache (on Zen 5 that cost 350
 * against 252-265 ticks). */
static inline void gh512_key_init(ghash_x86_key32 *k, const uint8_t h[16])
{
    __m512i b1 = gh512_psi_bcast(h);
    __m512i b2 = gh512_mont_sqr(b1);
    __m512i b4 = gh512_mont_sqr(b2), b3 = gh512_mont_mul(b2, b1);
    /* lanes 0 .. 3 = H^4 .. H^1 (a mask bit per 64-bit word) */
    __m512i v12 = _mm512_mask_blend_epi64(0x03, _mm512_mask_blend_epi64(0x0C, _mm512_mask_blend_epi64(0x30, b1, b2), b3), b4);
    __m512i v8 = gh512_mont_mul(b4, v12);                                /* H^8 .. H^5 */
    __m512i b8 = gh512_mont_sqr(b4);
    __m512i v[4] = { gh512_mont_mul(b8, v8), gh512_mont_mul(b8, v12), v8, v12 };
    __m512i b16 = gh512_mont_sqr(b8);
    for (int j = 0; j < 4; j++) {   /* v[j] = pow[4j .. 4j+3] */
        gh512_store_pow(k->k.pow + 4 * j, k->k.kar + 4 * j, v[j]);
        gh512_store_pow(k->hpow + 4 * j, k->hkar + 4 * j, gh512_mont_mul(b16, v[j]));
    }
}

/* The powers and Karatsuba halves for register j (blocks 4j .. 4j+3) of a
 * 32-block batch: H^(32-4j) .. H^(29-4j). */
static inline const __m128i *gh512_pow32(const ghash_x86_key32 *k, int j)
{
    return j < 4 ? k->hpow + 4 * j : k->k.pow + 4 * (j - 4);
}

static inline const __m128i *gh512_kar32(const ghash_x86_key32 *k, int j)
{
    return j < 4 ? k->hkar + 4 * j : k->k.kar + 4 * (j - 4);
}

/* gh_batch for 1 <= n <= 16 blocks: a whole batch of 16 on four registers
 * (blocks 4j .. 4j+3 against pow[4j] .. pow[4j+3]); a shorter one on the
 * 256-bit path.  One reduction. */
static inline __m128i gh512_batch(const ghash_x86_key *k, __m128i y, const uint8_t *in, size_t n)
{
    gh512_acc s4;
    gh_acc s;
    if (n != GHASH_X86_MAXPOW)
        return gh256_batch(k, y, in, n);
    gh512_acc_zero(&s4);
    /* the register with y last: from one batch's y to the next the chain
     * is then one product, one XOR, the fold and the reduction (~30
     * cycles on Zen 5, less than the batch's 14 VPCLMULQDQ take); with it
     * first, three more XORs made long messages latency-bound (2 KiB and
     * up 25 % slower than 1 KiB) */
    for (int j = 1; j < 4; j++)
        gh512_mul_acc(&s4, gh512_load(in + 64 * j), k->pow + 4 * j, k->kar + 4 * j);
    gh512_mul_acc(&s4, _mm512_xor_si512(gh512_load(in), _mm512_zextsi128_si512(y)), k->pow, k->kar);
    gh_acc_zero(&s);
    gh512_fold_into(&s, &s4);
    return gh_finish(&s);
}

/* 32 blocks against H^32 .. H^1, one reduction, y's register last (as in
 * gh512_batch): the 32-block GHASH of ghash_x86_vpclmul512.c and the last
 * batch of gcm_x86_vaes512.c. */
static inline __m128i gh512_batch32(const ghash_x86_key32 *k, __m128i y, const uint8_t *in)
{
    gh512_acc s4;
    gh_acc s;
    gh512_acc_zero(&s4);
    for (int j = 7; j >= 1; j--)
        gh512_mul_acc(&s4, gh512_load(in + 64 * j), gh512_pow32(k, j), gh512_kar32(k, j));
    gh512_mul_acc(&s4, _mm512_xor_si512(gh512_load(in), _mm512_zextsi128_si512(y)), k->hpow, k->hkar);
    gh_acc_zero(&s);
    gh512_fold_into(&s, &s4);
    return gh_finish(&s);
}

#endif /* 512-bit registers */

/* blocks() of both backends: whole batches of `batch` blocks, then the
 * rest (1 .. batch-1) as one smaller batch with the powers H^r .. H^1, one
 * reduction either way.  batch_fn is gh_batch, gh256_batch or gh512_batch; with a
 * constant argument the call is direct after inlining. */
GX_INLINE void gh_blocks(const ic_ghash_key *hk, uint8_t y[16], const uint8_t *in, size_t nblocks, size_t batch,
                         __m128i (*batch_fn)(const ghash_x86_key *, __m128i, const uint8_t *, size_t))
{
    const ghash_x86_key *k = ghash_x86_key_of(hk);
    __m128i acc;
    if (nblocks == 0)
        return;
    acc = gh_load(y);
    for (; nblocks >= batch; nblocks -= batch, in += 16 * batch)
        acc = batch_fn(k, acc, in, batch);
    if (nblocks != 0)
        acc = batch_fn(k, acc, in, nblocks);
    gh_store(y, acc);
}

#endif /* x86 */
#endif
