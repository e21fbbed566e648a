/*
 * util.c - version, status strings, and the two memory helpers every family
 * relies on: a wipe the compiler cannot drop and a constant-time compare.
 */
#include "core/internal.h"

const char *ic_version(void) { return IC_VERSION_STRING; }

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
    default:                 return "unknown status";
    }
}

/* Writing through a volatile pointer is the portable way to keep the stores:
 * the compiler must assume someone observes them.  The barrier after it also
 * keeps a later free() from being treated as making them dead. */
void ic_wipe(void *p, size_t len)
{
    volatile uint8_t *v = (volatile uint8_t *)p;
    if (!p)
        return;
    while (len--)
        *v++ = 0;
#if defined(__GNUC__)
    __asm__ __volatile__("" : : "r"(p) : "memory");
#endif
}

/* OR of all differences, folded to one bit without a data-dependent branch. */
int ic_ct_equal(const void *a, const void *b, size_t len)
{
    const volatile uint8_t *x = (const volatile uint8_t *)a, *y = (const volatile uint8_t *)b;
    uint32_t d = 0;
    for (size_t i = 0; i < len; i++)
        d |= (uint32_t)(x[i] ^ y[i]);
    return (int)(1 & ((d - 1) >> 8));
}
