/*
 * sha512_x86_avx512.c - SHA-384/512, SHA-512/224, SHA-512/256 compression
 * with the schedule of sha512_x86.h done with AVX-512VL on YMM registers:
 * VPRORQ rotates a 64-bit lane in one instruction (AVX2 needs two shifts
 * and an OR) and VPTERNLOGQ xors three values in one; the "avx512" entry of
 * the sha512 registry.  The rounds are the same RORX code as "avx2".
 *
 * Built with -mavx512f -mavx512vl -mavx2 -mbmi2 for this file only;
 * selected when CPUID reports AVX-512F and VL (with the OS saving ZMM
 * state), AVX2 and BMI2.
 */
#include "sha/sha_impl.h"

#if defined(__x86_64__) && defined(__AVX512VL__) && defined(__AVX2__) && defined(__BMI2__)

/* 4.1.3 (4.12), (4.13); VPTERNLOGQ 0x96 is a ^ b ^ c */
#define S512_SIG0(x) _mm256_ternarylogic_epi64(_mm256_ror_epi64(x, 1), _mm256_ror_epi64(x, 8), \
                                               _mm256_srli_epi64(x, 7), 0x96)
#define S512_SIG1(x) _mm256_ternarylogic_epi64(_mm256_ror_epi64(x, 19), _mm256_ror_epi64(x, 61), \
                                               _mm256_srli_epi64(x, 6), 0x96)
#include "sha/sha512_x86.h"

static void sha512_avx512_compress(uint64_t state[8], const uint8_t *p, size_t nblocks)
{
    s512_compress(state, p, nblocks);
}

const ic_sha512_ops ic_sha512_avx512_ops = { sha512_avx512_compress };

#endif
