/*
 * crc_x86_vpclmul512.c - CRC-32 and CRC-32C by 512-bit VPCLMULQDQ folding
 * (AVX-512F/VL + VPCLMULQDQ: Intel Ice Lake and later server cores, AMD Zen
 * 4 and later), the "vpclmul512" entries of the crc32 and crc32c
 * registries.
 *
 * The 128-bit fold of crc_x86_fold.h, four lanes per ZMM register.  From
 * ZMM_X4_MIN bytes on, four ZMM accumulators take 256 bytes per iteration
 * (fold distance 2048 bits).  When fewer than 64 bytes remain after them
 * (1 KiB, 64 KiB, ...), each of the sixteen lanes is folded straight onto
 * the last (one product step, constants lanes16) and the lanes are xored;
 * otherwise they are merged into one ZMM by folding by 1536, 1024 and 512
 * bits (VPTERNLOGQ xors the two products and the other operand in one
 * instruction).  Shorter inputs of 64 bytes or more start with one ZMM.
 * That one takes 64 bytes at a time, its four lanes are folded by 384,
 * 256 and 128 bits onto the last (one constant vector), and
 * the rest is crc_x86_finish (single chunks, partial tail, then Barrett, or
 * for CRC-32C two CRC32 instructions).  CRC-32 inputs of 16 to 63 bytes
 * run the 128-bit path (crc_x86_xmm); CRC-32C shorter than C32_FOLD runs
 * one chain of the CRC32 instruction, CRC-32 shorter than 16 bytes
 * slice-by-8.  An empty input returns the register without reading memory.
 * CRC-32C from FUSE_MIN (2 KiB) runs the CRC32 instruction beside the
 * folding (crc32c_fused).
 *
 * Compiled for AVX-512F/VL, VPCLMULQDQ, AVX2, PCLMULQDQ and SSE4.2;
 * selected when CPUID reports AVX-512F and VL (with the OS saving ZMM
 * state), VPCLMULQDQ, AVX2, PCLMULQDQ, SSSE3 and SSE4.2.  Without AVX-512
 * (INCORE_CPU=-avx512f, or Zen 3) the 256-bit "vpclmul" entry is chosen
 * instead.
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("sse4.2,pclmul,avx2,vpclmulqdq,avx512f,avx512vl")
#include "crc/crc_impl.h"
#include "crc/crc_x86_fold.h"

#define C32_FOLD 64
#define ZMM_X4_MIN 256

static inline __m512i zmm_k(const crc_x86_consts *c, int n)
{
    return _mm512_broadcast_i32x4(crc_x86_k(c, n));
}

/* y * k lane by lane, xored with d (VPTERNLOGQ 0x96: a ^ b ^ c). */
static inline __m512i zmm_fold_xor(__m512i z, __m512i k, __m512i d)
{
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(z, k, 0x00),
                                     _mm512_clmulepi64_epi128(z, k, 0x11), d, 0x96);
}

static inline __m512i zmm_load(const uint8_t *p)
{
    return _mm512_loadu_si512((const void *)p);
}

/* The 64 bytes at p with the register v xored into their first four (the
 * CRC's start value, or a join of CRC32 chains standing for the bytes
 * before p). */
static inline __m512i zmm_load_in(const uint8_t *p, uint32_t v)
{
    return _mm512_xor_si512(zmm_load(p), _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)v)));
}

/* Four accumulators whose lanes stand for the last 256 bytes: every lane
 * folded straight onto the last (sixteen distances, one product step
 * instead of four in a row), the result in lane 3, the other lanes zero. */
static inline __m512i zmm_spread(const __m512i z[4], const crc_x86_consts *c)
{
    const __m512i *kl = (const __m512i *)c->lanes16;
    __m512i t = zmm_fold_xor(z[0], _mm512_loadu_si512(kl), zmm_fold_xor(z[1], _mm512_loadu_si512(kl + 1),
                             _mm512_maskz_mov_epi64(0xc0, z[3])));
    return zmm_fold_xor(z[2], _mm512_loadu_si512(kl + 2), zmm_fold_xor(z[3], _mm512_loadu_si512(kl + 3), t));
}

/* The four lanes of z, each already carried to the end (so they only
 * need xoring), as one XMM accumulator, then crc_x86_rest over the len
 * bytes left: the accumulator of the whole message. */
static inline __attribute__((always_inline))
__m128i zmm_xor_rest(__m512i z, const uint8_t *p, size_t len, const crc_x86_consts *c)
{
    __m256i y = _mm256_xor_si256(_mm512_castsi512_si256(z), _mm512_extracti64x4_epi64(z, 1));
    __m128i x = _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
    return crc_x86_rest(x, p, len, c);
}

