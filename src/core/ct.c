/*
 * ct.c - ic_ct_declassify (ct.h): a memcheck client request when the
 * valgrind headers are present at build time (Debian: package valgrind),
 * __msan_unpoison in a MemorySanitizer build, nothing otherwise.  The
 * client request is a fixed instruction sequence that is a no-op outside
 * valgrind, so a release library may carry it (valgrind.h says so too).
 */
#include "core/ct.h"

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define IC_CT_MSAN 1
#endif
#endif

#if defined(IC_CT_MSAN)
#include <sanitizer/msan_interface.h>
#elif defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define IC_CT_VALGRIND 1
#endif
#endif

void ic_ct_declassify(const void *p, size_t n)
{
#if defined(IC_CT_MSAN)
    __msan_unpoison(p, n);
#elif defined(IC_CT_VALGRIND)
    (void)VALGRIND_MAKE_MEM_DEFINED(p, n);
#else
    (void)p;
    (void)n;
#endif
}
