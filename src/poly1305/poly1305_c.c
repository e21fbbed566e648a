/*
 * poly1305_c.c - portable Poly1305 arithmetic mod p = 2^130 - 5
 * (RFC 8439 section 2.5), in two radixes:
 *
 *   c64: h = h0 + h1 2^64 + h2 2^128 with 64x64->128 products (unsigned
 *        __int128).  The clamp leaves r1 divisible by 4, so the terms at
 *        2^128 and above fold with one precomputed s1 = 5 r1 / 4: four wide
 *        and two narrow multiplies per block, ~1.5 cycles/byte on x86-64.
 *   c32: h in five 26-bit limbs with 32x32->64 products, for compilers
 *        without a 128-bit type (32-bit targets): limb products at 2^130
 *        and above fold as 5 r_i (2^130 = 5 mod p), 25 multiplies per block.
 *
 * Both are constant time: the same instructions for any key and message,
 * the reduction is a carry chain, and the final "subtract p if h >= p"
 * picks between h and h - p with a mask computed from the borrow, never
 * with a branch.  Both keep h only partially reduced (a few bits over 2^130)
 * between blocks; the bounds are given where they matter.
 */
#include "poly1305/poly1305_impl.h"
#if defined(__x86_64__)
#include <x86intrin.h>   /* _addcarry_u64 */
#endif

/* RFC 8439 section 2.5: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff, i.e. the
 * top four bits of every 32-bit word and the low two bits of words 1..3
 * cleared.  As 32-bit words, little-endian: */
#define CLAMP_W0 0x0fffffffu
#define CLAMP_WN 0x0ffffffcu

#if defined(IC_POLY1305_HAVE_C64)
typedef unsigned __int128 u128;

/* State words: h0 h1 h2 | r0 r1 s1 | pad0 pad1 */
enum { C64_H = 0, C64_R = 3, C64_S1 = 5, C64_PAD = 6, C64_WORDS = 8 };

static void poly1305_c64_init(uint64_t *st, const uint8_t key[32])
{
    uint64_t clamp0 = (uint64_t)CLAMP_WN << 32 | CLAMP_W0, clamp1 = (uint64_t)CLAMP_WN << 32 | CLAMP_WN;
    uint64_t r0 = ic_load64_le(key) & clamp0, r1 = ic_load64_le(key + 8) & clamp1;
    st[C64_H] = st[C64_H + 1] = st[C64_H + 2] = 0;
    st[C64_R] = r0;
    st[C64_R + 1] = r1;
    st[C64_S1] = r1 + (r1 >> 2);       /* 5 r1 / 4, exact since 4 | r1 */
    st[C64_PAD] = ic_load64_le(key + 16);
    st[C64_PAD + 1] = ic_load64_le(key + 24);
}

/* h = (h + m) r with r = r0 + r1 2^64:
 *   h r = h0 r0 + (h0 r1 + h1 r0) 2^64 + (h1 r1 + h2 r0) 2^128 + h2 r1 2^192
 * and r1 2^128 = (r1/4) 2^130 = 5 (r1/4) = s1 (mod p), so
 *   d0 = h0 r0 + h1 s1,   d1 = h0 r1 + h1 r0 + h2 s1,   d2 = h2 r0
 * with h = d0 + d1 2^64 + d2 2^128.  The clamp makes r0, r1 < 2^60 and
 * s1 < 2^61; h2 <= 6 on entry (4 after a reduction, plus the carries of
 * adding m and hibit), so d0, d1 < 2^126, h2 s1 and d2 < 2^64.  The part
 * of d2 at 2^130 and above, q = d2 >> 2, folds back as 5 q = q + 4 q =
 * (d2 >> 2) + (d2 & ~3), leaving h2 <= 3 plus one carry.                   */
#if defined(__x86_64__)
/* x86-64: the same steps on 64-bit words with explicit carries (ADD/ADC
 * through _addcarry_u64, baseline x86-64).  GCC 12 compiles the unsigned
 * __int128 sums below with h and the partial products through stack slots
 * on the block's dependency chain (a store and a reload per sum); this
 * form keeps them in registers.  The scalar block is what every x86
 * backend runs for short runs and the AEAD's lengths block. */
