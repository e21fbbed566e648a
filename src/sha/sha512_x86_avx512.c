/*
 * sha512_x86_avx512.c - SHA-384/512, SHA-512/224, SHA-512/256 compression
 * with the schedule of sha512_x86.h done with AVX-512VL on YMM registers:
 * VPRORQ rotates a 64-bit lane in one instruction (AVX2 needs two shifts
 * and an OR) and VPTERNLOGQ xors three values in one; the "avx512" entry of
 * the sha512 registry.  The rounds are the same RORX code as "avx2".
 *
 * Compiled for AVX-512F/VL, AVX2 and BMI2; selected when CPUID reports
 * AVX-512F and VL (with the OS saving ZMM state), AVX2 and BMI2.
 */
#include "core/target.h"

/* x86-64 only: the rounds are inline assembly on 64-bit general registers
 * (sha512_x86.h); a 32-bit build has none and keeps sha512/port. */
#if defined(__x86_64__)
IC_TARGET_BEGIN("avx2,bmi2,avx512f,avx512vl")
#include "sha/sha_impl.h"

#include "core/ct.h"

/* MemorySanitizer (the ct_msan leg) has no rule for VPRORQ and VPTERNLOGQ,
 * which take immediates, and would report every use on secret data (HMAC
 * keys): there the same functions are written with shifts and xors. */
#if defined(IC_MSAN)
#define S512_VROR(x, n) _mm256_or_si256(_mm256_srli_epi64(x, n), _mm256_slli_epi64(x, 64 - (n)))
#define S512_XOR3(a, b, c) _mm256_xor_si256(_mm256_xor_si256(a, b), c)
#else
#define S512_VROR(x, n) _mm256_ror_epi64(x, n)
#define S512_XOR3(a, b, c) _mm256_ternarylogic_epi64(a, b, c, 0x96)
#endif

/* 4.1.3 (4.12), (4.13); VPTERNLOGQ 0x96 is a ^ b ^ c */
#define S512_SIG0(x) S512_XOR3(S512_VROR(x, 1), S512_VROR(x, 8), _mm256_srli_epi64(x, 7))
#define S512_SIG1(x) S512_XOR3(S512_VROR(x, 19), S512_VROR(x, 61), _mm256_srli_epi64(x, 6))
/* The same in the assembly of sha512_x86.h's schedule step (not built
 * under MSan, where the step is intrinsics). */
#define S512_ASM_SIG0                                                                   \
        "vprorq $1, %[w], %[s]\n\t"        "vprorq $8, %[w], %[t]\n\t"                    \
        "vpsrlq $7, %[w], %[u]\n\t"        "vpternlogq $0x96, %[u], %[t], %[s]\n\t"
#define S512_ASM_SIG1                                                                   \
        "vprorq $19, %[x7], %[s]\n\t"      "vprorq $61, %[x7], %[t]\n\t"                  \
        "vpsrlq $6, %[x7], %[u]\n\t"       "vpternlogq $0x96, %[u], %[t], %[s]\n\t"
#include "sha/sha512_x86.h"

static void sha512_avx512_compress(uint64_t state[8], const uint8_t *p, size_t nblocks)
{
    s512_compress(state, p, nblocks);
}

static const ic_sha512_ops avx512_ops = { sha512_avx512_compress };
IC_BACKEND(sha512, avx512, IC_F(IC_CPU_AVX512F) | IC_F(IC_CPU_AVX512VL) | IC_F(IC_CPU_AVX2) | IC_F(IC_CPU_BMI2),
           &avx512_ops);

IC_TARGET_END

#endif
