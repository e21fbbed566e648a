/*
 * poly1305_arm_neon.c - Poly1305 on AArch64 NEON, 4 lanes of five 26-bit
 * limbs: the "neon" entry of ic_impls_poly1305 (needs HWCAP_ASIMD, which
 * every AArch64 Linux core has).
 *
 * The algorithm is the x86 SIMD one, not a copy of it: complete
 * 4-decimation Horner over a message logically prefixed with zero blocks
 * ("Improved SIMD Implementation of Poly1305"), the pairing of two Horner steps per carry chain, the powers
 * made once per key with the vector multiply, the scalar radix-2^64 code
 * below the crossover - all in poly1305_x86_vec.h, which is written over a
 * small set of lane operations and included here with NEON ones.  This
 * file only says what a 4-lane vector is: two 128-bit registers of two
 * 64-bit lanes, lane q in register q / 2, half q % 2.
 *
 * The multiply the header wants (PV_MUL, the low 32 bits of each 64-bit
 * lane times the other's, as VPMULUDQ) is UMULL on the narrowed operands
 * (XTN); the compiler narrows each limb and power once per multiply and
 * fuses the product sums into UMLAL.  A 4-block group costs 2 x 25
 * UMULL/UMLAL, ~2 x 20 for the carry chain and ~2 x 15 to split the
 * blocks into limbs: about 130 NEON instructions per 64 bytes, ~2 per
 * byte, against the radix-2^64 scalar code's ~4 MUL/UMULH and ~14 other
 * instructions per 16-byte block (~1.1 per byte, but serial: each block's
 * multiply waits for the previous one, at 3-5 cycles of MUL latency,
 * where the four lanes and the paired steps are independent).  OpenSSL's
 * poly1305-armv8 makes the same radix-2^26 NEON choice for long inputs.
 * QEMU cannot time it; `incore speed poly1305` on a real core can.
 *
 * Lane order: the four blocks of a group loaded as four registers
 * (block lo, hi) and zipped 64-bit-wise: register 0 gets blocks 0 and 2,
 * register 1 blocks 1 and 3, so lane q holds block pos(q) =
 * (q odd ? 2 : 0) + q / 2, the order poly1305_x86_vec.h expects.
 *
 * Constant time: as the header says - the same instructions for any key
 * and message of a length; the lane masks and the zero prefix depend on
 * the (public) length only.  UMULL's timing does not depend on its
 * operands on Arm's cores (no early termination in the NEON multiplier).
 *
 * AArch64 only: the header's scalar ends use unsigned __int128, which
 * 32-bit ARM compilers lack; there the radix-2^26 portable code stays.
 */
#include "core/cpu_arm.h"

#if defined(__aarch64__) && IC_ARM_LE

#include <arm_neon.h>
#include <stdint.h>

typedef struct {
    uint64x2_t v[2];
} pv4;

#define PV pv4
#define PV_L 4
#define PV_FN(name) poly1305_neon_##name
/* below 8 blocks (128 bytes) the scalar radix-2^64 code: the vector run
 * converts h to limbs and back and sums the lanes, ~60 instructions, and a
 * fresh key's powers cost three vector multiplies once */
#define PV_MIN_BLOCKS 8

#define PN_INLINE static inline __attribute__((always_inline))

PN_INLINE pv4 pn_make(uint64x2_t a, uint64x2_t b)
{
    pv4 r;
    r.v[0] = a;
    r.v[1] = b;
    return r;
}

PN_INLINE pv4 pn_add(pv4 a, pv4 b) { return pn_make(vaddq_u64(a.v[0], b.v[0]), vaddq_u64(a.v[1], b.v[1])); }
PN_INLINE pv4 pn_and(pv4 a, pv4 b) { return pn_make(vandq_u64(a.v[0], b.v[0]), vandq_u64(a.v[1], b.v[1])); }
PN_INLINE pv4 pn_or(pv4 a, pv4 b) { return pn_make(vorrq_u64(a.v[0], b.v[0]), vorrq_u64(a.v[1], b.v[1])); }

/* low 32 bits of each lane times the other's, 64-bit products */
PN_INLINE pv4 pn_mul(pv4 a, pv4 b)
{
    return pn_make(vmull_u32(vmovn_u64(a.v[0]), vmovn_u64(b.v[0])), vmull_u32(vmovn_u64(a.v[1]), vmovn_u64(b.v[1])));
}

/* shifts by a count the header always gives as a constant: USHL by a
 * duplicated count (negative = right), which needs no immediate operand
 * and folds to USHR / SHL */
PN_INLINE pv4 pn_shl(pv4 a, int64_t n)
{
    const int64x2_t c = vdupq_n_s64(n);
    return pn_make(vshlq_u64(a.v[0], c), vshlq_u64(a.v[1], c));
}

PN_INLINE pv4 pn_set1(uint64_t v)
{
    const uint64x2_t d = vdupq_n_u64(v);
    return pn_make(d, d);
}

