/*
 * ghash_arm_neon.c - GHASH (SP 800-38D section 6.4) on NEON for ARM cores
 * without the 64x64 carry-less multiply (PMULL / vmull.p64): Cortex-A7,
 * A8, A9, A15 on 32-bit ARM, Cortex-A53 builds without the crypto
 * extensions on AArch64.  Registry "ghash", entry "neon", needs NEON; it
 * sits after any PMULL entry, so it runs only where PMULL is absent (or
 * masked: INCORE_CPU=-pmull).  One source for AArch32 and AArch64: only
 * <arm_neon.h> intrinsics that both have.
 *
 * The method is the one of the blog post "GHASH for low-end ARM cores"
 * (after Camara, Gouvea, Lopez and Dahab, "Fast Software
 * Polynomial Multiplication on ARM Processors Using the NEON Engine"):
 *
 * 1. A 64x64 -> 128 carry-less product from eight vmull.p8, each doing
 *    eight 8x8 -> 16 products at once.  Byte i of a times byte j of b
 *    belongs at byte offset i + j of the result.  vmull.p8(a, b) gives the
 *    "diagonal" products a_i b_i (lane i at offset 2i).  Rotating one
 *    operand by k bytes (vext) gives, in lane i, the product a_(i+k) b_i,
 *    which belongs at 2i + k - or, for the lanes that wrapped around
 *    (i + k >= 8), at 2i + k - 8.  Rotating a by k and, in a second
 *    product, b by k covers the diagonals +-k and +-(8 - k) in the same
 *    lanes; k = 1, 2, 3 (two products each) and k = 4 (one: the two
 *    rotations give the same pairs) plus the plain product cover all 64
 *    byte pairs.  Each sum is then put at its offset: the wrapped lanes
 *    (the top k of the eight) are moved from the high half into the low
 *    half (XOR, since they belong 8 bytes lower), the rest is masked off,
 *    and a 16-byte rotation by k bytes places the lot (clmul64 below).
 * 2. Karatsuba: a 128x128 product from three 64x64 ones.
 * 3. Reduction modulo x^128 + x^7 + x^2 + x + 1 by shifts and XORs, not by
 *    carry-less multiplies by the polynomial as PMULL code does: a
 *    multiply here costs eight vmull.p8 and some twenty other operations.
 *    The shifts are those of ghash_ct64.c, which works in the same
 *    bit-reflected representation (the block loaded as a big-endian
 *    integer is rev128 of the polynomial; the integer product of two is
 *    rev255 of the product, one left shift makes it rev256, and reduction
 *    becomes right shifts by 1, 2 and 7).
 * 4. Loop invariants: the operand taken from H is rotated by 1, 2, 3 and
 *    4 bytes once per key, in init, for each of H's two halves and their
 *    XOR (Karatsuba's third operand), and kept in the key storage; per
 *    block only the data side is rotated.
 * 5. Aggregation (not in 004; branch arm10): four blocks per reduction,
 *        y' = (y + x0) H^4 + x1 H^3 + x2 H^2 + x3 H,
 *    the three Karatsuba products of each summed unreduced (the product is
 *    linear in them) and combined, shifted and reduced once.  init keeps
 *    the rotated operands of H, H^2, H^3 and H^4 (480 bytes; the powers by
 *    the multiply itself).  It saves three of every four reductions (~20
 *    of the ~130 instructions of a block) and, more on in-order cores
 *    (A7, A53), it breaks the chain through y: the four multiplies are
 *    independent, where one block at a time each waits for the previous
 *    reduction.  A run's last 1-3 blocks take the same path with
 *    H^n..H^1.
 *
 * 004 reports, for the AArch64 version on the Raspberry Pi 3 (Cortex-A53),
 * 4x the speed of the generic table-driven GHASH, and AES-GCM going from
 * 58 to 29 cycles per byte with bit-sliced AES.
 *
 * Constant time: vmull.p8 and the other NEON operations used take the
 * same time for any operands, and nothing here branches on or indexes
 * memory with H or the data.
 *
 * Little-endian only: the 64-bit halves are taken from the byte lanes
 * through vreinterpret, whose lane order differs on big-endian ARM.
 */
