/*
 * ghash_arm.h - GHASH arithmetic with PMULL / PMULL2 (ARMv8 crypto
 * extension; on AArch32 VMULL.P64), shared by the "pmull" GHASH (ghash_arm_pmull.c) and the
 * stitched AES-GCM loop, and the layout of the hash key they read.
 *
 * Bit order: GHASH (SP 800-38D 6.3) numbers the bits of a block from the
 * left, bit 0 (the MSB of byte 0) being the coefficient of x^0.  RBIT on
 * each byte (vrbitq_u8) turns that into the natural order: then 64-bit lane
 * 0 of the register, read as a little-endian integer, holds the
 * coefficients of x^0..x^63 and lane 1 those of x^64..x^127, and PMULL's
 * carry-less product is the polynomial product with no shift to correct.
 * One RBIT per block loaded, one for the accumulator stored.  AArch32 has
 * no vector RBIT: there gh_rbit reverses each byte's two nibbles by two
 * VTBL lookups in a 16-entry table held in registers (a register permute,
 * not a memory access, so its time does not depend on the data).
 *
 * Multiply (Karatsuba): a = a1 x^64 + a0, b likewise:
 *   lo = a0 b0, hi = a1 b1, mid = (a0 + a1)(b0 + b1) + lo + hi,
 *   a b = hi x^128 + mid x^64 + lo             (3 PMULL instead of 4).
 * For n blocks the lo, hi and (a0 + a1)(b0 + b1) of every product are
 * summed first and combined and reduced once (aggregation; Gueron and
 * Kounavis, "Intel Carry-Less Multiplication Instruction and its Usage for
 * Computing the GCM Mode", 2010, algorithm 5): the n products are
 * independent and fill PMULL's pipeline.
 *
 * Reduction mod g = x^128 + x^7 + x^2 + x + 1: x^128 = 0x87 (mod g).  The
 * 256-bit product d3:d2:d1:d0 (64-bit words) is folded twice by a PMULL
 * with 0x87: d3 x^192 = (d3 * 0x87) x^64 (at most 71 bits, into d2:d1),
 * then d2 x^128 = d2 * 0x87 (into d1:d0).
 *
 * Hash-key layout ("pmull" keys, in ic_ghash_key.storage):
 *   storage[16*(i-1)],        i = 1..8: H^i in the natural order above;
 *   storage[128 + 16*(i-1)],  i = 1..8: lane 0 = the two halves of H^i
 *                                       xored (Karatsuba's b0 + b1), lane 1 0.
 */
#ifndef INCORE_GHASH_ARM_H
#define INCORE_GHASH_ARM_H

#include "gcm/ghash_impl.h"
#include "core/cpu_arm.h"

#if IC_ARM_LE

/* The stitched loop IC_STITCH_ARM_CE: AES-GCM for "ce" AES keys, 8 blocks
 * in flight (gcm_arm_pmull.c). */
size_t ic_gcm_arm_crypt(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, uint8_t ctr[16],
                        uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks);

#define GHASH_ARM_POWERS 8

#if IC_ARM_HAVE_CRYPTO
#include <arm_neon.h>

#define GH_INLINE static inline __attribute__((always_inline))

/* The bits of each byte reversed. */
GH_INLINE uint8x16_t gh_rbit(uint8x16_t v)
{
#if defined(__aarch64__)
    return vrbitq_u8(v);
#else
    /* rev4[i] = i with its 4 bits reversed; low nibble -> high, high -> low */
    static const uint8_t rev4[16] = {0x0, 0x8, 0x4, 0xc, 0x2, 0xa, 0x6, 0xe,
                                     0x1, 0x9, 0x5, 0xd, 0x3, 0xb, 0x7, 0xf};
    const uint8x8x2_t t = {{vld1_u8(rev4), vld1_u8(rev4 + 8)}};
    const uint8x16_t lo = vandq_u8(v, vdupq_n_u8(15)), hi = vshrq_n_u8(v, 4);
    const uint8x16_t rlo = vcombine_u8(vtbl2_u8(t, vget_low_u8(lo)), vtbl2_u8(t, vget_high_u8(lo)));
    const uint8x16_t rhi = vcombine_u8(vtbl2_u8(t, vget_low_u8(hi)), vtbl2_u8(t, vget_high_u8(hi)));
    return vorrq_u8(vshlq_n_u8(rlo, 4), rhi);
#endif
}