PN_INLINE uint64x2_t pn_ld(const uint8_t *p) { return vreinterpretq_u64_u8(vld1q_u8(p)); }

/* four blocks b[0..3] (as loaded) to the lane order above, split in
 * their low and high 64-bit halves */
PN_INLINE void pn_zip(const uint64x2_t b[4], pv4 *lo, pv4 *hi)
{
    *lo = pn_make(vzip1q_u64(b[0], b[2]), vzip1q_u64(b[1], b[3]));
    *hi = pn_make(vzip2q_u64(b[0], b[2]), vzip2q_u64(b[1], b[3]));
}

PN_INLINE void pn_msg(const uint8_t *p, pv4 *lo, pv4 *hi)
{
    const uint64x2_t b[4] = {pn_ld(p), pn_ld(p + 16), pn_ld(p + 32), pn_ld(p + 48)};
    pn_zip(b, lo, hi);
}

/* the first group moved k (public, 0..3) positions up: position j gets
 * block j - k, zeros below k; reads p[0 .. 64) only */
PN_INLINE void pn_first(const uint8_t *p, unsigned k, pv4 *lo, pv4 *hi)
{
    const uint64x2_t z = vdupq_n_u64(0);
    const uint64x2_t m[4] = {pn_ld(p), pn_ld(p + 16), pn_ld(p + 32), pn_ld(p + 48)};
    uint64x2_t b[4];
    for (unsigned j = 0; j < 4; j++)
        b[j] = j >= k ? m[j - k] : z;
    pn_zip(b, lo, hi);
}

/* all-ones in the lanes whose bit is set in mask (public) */
PN_INLINE pv4 pn_lanes(unsigned mask)
{
    uint64_t l[4];
    for (unsigned q = 0; q < 4; q++)
        l[q] = -(uint64_t)((mask >> q) & 1);
    return pn_make(vcombine_u64(vcreate_u64(l[0]), vcreate_u64(l[1])),
                   vcombine_u64(vcreate_u64(l[2]), vcreate_u64(l[3])));
}

PN_INLINE pv4 pn_masked_set1(unsigned mask, uint64_t v) { return pn_and(pn_lanes(mask), pn_set1(v)); }

PN_INLINE pv4 pn_select(unsigned mask, pv4 a, pv4 b)
{
    const pv4 m = pn_lanes(mask);
    return pn_make(vbslq_u64(m.v[0], a.v[0], b.v[0]), vbslq_u64(m.v[1], a.v[1], b.v[1]));
}

PN_INLINE pv4 pn_bcast0(pv4 a)
{
    const uint64x2_t d = vdupq_laneq_u64(a.v[0], 0);
    return pn_make(d, d);
}

/* the low 32 bits of the four lanes, packed, lane order */
PN_INLINE void pn_store32(uint8_t *p, pv4 a)
{
    vst1q_u8(p, vreinterpretq_u8_u32(vcombine_u32(vmovn_u64(a.v[0]), vmovn_u64(a.v[1]))));
}

/* four 32-bit values, lane order, zero-extended */
PN_INLINE pv4 pn_load32(const uint8_t *p)
{
    const uint32x4_t w = vreinterpretq_u32_u8(vld1q_u8(p));
    return pn_make(vmovl_u32(vget_low_u32(w)), vmovl_u32(vget_high_u32(w)));
}

#define PV_ADD pn_add
#define PV_MUL pn_mul
#define PV_AND pn_and
#define PV_OR pn_or
#define PV_SRL(a, n) pn_shl((a), -(int64_t)(n))
#define PV_SLL(a, n) pn_shl((a), (int64_t)(n))
#define PV_SET1(v) pn_set1((uint64_t)(v))
#define PV_LOAD32(p) pn_load32((const uint8_t *)(const void *)(p))
#define PV_MSG(p, lo, hi) pn_msg((const uint8_t *)(p), &(lo), &(hi))
#define PV_FIRST(p, k, lo, hi) pn_first((const uint8_t *)(p), (k), &(lo), &(hi))
#define PV_MASKED_SET1 pn_masked_set1
#define PV_SELECT pn_select
#define PV_BCAST0 pn_bcast0
#define PV_LANE0(a) vgetq_lane_u64((a).v[0], 0)
#define PV_STORE32(p, a) pn_store32((uint8_t *)(void *)(p), (a))
#define PV_HSUM(a) vaddvq_u64(vaddq_u64((a).v[0], (a).v[1]))

#include "poly1305/poly1305_x86_vec.h"

static const ic_poly1305_ops neon_ops = {
    .init = poly1305_neon_init,
    .blocks = poly1305_neon_blocks,
    .finish = poly1305_neon_finish,
};
IC_BACKEND(poly1305, neon, IC_F(IC_CPU_NEON), &neon_ops);

#endif /* __aarch64__ && IC_ARM_LE */