#include "core/target.h"

#if IC_ARM_LE
IC_TARGET_BEGIN(IC_TARGET_ARM_NEON)
#include "gcm/ghash_impl.h"

#if !defined(__ARM_NEON) && !defined(__ARM_NEON__)
#error "ghash_arm_neon.c needs NEON code generation (its IC_TARGET_BEGIN)"
#endif
#include <arm_neon.h>

/* One 64-bit operand from H: the value and its rotations by 1..4 bytes
 * (r[k][i] = b[(i + k) mod 8]), r[0] being b itself. */
typedef struct {
    uint8_t r[5][8];
} neon_op;

/* The operands of one power of H: of its low word (bytes 8..15 of the
 * block, big-endian), high word (bytes 0..7) and their XOR. */
typedef struct {
    neon_op h[3];
} neon_pow;

#define NEON_POWERS 4

/* What init keeps in hk->storage: p[i] for H^(i+1). */
typedef struct {
    neon_pow p[NEON_POWERS];
} ghash_neon_key;

_Static_assert(sizeof(ghash_neon_key) <= IC_GHASH_KEY_STORAGE, "neon GHASH key too large");

/* t holds eight 16-bit sums, lane i at bytes 2i..2i+1, each of which
 * belongs k bytes higher, except the top k lanes (the wrapped products),
 * which belong 8 - k bytes lower.  mask keeps, in the high half, the lanes
 * that do not wrap.  Moving the wrapped lanes down by 8 bytes (into the
 * low half, same place within the half) and then rotating the whole by k
 * bytes puts every lane where it belongs; nothing reaches the top, so the
 * rotation never wraps a non-zero byte. */
static inline uint8x16_t place(poly16x8_t t, uint64_t mask, int k)
{
    uint64x2_t v = vreinterpretq_u64_p16(t);
    uint64x1_t lo = vget_low_u64(v), hi = vget_high_u64(v);
    uint64x1_t keep = vand_u64(hi, vcreate_u64(mask));
    lo = veor_u64(lo, veor_u64(hi, keep));    /* lo ^ (hi & ~mask) */
    uint8x16_t w = vreinterpretq_u8_u64(vcombine_u64(lo, keep));
    switch (k) {   /* k is a constant at every call: vext needs an immediate */
    case 1: return vextq_u8(w, w, 15);
    case 2: return vextq_u8(w, w, 14);
    case 3: return vextq_u8(w, w, 13);
    default: return vextq_u8(w, w, 12);
    }
}

/* The 128-bit carry-less product of a and the H operand b, as two 64-bit
 * lanes (low first).  The blog post's letters: D = A*B, E + F = A*B1 + A1*B, ... */
static inline uint64x2_t clmul64(uint8x8_t a, const neon_op *b)
{
    poly8x8_t pa = vreinterpret_p8_u8(a);
    poly8x8_t b0 = vreinterpret_p8_u8(vld1_u8(b->r[0]));
    poly8x8_t a1 = vreinterpret_p8_u8(vext_u8(a, a, 1));
    poly8x8_t a2 = vreinterpret_p8_u8(vext_u8(a, a, 2));
    poly8x8_t a3 = vreinterpret_p8_u8(vext_u8(a, a, 3));

    poly16x8_t d = vmull_p8(pa, b0);
    poly16x8_t l = vreinterpretq_p16_u16(veorq_u16(
        vreinterpretq_u16_p16(vmull_p8(pa, vreinterpret_p8_u8(vld1_u8(b->r[1])))),
        vreinterpretq_u16_p16(vmull_p8(a1, b0))));
    poly16x8_t m = vreinterpretq_p16_u16(veorq_u16(
        vreinterpretq_u16_p16(vmull_p8(pa, vreinterpret_p8_u8(vld1_u8(b->r[2])))),
        vreinterpretq_u16_p16(vmull_p8(a2, b0))));
    poly16x8_t n = vreinterpretq_p16_u16(veorq_u16(
        vreinterpretq_u16_p16(vmull_p8(pa, vreinterpret_p8_u8(vld1_u8(b->r[3])))),
        vreinterpretq_u16_p16(vmull_p8(a3, b0))));
    poly16x8_t kk = vmull_p8(pa, vreinterpret_p8_u8(vld1_u8(b->r[4])));

    /* Lanes that wrap for rotation k: the top k; the mask keeps the other
     * 4 - k lanes of the high half (48, 32, 16, 0 bits). */
    uint8x16_t r = vreinterpretq_u8_p16(d);
    r = veorq_u8(r, place(l, UINT64_C(0x0000FFFFFFFFFFFF), 1));
    r = veorq_u8(r, place(m, UINT64_C(0x00000000FFFFFFFF), 2));
    r = veorq_u8(r, place(n, UINT64_C(0x000000000000FFFF), 3));
    r = veorq_u8(r, place(kk, 0, 4));
    return vreinterpretq_u64_u8(r);
}

