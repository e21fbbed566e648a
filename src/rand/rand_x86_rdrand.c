/*
 * rand_x86_rdrand.c - the "rdseed" and "rdrand" hardware random sources of
 * x86-64, following Intel's Digital Random Number Generator (DRNG) Software
 * Implementation Guide.
 *
 * RDSEED returns output of the conditioned entropy source (SP 800-90B/C
 * style), meant for seeding another generator; RDRAND returns output of the
 * CTR_DRBG that source reseeds.  Both report "no value ready" with CF = 0
 * (the intrinsics return 0) and must then be retried:
 *  - RDRAND: the guide's advice is up to 10 retries; ten failures in a row
 *    mean the hardware is broken, not busy.
 *  - RDSEED: it fails far more often under load (the entropy source is
 *    slower than the DRBG); the guide suggests retrying with a PAUSE in
 *    between.  We bound that too.
 * A value of all ones is also rejected, although CF says it is valid: some
 * AMD family 15h/17h parts (with old microcode, after suspend/resume)
 * return ~0 with CF = 1 forever, and a genuine all-ones draw has
 * probability 2^-64.
 *
 * On 32-bit x86 the instructions deliver at most 32 bits: a 64-bit value
 * is two successful 32-bit draws, retried as a whole, and the all-ones
 * test applies to the pair (the stuck parts return ~0 in every width).
 *
 * This file alone is compiled for RDRAND and RDSEED; the registry only
 * uses an entry when CPUID reports RDRAND / RDSEED (cpu_x86.c).
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("rdrnd,rdseed")
#include "rand/rand_impl.h"
#include <immintrin.h>

#define RDRAND_RETRIES 10
#define RDSEED_RETRIES 1024
#define ALL_ONES       UINT64_C(0xFFFFFFFFFFFFFFFF)

#if defined(__x86_64__)
#define rdrand_step64 _rdrand64_step
#define rdseed_step64 _rdseed64_step
#else
static int rdrand_step64(unsigned long long *r)
{
    unsigned int lo, hi;
    if (!_rdrand32_step(&lo) || !_rdrand32_step(&hi))
        return 0;
    *r = (unsigned long long)hi << 32 | lo;
    return 1;
}

static int rdseed_step64(unsigned long long *r)
{
    unsigned int lo, hi;
    if (!_rdseed32_step(&lo) || !_rdseed32_step(&hi))
        return 0;
    *r = (unsigned long long)hi << 32 | lo;
    return 1;
}
#endif

static int hwrand_rdrand_next64(uint64_t *out)
{
    unsigned long long r;
    for (int i = 0; i < RDRAND_RETRIES; i++)
        if (rdrand_step64(&r) && r != ALL_ONES) {
            *out = r;
            return 1;
        }
    return 0;
}

static int hwrand_rdseed_next64(uint64_t *out)
{
    unsigned long long r;
    for (int i = 0; i < RDSEED_RETRIES; i++) {
        if (rdseed_step64(&r) && r != ALL_ONES) {
            *out = r;
            return 1;
        }
        _mm_pause();
    }
    return 0;
}

static const ic_hwrand_ops rdrand_ops = { hwrand_rdrand_next64 };
static const ic_hwrand_ops rdseed_ops = { hwrand_rdseed_next64 };
IC_BACKEND(hwrand, rdrand, IC_F(IC_CPU_RDRAND), &rdrand_ops);
IC_BACKEND(hwrand, rdseed, IC_F(IC_CPU_RDSEED), &rdseed_ops);

IC_TARGET_END
#endif
