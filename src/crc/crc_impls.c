/*
 * crc_impls.c - the "crc32" and "crc32c" implementation tables: every
 * backend, best first, the portable one last (core/internal.h, IC_IMPLS).
 * Each entry's name, needs and ops are in its backend file (IC_BACKEND).
 */
#include "core/internal.h"
#include "core/target.h"   /* IC_ARM_LE */
#include "crc/crc_impl.h"

#if defined(__x86_64__)
extern const ic_crc_ops ic_crc32c_sse42_ops;   /* crc_x86_sse42.c */
#endif

IC_IMPLS(crc32)
{
#if defined(__x86_64__)
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
#if defined(__x86_64__)
    IC_IMPL(crc32c, vpclmul512);
    IC_IMPL(crc32c, vpclmul);
    IC_IMPL(crc32c, clmul);
    {   /* written out here until crc_x86_sse42.c defines its entry */
        static const ic_impl sse42 =
            { "sse42", IC_F(IC_CPU_SSE42) | IC_F(IC_CPU_PCLMUL), &ic_crc32c_sse42_ops };
        ic_impl_list_add(ic_impl_list_, &sse42);
    }
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