static inline uint64_t c64_adc(unsigned char *c, uint64_t a, uint64_t b)
{
#if defined(__clang__)   /* compiles this to ADC itself; MSan checks the intrinsic's operands as a branch */
    u128 t = (u128)a + b + *c;
    *c = (unsigned char)(t >> 64);
    return (uint64_t)t;
#else
    unsigned long long s;
    *c = _addcarry_u64(*c, a, b, &s);
    return s;
#endif
}

static void poly1305_c64_blocks(uint64_t *st, const uint8_t *in, size_t nblocks, unsigned hibit)
{
    uint64_t h0 = st[C64_H], h1 = st[C64_H + 1], h2 = st[C64_H + 2];
    const uint64_t r0 = st[C64_R], r1 = st[C64_R + 1], s1 = st[C64_S1];
    for (; nblocks != 0; nblocks--, in += 16) {
        unsigned char c = 0;
        h0 = c64_adc(&c, h0, ic_load64_le(in));
        h1 = c64_adc(&c, h1, ic_load64_le(in + 8));
        h2 += c + hibit;

        const u128 a = (u128)h0 * r0, b = (u128)h1 * s1, e = (u128)h0 * r1, f = (u128)h1 * r0;
        c = 0;
        const uint64_t d0 = c64_adc(&c, (uint64_t)a, (uint64_t)b);
        const uint64_t d0h = c64_adc(&c, (uint64_t)(a >> 64), (uint64_t)(b >> 64));
        c = 0;
        uint64_t d1 = c64_adc(&c, (uint64_t)e, (uint64_t)f);
        uint64_t d1h = c64_adc(&c, (uint64_t)(e >> 64), (uint64_t)(f >> 64));
        c = 0;
        d1 = c64_adc(&c, d1, h2 * s1);
        d1h = c64_adc(&c, d1h, 0);
        c = 0;
        d1 = c64_adc(&c, d1, d0h);
        d1h = c64_adc(&c, d1h, 0);
        const uint64_t d2 = h2 * r0 + d1h;

        c = 0;
        h0 = c64_adc(&c, d0, (d2 >> 2) + (d2 & ~(uint64_t)3));
        h1 = c64_adc(&c, d1, 0);
        h2 = (d2 & 3) + c;
    }
    st[C64_H] = h0;
    st[C64_H + 1] = h1;
    st[C64_H + 2] = h2;
}
#else
static void poly1305_c64_blocks(uint64_t *st, const uint8_t *in, size_t nblocks, unsigned hibit)
{
    uint64_t h0 = st[C64_H], h1 = st[C64_H + 1], h2 = st[C64_H + 2];
    const uint64_t r0 = st[C64_R], r1 = st[C64_R + 1], s1 = st[C64_S1];
    for (; nblocks != 0; nblocks--, in += 16) {
        u128 t = (u128)h0 + ic_load64_le(in);
        h0 = (uint64_t)t;
        t = (u128)h1 + ic_load64_le(in + 8) + (uint64_t)(t >> 64);
        h1 = (uint64_t)t;
        h2 += (uint64_t)(t >> 64) + hibit;

        u128 d0 = (u128)h0 * r0 + (u128)h1 * s1;
        u128 d1 = (u128)h0 * r1 + (u128)h1 * r0 + h2 * s1;
        uint64_t d2 = h2 * r0;

        h0 = (uint64_t)d0;
        d1 += (uint64_t)(d0 >> 64);
        h1 = (uint64_t)d1;
        d2 += (uint64_t)(d1 >> 64);

        h2 = d2 & 3;
        t = (u128)h0 + ((d2 >> 2) + (d2 & ~(uint64_t)3));
        h0 = (uint64_t)t;
        t = (u128)h1 + (uint64_t)(t >> 64);
        h1 = (uint64_t)t;
        h2 += (uint64_t)(t >> 64);
    }
    st[C64_H] = h0;
    st[C64_H + 1] = h1;
    st[C64_H + 2] = h2;
}
#endif

/* h < 2^130 + 2^64 < 2p here, so one conditional subtraction of p fully
 * reduces it: g = h + 5 reaches 2^130 exactly when h >= p, and then
 * g - 2^130 = h - p.  Only the low 128 bits matter for the tag. */
