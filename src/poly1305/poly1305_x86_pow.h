/*
 * poly1305_x86_pow.h - r^2, r^3, r^4 (and with pow_mul r^8, r^16) of a
 * Poly1305 key in scalar radix 2^44, for the powers of poly1305_x86_ifma.c.
 *
 * The eight lane powers r^1..r^8 then take ONE vector multiplication:
 * with exponents per lane [4 1 4 1 4 1 4 1] x [4 4 3 3 2 2 1 1] =
 * [8 4 7 3 6 2 5 1] (the lane order of the vector code).  r^2 and then
 * r^3, r^4 side by side are two dependent scalar products, against three
 * dependent IFMA products when squaring up to r^8 in vectors: 6-10 %
 * faster one-shots from 200 bytes to 1 KiB on Zen 4, where a one-time AEAD
 * key pays for its powers on every medium-length message.  (For the
 * radix-2^26 backends the vector-only way measured faster: their scalar
 * powers also need a full reduction and a limb conversion each.)
 *
 * Radix 2^44 on 64x64->128 products (unsigned __int128):
 *   a b = a0b0 + (a0b1 + a1b0) 2^44 + (a0b2 + a1b1 + a2b0) 2^88
 *         + (a1b2 + a2b1) 2^132 + a2b2 2^176,   2^132 = 20 (mod p).
 * Inputs with limbs below 2^44 + 2^12 (a2 below 2^43): products < 2^92.4,
 * sums < 2^94.  Results partially reduced (limb 1 may pass 44 bits by a
 * few), which the vector code takes as input as it is.
 */
#ifndef INCORE_POLY1305_X86_POW_H
#define INCORE_POLY1305_X86_POW_H

#include "core/internal.h"

#define POW_M44 ((UINT64_C(1) << 44) - 1)
#define POW_M42 ((UINT64_C(1) << 42) - 1)

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

/* p[0..n-1] = r, r^2 (n = 2) or r .. r^4 (n = 4) from the clamped r as
 * radix-2^64 words r0, r1 (poly1305_c.c's state words 3, 4); r exact, the
 * others partially reduced. */
static inline void pow_r1234(uint64_t p[4][3], int n, uint64_t r0, uint64_t r1)
{
    p[0][0] = r0 & POW_M44;
    p[0][1] = (r0 >> 44 | r1 << 20) & POW_M44;
    p[0][2] = r1 >> 24;
    pow_mul(p[1], p[0], p[0]);
    if (n > 2) {
        pow_mul(p[2], p[1], p[0]);
        pow_mul(p[3], p[1], p[1]);
    }
}

#endif
