/*
 * sha_impls.c - the "sha1", "sha256" (SHA-224 too) and "sha512" (SHA-384
 * and SHA-512/t too) implementation tables: every backend, best first,
 * the portable one last (core/internal.h, IC_IMPLS).  Each entry's name,
 * needs and ops are in its backend file (IC_BACKEND).
 */
#include "core/internal.h"
#include "core/target.h"   /* IC_ARM_LE */

IC_IMPLS(sha1)
{
#if defined(__x86_64__) || defined(__i386__)
    IC_IMPL(sha1, shani);
#endif
#if IC_ARM_LE
    IC_IMPL(sha1, ce);
#endif
#if defined(__x86_64__) || defined(__i386__)
    IC_IMPL(sha1, padlock);   /* VIA PHE: no CPU has it and SHA-NI */
#endif
    IC_IMPL(sha1, port);
}

IC_IMPLS(sha256)
{
#if defined(__x86_64__) || defined(__i386__)
    IC_IMPL(sha256, shani);
#endif
#if IC_ARM_LE
    IC_IMPL(sha256, ce);
#endif
#if defined(__powerpc64__)
    IC_IMPL(sha256, p8);
#endif
#if defined(__x86_64__) || defined(__i386__)
    IC_IMPL(sha256, padlock);
#endif
    IC_IMPL(sha256, port);
}

IC_IMPLS(sha512)
{
#if defined(__x86_64__)   /* 64-bit registers in the rounds (sha512_x86.h) */
    IC_IMPL(sha512, avx512);
    IC_IMPL(sha512, avx2);
#endif
#if defined(__aarch64__) && !defined(__AARCH64EB__)
    IC_IMPL(sha512, ce);
#endif
#if defined(__powerpc64__)
    IC_IMPL(sha512, p8);
#endif
    IC_IMPL(sha512, port);
}
