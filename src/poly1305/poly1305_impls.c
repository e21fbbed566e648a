/*
 * poly1305_impls.c - the "poly1305" implementation table: every backend,
 * best first, the portable one last (core/internal.h, IC_IMPLS).  Each
 * entry's name, needs and ops are in its backend file (IC_BACKEND).
 */
#include "core/internal.h"
#include "poly1305/poly1305_impl.h"   /* IC_POLY1305_HAVE_C64, IC_POLY1305_NEON */

IC_IMPLS(poly1305)
{
/* x86-64 only: the vector code's key powers and final sums are radix-2^44
 * products in unsigned __int128 (poly1305_x86_pow.h, _vec.h), which 32-bit
 * x86 does not have */
#if defined(__x86_64__) && defined(IC_POLY1305_HAVE_C64)
    IC_IMPL(poly1305, avx512ifma);
    IC_IMPL(poly1305, avx512);
    IC_IMPL(poly1305, avx2);
    IC_IMPL(poly1305, avx2gg);   /* the incomplete decimation the Sarkar/Bhattacharyya dissertation compares against */
#endif
#if defined(IC_POLY1305_NEON)
    IC_IMPL(poly1305, neon);
#endif
    IC_IMPL(poly1305, c);        /* radix 2^64, or 2^26 without a 128-bit type */
}
