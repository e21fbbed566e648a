/*
 * crc_x86_clmul.c - CRC-32 and CRC-32C by PCLMULQDQ folding (four 128-bit
 * lanes, then one, a partial tail and a Barrett reduction: crc_x86_fold.h),
 * the "clmul" entries of the crc32 and crc32c registries.
 *
 * By length: CRC-32 below 16 bytes (less than one chunk) runs slice-by-8.
 * CRC-32C runs one chain of the CRC32 instruction below C32_FOLD bytes,
 * folding (reduced by two CRC32 instructions) below C32_STREAMS, and above
 * that three CRC32 streams (crc_x86_sse42.c), which outrun four 128-bit
 * lanes.  The length thresholds were
 * measured with `incore speed crc32c --impl all` (docs/backends.md, CRC-32 / CRC-32C).
 * An empty input returns the register without reading memory.
 *
 * CRCs take no secret input, so nothing here is claimed constant time.
 * Compiled for PCLMULQDQ and SSE4.2 (SSSE3 PSHUFB and SSE4.1
 * PBLENDVB/PEXTRD for the tail and the reduction, SSE4.2 for CRC32);
 * selected when CPUID reports PCLMULQDQ, SSSE3 and SSE4.2.
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("sse4.2,pclmul")
#include "crc/crc_impl.h"
#include "crc/crc_x86_fold.h"

/* CRC-32C: the CRC32 instruction below C32_FOLD bytes, folding to C32_STREAMS,
 * then three CRC32 streams (which outrun four 128-bit folding lanes). */
#define C32_FOLD 64
#define C32_STREAMS 384

static uint32_t crc32_clmul_update(uint32_t crc, const uint8_t *p, size_t len)
{
    if (len < 16)
        return ic_crc32_slice8_ops.update(crc, p, len);
    return crc_x86_xmm(crc, p, len, &ic_crc32_x86_k, 0);
}

static uint32_t crc32c_clmul_update(uint32_t crc, const uint8_t *p, size_t len)
{
    if (len < C32_FOLD)
        return crc_x86_c32_serial(crc, p, len);
    if (len < C32_STREAMS)
        return crc_x86_xmm(crc, p, len, &ic_crc32c_x86_k, 1);
    return ic_crc32c_sse42_update(crc, p, len);
}

/* a * b mod P for combine (crc.c): the carry-less product of two frame-31
 * values is in frame 62; one left shift puts it in frame 63, and Barrett
 * reduces it (crc_x86_fold.h).  Shared by every x86 folding entry. */
static inline uint32_t crc_x86_mulmod(uint32_t a, uint32_t b, const crc_x86_consts *c)
{
    __m128i r = _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)a), _mm_cvtsi32_si128((int)b), 0x00);
    return crc_x86_barrett(_mm_slli_epi64(r, 1), c);
}

uint32_t ic_crc32_clmul_mulmod(uint32_t a, uint32_t b)
{
    return crc_x86_mulmod(a, b, &ic_crc32_x86_k);
}

uint32_t ic_crc32c_clmul_mulmod(uint32_t a, uint32_t b)
{
    return crc_x86_mulmod(a, b, &ic_crc32c_x86_k);
}

static const ic_crc_ops crc32_clmul_ops = { crc32_clmul_update, ic_crc32_clmul_mulmod };
static const ic_crc_ops crc32c_clmul_ops = { crc32c_clmul_update, ic_crc32c_clmul_mulmod };

#define CLMUL_NEEDS (IC_F(IC_CPU_PCLMUL) | IC_F(IC_CPU_SSSE3) | IC_F(IC_CPU_SSE42))
IC_BACKEND(crc32, clmul, CLMUL_NEEDS, &crc32_clmul_ops);
IC_BACKEND(crc32c, clmul, CLMUL_NEEDS, &crc32c_clmul_ops);

IC_TARGET_END
#endif