/* 16 bytes in GHASH order -> natural-order register, and back. */
GH_INLINE uint64x2_t gh_load(const uint8_t *p)
{
    return vreinterpretq_u64_u8(gh_rbit(vld1q_u8(p)));
}

GH_INLINE void gh_store(uint8_t *p, uint64x2_t v)
{
    vst1q_u8(p, gh_rbit(vreinterpretq_u8_u64(v)));
}

GH_INLINE uint64x2_t gh_pow(const ic_ghash_key *hk, unsigned i)
{
    return vreinterpretq_u64_u8(vld1q_u8(hk->storage + 16 * (i - 1)));
}

GH_INLINE uint64x2_t gh_kx(const ic_ghash_key *hk, unsigned i)
{
    return vreinterpretq_u64_u8(vld1q_u8(hk->storage + 128 + 16 * (i - 1)));
}

/* Low lanes, high lanes (PMULL, PMULL2). */
GH_INLINE uint64x2_t gh_mul_lo(uint64x2_t a, uint64x2_t b)
{
    return vreinterpretq_u64_p128(vmull_p64((poly64_t)vgetq_lane_u64(a, 0), (poly64_t)vgetq_lane_u64(b, 0)));
}

GH_INLINE uint64x2_t gh_mul_hi(uint64x2_t a, uint64x2_t b)
{
    return vreinterpretq_u64_p128(vmull_high_p64(vreinterpretq_p64_u64(a), vreinterpretq_p64_u64(b)));
}

/* The three sums of an aggregated product. */
typedef struct { uint64x2_t lo, hi, mid; } gh_acc;

/* acc += x * H^i (unreduced): x's halves xored for Karatsuba's middle. */
GH_INLINE void gh_mac(gh_acc *acc, uint64x2_t x, uint64x2_t h, uint64x2_t kx)
{
    const uint64x2_t xs = veorq_u64(x, vextq_u64(x, x, 1));  /* lane 0: x0 + x1 */
    acc->lo = veorq_u64(acc->lo, gh_mul_lo(x, h));
    acc->hi = veorq_u64(acc->hi, gh_mul_hi(x, h));
    acc->mid = veorq_u64(acc->mid, gh_mul_lo(xs, kx));
}

GH_INLINE void gh_first(gh_acc *acc, uint64x2_t x, uint64x2_t h, uint64x2_t kx)
{
    const uint64x2_t xs = veorq_u64(x, vextq_u64(x, x, 1));
    acc->lo = gh_mul_lo(x, h);
    acc->hi = gh_mul_hi(x, h);
    acc->mid = gh_mul_lo(xs, kx);
}

/* Karatsuba's combination and the reduction (see the top comment). */
GH_INLINE uint64x2_t gh_reduce(const gh_acc *acc)
{
    const uint64x2_t z = vdupq_n_u64(0), g = vdupq_n_u64(0x87);
    const uint64x2_t mid = veorq_u64(acc->mid, veorq_u64(acc->lo, acc->hi));
    uint64x2_t l = veorq_u64(acc->lo, vextq_u64(z, mid, 1));   /* d1:d0 += m0 x^64 */
    uint64x2_t h = veorq_u64(acc->hi, vextq_u64(mid, z, 1));   /* d3:d2 += m1      */
    const uint64x2_t p = gh_mul_hi(h, g);                      /* d3 * 0x87        */
    l = veorq_u64(l, vextq_u64(z, p, 1));                      /* d1 += p0         */
    h = veorq_u64(h, vextq_u64(p, z, 1));                      /* d2 += p1         */
    return veorq_u64(l, gh_mul_lo(h, g));                      /* d1:d0 += d2 * 0x87 */
}

/* y = (y + x[0]) H^n + x[1] H^(n-1) + ... + x[n-1] H, 1 <= n <= 8. */
GH_INLINE uint64x2_t gh_update(const ic_ghash_key *hk, uint64x2_t y, const uint64x2_t x[], const size_t n)
{
    gh_acc acc;
    gh_first(&acc, veorq_u64(y, x[0]), gh_pow(hk, (unsigned)n), gh_kx(hk, (unsigned)n));
    _Pragma("GCC unroll 8") for (size_t i = 1; i < n; i++)
        gh_mac(&acc, x[i], gh_pow(hk, (unsigned)(n - i)), gh_kx(hk, (unsigned)(n - i)));
    return gh_reduce(&acc);
}

#endif /* IC_ARM_HAVE_CRYPTO */
#endif /* IC_ARM_LE */
#endif
