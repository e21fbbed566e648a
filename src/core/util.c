/*
 * util.c - version, status strings, the memory helpers every family relies
 * on (a wipe the compiler cannot drop, a constant-time compare) and the
 * aligned allocation of key and context objects.
 */
#include <stdlib.h>
#include "core/internal.h"
#include "core/ct.h"   /* IC_MSAN */

const char *ic_version(void) { return IC_VERSION_STRING; }
unsigned long ic_version_number(void) { return IC_VERSION_NUMBER; }

const char *ic_status_str(int status)
{
    switch (status) {
    case IC_OK:              return "ok";
    case IC_ERR_NULL:        return "NULL pointer with non-zero length";
    case IC_ERR_KEYLEN:      return "key length not allowed";
    case IC_ERR_LENGTH:      return "length not a multiple of the block size";
    case IC_ERR_IVLEN:       return "IV or nonce length not allowed";
    case IC_ERR_TAGLEN:      return "tag length not allowed";
    case IC_ERR_TOOLONG:     return "message longer than the mode allows";
    case IC_ERR_AUTH:        return "authentication failed";
    case IC_ERR_STATE:       return "operation not allowed in this state";
    case IC_ERR_OVERLAP:     return "input and output overlap partially";
    case IC_ERR_UNKNOWN:     return "unknown primitive or implementation";
    case IC_ERR_UNAVAILABLE: return "implementation not supported by this CPU";
    case IC_ERR_PARAM:       return "invalid argument";
    case IC_ERR_SYNTAX:      return "malformed specification string";
    case IC_ERR_SELFTEST:    return "self-test gave a wrong answer";
    case IC_ERR_WEAKKEY:     return "key refused (XTS: the two key halves are equal)";
    case IC_ERR_EVEN:        return "modulus is even";
    case IC_ERR_MODULUS:     return "modulus is empty, too small or too large";
    case IC_ERR_EXPONENT:    return "exponent is zero";
    case IC_ERR_RANGE:       return "number is not below the modulus";
    case IC_ERR_SIZE:        return "number has the wrong length for the modulus";
    case IC_ERR_FAULT:       return "private-key result failed its check (fault)";
    case IC_ERR_DECODE:      return "malformed key encoding";
    default:                 return "unknown status";
    }
}

/* memset at full speed, then an empty asm that "uses" p and clobbers memory:
 * the compiler must assume the asm reads the zeroed bytes, so it cannot drop
 * the memset as a dead store (the technique BoringSSL's OPENSSL_cleanse and
 * the Linux kernel's memzero_explicit use).  Other compilers get a volatile
 * byte loop, slower but equally impossible to elide. */
void ic_wipe(void *p, size_t len)
{
    if (!p)
        return;
#if defined(__GNUC__)
    /* In pieces of at most 1 KiB: glibc's memset switches to REP STOSB
     * from 2 KiB (its rep_stosb_threshold), whose start-up cost more than
     * the whole vector loop on Zen 5 (2240 bytes, the size of an
     * ic_aes_gcm_key: 44.5 TSC ticks in one call, 26 in three; 2048
     * bytes in one: 21). */
    uint8_t *b = p;
    size_t piece = 1024;
    __asm__("" : "+r"(piece));   /* a constant size GCC would inline as REP STOSQ */
    for (; len > piece; b += piece, len -= piece)
        memset(b, 0, piece);
    memset(b, 0, len);
    __asm__ __volatile__("" : : "r"(p) : "memory");
#else
    volatile uint8_t *v = (volatile uint8_t *)p;
    while (len--)
        *v++ = 0;
#endif
}

/* OR of all differences, folded to one bit without a data-dependent branch.
 * With GCC / clang, 8 bytes a step (a 16-byte GCM tag: two steps, where a
 * volatile byte loop takes 16 and is 9 % of a 64-byte AES-GCM open), the
 * running OR passed through an empty asm each step so that the compiler
 * cannot know it and end the loop early; MSan builds leave the asm out (it
 * would mark the verdict clean, core/ct.h) and keep the byte loop's form. */
int ic_ct_equal(const void *a, const void *b, size_t len)
{
#if defined(__GNUC__) && !defined(IC_MSAN)
    const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;
    uint64_t d = 0;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t u, v;
        memcpy(&u, x + i, 8);
        memcpy(&v, y + i, 8);
        d |= u ^ v;
        __asm__("" : "+r"(d));
    }
    for (; i < len; i++) {
        d |= (uint64_t)(x[i] ^ y[i]);
        __asm__("" : "+r"(d));
    }
    return (int)(1 & (((d | (0 - d)) >> 63) ^ 1));
#else
    const volatile uint8_t *x = (const volatile uint8_t *)a, *y = (const volatile uint8_t *)b;
    uint32_t d = 0;
    for (size_t i = 0; i < len; i++)
        d |= (uint32_t)(x[i] ^ y[i]);
    return (int)(1 & ((d - 1) >> 8));
#endif
}

/* C11's aligned_alloc (7.22.3.1) wants a size that is a multiple of the
 * alignment (C17 dropped the rule, but C libraries that keep it refuse other
 * sizes), so the size is rounded up; one that would wrap is out of memory. */
void *ic_alloc(size_t size)
{
    if (size == 0 || size > SIZE_MAX - (IC_OBJECT_ALIGN - 1))
        return NULL;
    size_t rounded = (size + (IC_OBJECT_ALIGN - 1)) & ~(size_t)(IC_OBJECT_ALIGN - 1);
    void *p = aligned_alloc(IC_OBJECT_ALIGN, rounded);
    if (p)
        memset(p, 0, rounded);
    return p;
}

/* The wipe first: free() hands the block back with whatever key material it
 * held, where the next allocation (or a heap dump) would see it. */
void ic_free(void *p, size_t size)
{
    if (!p)
        return;
    ic_wipe(p, size);
    free(p);
}
