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
 * instruction).  Shorter inputs of 64 bytes or more start with one ZMM.  That one takes 64 bytes at a time, its four lanes are
 * folded by 384, 256 and 128 bits onto the last (one constant vector), and
 * the rest is crc_x86_finish (single chunks, partial tail, then Barrett, or
 * for CRC-32C two CRC32 instructions).  CRC-32 inputs of 16 to 63 bytes
 * run the 128-bit path (crc_x86_xmm); CRC-32C shorter than C32_FOLD runs
 * one chain of the CRC32 instruction, CRC-32 shorter than 16 bytes
 * slice-by-8.  An empty input returns the register without reading memory.
 *
 * Built with -mavx512f -mavx512vl -mvpclmulqdq -mavx2 -mpclmul -msse4.2
 * for this file only; selected when CPUID reports AVX-512F and VL (with the
 * OS saving ZMM state), VPCLMULQDQ, AVX2, PCLMULQDQ, SSSE3 and SSE4.2.
 * Without AVX-512 (INCORE_CPU=-avx512f, or Zen 3) the 256-bit "vpclmul"
 * entry is chosen instead.
 */
#include "crc/crc_impl.h"

#if defined(__x86_64__) && defined(__VPCLMULQDQ__) && defined(__AVX512F__) && defined(__AVX512VL__)
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

/* Four accumulators over len >= 256 bytes, merged into one. */
static inline __m512i zmm_x4(__m512i z0, const uint8_t **pp, size_t *lenp, const crc_x86_consts *c,
                             int *spread)
{
    const uint8_t *p = *pp;
    size_t len = *lenp;
    __m512i z1 = zmm_load(p + 64), z2 = zmm_load(p + 128), z3 = zmm_load(p + 192);
    __m512i k16 = zmm_k(c, 16);
    for (p += 256, len -= 256; len >= 256; p += 256, len -= 256) {
        z0 = zmm_fold_xor(z0, k16, zmm_load(p));
        z1 = zmm_fold_xor(z1, k16, zmm_load(p + 64));
        z2 = zmm_fold_xor(z2, k16, zmm_load(p + 128));
        z3 = zmm_fold_xor(z3, k16, zmm_load(p + 192));
    }
    *pp = p;
    *lenp = len;
    if (len < 64) {
        /* nothing for one ZMM to take: every lane straight onto the last
         * (sixteen distances, one product step instead of four in a row),
         * the result in lane 3, the other lanes zero */
        const __m512i *kl = (const __m512i *)c->lanes16;
        __m512i t = zmm_fold_xor(z0, _mm512_loadu_si512(kl), zmm_fold_xor(z1, _mm512_loadu_si512(kl + 1),
                                 _mm512_maskz_mov_epi64(0xc0, z3)));
        *spread = 1;
        return zmm_fold_xor(z2, _mm512_loadu_si512(kl + 2), zmm_fold_xor(z3, _mm512_loadu_si512(kl + 3), t));
    }
    return zmm_fold_xor(z0, zmm_k(c, 12), zmm_fold_xor(z1, zmm_k(c, 8), zmm_fold_xor(z2, zmm_k(c, 4), z3)));
}

/* len >= 64: one ZMM from the first 64 bytes (four accumulators from 256
 * bytes on), then 64 bytes at a time, then its lanes merged. */
static inline __attribute__((always_inline))
uint32_t crc_zmm(uint32_t crc, const uint8_t *p, size_t len, const crc_x86_consts *c, int c32)
{
    __m512i z = _mm512_xor_si512(zmm_load(p), _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)crc)));
    int spread = 0;
    if (len >= ZMM_X4_MIN) {
        z = zmm_x4(z, &p, &len, c, &spread);
    } else {
        p += 64;
        len -= 64;
    }
    if (!spread) {
        __m512i k4 = zmm_k(c, 4);
        for (; len >= 64; p += 64, len -= 64)
            z = zmm_fold_xor(z, k4, zmm_load(p));
        /* lanes 0, 1, 2 by 384, 256, 128 bits; lane 3 as it is (zero
         * constant, zero product, then lane 3 of z xored in) */
        z = zmm_fold_xor(z, _mm512_loadu_si512((const void *)c->lanes), _mm512_maskz_mov_epi64(0xc0, z));
    }
    __m256i y = _mm256_xor_si256(_mm512_castsi512_si256(z), _mm512_extracti64x4_epi64(z, 1));
    __m128i x = _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
    return crc_x86_finish(x, p, len, c, c32);
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
    if (len < C32_FOLD)
        return crc_x86_c32_serial(crc, p, len);
    return crc_zmm(crc, p, len, &ic_crc32c_x86_k, 1);
}

const ic_crc_ops ic_crc32_vpclmul512_ops = { crc32_vpclmul512_update, ic_crc32_clmul_mulmod };
const ic_crc_ops ic_crc32c_vpclmul512_ops = { crc32c_vpclmul512_update, ic_crc32c_clmul_mulmod };

#endif
