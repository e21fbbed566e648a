/*
 * crc_x86_sse42.c - CRC-32C with the SSE4.2 CRC32 instruction: the
 * "sse42" entry of the crc32c registry, and the short-input path of the
 * crc32c folding backends (crc_x86_clmul.c, crc_x86_vpclmul*.c).
 *
 * CRC32 r64 folds 8 message bytes into the raw reflected CRC-32C register
 * (crc_impl.h's convention, no inversion inside), CRC32 r8/r16/r32 1, 2 or
 * 4.  One chain of them is bound by the instruction's latency (3 cycles on
 * Intel since Nehalem and on AMD Zen, throughput 1 per cycle), so long
 * inputs run three independent chains over three consecutive stripes of N
 * bytes and join them with the linearity of the CRC:
 *
 *     crc(A || B || C) = crc(A) * x^(16N) + crc'(B) * x^(8N) + crc'(C)  mod P
 *
 * where crc' starts from a zero register: Gopal et al., "Fast CRC
 * computation for iSCSI polynomial using CRC32 instruction" (Intel, 2011).
 * The two products are PCLMULQDQ of the 32-bit registers by x^(16N-33) and
 * x^(8N-33) mod P, xored, and reduced by one more CRC32 r64 on a zero
 * register, which computes v(x) * x^32 mod P for the 64-bit v: the
 * carry-less product of two frame-31 values is in frame 62, one power
 * short of the frame 63 the instruction reads, hence the -33 (the same
 * arithmetic as crc_arm_v8.c; constants in crc_x86_consts.h).  Stripes of
 * N = 4096, 512 and 128 bytes while 3N remain, then the serial loop
 * (crc_x86_c32_serial in crc_x86_fold.h, shared with the folding files).
 *
 * CRCs take no secret input, so nothing here is claimed constant time.
 * Built with -msse4.2 -mpclmul for this file only; selected when CPUID
 * reports SSE4.2 and PCLMULQDQ.
 */
#include "crc/crc_impl.h"

#if defined(__x86_64__) && defined(__SSE4_2__) && defined(__PCLMUL__)
#include "crc/crc_x86_fold.h"

/* r * K reduced: PCLMULQDQ, then CRC32 r64 on a zero register. */
static inline uint64_t crc32c_mul(uint32_t r, uint32_t k)
{
    __m128i v = _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)r), _mm_cvtsi32_si128((int)k), 0x00);
    return (uint64_t)_mm_cvtsi128_si64(v);
}

/* One stripe of three streams of n bytes each (n a multiple of 8). */
static inline uint32_t crc32c_stripe(uint32_t crc, const uint8_t *p, size_t n,
                                     uint32_t k_n, uint32_t k_2n)
{
    uint64_t c0 = crc, c1 = 0, c2 = 0;
    for (size_t i = 0; i < n; i += 8) {
        c0 = _mm_crc32_u64(c0, ic_load64_le(p + i));
        c1 = _mm_crc32_u64(c1, ic_load64_le(p + n + i));
        c2 = _mm_crc32_u64(c2, ic_load64_le(p + 2 * n + i));
    }
    uint64_t v = crc32c_mul((uint32_t)c0, k_2n) ^ crc32c_mul((uint32_t)c1, k_n);
    return (uint32_t)_mm_crc32_u64(0, v) ^ (uint32_t)c2;
}

/* Shared with the folding backends (crc_impl.h).  len 0: crc, unread. */
uint32_t ic_crc32c_sse42_update(uint32_t crc, const uint8_t *p, size_t len)
{
    if (len < 3 * 128)
        return crc_x86_c32_serial(crc, p, len);
    for (int s = 0; s < CRC_X86_NSTREAM; s++) {
        const uint64_t *st = ic_crc32c_x86_k.stream[s];
        size_t n = (size_t)st[0];
        for (; len >= 3 * n; len -= 3 * n, p += 3 * n)
            crc = crc32c_stripe(crc, p, n, (uint32_t)st[1], (uint32_t)st[2]);
    }
    return crc_x86_c32_serial(crc, p, len);
}

const ic_crc_ops ic_crc32c_sse42_ops = { ic_crc32c_sse42_update, ic_crc32c_clmul_mulmod };

#endif
