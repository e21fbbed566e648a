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
 * partial tail, Barrett).  Inputs shorter than CRC_X86_YMM_MIN run the
 * 128-bit path of crc_x86_clmul.c (crc_x86_xmm), reduced by two CRC32
 * instructions for CRC-32C; CRC-32C shorter than C32_FOLD runs one chain of
 * the CRC32 instruction, CRC-32 shorter than 16 bytes slice-by-8.
 * An empty input returns the register without reading memory.
 *
 * This file is built with -mavx2 -mvpclmulqdq -mpclmul -msse4.2 and no
 * AVX-512 flag, so the compiler cannot emit an EVEX instruction here: it
 * runs on a CPU without AVX-512.  Selected when CPUID reports VPCLMULQDQ,
 * AVX2 (with the OS saving YMM state), PCLMULQDQ, SSSE3 and SSE4.2.
 */
#include "crc/crc_impl.h"

#if defined(__x86_64__) && defined(__VPCLMULQDQ__) && defined(__AVX2__) && defined(__SSE4_2__)
#include "crc/crc_x86_fold.h"

#define CRC_X86_YMM_MIN 256
#define C32_FOLD 64

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

/* len >= CRC_X86_YMM_MIN (at least 128 bytes). */
static inline __attribute__((always_inline))
uint32_t crc_ymm(uint32_t crc, const uint8_t *p, size_t len, const crc_x86_consts *c, int c32)
{
    __m256i y0 = _mm256_xor_si256(ymm_load(p), _mm256_zextsi128_si256(_mm_cvtsi32_si128((int)crc)));
    __m256i y1 = ymm_load(p + 32), y2 = ymm_load(p + 64), y3 = ymm_load(p + 96);
    __m256i k8 = ymm_k(c, 8);
    for (p += 128, len -= 128; len >= 128; p += 128, len -= 128) {
        y0 = _mm256_xor_si256(ymm_fold(y0, k8), ymm_load(p));
        y1 = _mm256_xor_si256(ymm_fold(y1, k8), ymm_load(p + 32));
        y2 = _mm256_xor_si256(ymm_fold(y2, k8), ymm_load(p + 64));
        y3 = _mm256_xor_si256(ymm_fold(y3, k8), ymm_load(p + 96));
    }
    __m256i y = _mm256_xor_si256(_mm256_xor_si256(ymm_fold(y0, ymm_k(c, 6)), ymm_fold(y1, ymm_k(c, 4))),
                                 _mm256_xor_si256(ymm_fold(y2, ymm_k(c, 2)), y3));
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
    if (len < CRC_X86_YMM_MIN)
        return crc_x86_xmm(crc, p, len, &ic_crc32_x86_k, 0);
    return crc_ymm(crc, p, len, &ic_crc32_x86_k, 0);
}

static uint32_t crc32c_vpclmul_update(uint32_t crc, const uint8_t *p, size_t len)
{
    if (len < C32_FOLD)
        return crc_x86_c32_serial(crc, p, len);
    if (len < CRC_X86_YMM_MIN)
        return crc_x86_xmm(crc, p, len, &ic_crc32c_x86_k, 1);
    return crc_ymm(crc, p, len, &ic_crc32c_x86_k, 1);
}

const ic_crc_ops ic_crc32_vpclmul_ops = { crc32_vpclmul_update, ic_crc32_clmul_mulmod };
const ic_crc_ops ic_crc32c_vpclmul_ops = { crc32c_vpclmul_update, ic_crc32c_clmul_mulmod };

#endif
