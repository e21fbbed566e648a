/*
 * bn_mod.c - modular arithmetic on byte strings over a Montgomery context
 * (bn_mod.h), what the RSA-CRT private operation needs beside the
 * exponentiations: c mod p for a c twice as long as p, (m1 - m2) qinv mod
 * p, m2 + h q (the blinding factor's inverse is bn_inv.c's).
 *
 * Only the backend's Montgomery multiplication and the context's R^2 mod n
 * are used, so every "montmul" backend (whatever its radix and R) serves,
 * and everything is constant time like it: masks, no branch or index on
 * a value.
 */
#include "bn/bn_impl.h"
#include "bn/bn_mod.h"

#define W IC_LIMB_BITS
/* a of up to 2 * IC_BN_MAX_BYTES + 16 bytes (an RSA blinding value drawn
 * 16 bytes longer than n) */
#define WIDE_LIMBS (2 * IC_BN_MAX_LIMBS + 16 / IC_LIMB_BYTES + 1)

/* r = a + b (nl limbs), returns the carry. */
static ic_limb limbs_add(ic_limb *r, const ic_limb *a, const ic_limb *b, size_t nl)
{
    ic_limb c = 0;
    for (size_t j = 0; j < nl; j++) {
        ic_dlimb x = (ic_dlimb)a[j] + b[j] + c;
        r[j] = (ic_limb)x;
        c = (ic_limb)(x >> W);
    }
    return c;
}

/* r = a - b (nl limbs), returns the borrow (0 or 1). */
static ic_limb limbs_sub(ic_limb *r, const ic_limb *a, const ic_limb *b, size_t nl)
{
    ic_limb borrow = 0;
    for (size_t j = 0; j < nl; j++) {
        ic_dlimb x = (ic_dlimb)a[j] - b[j] - borrow;
        r[j] = (ic_limb)x;
        borrow = (ic_limb)(x >> W) & 1;
    }
    return borrow;
}

/* r (nl limbs) = bits [pos, pos + bits) of w (wl limbs); the positions are
 * public, the bits are not. */
static void limbs_extract(ic_limb *r, size_t nl, const ic_limb *w, size_t wl, size_t pos, size_t bits)
{
    size_t off = pos / W, sh = pos % W;
    for (size_t j = 0; j < nl; j++) {
        ic_limb lo = off + j < wl ? w[off + j] : 0;
        ic_limb hi = off + j + 1 < wl ? w[off + j + 1] : 0;
        r[j] = sh ? (lo >> sh) | (hi << (W - sh)) : lo;
        if (j * W >= bits)
            r[j] = 0;
        else if ((j + 1) * W > bits)
            r[j] &= ((ic_limb)1 << (bits - j * W)) - 1;
    }
}

/* Horner's rule in base 2^s, s = nbits - 1, so that every digit is below
 * n: acc = acc 2^s + digit, where acc 2^s mod n is one Montgomery
 * multiplication by K = 2^s R mod n and the sum (< 2n) one masked
 * subtraction.  A 2048-bit c mod a 1024-bit p: 3 digits, 2 multiplications. */
void ic_bn_mod_reduce(const ic_mont_ctx *ctx, uint8_t *out, const uint8_t *a, size_t alen)
{
    const ic_mont_ops *ops = ic_mont_ctx_ops(ctx);
    const size_t nl = ctx->nlimbs, s = ctx->nbits - 1;
    const ic_limb *n = IC_BN_LIMBS(ctx->n), n0 = (ic_limb)ctx->n0;
    ic_limb w[WIDE_LIMBS], acc[IC_BN_MAX_LIMBS], dig[IC_BN_MAX_LIMBS], k[IC_BN_MAX_LIMBS];
    size_t wl = (alen + IC_LIMB_BYTES - 1) / IC_LIMB_BYTES;
    ic_bn_from_bytes(w, wl, a, alen);
    size_t ndig = alen ? (alen * 8 + s - 1) / s : 1;
    memset(k, 0, nl * sizeof k[0]);
    k[s / W] = (ic_limb)1 << (s % W);                         /* 2^s < n */
    ops->mul(k, IC_BN_LIMBS(ctx->rr), k, n, n0, nl);         /* 2^s R^2 R^-1 */
    limbs_extract(acc, nl, w, wl, (ndig - 1) * s, s);
    for (size_t i = ndig - 1; i-- > 0;) {
        ops->mul(acc, acc, k, n, n0, nl);
        limbs_extract(dig, nl, w, wl, i * s, s);
        ic_limb c = limbs_add(acc, acc, dig, nl);
        ic_mont_final_sub(acc, acc, c, n, nl);
    }
    ic_bn_to_bytes(out, ctx->nbytes, acc);
    ic_wipe(w, wl * sizeof w[0]);
    ic_wipe(acc, nl * sizeof acc[0]);
    ic_wipe(dig, nl * sizeof dig[0]);
}