/* The three Karatsuba products of y and a power (y as the 128-bit
 * integer of the block read big-endian: lane 0 = bytes 8..15, lane 1 =
 * bytes 0..7), unreduced and uncombined: low, high, middle. */
typedef struct {
    uint64x2_t l0, l1, l2;
} neon_acc;

static inline neon_acc kara(uint64x2_t y, const neon_pow *k)
{
    uint8x8_t a0 = vreinterpret_u8_u64(vget_low_u64(y));
    uint8x8_t a1 = vreinterpret_u8_u64(vget_high_u64(y));
    uint8x8_t a2 = veor_u8(a0, a1);
    neon_acc r = {clmul64(a0, &k->h[0]), clmul64(a1, &k->h[1]), clmul64(a2, &k->h[2])};
    return r;
}

static inline void kara_add(neon_acc *s, uint64x2_t y, const neon_pow *k)
{
    const neon_acc t = kara(y, k);
    s->l0 = veorq_u64(s->l0, t.l0);
    s->l1 = veorq_u64(s->l1, t.l1);
    s->l2 = veorq_u64(s->l2, t.l2);
}

/* The sum of products in s, combined and reduced to a field element. */
static inline uint64x2_t reduce(neon_acc s)
{
    const uint64x2_t zero = vdupq_n_u64(0);
    uint64x2_t l0 = s.l0, l1 = s.l1;
    uint64x2_t l2 = veorq_u64(s.l2, veorq_u64(l0, l1));    /* a0 h1 ^ a1 h0 */

    /* The 255-bit product as x = (w0, w1) and z = (w2, w3). */
    uint64x2_t x = veorq_u64(l0, vextq_u64(zero, l2, 1));
    uint64x2_t z = veorq_u64(l1, vextq_u64(l2, zero, 1));

    /* Shift the 256 bits left by one (see the file comment). */
    uint64x2_t cx = vshrq_n_u64(x, 63), cz = vshrq_n_u64(z, 63);
    z = vorrq_u64(vshlq_n_u64(z, 1), vextq_u64(cx, cz, 1));
    x = vorrq_u64(vshlq_n_u64(x, 1), vextq_u64(zero, cx, 1));

    /* Reduce as ghash_ct64.c does: fold w0 into w1 (the left shifts) and
     * w2; then the updated w1 into w2 and w3.  t holds the left-shift
     * images of both words; only w0's is used in the first step, only
     * w1's in the second. */
    uint64x2_t t = veorq_u64(veorq_u64(vshlq_n_u64(x, 63), vshlq_n_u64(x, 62)), vshlq_n_u64(x, 57));
    x = veorq_u64(x, vextq_u64(zero, t, 1));                  /* w1 ^= t(w0) */
    t = veorq_u64(veorq_u64(vshlq_n_u64(x, 63), vshlq_n_u64(x, 62)), vshlq_n_u64(x, 57));
    uint64x2_t u = veorq_u64(veorq_u64(x, vshrq_n_u64(x, 1)),
                             veorq_u64(vshrq_n_u64(x, 2), vshrq_n_u64(x, 7)));
    z = veorq_u64(z, u);                                      /* w2 ^= u(w0), w3 ^= u(w1) */
    z = veorq_u64(z, vextq_u64(t, zero, 1));                  /* w2 ^= t(w1) */
    return z;
}

