/*
 * aes_impls.c - the "aes" implementation table: every backend, best first,
 * the portable one last (core/internal.h, IC_IMPLS).  Each entry's name,
 * needs and ops are in its backend file (IC_BACKEND).
 */
#include "core/internal.h"
#include "core/target.h"   /* IC_ARM_LE */

IC_IMPLS(aes)
{
#if defined(__x86_64__) || defined(__i386__)
    IC_IMPL(aes, vaes512);
    IC_IMPL(aes, vaes);
    IC_IMPL(aes, ni);
    /* after AES-NI: no CPU has both, and forcing it on (INCORE_CPU=+padlock-ace,
     * under tests/padlock_model) must not displace the others by accident */
    IC_IMPL(aes, padlock);
#endif
#if defined(__x86_64__)
    /* no AES instructions but AVX2 (AES-NI switched off): ssse3's bitsliced
     * code on YMM, 16 blocks, for the parallel modes; ssse3's otherwise */
    IC_IMPL(aes, avx2);
#endif
#if defined(__x86_64__) || defined(__i386__)
    /* vector-permute AES: SSSE3 without AES-NI, below PadLock (VIA Nano
     * has both, and its hardware AES is the faster) */
    IC_IMPL(aes, ssse3);
#endif
#if defined(__powerpc64__)
    IC_IMPL(aes, p8);
#endif
#if IC_ARM_LE
    IC_IMPL(aes, ce);
    /* NEON without the AES instructions: bitsliced, one block by nibble lookups */
    IC_IMPL(aes, neon);
#endif
    IC_IMPL(aes, ct64);
}
