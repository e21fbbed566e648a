/*
 * crc_x86_vpclmul.c - CRC-32 and CRC-32C by 256-bit VPCLMULQDQ folding
 * (AVX2 + VPCLMULQDQ, no AVX-512: AMD Zen 3, Intel Alder Lake E-cores and
 * later client cores), the "vpclmul" entries of the crc32 and crc32c
 * registries.
 *
 * The 128-bit fold of crc_x86_fold.h, two lanes per YMM register (the
 * VEX-256 form of VPCLMULQDQ multiplies each 128-bit lane by the same
 * constant pair): four YMM accumulators take 128 bytes per iteration (fold
 * distance 1024 bits), are merged into one by folding by 768, 512 and 256
 * bits, which then takes 32 bytes at a time; its two lanes are merged into
 * one XMM (fold by 128) and the rest is crc_x86_finish (single chunks,
 * partial tail, Barrett).  CRC-32 inputs shorter than CRC_X86_YMM_MIN run
 * the 128-bit path of crc_x86_clmul.c (crc_x86_xmm), shorter than 16 bytes
 * slice-by-8.
 *
 * CRC-32C: below 64 bytes one unrolled chain of the CRC32 instruction;
 * below C32_SHORT (1 KiB) the two-YMM path of CRC-32 (crc_ymm2: measured
 * faster on Zen 3 than one chain or three streams of CRC32 from 64 bytes,
 * it has the shortest dependency chain); above, the folding loop fused
 * with three CRC32 streams (c32_fused).  Every path ends with two CRC32 instructions
 * on the 128-bit accumulator instead of Barrett.  On Zen 3 PCLMULQDQ (XMM
 * or YMM) issues once per two cycles and CRC32 r64 once per cycle, so each
 * alone takes 8 bytes a cycle and together about 12.
 * An empty input returns the register without reading memory.
 *
 * This file is compiled for AVX2, VPCLMULQDQ, PCLMULQDQ and SSE4.2 and no
 * AVX-512, so the compiler cannot emit an EVEX instruction here: it runs
 * on a CPU without AVX-512.  Selected when CPUID reports VPCLMULQDQ, AVX2
 * (with the OS saving YMM state), PCLMULQDQ, SSSE3 and SSE4.2.
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("sse4.2,pclmul,avx2,vpclmulqdq")
#include "crc/crc_impl.h"
#include "crc/crc_x86_fold.h"

#define CRC_X86_YMM_MIN 256
/* CRC-32C below: crc_ymm2 (from 64 bytes), up to 1024 bytes:
 * at 448..768 bytes the four-register path with its merge ran
 * 0.78-0.94x ISA-L's crc32_iscsi in `incore speed --vs isal` on a quiet
 * Zen 3, two registers 0.88-1.00x (docs/backends.md, CRC-32 / CRC-32C). */
#define C32_SHORT 1024

static inline __m256i ymm_k(const crc_x86_consts *c, int n)
{
    return _mm256_broadcastsi128_si256(crc_x86_k(c, n));
}

static inline __m256i ymm_fold(__m256i y, __m256i k)
{
    return _mm256_xor_si256(_mm256_clmulepi64_epi128(y, k, 0x00), _mm256_clmulepi64_epi128(y, k, 0x11));
}

static inline __m256i ymm_load(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

/* 64 <= len (CRC-32 below CRC_X86_YMM_MIN, CRC-32C below C32_SHORT): two
 * YMM accumulators, 64 bytes a step (fold by 512 bits), then their four
 * lanes folded straight onto the last by 384, 256 and 128 bits (c->lanes:
 * one YMM fold and one XMM fold), then crc_x86_finish.  Half the products
 * of crc_x86_xmm's four XMM lanes, which counts where PCLMULQDQ issues
 * once per two cycles (Zen 3) and short calls are bound by it. */
static inline __attribute__((always_inline))
uint32_t crc_ymm2(uint32_t crc, const uint8_t *p, size_t len, const crc_x86_consts *c, int c32)
{
    __m256i y0 = _mm256_xor_si256(ymm_load(p), _mm256_zextsi128_si256(_mm_cvtsi32_si128((int)crc)));
    __m256i y1 = ymm_load(p + 32);
    __m256i k4 = ymm_k(c, 4);
    for (p += 64, len -= 64; len >= 64; p += 64, len -= 64) {
        y0 = _mm256_xor_si256(ymm_fold(y0, k4), ymm_load(p));
        y1 = _mm256_xor_si256(ymm_fold(y1, k4), ymm_load(p + 32));
    }
    __m256i t = ymm_fold(y0, _mm256_loadu_si256((const __m256i *)c->lanes));
    __m128i x = _mm_xor_si128(_mm_xor_si128(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1)),
                              _mm_xor_si128(crc_x86_fold(_mm256_castsi256_si128(y1), crc_x86_k(c, 1)),
                                            _mm256_extracti128_si256(y1, 1)));
    return crc_x86_finish(x, p, len, c, c32);
}

