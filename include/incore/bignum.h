/*
 * incore/bignum.h - modular arithmetic on big numbers: a Montgomery context
 * for an odd modulus and modular exponentiation, constant time
 * (ic_mont_modexp) or variable time for public exponents
 * (ic_mont_modexp_public).
 *
 * Numbers cross the API as big-endian byte strings (the byte order of
 * PKCS #1 and of every RSA standard).  Nothing allocates: the context is a
 * complete type the caller owns (about 2.7 KB), sized for moduli of up to
 * IC_BN_MAX_BITS bits; working space lives on the stack (at most about
 * 40 KB for an 8192-bit modulus).
 *
 * The context records the Montgomery multiplication ("montmul" in the
 * implementation registry) selected at init, like every other context; its
 * number areas are owned by that backend, which lays its limbs out as it
 * likes (radix 2^64 or 2^32 for the portable code and MULX/ADX).
 *
 * Statuses, in the order of common.h's checks:
 *   ic_mont_init: NULL ctx or n: IC_ERR_NULL; a modulus that is empty,
 *     longer than IC_BN_MAX_BITS bits (leading zero bytes do not count)
 *     or below 3: IC_ERR_MODULUS; an even one: IC_ERR_EVEN.
 *   ic_mont_modexp / ic_mont_modexp_public: NULL ctx: IC_ERR_NULL; a
 *     context init never set up (or wiped): IC_ERR_STATE; NULL out, base
 *     or exp with a non-zero length (out may never be NULL): IC_ERR_NULL;
 *     outlen other than ic_mont_size(), a base longer than the modulus,
 *     an exponent longer than IC_BN_MAX_BYTES: IC_ERR_SIZE; base >=
 *     modulus: IC_ERR_RANGE; exponent 0 (every byte zero, or elen 0):
 *     IC_ERR_EXPONENT.
 *   On any failure out is left untouched.  out may equal base or exp.
 * Only the verdicts of the two value checks (base < n, exp != 0) become
 * public; ic_mont_modexp's time depends on the lengths alone (modulus,
 * base and exponent byte lengths), never on the values of base or
 * exponent.
 *
 * Every call on a context has the ic_mont_ prefix and takes the context
 * first; the output comes next with its length, then the base and the
 * exponent (docs/api.md).
 */
#ifndef INCORE_BIGNUM_H
#define INCORE_BIGNUM_H

#include "incore/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IC_BN_MAX_BITS   8192
#define IC_BN_MAX_BYTES  (IC_BN_MAX_BITS / 8)
/* 64-bit words per number in a context: 8192 bits in radix 2^64 take 128,
 * in radix 2^52 (an AVX-512 IFMA backend) 158. */
#define IC_BN_WORDS      160

/* One number of a context, in the limb size of its backend. */
typedef union ic_bn_words {
    uint64_t w64[IC_BN_WORDS];
    uint32_t w32[IC_BN_WORDS * 2];
} ic_bn_words;

typedef struct ic_mont_ctx {
    IC_ALIGNAS(64) ic_bn_words n;   /* the modulus, least significant limb first */
    IC_ALIGNAS(64) ic_bn_words rr;  /* R^2 mod n, R = 2^(limb bits * nlimbs)     */
    uint64_t n0;          /* -n^-1 mod 2^(limb bits)                            */
    uint32_t nlimbs;      /* limbs per number                                   */
    uint32_t nbits;       /* bit length of the modulus                          */
    uint32_t nbytes;      /* its byte length: every output has this length      */
    uint32_t impl;        /* registry index of the "montmul" implementation     */
    uint32_t check;       /* set by init, cleared by wipe                       */
} ic_mont_ctx;

/* Set up ctx for the odd modulus n (nlen bytes, big-endian, leading zero
 * bytes allowed).  Constant time in the value of n for a given bit length
 * (n may be a secret RSA prime).  ctx is wiped first. */
IC_NODISCARD IC_API int ic_mont_init(ic_mont_ctx *ctx, const uint8_t *n, size_t nlen);
/* Byte length of the modulus (leading zero bytes stripped); 0 for a NULL
 * or invalid context. */
IC_API size_t ic_mont_size(const ic_mont_ctx *ctx);
IC_API void ic_mont_wipe(ic_mont_ctx *ctx);

/* out = base^exp mod n, out exactly ic_mont_size(ctx) bytes.  Constant
 * time in base and exp: every exponent bit of the elen bytes is processed
 * with fixed windows, and every table entry is read for each lookup. */
IC_NODISCARD IC_API int ic_mont_modexp(const ic_mont_ctx *ctx, uint8_t *out, size_t outlen,
                                       const uint8_t *base, size_t blen,
                                       const uint8_t *exp, size_t elen);
/* The same result in variable time: only for public exponents (an RSA e,
 * a signature check).  Its time depends on exp but not on base. */
IC_NODISCARD IC_API int ic_mont_modexp_public(const ic_mont_ctx *ctx, uint8_t *out, size_t outlen,
                                              const uint8_t *base, size_t blen,
                                              const uint8_t *exp, size_t elen);

#ifdef __cplusplus
}
#endif
#endif
