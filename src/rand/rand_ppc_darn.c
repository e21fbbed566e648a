/*
 * rand_ppc_darn.c - the "darn" hardware random source of POWER9 and later
 * (Power ISA 3.0, "Deliver A Random Number").
 *
 * DARN with L = 1 returns a 64-bit "conditioned" random number: the output
 * of the chip's entropy source after its conditioning function (the raw
 * L = 2 form is not meant for software, and L = 0 gives only 32 bits).  The
 * ISA defines 0xFFFFFFFFFFFFFFFF as the error value, returned when no
 * random number is ready, and tells software to retry; we retry a bounded
 * number of times, so a broken source makes ic_rand_hw() fail instead of
 * hanging.  (The cost of rejecting the all-ones value is that a genuine
 * all-ones draw, probability 2^-64, is skipped: a negligible bias.)
 *
 * Availability comes from AT_HWCAP2 (ARCH_3_00, cpu_ppc.c), never from the
 * compiler target: this file alone is compiled for POWER9 (its
 * IC_TARGET_BEGIN) and only runs when the kernel says the CPU implements
 * ISA 3.0.
 */
#include "core/target.h"

#if defined(__powerpc64__)
IC_TARGET_BEGIN(IC_TARGET_POWER9)
#include "rand/rand_impl.h"

#define DARN_ERROR   UINT64_C(0xFFFFFFFFFFFFFFFF)
#define DARN_RETRIES 128   /* a healthy source fails rarely; 128 in a row is broken */

/* One DARN L=1 instruction.  GCC has the builtin when the file is built for
 * POWER9; otherwise the instruction itself, in one small asm statement. */
static inline uint64_t darn_once(void)
{
#if defined(_ARCH_PWR9)
    return (uint64_t)__builtin_darn();
#else
    uint64_t r;
    __asm__ volatile("darn %0,1" : "=r"(r));
    return r;
#endif
}

static int hwrand_darn_next64(uint64_t *out)
{
    for (int i = 0; i < DARN_RETRIES; i++) {
        uint64_t r = darn_once();
        if (r != DARN_ERROR) {
            *out = r;
            return 1;
        }
    }
    return 0;
}

static const ic_hwrand_ops darn_ops = { hwrand_darn_next64 };
IC_BACKEND(hwrand, darn, IC_F(IC_CPU_PPC_DARN), &darn_ops);

IC_TARGET_END
#endif