/* Four accumulators covering 128 bytes, folded forward by the distance k
 * is for and the next 128 bytes at p xored on, with the register in (a
 * CRC-32C carry, else zero) xored into their first four bytes. */
typedef struct { __m256i y0, y1, y2, y3; } ymm4;

static inline __attribute__((always_inline))
void ymm4_step(ymm4 *a, const uint8_t *p, __m256i k, uint32_t in)
{
    __m256i d0 = _mm256_xor_si256(ymm_load(p), _mm256_zextsi128_si256(_mm_cvtsi32_si128((int)in)));
    a->y0 = _mm256_xor_si256(ymm_fold(a->y0, k), d0);
    a->y1 = _mm256_xor_si256(ymm_fold(a->y1, k), ymm_load(p + 32));
    a->y2 = _mm256_xor_si256(ymm_fold(a->y2, k), ymm_load(p + 64));
    a->y3 = _mm256_xor_si256(ymm_fold(a->y3, k), ymm_load(p + 96));
}

/*
 * CRC-32C, fused: VPCLMULQDQ and the CRC32 instruction run on different
 * execution units (on Zen 3 each alone takes 8 bytes a cycle: two
 * 256-bit products per 32 bytes at one per two cycles, one CRC32 r64 per
 * cycle), so one loop drives both.  A block of n steps is
 *     F (128n bytes, folded into the accumulators) || S0 || S1 || S2
 * with S0..S2 of s = 8 * CRC_X86_FUSE_Q * n bytes each, three CRC32 chains
 * from a zero register, FUSE_Q instructions each per 128-byte fold step.
 * The chains are joined (crc_x86_c32_join) into one register, standing for
 * the block's end, that is xored into the next 128 bytes folded; and the
 * accumulators, which stand for the last 128 bytes of F, are folded to
 * those next bytes by 8 * (128 + 3s) bits instead of 1024 (fused[n]).
 * Nothing is reduced between blocks.  Blocks of CRC_X86_NFUSE steps while
 * they fit, then one smaller; at least 128 bytes must follow, for the
 * first step after the block (the caller's loop).  *kp, *inp: the constant
 * and register for that step.
 */
#define FUSE_STEP (128 + 3 * 8 * CRC_X86_FUSE_Q)

static inline __attribute__((always_inline))
const uint8_t *c32_fused(ymm4 *a, const uint8_t *p, size_t *lenp, __m256i *kp, uint32_t *inp)
{
    const crc_x86_consts *c = &ic_crc32c_x86_k;
    __m256i k8 = ymm_k(c, 8), k = *kp;
    uint32_t in = *inp;
    size_t len = *lenp;
    while (len >= FUSE_STEP + 128) {
        size_t n = (len - 128) / FUSE_STEP;
        if (n > CRC_X86_NFUSE)
            n = CRC_X86_NFUSE;
        const size_t s = 8 * CRC_X86_FUSE_Q * n;
        const uint8_t *q = p + 128 * n;
        uint64_t c0 = 0, c1 = 0, c2 = 0;
        ymm4_step(a, p, k, in);
        for (size_t i = 1; i < n; i++) {
            ymm4_step(a, p + 128 * i, k8, 0);
            crc_x86_c32_3(&c0, &c1, &c2, q, s, 8 * CRC_X86_FUSE_Q);
            q += 8 * CRC_X86_FUSE_Q;
        }
        crc_x86_c32_3(&c0, &c1, &c2, q, s, 8 * CRC_X86_FUSE_Q);
        p += 128 * n;
        const uint64_t *f = c->fused[n];
        in = crc_x86_c32_join(c0, c1, c2, f[2], f[3]);
        k = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)f));
        p += 3 * s;
        len -= 128 * n + 3 * s;
    }
    *kp = k;
    *inp = in;
    *lenp = len;
    return p;
}