/* One ZMM accumulator that covers the message up to p: lanes 0, 1, 2
 * folded by 384, 256, 128 bits, lane 3 as it is (zero constant, zero
 * product, then lane 3 of z xored in), then the above. */
static inline __attribute__((always_inline))
__m128i zmm_rest(__m512i z, const uint8_t *p, size_t len, const crc_x86_consts *c)
{
    z = zmm_fold_xor(z, _mm512_loadu_si512((const void *)c->lanes), _mm512_maskz_mov_epi64(0xc0, z));
    return zmm_xor_rest(z, p, len, c);
}

/* The four accumulators one 256-byte step on: folded by k (2048 bits, or
 * further past CRC32 stripes), the 256 bytes at p xored on, and the
 * register in (a join of stripes, or zero) into their first four bytes. */
static inline __attribute__((always_inline))
void zmm4_step(__m512i z[4], const uint8_t *p, __m512i k, uint32_t in)
{
    z[0] = zmm_fold_xor(z[0], k, zmm_load_in(p, in));
    z[1] = zmm_fold_xor(z[1], k, zmm_load(p + 64));
    z[2] = zmm_fold_xor(z[2], k, zmm_load(p + 128));
    z[3] = zmm_fold_xor(z[3], k, zmm_load(p + 192));
}

/* One ZMM accumulator that covers the message up to p, then len more
 * bytes: 64 at a time, then its lanes merged (zmm_rest). */
static inline __attribute__((always_inline))
__m128i zmm1_rest(__m512i y, const uint8_t *p, size_t len, const crc_x86_consts *c)
{
    const __m512i k4 = zmm_k(c, 4);
    for (; len >= 64; p += 64, len -= 64)
        y = zmm_fold_xor(y, k4, zmm_load(p));
    return zmm_rest(y, p, len, c);
}

/* Four accumulators that cover the message up to p, then len more bytes:
 * 256 at a time, then, when fewer than 64 remain, every lane straight to
 * the end (zmm_spread), else merged into one ZMM by folding by 1536, 1024
 * and 512 bits for zmm1_rest; the 128-bit accumulator of it all. */
static inline __attribute__((always_inline))
__m128i zmm4_rest(__m512i z[4], const uint8_t *p, size_t len, const crc_x86_consts *c)
{
    const __m512i k16 = zmm_k(c, 16);
    for (; len >= 256; p += 256, len -= 256)
        zmm4_step(z, p, k16, 0);
    if (len < 64)
        return zmm_xor_rest(zmm_spread(z, c), p, len, c);
    return zmm1_rest(zmm_fold_xor(z[0], zmm_k(c, 12), zmm_fold_xor(z[1], zmm_k(c, 8), zmm_fold_xor(z[2], zmm_k(c, 4), z[3]))),
                     p, len, c);
}

/* The first 256 bytes at p as four accumulators, crc in the first four. */
static inline __attribute__((always_inline))
void zmm4_first(__m512i z[4], uint32_t crc, const uint8_t *p)
{
    z[0] = zmm_load_in(p, crc);
    z[1] = zmm_load(p + 64), z[2] = zmm_load(p + 128), z[3] = zmm_load(p + 192);
}

/* len >= 64: four accumulators from 256 bytes on, else one ZMM: the
 * 128-bit accumulator of the len bytes, not yet reduced. */
static inline __attribute__((always_inline))
__m128i crc_zmm_acc(uint32_t crc, const uint8_t *p, size_t len, const crc_x86_consts *c)
{
    if (len >= ZMM_X4_MIN) {
        __m512i z[4];
        zmm4_first(z, crc, p);
        return zmm4_rest(z, p + 256, len - 256, c);
    }
    return zmm1_rest(zmm_load_in(p, crc), p + 64, len - 64, c);
}

static inline __attribute__((always_inline))
uint32_t crc_zmm(uint32_t crc, const uint8_t *p, size_t len, const crc_x86_consts *c, int c32)
{
    return crc_x86_final(crc_zmm_acc(crc, p, len, c), c, c32);
}

/* ---- CRC-32C: the folding and the CRC32 instruction side by side ----------
 *
 * The carry-less multiplier is the bound of the folding loop (both here and
 * in ISA-L: about 15 bytes a cycle on Zen 5), and the integer side has a
 * CRC32 instruction (one a cycle, 3 cycles of latency) idle meanwhile.
 * From FUSE_MIN bytes on, the message goes in blocks of n steps (as in
 * crc_x86_vpclmul.c's c32_fused, on ZMM):
 *     F (256n bytes, folded into the four accumulators) || S0 || S1 || S2,
 * S0..S2 of s = 8 * FUSE512_Q * n bytes each, three CRC32 chains from a
 * zero register advancing FUSE512_Q instructions each per 256-byte step.
 * The chains are joined (crc_x86_c32_join) into one register, standing
 * for the block's end, that is xored into the next 256 bytes folded; and
 * the accumulators, which stand for the last 256 bytes of F, are folded to
 * those next bytes by 8 * (256 + 3s) bits instead of 2048 (fused512[n]).
 * Nothing is reduced between blocks, and after the last block the
 * ordinary loop goes on with the same accumulators (the join's latency
 * meets only the first four bytes of the next step).  The other way to
 * join the parts, a full reduction and then multiplying 32-bit registers
 * by x^(8s) from powers per set bit of n, puts products in series and
 * loses to folding alone below 8 KiB; this form is 20 % faster than it at
 * 16 KiB and pays from 2 KiB. */
