/*
 * bn_impls.c - the "montmul" implementation table: every backend, best
 * first, the portable one last (core/internal.h, IC_IMPLS).  Each entry's
 * name, needs and ops are in its backend file (IC_BACKEND).
 */
#include "core/internal.h"
#include "bn/bn_impl.h"   /* IC_BN_HAVE_* */

IC_IMPLS(montmul)
{
#if defined(__x86_64__) && defined(IC_BN_HAVE_ADX)
    IC_IMPL(montmul, ifma);      /* from 1024 bits; smaller contexts record adx */
    IC_IMPL(montmul, adx);
#endif
#if (defined(__x86_64__) || defined(__i386__)) && defined(IC_BN_HAVE_PADLOCK)
    /* VIA PadLock PMM: after adx, as no CPU with both has been measured
     * (the guide's Esther and the Nano have no ADX) */
    IC_IMPL(montmul, padlock);
#endif
#if defined(__powerpc64__) && defined(IC_BN_HAVE_P9)
    IC_IMPL(montmul, p9);        /* POWER9 multiply-add: four instructions a limb step, port six */
#endif
    IC_IMPL(montmul, port);
}