static void poly1305_c64_finish(uint64_t *st, uint8_t tag[16])
{
    uint64_t h0 = st[C64_H], h1 = st[C64_H + 1], h2 = st[C64_H + 2];
    u128 t = (u128)h0 + 5;
    uint64_t g0 = (uint64_t)t;
    t = (u128)h1 + (uint64_t)(t >> 64);
    uint64_t g1 = (uint64_t)t;
    uint64_t g2 = h2 + (uint64_t)(t >> 64);
    uint64_t use_g = 0 - ((g2 >> 2) & 1);    /* all ones when h >= p */
    h0 = (h0 & ~use_g) | (g0 & use_g);
    h1 = (h1 & ~use_g) | (g1 & use_g);

    t = (u128)h0 + st[C64_PAD];
    ic_store64_le(tag, (uint64_t)t);
    t = (u128)h1 + st[C64_PAD + 1] + (uint64_t)(t >> 64);
    ic_store64_le(tag + 8, (uint64_t)t);
    IC_WIPE_FIXED(st, C64_WORDS * sizeof *st);   /* inline stores, no call */
}

const ic_poly1305_ops ic_poly1305_c64_ops = {
    .init = poly1305_c64_init,
    .blocks = poly1305_c64_blocks,
    .finish = poly1305_c64_finish,
};
#endif /* IC_POLY1305_HAVE_C64 */

/* ---- radix 2^26 ---------------------------------------------------------- */

/* State words (each holding a value below 2^32): h0..h4 | r0..r4 | pad0..pad3 */
enum { C32_H = 0, C32_R = 5, C32_PAD = 10, C32_WORDS = 14 };
#define M26 0x3ffffffu

/* 128 bits from four little-endian 32-bit words into limbs of 26 bits
 * (bit offsets 0, 26, 52, 78, 104), plus top << 128 in the last limb. */
static void poly1305_c32_split(uint32_t l[5], uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3,
                               uint32_t top)
{
    l[0] = w0 & M26;
    l[1] = (w0 >> 26 | w1 << 6) & M26;
    l[2] = (w1 >> 20 | w2 << 12) & M26;
    l[3] = (w2 >> 14 | w3 << 18) & M26;
    l[4] = w3 >> 8 | top << 24;
}

static void poly1305_c32_init(uint64_t *st, const uint8_t key[32])
{
    uint32_t r[5];
    poly1305_c32_split(r, ic_load32_le(key) & CLAMP_W0, ic_load32_le(key + 4) & CLAMP_WN,
                       ic_load32_le(key + 8) & CLAMP_WN, ic_load32_le(key + 12) & CLAMP_WN, 0);
    for (int i = 0; i < 5; i++) {
        st[C32_H + i] = 0;
        st[C32_R + i] = r[i];
    }
    for (int i = 0; i < 4; i++)
        st[C32_PAD + i] = ic_load32_le(key + 16 + 4 * i);
    ic_wipe(r, sizeof r);
}

/* h = (h + m) r, schoolbook on 26-bit limbs: the product of limbs i and j
 * sits at 2^(26(i+j)); for i + j >= 5 that is 2^130 2^(26(i+j-5)), and
 * 2^130 = 5 mod p, so those terms use s_j = 5 r_j one limb lower.  Limbs
 * of h are < 2^27 after adding m, r_j < 2^26, s_j < 2^29: each d_k is a sum
 * of five products < 2^56, far inside 64 bits.  The carry chain leaves
 * every limb < 2^26 except h1, which may hold a few more after the
 * 2^130 -> 5 fold of the top carry. */