#ifndef FUSE_MIN
#define FUSE_MIN 2048   /* below, folding alone measured as fast (Zen 5) */
#endif
_Static_assert(FUSE_MIN >= 1024, "crc32c_fused: a first step, a block and a last step");
#define FUSE_STRIPE (8 * CRC_X86_FUSE512_Q)   /* bytes a chain a step */
#define FUSE_STEP (256 + 3 * FUSE_STRIPE)

/* Out of line: inlined into crc32c_vpclmul512_update it gave every call,
 * 64 bytes too, its stack frame (six pushes, a 64-byte aligned frame),
 * which cost short CRC-32C about 20 % (64 B 0.20 -> 0.16 TSC c/B). */
static __attribute__((noinline)) uint32_t crc32c_fused(uint32_t crc, const uint8_t *p, size_t len)
{
    const crc_x86_consts *c = &ic_crc32c_x86_k;
    const __m512i k16 = zmm_k(c, 16);
    __m512i z[4], k = k16;
    uint32_t in = 0;
    zmm4_first(z, crc, p);
    p += 256;
    len -= 256;
    while (len >= FUSE_STEP + 256) {   /* a block, and 256 bytes after it */
        size_t n = (len - 256) / FUSE_STEP;
        if (n > CRC_X86_NFUSE512)
            n = CRC_X86_NFUSE512;
        const size_t s = FUSE_STRIPE * n;
        const uint8_t *q = p + 256 * n;
        uint64_t c0 = 0, c1 = 0, c2 = 0;
        zmm4_step(z, p, k, in);
        for (size_t i = 1;; i++) {
            crc_x86_c32_3(&c0, &c1, &c2, q, s, FUSE_STRIPE);
            q += FUSE_STRIPE;
            if (i == n)
                break;
            zmm4_step(z, p + 256 * i, k16, 0);
        }
        const uint64_t *f = c->fused512[n];
        in = crc_x86_c32_join(c0, c1, c2, f[2], f[3]);
        k = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)f));
        p += 256 * n + 3 * s;
        len -= 256 * n + 3 * s;
    }
    zmm4_step(z, p, k, in);   /* len >= 256 here */
    return crc_x86_final(zmm4_rest(z, p + 256, len - 256, c), c, 1);
}

static uint32_t crc32_vpclmul512_update(uint32_t crc, const uint8_t *p, size_t len)
{
    if (len < 16)
        return ic_crc32_slice8_ops.update(crc, p, len);
    if (len < 64)
        return crc_x86_xmm(crc, p, len, &ic_crc32_x86_k, 0);
    return crc_zmm(crc, p, len, &ic_crc32_x86_k, 0);
}

static uint32_t crc32c_vpclmul512_update(uint32_t crc, const uint8_t *p, size_t len)
{
    if (len >= FUSE_MIN)
        return crc32c_fused(crc, p, len);
    if (len < C32_FOLD)
        return crc_x86_c32_serial(crc, p, len);
    return crc_zmm(crc, p, len, &ic_crc32c_x86_k, 1);
}

static const ic_crc_ops crc32_vpclmul512_ops = { crc32_vpclmul512_update, ic_crc32_clmul_mulmod };
static const ic_crc_ops crc32c_vpclmul512_ops = { crc32c_vpclmul512_update, ic_crc32c_clmul_mulmod };

#define VPCLMUL512_NEEDS (IC_F(IC_CPU_AVX512F) | IC_F(IC_CPU_AVX512VL) | IC_F(IC_CPU_VPCLMUL) | IC_F(IC_CPU_AVX2) \
                          | IC_F(IC_CPU_PCLMUL) | IC_F(IC_CPU_SSSE3) | IC_F(IC_CPU_SSE42))
IC_BACKEND(crc32, vpclmul512, VPCLMUL512_NEEDS, &crc32_vpclmul512_ops);
IC_BACKEND(crc32c, vpclmul512, VPCLMUL512_NEEDS, &crc32c_vpclmul512_ops);

IC_TARGET_END
#endif
