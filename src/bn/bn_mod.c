/*
 * bn_mod.c - modular arithmetic on byte strings over a Montgomery context
 * (bn_mod.h), what the RSA-CRT private operation needs beside the
 * exponentiations: c mod p for a c twice as long as p, (m1 - m2) qinv mod
 * p, m2 + h q, and the blinding factor's inverse.
 *
 * Only the backend's Montgomery multiplication and the context's R^2 mod n
 * are used, so every "montmul" backend (whatever its radix and R) serves,
 * and everything but the inverse is constant time like it: masks, no
 * branch or index on a value.
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

/* ---- the inverse of a blinded value ---------------------------------------
 * Variable time throughout: branches on u, v, x1, x2 and their lengths. */

/* Length of a (nl limbs) without its top zero limbs. */
static size_t limbs_len(const ic_limb *a, size_t nl)
{
    while (nl > 0 && a[nl - 1] == 0)
        nl--;
    return nl;
}

/* a >= b, both of nl limbs. */
static int limbs_geq(const ic_limb *a, const ic_limb *b, size_t nl)
{
    for (size_t j = nl; j-- > 0;)
        if (a[j] != b[j])
            return a[j] > b[j];
    return 1;
}

/* u /= 2^k (ul limbs; returns the new length), k = its trailing zeros up
 * to W - 1; x = x 2^-k mod n at the same time: x + m n with m = x n0 mod
 * 2^k (n0 = -n^-1 mod 2^W) is divisible by 2^k, and (x + m n) / 2^k < 2n. */
static size_t halve_step(ic_limb *u, size_t ul, ic_limb *x, const ic_limb *n, ic_limb n0, size_t nl)
{
    unsigned k = 0;
    while (k < W - 1 && ((u[0] >> k) & 1) == 0)
        k++;
    for (size_t j = 0; j + 1 < ul; j++)
        u[j] = (u[j] >> k) | (u[j + 1] << (W - k));
    u[ul - 1] >>= k;
    ic_limb m = (x[0] * n0) & (((ic_limb)1 << k) - 1), c = 0;
    ic_limb lo = 0;
    for (size_t j = 0; j < nl; j++) {
        ic_dlimb t = (ic_dlimb)m * n[j] + x[j] + c;
        c = (ic_limb)(t >> W);
        if (j > 0)
            x[j - 1] = lo | ((ic_limb)t << (W - k));
        lo = (ic_limb)t >> k;
    }
    x[nl - 1] = lo | (c << (W - k));
    if ((c >> k) != 0 || limbs_geq(x, n, nl))
        limbs_sub(x, x, n, nl);
    return u[ul - 1] == 0 && ul > 1 ? ul - 1 : ul;
}

/* x = x - y mod n (x, y < n). */
static void limbs_mod_sub(ic_limb *x, const ic_limb *y, const ic_limb *n, size_t nl)
{
    if (limbs_sub(x, x, y, nl))
        limbs_add(x, x, n, nl);
}

/* a - b for a >= b of al limbs (b's top limbs past bl read as 0); returns
 * the length of the difference. */
static size_t limbs_sub_len(ic_limb *a, size_t al, const ic_limb *b, size_t bl)
{
    ic_limb borrow = 0;
    for (size_t j = 0; j < al; j++) {
        ic_dlimb x = (ic_dlimb)a[j] - (j < bl ? b[j] : 0) - borrow;
        a[j] = (ic_limb)x;
        borrow = (ic_limb)(x >> W) & 1;
    }
    return limbs_len(a, al);
}

/* a >= b by lengths first. */
static int len_geq(const ic_limb *a, size_t al, const ic_limb *b, size_t bl)
{
    return al != bl ? al > bl : limbs_geq(a, b, al);
}

/* The binary extended Euclid for an odd modulus (Menezes, van Oorschot and
 * Vanstone, Handbook of Applied Cryptography, algorithm 14.61, with x1, x2
 * kept mod n): x1 a = u and x2 a = v (mod n) throughout, u = a and v = n
 * at the start; both odd after halving, the larger loses the smaller.
 * u and v shrink, and are handled at their current lengths. */
int ic_bn_mod_inv_vartime(const ic_mont_ctx *ctx, uint8_t *out, const uint8_t *a)
{
    const size_t nl = ctx->nlimbs;
    const ic_limb *n = IC_BN_LIMBS(ctx->n), n0 = (ic_limb)ctx->n0;
    ic_limb u[IC_BN_MAX_LIMBS], v[IC_BN_MAX_LIMBS], x1[IC_BN_MAX_LIMBS], x2[IC_BN_MAX_LIMBS];
    ic_bn_from_bytes(u, nl, a, ctx->nbytes);
    memcpy(v, n, nl * sizeof v[0]);
    memset(x1, 0, nl * sizeof x1[0]);
    memset(x2, 0, nl * sizeof x2[0]);
    x1[0] = 1;
    size_t ul = limbs_len(u, nl), vl = nl;
    const ic_limb *res = NULL;
    while (ul > 0) {                          /* u = 0: gcd(a, n) = v > 1 */
        while ((u[0] & 1) == 0)
            ul = halve_step(u, ul, x1, n, n0, nl);
        if (ul == 1 && u[0] == 1) {
            res = x1;
            break;
        }
        while ((v[0] & 1) == 0)
            vl = halve_step(v, vl, x2, n, n0, nl);
        if (vl == 1 && v[0] == 1) {
            res = x2;
            break;
        }
        if (len_geq(u, ul, v, vl)) {
            ul = limbs_sub_len(u, ul, v, vl);
            limbs_mod_sub(x1, x2, n, nl);
        } else {
            vl = limbs_sub_len(v, vl, u, ul);
            limbs_mod_sub(x2, x1, n, nl);
        }
    }
    if (res)
        ic_bn_to_bytes(out, ctx->nbytes, res);
    else
        memset(out, 0, ctx->nbytes);
    ic_wipe(u, nl * sizeof u[0]);
    ic_wipe(v, nl * sizeof v[0]);
    ic_wipe(x1, nl * sizeof x1[0]);
    ic_wipe(x2, nl * sizeof x2[0]);
    return res != NULL;
}