static void poly1305_c32_blocks(uint64_t *st, const uint8_t *in, size_t nblocks, unsigned hibit)
{
    uint32_t h0 = (uint32_t)st[C32_H], h1 = (uint32_t)st[C32_H + 1], h2 = (uint32_t)st[C32_H + 2],
             h3 = (uint32_t)st[C32_H + 3], h4 = (uint32_t)st[C32_H + 4];
    const uint32_t r0 = (uint32_t)st[C32_R], r1 = (uint32_t)st[C32_R + 1],
                   r2 = (uint32_t)st[C32_R + 2], r3 = (uint32_t)st[C32_R + 3],
                   r4 = (uint32_t)st[C32_R + 4];
    const uint32_t s1 = r1 * 5, s2 = r2 * 5, s3 = r3 * 5, s4 = r4 * 5;
    uint32_t m[5];
    for (; nblocks != 0; nblocks--, in += 16) {
        poly1305_c32_split(m, ic_load32_le(in), ic_load32_le(in + 4), ic_load32_le(in + 8),
                           ic_load32_le(in + 12), hibit);
        h0 += m[0]; h1 += m[1]; h2 += m[2]; h3 += m[3]; h4 += m[4];

        uint64_t d0 = (uint64_t)h0 * r0 + (uint64_t)h1 * s4 + (uint64_t)h2 * s3 + (uint64_t)h3 * s2 + (uint64_t)h4 * s1;
        uint64_t d1 = (uint64_t)h0 * r1 + (uint64_t)h1 * r0 + (uint64_t)h2 * s4 + (uint64_t)h3 * s3 + (uint64_t)h4 * s2;
        uint64_t d2 = (uint64_t)h0 * r2 + (uint64_t)h1 * r1 + (uint64_t)h2 * r0 + (uint64_t)h3 * s4 + (uint64_t)h4 * s3;
        uint64_t d3 = (uint64_t)h0 * r3 + (uint64_t)h1 * r2 + (uint64_t)h2 * r1 + (uint64_t)h3 * r0 + (uint64_t)h4 * s4;
        uint64_t d4 = (uint64_t)h0 * r4 + (uint64_t)h1 * r3 + (uint64_t)h2 * r2 + (uint64_t)h3 * r1 + (uint64_t)h4 * r0;

        d1 += d0 >> 26; h0 = (uint32_t)d0 & M26;
        d2 += d1 >> 26; h1 = (uint32_t)d1 & M26;
        d3 += d2 >> 26; h2 = (uint32_t)d2 & M26;
        d4 += d3 >> 26; h3 = (uint32_t)d3 & M26;
        h4 = (uint32_t)d4 & M26;
        uint64_t f = h0 + (d4 >> 26) * 5;
        h0 = (uint32_t)f & M26;
        h1 += (uint32_t)(f >> 26);
    }
    st[C32_H] = h0; st[C32_H + 1] = h1; st[C32_H + 2] = h2; st[C32_H + 3] = h3; st[C32_H + 4] = h4;
    ic_wipe(m, sizeof m);
}

/* One carry pass h0 -> h4 normalises h0..h3 below 2^26 and leaves h4 <=
 * 2^26 (blocks leaves h4 < 2^26 and only h1 a little over), so h <
 * 2^130 + 2^104 < 2p, and one conditional subtraction of p reduces fully:
 * g = h + 5 - 2^130 has a non-negative top limb exactly when h >= p, and
 * that sign bit becomes the select mask.  Then back to 32-bit words and
 * add s mod 2^128 (section 2.5.1). */
static void poly1305_c32_finish(uint64_t *st, uint8_t tag[16])
{
    uint32_t h[5], g[5];
    for (int i = 0; i < 5; i++)
        h[i] = (uint32_t)st[C32_H + i];
    for (int i = 0; i < 4; i++) {
        h[i + 1] += h[i] >> 26;
        h[i] &= M26;
    }
    uint32_t c = 5;
    for (int i = 0; i < 4; i++) {
        g[i] = h[i] + c;
        c = g[i] >> 26;
        g[i] &= M26;
    }
    g[4] = h[4] + c - (UINT32_C(1) << 26);
    uint32_t use_g = (g[4] >> 31) - 1;    /* all ones when g >= 0, i.e. h >= p */
    for (int i = 0; i < 5; i++)
        h[i] = (h[i] & ~use_g) | (g[i] & use_g);

    uint32_t w[4] = {
        h[0] | h[1] << 26, h[1] >> 6 | h[2] << 20, h[2] >> 12 | h[3] << 14, h[3] >> 18 | h[4] << 8,
    };
    uint64_t f = 0;
    for (int i = 0; i < 4; i++) {
        f += (uint64_t)w[i] + st[C32_PAD + i];
        ic_store32_le(tag + 4 * i, (uint32_t)f);
        f >>= 32;
    }
    ic_wipe(h, sizeof h);
    ic_wipe(g, sizeof g);
    ic_wipe(st, C32_WORDS * sizeof *st);
}

const ic_poly1305_ops ic_poly1305_c32_ops = {
    .init = poly1305_c32_init,
    .blocks = poly1305_c32_blocks,
    .finish = poly1305_c32_finish,
};

/* The portable entry: radix 2^64 where the compiler multiplies 64x64->128. */
#if defined(IC_POLY1305_HAVE_C64)
IC_BACKEND(poly1305, c, 0, &ic_poly1305_c64_ops);
#else
IC_BACKEND(poly1305, c, 0, &ic_poly1305_c32_ops);
#endif