/* y * H^(i+1) */
static inline uint64x2_t gf128_mul(uint64x2_t y, const ghash_neon_key *k, unsigned i)
{
    return reduce(kara(y, &k->p[i]));
}

/* 16 bytes as the big-endian 128-bit integer (lane 0 the low word). */
static inline uint64x2_t load_be128(const uint8_t *p)
{
    uint8x16_t v = vrev64q_u8(vld1q_u8(p));
    return vreinterpretq_u64_u8(vextq_u8(v, v, 8));
}

static inline void store_be128(uint8_t *p, uint64x2_t x)
{
    uint8x16_t v = vrev64q_u8(vreinterpretq_u8_u64(x));
    vst1q_u8(p, vextq_u8(v, v, 8));
}

static void op_make(neon_op *o, uint64_t w)
{
    uint8x8_t b = vreinterpret_u8_u64(vcreate_u64(w));
    vst1_u8(o->r[0], b);
    vst1_u8(o->r[1], vext_u8(b, b, 1));
    vst1_u8(o->r[2], vext_u8(b, b, 2));
    vst1_u8(o->r[3], vext_u8(b, b, 3));
    vst1_u8(o->r[4], vext_u8(b, b, 4));
}

static void pow_make(neon_pow *p, uint64x2_t v)
{
    const uint64_t lo = vgetq_lane_u64(v, 0), hi = vgetq_lane_u64(v, 1);
    op_make(&p->h[0], lo);
    op_make(&p->h[1], hi);
    op_make(&p->h[2], lo ^ hi);
}

static void ghash_neon_init(ic_ghash_key *hk, const uint8_t h[16])
{
    ghash_neon_key k;
    const uint64x2_t h1 = load_be128(h);
    uint64x2_t p = h1;
    pow_make(&k.p[0], h1);
    for (unsigned i = 1; i < NEON_POWERS; i++) {
        p = gf128_mul(p, &k, 0);               /* H^(i+1) = H^i * H */
        pow_make(&k.p[i], p);
    }
    memcpy(hk->storage, &k, sizeof k);
    ic_wipe(&k, sizeof k);
}

/* y = (y + x[0]) H^n + x[1] H^(n-1) + ... + x[n-1] H, 1 <= n <= 4: one
 * reduction (file comment, 5). */
static inline uint64x2_t ghash_neon_run(const ghash_neon_key *k, uint64x2_t y, const uint8_t *in, size_t n)
{
    neon_acc s = kara(veorq_u64(y, load_be128(in)), &k->p[n - 1]);
    for (size_t i = 1; i < n; i++)
        kara_add(&s, load_be128(in + 16 * i), &k->p[n - 1 - i]);
    return reduce(s);
}

static void ghash_neon_blocks(const ic_ghash_key *hk, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    /* The storage is 64-byte aligned (IC_ALIGNAS) and only read here
     * through vld1 on byte lanes, so it is used in place. */
    const ghash_neon_key *k = (const ghash_neon_key *)(const void *)hk->storage;
    uint64x2_t acc;
    if (nblocks == 0)
        return;
    acc = load_be128(y);
    for (; nblocks >= NEON_POWERS; nblocks -= NEON_POWERS, in += 16 * NEON_POWERS)
        acc = ghash_neon_run(k, acc, in, NEON_POWERS);
    if (nblocks != 0)
        acc = ghash_neon_run(k, acc, in, nblocks);
    store_be128(y, acc);
}

static const ic_ghash_ops neon_ops = {
    .init = ghash_neon_init,
    .blocks = ghash_neon_blocks,
    .stitch = 0,   /* no stitched loop reads this key layout */
};
IC_BACKEND(ghash, neon, IC_F(IC_CPU_NEON), &neon_ops);

IC_TARGET_END
#endif /* IC_ARM_LE */
