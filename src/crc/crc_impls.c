/*
 * crc_impls.c - the "crc32" and "crc32c" implementation tables: every
 * backend, best first, the portable one last (core/internal.h, IC_IMPLS).
 * Each entry's name, needs and ops are in its backend file (IC_BACKEND).
 */
#include "core/internal.h"
#include "core/target.h"   /* IC_ARM_LE */

IC_IMPLS(crc32)
{
#if defined(__x86_64__) || defined(__i386__)
    IC_IMPL(crc32, vpclmul512);
    IC_IMPL(crc32, vpclmul);
    IC_IMPL(crc32, clmul);
#endif
#if defined(__powerpc64__)
    IC_IMPL(crc32, p8);
#endif
#if IC_ARM_LE
    IC_IMPL(crc32, armv8);    /* CRC32 in three streams joined by PMULL */
    IC_IMPL(crc32, armv8s);   /* CRC32 alone */
#endif
    IC_IMPL(crc32, slice8);
}

IC_IMPLS(crc32c)
{
#if defined(__x86_64__) || defined(__i386__)
    IC_IMPL(crc32c, vpclmul512);
    IC_IMPL(crc32c, vpclmul);
    IC_IMPL(crc32c, clmul);
    IC_IMPL(crc32c, sse42);
#endif
#if defined(__powerpc64__)
    IC_IMPL(crc32c, p8);
#endif
#if IC_ARM_LE
    IC_IMPL(crc32c, armv8);
    IC_IMPL(crc32c, armv8s);
#endif
    IC_IMPL(crc32c, slice8);
}
