/*
 * rand_arm_rndr.c - the "rndr" hardware random source of ARMv8.5-RNG
 * (FEAT_RNG): the RNDR system register.
 *
 * Reading RNDR returns a 64-bit random number from an approved DRBG
 * reseeded from the implementation's entropy source (Arm ARM, "RNDR,
 * Random Number"); RNDRRS would force a reseed first and is slower, and
 * the DRBG output is what ic_rand_hw promises (like RDRAND on x86-64).
 * The read sets NZCV: 0b0000 when the value is good; 0b0100 (Z set) and a
 * value of 0 when no random number could be produced "in a reasonable
 * period of time", after which software may retry.  We retry a bounded
 * number of times, so a failing source makes ic_rand_hw() report
 * IC_ERR_UNAVAILABLE instead of hanging.
 *
 * The register is named by its encoding (S3_3_C2_C4_0) so no -march flag
 * is needed and no other instruction of this file can come from a newer
 * target: the read is one asm statement in one small function, the
 * project's rule for instructions without a portable intrinsic (GCC 12's
 * __rndr needs the whole file built for armv8.5-a+rng).  Availability comes
 * from AT_HWCAP2 (HWCAP2_RNG, core/cpu_arm.c), never from the compiler
 * target; Linux reports it only when every CPU of the system has RNDR.
 */
#include "rand/rand_impl.h"

#if defined(__aarch64__)

#define RNDR_RETRIES 128   /* a healthy source fails rarely; 128 in a row is broken */

/* One read of RNDR: returns 1 and the value, or 0 when the hardware set
 * the failure flag (Z). */
static inline int rndr_once(uint64_t *v)
{
    uint64_t r;
    uint32_t ok;
    __asm__ volatile("mrs %0, s3_3_c2_c4_0\n\t"
                     "cset %w1, ne"
                     : "=r"(r), "=r"(ok)
                     :
                     : "cc");
    *v = r;
    return (int)ok;
}

static int hwrand_rndr_next64(uint64_t *out)
{
    for (int i = 0; i < RNDR_RETRIES; i++) {
        uint64_t r;
        if (rndr_once(&r)) {
            *out = r;
            return 1;
        }
    }
    return 0;
}

static const ic_hwrand_ops rndr_ops = { hwrand_rndr_next64 };
IC_BACKEND(hwrand, rndr, IC_F(IC_CPU_ARM_RNG), &rndr_ops);

#endif
