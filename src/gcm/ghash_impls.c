/*
 * ghash_impls.c - the "ghash" implementation table: every backend, best
 * first, the portable one last (core/internal.h, IC_IMPLS).  Each entry's
 * name, needs and ops are in its backend file (IC_BACKEND).
 */
#include "core/internal.h"
#include "core/target.h"   /* IC_ARM_LE */

IC_IMPLS(ghash)
{
#if defined(__x86_64__) || defined(__i386__)
    IC_IMPL(ghash, vpclmul512);
    IC_IMPL(ghash, vpclmul);
    IC_IMPL(ghash, clmul);
    IC_IMPL(ghash, avx2);   /* integer multiplies: after clmul, so only where PCLMULQDQ is absent */
#endif
#if defined(__powerpc64__)
    IC_IMPL(ghash, p8);
#endif
#if IC_ARM_LE
    IC_IMPL(ghash, pmull);
    IC_IMPL(ghash, neon);   /* vmull.p8: after PMULL, so only where PMULL is absent */
#endif
    IC_IMPL(ghash, ct64);
}