/* len >= 128: four accumulators (and for CRC-32C from C32_FUSE bytes the
 * fused blocks), merged into one YMM, 32 bytes at a time, one XMM, then
 * crc_x86_finish. */
static inline __attribute__((always_inline))
uint32_t crc_ymm(uint32_t crc, const uint8_t *p, size_t len, const crc_x86_consts *c, int c32)
{
    ymm4 a;
    a.y0 = _mm256_xor_si256(ymm_load(p), _mm256_zextsi128_si256(_mm_cvtsi32_si128((int)crc)));
    a.y1 = ymm_load(p + 32), a.y2 = ymm_load(p + 64), a.y3 = ymm_load(p + 96);
    __m256i k8 = ymm_k(c, 8);
    p += 128;
    len -= 128;
    if (c32 && len >= FUSE_STEP + 128) {
        __m256i k = k8;
        uint32_t in = 0;
        p = c32_fused(&a, p, &len, &k, &in);
        ymm4_step(&a, p, k, in);        /* len >= 128 here */
        p += 128;
        len -= 128;
    }
    for (; len >= 128; p += 128, len -= 128)
        ymm4_step(&a, p, k8, 0);
    __m256i y = _mm256_xor_si256(_mm256_xor_si256(ymm_fold(a.y0, ymm_k(c, 6)), ymm_fold(a.y1, ymm_k(c, 4))),
                                 _mm256_xor_si256(ymm_fold(a.y2, ymm_k(c, 2)), a.y3));
    __m256i k2 = ymm_k(c, 2);
    for (; len >= 32; p += 32, len -= 32)
        y = _mm256_xor_si256(ymm_fold(y, k2), ymm_load(p));
    __m128i x = _mm_xor_si128(crc_x86_fold(_mm256_castsi256_si128(y), crc_x86_k(c, 1)),
                              _mm256_extracti128_si256(y, 1));
    return crc_x86_finish(x, p, len, c, c32);
}

static uint32_t crc32_vpclmul_update(uint32_t crc, const uint8_t *p, size_t len)
{
    if (len < 16)
        return ic_crc32_slice8_ops.update(crc, p, len);
    if (len < 64)
        return crc_x86_xmm(crc, p, len, &ic_crc32_x86_k, 0);
    if (len < CRC_X86_YMM_MIN)
        return crc_ymm2(crc, p, len, &ic_crc32_x86_k, 0);
    return crc_ymm(crc, p, len, &ic_crc32_x86_k, 0);
}

/* Out of line, so that the short path does not pay for its registers. */
static __attribute__((noinline)) uint32_t crc32c_ymm(uint32_t crc, const uint8_t *p, size_t len)
{
    return crc_ymm(crc, p, len, &ic_crc32c_x86_k, 1);
}

static uint32_t crc32c_vpclmul_update(uint32_t crc, const uint8_t *p, size_t len)
{
    if (len < 64)
        return crc_x86_c32_serial(crc, p, len);
    if (len < C32_SHORT)
        return crc_ymm2(crc, p, len, &ic_crc32c_x86_k, 1);
    return crc32c_ymm(crc, p, len);
}

static const ic_crc_ops crc32_vpclmul_ops = { crc32_vpclmul_update, ic_crc32_clmul_mulmod };
static const ic_crc_ops crc32c_vpclmul_ops = { crc32c_vpclmul_update, ic_crc32c_clmul_mulmod };

#define VPCLMUL_NEEDS (IC_F(IC_CPU_VPCLMUL) | IC_F(IC_CPU_AVX2) | IC_F(IC_CPU_PCLMUL) | IC_F(IC_CPU_SSSE3) \
                       | IC_F(IC_CPU_SSE42))
IC_BACKEND(crc32, vpclmul, VPCLMUL_NEEDS, &crc32_vpclmul_ops);
IC_BACKEND(crc32c, vpclmul, VPCLMUL_NEEDS, &crc32c_vpclmul_ops);

IC_TARGET_END
#endif
