/*
 * sha512_x86_avx2.c - SHA-384/512, SHA-512/224, SHA-512/256 compression
 * with AVX2 (the message schedule of two blocks at once in YMM registers)
 * and BMI2 (RORX in the rounds): the "avx2" entry of the sha512 registry.
 * The code is sha512_x86.h; here only the schedule's small sigmas, with
 * AVX2 shifts (AVX2 has no 64-bit rotate: a rotation is two shifts and an
 * OR).
 *
 * Built with -mavx2 -mbmi2 for this file only; selected when CPUID reports
 * AVX2 (with the OS saving YMM state) and BMI2.
 */
#include "sha/sha_impl.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__BMI2__)

#define S512_VROR(x, n) _mm256_or_si256(_mm256_srli_epi64(x, n), _mm256_slli_epi64(x, 64 - (n)))
/* 4.1.3 (4.12), (4.13) */
#define S512_SIG0(x) _mm256_xor_si256(_mm256_xor_si256(S512_VROR(x, 1), S512_VROR(x, 8)), \
                                      _mm256_srli_epi64(x, 7))
#define S512_SIG1(x) _mm256_xor_si256(_mm256_xor_si256(S512_VROR(x, 19), S512_VROR(x, 61)), \
                                      _mm256_srli_epi64(x, 6))
#include "sha/sha512_x86.h"

static void sha512_avx2_compress(uint64_t state[8], const uint8_t *p, size_t nblocks)
{
    s512_compress(state, p, nblocks);
}

const ic_sha512_ops ic_sha512_avx2_ops = { sha512_avx2_compress };

#endif
