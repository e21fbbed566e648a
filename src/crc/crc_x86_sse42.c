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
 * computation for iSCSI polynomial using CRC32 instruction" (Intel, 2011);
 * the join is crc_x86_c32_join in crc_x86_fold.h.  Stripes of N = 4096, 512
 * and 128 bytes while 3N remain, then crc_x86_c32_short (one stripe of 8k
 * bytes per stream for the rest, from 192 bytes, then one chain; shared
 * with the folding files).
 *
 * CRCs take no secret input, so nothing here is claimed constant time.
 * Compiled for SSE4.2 and PCLMULQDQ; selected when CPUID reports both.
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("sse4.2,pclmul")
#include "crc/crc_impl.h"
#include "crc/crc_x86_fold.h"

/* Shared with the folding backends (crc_impl.h).  len 0: crc, unread. */
uint32_t ic_crc32c_sse42_update(uint32_t crc, const uint8_t *p, size_t len)
{
    for (int s = 0; s < CRC_X86_NSTREAM; s++) {
        const uint64_t *st = ic_crc32c_x86_k.stream[s];
        size_t n = (size_t)st[0];
        for (; len >= 3 * n; len -= 3 * n, p += 3 * n)
            crc = crc_x86_c32_stripe(crc, p, n, st[1], st[2]);
    }
    return crc_x86_c32_short(crc, p, len);
}

static const ic_crc_ops sse42_ops = { ic_crc32c_sse42_update, ic_crc32c_clmul_mulmod };
IC_BACKEND(crc32c, sse42, IC_F(IC_CPU_SSE42) | IC_F(IC_CPU_PCLMUL), &sse42_ops);

IC_TARGET_END
#endif