/* Montgomery twice: a b R^-1, then times R^2 R^-1. */
void ic_bn_mod_mul(const ic_mont_ctx *ctx, uint8_t *out, const uint8_t *a, const uint8_t *b)
{
    const ic_mont_ops *ops = ic_mont_ctx_ops(ctx);
    const size_t nl = ctx->nlimbs;
    const ic_limb *n = IC_BN_LIMBS(ctx->n), n0 = (ic_limb)ctx->n0;
    ic_limb x[IC_BN_MAX_LIMBS], y[IC_BN_MAX_LIMBS];
    ic_bn_from_bytes(x, nl, a, ctx->nbytes);
    ic_bn_from_bytes(y, nl, b, ctx->nbytes);
    ops->mul(x, x, y, n, n0, nl);
    ops->mul(x, x, IC_BN_LIMBS(ctx->rr), n, n0, nl);
    ic_bn_to_bytes(out, ctx->nbytes, x);
    ic_wipe(x, nl * sizeof x[0]);
    ic_wipe(y, nl * sizeof y[0]);
}

void ic_bn_mod_sub(const ic_mont_ctx *ctx, uint8_t *out, const uint8_t *a, const uint8_t *b)
{
    const size_t nl = ctx->nlimbs;
    ic_limb x[IC_BN_MAX_LIMBS], y[IC_BN_MAX_LIMBS];
    ic_bn_from_bytes(x, nl, a, ctx->nbytes);
    ic_bn_from_bytes(y, nl, b, ctx->nbytes);
    ic_limb mask = (ic_limb)0 - limbs_sub(x, x, y, nl);       /* a < b: add n back */
    for (size_t j = 0; j < nl; j++)
        y[j] = IC_BN_LIMBS(ctx->n)[j] & mask;
    limbs_add(x, x, y, nl);
    ic_bn_to_bytes(out, ctx->nbytes, x);
    ic_wipe(x, nl * sizeof x[0]);
    ic_wipe(y, nl * sizeof y[0]);
}

void ic_bn_modulus(const ic_mont_ctx *ctx, uint8_t *out)
{
    ic_bn_to_bytes(out, ctx->nbytes, IC_BN_LIMBS(ctx->n));
}

static size_t limbs_of(size_t bytes)
{
    return (bytes + IC_LIMB_BYTES - 1) / IC_LIMB_BYTES;
}

/* Schoolbook rows; every row runs over all of b. */
void ic_bn_mul_add(uint8_t *out, size_t outlen, const uint8_t *a, size_t alen,
                   const uint8_t *b, size_t blen, const uint8_t *c, size_t clen)
{
    ic_limb x[IC_BN_MAX_LIMBS], y[IC_BN_MAX_LIMBS], r[2 * IC_BN_MAX_LIMBS + 1];
    size_t la = limbs_of(alen), lb = limbs_of(blen), lr = la + lb, lo = limbs_of(outlen);
    if (lo > lr)
        lr = lo;
    ic_bn_from_bytes(x, la, a, alen);
    ic_bn_from_bytes(y, lb, b, blen);
    ic_bn_from_bytes(r, lr, c, clen);                           /* r = c */
    for (size_t i = 0; i < la; i++) {
        ic_limb carry = 0;
        for (size_t j = 0; j < lb; j++) {
            ic_dlimb t = (ic_dlimb)x[i] * y[j] + r[i + j] + carry;
            r[i + j] = (ic_limb)t;
            carry = (ic_limb)(t >> W);
        }
        for (size_t j = i + lb; j < lr; j++) {                    /* ripple the carry */
            ic_dlimb t = (ic_dlimb)r[j] + carry;
            r[j] = (ic_limb)t;
            carry = (ic_limb)(t >> W);
        }
    }
    ic_bn_to_bytes(out, outlen, r);
    ic_wipe(x, la * sizeof x[0]);
    ic_wipe(y, lb * sizeof y[0]);
    ic_wipe(r, lr * sizeof r[0]);
}

int ic_bn_ct_below(const ic_mont_ctx *ctx, const uint8_t *a, size_t alen)
{
    const size_t nl = ctx->nlimbs, nb = ctx->nbytes;
    size_t extra = alen > nb ? alen - nb : 0;
    unsigned high = 0;                     /* bytes above n's length must be 0 */
    for (size_t i = 0; i < extra; i++)
        high |= a[i];
    ic_limb x[IC_BN_MAX_LIMBS];
    ic_bn_from_bytes(x, nl, a + extra, alen - extra);
    ic_limb below = ic_bn_ct_less(x, IC_BN_LIMBS(ctx->n), nl) & 1;
    ic_wipe(x, nl * sizeof x[0]);
    return (int)(below & (((high | (0u - high)) >> (sizeof high * 8 - 1)) ^ 1));
}
