/*
 * poly1305_x86_pow.h - the powers r^1..r^8 of a Poly1305 key for the x86
 * vector backends (poly1305_x86_vec.h, poly1305_x86_ifma.c), computed once
 * per key in scalar code.
 *
 * A one-time key (every ChaCha20-Poly1305 message has its own) pays for
 * these before its first vector run, so they are on the path of every
 * medium-length message: the products go as a tree (r^2; then r^3, r^4;
 * then r^5..r^8 from r^4), three dependent multiplications deep instead
 * of seven, so the out-of-order core overlaps the independent ones.
 *
 * Arithmetic in radix 2^44 on 64x64->128 products (unsigned __int128):
 *   a b = a0b0 + (a0b1 + a1b0) 2^44 + (a0b2 + a1b1 + a2b0) 2^88
 *         + (a1b2 + a2b1) 2^132 + a2b2 2^176,
 * with 2^132 = 4 * 2^130 = 20 (mod p).  Inputs with limbs below 2^44 +
 * 2^12 (a2 below 2^43): every product < 2^92.4, sums < 2^94.  The result
 * is partially reduced (limb 1 may exceed 44 bits by a few); pow_full()
 * reduces it to the unique value below p, by one more carry pass and a
 * masked conditional subtraction of p (no branch on the key).
 */
#ifndef INCORE_POLY1305_X86_POW_H
#define INCORE_POLY1305_X86_POW_H

#include "core/internal.h"

#define POW_M44 ((UINT64_C(1) << 44) - 1)
#define POW_M42 ((UINT64_C(1) << 42) - 1)
#define POW_M26 UINT64_C(0x3ffffff)

static inline void pow_mul(uint64_t c[3], const uint64_t a[3], const uint64_t b[3])
{
    typedef unsigned __int128 u128;
    const uint64_t t1 = 20 * b[1], t2 = 20 * b[2];
    u128 d0 = (u128)a[0] * b[0] + (u128)a[1] * t2 + (u128)a[2] * t1;
    u128 d1 = (u128)a[0] * b[1] + (u128)a[1] * b[0] + (u128)a[2] * t2;
    u128 d2 = (u128)a[0] * b[2] + (u128)a[1] * b[1] + (u128)a[2] * b[0];
    d1 += (uint64_t)(d0 >> 44);
    d2 += (uint64_t)(d1 >> 44);
    uint64_t c0 = ((uint64_t)d0 & POW_M44) + (uint64_t)(d2 >> 42) * 5;   /* < 2^44 + 2^55.4 */
    c[0] = c0 & POW_M44;
    c[1] = ((uint64_t)d1 & POW_M44) + (c0 >> 44);
    c[2] = (uint64_t)d2 & POW_M42;
}

/* The clamped r of a key (RFC 8439 section 2.5) as radix-2^44 limbs, from
 * the radix-2^64 words r0, r1 poly1305_c.c keeps in state words 3, 4. */
static inline void pow_from64(uint64_t a[3], uint64_t r0, uint64_t r1)
{
    a[0] = r0 & POW_M44;
    a[1] = (r0 >> 44 | r1 << 20) & POW_M44;
    a[2] = r1 >> 24;
}

/* p[e-1] = r^e for e = 1..n (n = 4 or 8), partially reduced. */
static inline void pow_table(uint64_t p[][3], unsigned n, uint64_t r0, uint64_t r1)
{
    pow_from64(p[0], r0, r1);
    pow_mul(p[1], p[0], p[0]);
    pow_mul(p[2], p[1], p[0]);
    pow_mul(p[3], p[1], p[1]);
    for (unsigned e = 5; e <= n; e++)
        pow_mul(p[e - 1], p[3], p[e - 5]);
}

/* a mod p, fully reduced, limbs exactly 44/44/42 bits. */
static inline void pow_full(uint64_t a[3])
{
    uint64_t c = a[1] >> 44;
    a[1] &= POW_M44;
    a[2] += c;
    c = a[2] >> 42;
    a[2] &= POW_M42;
    a[0] += 5 * c;
    a[1] += a[0] >> 44;
    a[0] &= POW_M44;
    a[2] += a[1] >> 44;
    a[1] &= POW_M44;          /* now a < 2^130 + small, below 2p */
    /* g = a + 5 - 2^130 = a - p; take it when it does not borrow */
    uint64_t g0 = a[0] + 5, g1 = a[1] + (g0 >> 44), g2 = a[2] + (g1 >> 44);
    g0 &= POW_M44;
    g1 &= POW_M44;
    uint64_t use_g = 0 - (g2 >> 42 & 1);       /* a >= p exactly when g2 reaches 2^42 */
    a[0] = (a[0] & ~use_g) | (g0 & use_g);
    a[1] = (a[1] & ~use_g) | (g1 & use_g);
    a[2] = (a[2] & ~use_g) | (g2 & POW_M42 & use_g);
}

/* A fully reduced value as five 26-bit limbs. */
static inline void pow_to26(uint64_t l[5], const uint64_t a[3])
{
    l[0] = a[0] & POW_M26;
    l[1] = (a[0] >> 26 | a[1] << 18) & POW_M26;
    l[2] = (a[1] >> 8) & POW_M26;
    l[3] = (a[1] >> 34 | a[2] << 10) & POW_M26;
    l[4] = a[2] >> 16;
}

#endif
