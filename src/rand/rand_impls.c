/*
 * rand_impls.c - the "hwrand" implementation table, best first (core/
 * internal.h, IC_IMPLS): RDSEED (x86: the conditioned entropy source
 * itself, meant for seeding), RDRAND (x86: the DRBG behind it), XSTORE
 * (VIA PadLock's generator, after the Intel/AMD sources: no CPU has both),
 * DARN (POWER9, ISA 3.0: the 64-bit conditioned value), RNDR (ARMv8.5-RNG:
 * a DRBG reseeded from the entropy source), and "none" (rand.c), which
 * needs nothing and refuses every request.  Each entry's name, needs and
 * ops are in its backend file (IC_BACKEND).
 */
#include "core/internal.h"

IC_IMPLS(hwrand)
{
#if defined(__x86_64__) || defined(__i386__)
    IC_IMPL(hwrand, rdseed);
    IC_IMPL(hwrand, rdrand);
    IC_IMPL(hwrand, xstore);
#endif
#if defined(__powerpc64__)
    IC_IMPL(hwrand, darn);
#endif
#if defined(__aarch64__)
    IC_IMPL(hwrand, rndr);
#endif
    IC_IMPL(hwrand, none);
}
