/*
 * sha512_x86_avx2.c - SHA-384/512, SHA-512/224, SHA-512/256 compression
 * with AVX2 (the message schedule of two blocks at once in YMM registers)
 * and BMI2 (RORX in the rounds): the "avx2" entry of the sha512 registry.
 * The code is sha512_x86.h; here only the schedule's small sigmas, with
 * AVX2 shifts (AVX2 has no 64-bit rotate: a rotation is two shifts and an
 * OR, or one byte shuffle for a multiple of 8).
 *
 * Compiled for AVX2 and BMI2; selected when CPUID reports AVX2 (with the
 * OS saving YMM state) and BMI2.
 */
#include "core/target.h"

/* x86-64 only: the rounds are inline assembly on 64-bit general registers
 * (sha512_x86.h); a 32-bit build has none and keeps sha512/port. */
#if defined(__x86_64__)
IC_TARGET_BEGIN("avx2,bmi2")
#include "sha/sha_impl.h"

#include <immintrin.h>

#define S512_VROR(x, n) _mm256_or_si256(_mm256_srli_epi64(x, n), _mm256_slli_epi64(x, 64 - (n)))
/* A rotation by 8 moves whole bytes: one VPSHUFB instead of two shifts and
 * an OR (byte i of each word takes byte i + 1, little-endian). */
#define S512_VROR8(x) _mm256_shuffle_epi8(x, _mm256_set_epi64x(0x080f0e0d0c0b0a09LL, 0x0007060504030201LL, \
                                                               0x080f0e0d0c0b0a09LL, 0x0007060504030201LL))
/* 4.1.3 (4.12), (4.13) */
#define S512_SIG0(x) _mm256_xor_si256(_mm256_xor_si256(S512_VROR(x, 1), S512_VROR8(x)), \
                                      _mm256_srli_epi64(x, 7))
#define S512_SIG1(x) _mm256_xor_si256(_mm256_xor_si256(S512_VROR(x, 19), S512_VROR(x, 61)), \
                                      _mm256_srli_epi64(x, 6))
/* The same in the assembly of sha512_x86.h's schedule step. */
#define S512_ASM_SIG0                                                                   \
        "vpsrlq $1, %[w], %[s]\n\t"        "vpsllq $63, %[w], %[t]\n\t"                   \
        "vpshufb %[m8], %[w], %[u]\n\t"    "vpxor %[t], %[s], %[s]\n\t"                   \
        "vpsrlq $7, %[w], %[t]\n\t"        "vpxor %[u], %[s], %[s]\n\t"                   \
        "vpxor %[t], %[s], %[s]\n\t"
#define S512_ASM_SIG1                                                                   \
        "vpsrlq $19, %[x7], %[s]\n\t"      "vpsllq $45, %[x7], %[t]\n\t"                  \
        "vpsrlq $61, %[x7], %[u]\n\t"      "vpxor %[t], %[s], %[s]\n\t"                   \
        "vpsllq $3, %[x7], %[t]\n\t"       "vpxor %[u], %[s], %[s]\n\t"                   \
        "vpsrlq $6, %[x7], %[u]\n\t"       "vpxor %[t], %[s], %[s]\n\t"                   \
        "vpxor %[u], %[s], %[s]\n\t"
#include "sha/sha512_x86.h"

static void sha512_avx2_compress(uint64_t state[8], const uint8_t *p, size_t nblocks)
{
    s512_compress(state, p, nblocks);
}

static const ic_sha512_ops avx2_ops = { sha512_avx2_compress };
IC_BACKEND(sha512, avx2, IC_F(IC_CPU_AVX2) | IC_F(IC_CPU_BMI2), &avx2_ops);

IC_TARGET_END

#endif
