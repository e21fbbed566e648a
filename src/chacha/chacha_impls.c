/*
 * chacha_impls.c - the "chacha20" implementation table: every backend,
 * best first, the portable one last (core/internal.h, IC_IMPLS).  Each
 * entry's name, needs and ops are in its backend file (IC_BACKEND).
 */
#include "core/internal.h"
#include "core/target.h"   /* IC_ARM_LE */

IC_IMPLS(chacha20)
{
#if defined(__x86_64__)   /* GCC 12 cannot build it for 32-bit x86 (the file says) */
    IC_IMPL(chacha20, avx512);
#endif
#if defined(__x86_64__) || defined(__i386__)
    IC_IMPL(chacha20, avx2);
#endif
#if IC_ARM_LE
    IC_IMPL(chacha20, neon);
#endif
    IC_IMPL(chacha20, c);
}
