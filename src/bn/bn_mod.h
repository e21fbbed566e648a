/*
 * bn_mod.h - modular arithmetic on big-endian byte strings over a
 * Montgomery context (bn_mod.c), for the RSA private-key operation
 * (rsa.c): reduction of a longer number, multiplication, subtraction, a
 * plain multiply-add, and the inverse (bn_inv.c).
 *
 * Internal: ctx must be a context ic_mont_init set up (the caller checked
 * it), every "< n" operand is below the modulus, and every byte string
 * named by the modulus has exactly ic_mont_size(ctx) bytes.  All are
 * constant time in the values (modulus included: it may be a secret
 * prime); only lengths steer them.
 */
#ifndef INCORE_BN_MOD_H
#define INCORE_BN_MOD_H

#include <stddef.h>
#include <stdint.h>

#include "incore/bignum.h"

/* out = a mod n for any a of alen <= 2 * IC_BN_MAX_BYTES + 16 bytes. */
void ic_bn_mod_reduce(const ic_mont_ctx *ctx, uint8_t *out, const uint8_t *a, size_t alen);
/* out = a * b mod n, for a, b < n; out may equal a or b. */
void ic_bn_mod_mul(const ic_mont_ctx *ctx, uint8_t *out, const uint8_t *a, const uint8_t *b);
/* out = a - b mod n, for a, b < n; out may equal a or b. */
void ic_bn_mod_sub(const ic_mont_ctx *ctx, uint8_t *out, const uint8_t *a, const uint8_t *b);
/* out (outlen bytes) = a * b + c, the plain product; the result must fit
 * in outlen bytes (it is cut to them); alen, blen, clen, outlen <=
 * IC_BN_MAX_BYTES. */
void ic_bn_mul_add(uint8_t *out, size_t outlen, const uint8_t *a, size_t alen,
                   const uint8_t *b, size_t blen, const uint8_t *c, size_t clen);
/* 1 when the alen bytes at a (any alen <= 2 * IC_BN_MAX_BYTES) are < n, else 0. */
int ic_bn_ct_below(const ic_mont_ctx *ctx, const uint8_t *a, size_t alen);
/* out = n itself, ic_mont_size(ctx) bytes. */
void ic_bn_modulus(const ic_mont_ctx *ctx, uint8_t *out);
/* out = a^-1 mod n and 1, or 0 (out zeroed) when a has no inverse
 * (gcd(a, n) > 1, a = 0 included); a < n, out may equal a.  The verdict is
 * as secret as a and n: a caller that branches on it declassifies it. */
int ic_bn_mod_inv(const ic_mont_ctx *ctx, uint8_t *out, const uint8_t *a);
/* Two inverses at once (two moduli, e.g. an RSA key's primes), each as
 * ic_bn_mod_inv with its verdict in *ok0, *ok1; returns *ok0 & *ok1.  The
 * two run side by side: the time is that of the larger alone, about. */
int ic_bn_mod_inv2(const ic_mont_ctx *ctx0, uint8_t *out0, const uint8_t *a0, int *ok0,
                   const ic_mont_ctx *ctx1, uint8_t *out1, const uint8_t *a1, int *ok1);

#endif
