/*
 * bn_inv.c - the modular inverse a^-1 mod n of bn_mod.h, in constant time:
 * Bernstein and Yang's divsteps ("Fast constant-time gcd computation and
 * modular inversion", TCHES 2019(3)), a fixed number of them for the
 * modulus's bit length, in batches of D on single words.
 *
 * One divstep (the paper's section 8) maps (delta, f, g), f odd, to
 *   (1 - delta, g, (g - f) / 2)   when delta > 0 and g is odd,
 *   (1 + delta, f, (g + f) / 2)   when g is odd otherwise,
 *   (1 + delta, f, g / 2)         when g is even.
 * From (1, n, a) it keeps f odd, max(|f|, |g|) never grows, and g reaches
 * 0 with f = +-gcd(n, a) within floor((49 d + 57) / 17) steps for d >= 46
 * (floor((49 d + 80) / 17) below), d the bit length of n: theorem 11.2 of
 * the paper, whose condition f^2 + 4 g^2 <= 5 * 2^(2d) holds for
 * a < n < 2^d.  More steps change nothing: with g = 0 a step only adds 1
 * to delta.
 *
 * The choices of D steps depend only on the low D bits of f and g, so a
 * batch runs on one word of each and yields a transition matrix T, with
 * 2^D (f', g') = T (f, g) and |u| + |v| <= 2^D in each row.  T is then
 * applied to the whole f and g (the division by 2^D is exact), and to d
 * and e, which keep f = d a and g = e a (mod n) from (d, e) = (0, 1): there
 * a multiple of n (section 12 of the paper; the sign correction that keeps
 * d and e in (-2n, n) is the one libsecp256k1's safegcd write-up explains)
 * makes the division exact, as in a Montgomery reduction.  At the end
 * f = +-1 exactly when the inverse exists, and it is then +-d mod n.
 *
 * Numbers here are in radix 2^D, D = 62 with 64-bit limbs (products in
 * unsigned __int128) and D = 30 with 32-bit ones: digits 0 .. L-2 in
 * [0, 2^D), the top digit signed.  Everything runs the same for every
 * value of a and n of a given bit length: masks, no branch or index on
 * them; the loops' bounds are lengths.
 */
#include "bn/bn_impl.h"
#include "bn/bn_mod.h"

#if IC_LIMB_BITS == 64
typedef int64_t sdig;        /* a digit, a matrix entry */
typedef uint64_t udig;
typedef __int128 sacc;       /* sums of digit products, with carries */
#define D 62
#else
typedef int32_t sdig;
typedef uint32_t udig;
typedef int64_t sacc;
#define D 30
#endif
#define UW (sizeof(udig) * 8)               /* word bits: D + 2 */
#define DMASK (((udig)1 << D) - 1)
/* digits for numbers in (-2^(bits + 1), 2^(bits + 1)): d, e in (-2n, n) */
#define DIGITS(bits) (((bits) + 1) / D + 1)
#define MAX_DIGITS DIGITS(IC_BN_MAX_BITS)

/* Right shifts of negative sdig and sacc values must be arithmetic (C
 * leaves it to the implementation; GCC and Clang shift arithmetically). */
_Static_assert((sdig)-5 >> 1 == -3 && (sacc)-5 >> 1 == -3, "arithmetic right shift");

/* The transition matrix of a batch: rows (u, v) for f and (q, r) for g. */
typedef struct {
    sdig u, v, q, r;
} transition;

/* All ones when the top bit of x is set (a negative signed value), else 0. */
static udig sign_mask(udig x)
{
    return (udig)0 - (x >> (UW - 1));
}

/* D divsteps on the low words f and g (f odd); returns delta after them
 * and their matrix in *t.  Unsigned arithmetic throughout (wrapping is
 * what two's complement gives); the rows (u, v), (q, r) start as the
 * identity, and each step doubles the row of f instead of halving g, so
 * that after i steps 2^i (f_i, g_i) = T (f, g).  No row's |u| + |v|
 * exceeds 2^i, so the entries fit a signed word.
 *
 * A step without swapping registers (the arrangement of libsecp256k1's
 * constant-time divsteps): x = -f when delta > 0, else f; g += x when g is
 * odd (g - f or g + f); then, when both held (a swap), f += g, which makes
 * f the old g; the rows alike.  delta is kept negated (zeta = -delta), so
 * its sign is the mask at once, and a step maps zeta to ~zeta on a swap
 * (1 - delta) or zeta - 1 (1 + delta): (zeta ^ swap) + ~swap.  Each
 * chain (g's, zeta's) is about five operations a step, against nine for
 * the exchange by XOR masks this replaced. */
static udig divsteps(udig delta, udig f, udig g, transition *t)
{
    udig u = 1, v = 0, q = 0, r = 1, zeta = (udig)0 - delta;
    for (int i = 0; i < D; i++) {
        udig neg = sign_mask(zeta);                 /* delta > 0 */
        udig odd = (udig)0 - (g & 1);
        udig x = (f ^ neg) - neg, y = (u ^ neg) - neg, z = (v ^ neg) - neg;
        g += x & odd, q += y & odd, r += z & odd;
        udig swap = neg & odd;
        zeta = (zeta ^ swap) + ~swap;
        f += g & swap, u += q & swap, v += r & swap;
        g >>= 1;
        u <<= 1, v <<= 1;
    }
    t->u = (sdig)u, t->v = (sdig)v, t->q = (sdig)q, t->r = (sdig)r;
    return (udig)0 - zeta;
}

/* (f, g) = T (f, g) / 2^D, L digits each; exact.  |T (f, g)| <= 2^D
 * max(|f|, |g|), so no digit sum overflows sacc: 2 (2^D)^2 plus a carry. */
static void apply_fg(sdig *f, sdig *g, const transition *t, size_t L)
{
    sacc cf = (sacc)t->u * f[0] + (sacc)t->v * g[0];
    sacc cg = (sacc)t->q * f[0] + (sacc)t->r * g[0];
    cf >>= D, cg >>= D;                              /* the low D bits are 0 */
    for (size_t i = 1; i < L; i++) {
        cf += (sacc)t->u * f[i] + (sacc)t->v * g[i];
        cg += (sacc)t->q * f[i] + (sacc)t->r * g[i];
        f[i - 1] = (sdig)((udig)cf & DMASK);
        g[i - 1] = (sdig)((udig)cg & DMASK);
        cf >>= D, cg >>= D;
    }
    f[L - 1] = (sdig)cf;
    g[L - 1] = (sdig)cg;
}

/* (d, e) = (T (d, e) + n (md, me)) / 2^D, with md, me chosen to make the
 * division exact: md = (u if d < 0) + (v if e < 0) - k, k in [0, 2^D) with
 * T (d, e) + md n = 0 mod 2^D (ninv = n^-1 mod 2^D).  Adding n for a
 * negative d or e first leaves both in (-n, n), so |row| < 2^D n, and
 * subtracting k n < 2^D n: the result is in (-2n, n) again.  Digit sums:
 * 2 (2^D)^2 + 2^(D+1) 2^D plus a carry, below sacc's 2^(2D+3). */
static void apply_de(sdig *d, sdig *e, const transition *t, const sdig *n, udig ninv, size_t L)
{
    udig sd = sign_mask((udig)d[L - 1]), se = sign_mask((udig)e[L - 1]);
    udig md = ((udig)t->u & sd) + ((udig)t->v & se);
    udig me = ((udig)t->q & sd) + ((udig)t->r & se);
    sacc cd = (sacc)t->u * d[0] + (sacc)t->v * e[0];
    sacc ce = (sacc)t->q * d[0] + (sacc)t->r * e[0];
    md -= (ninv * (udig)cd + md) & DMASK;
    me -= (ninv * (udig)ce + me) & DMASK;
    cd += (sacc)n[0] * (sdig)md;
    ce += (sacc)n[0] * (sdig)me;
    cd >>= D, ce >>= D;                              /* the low D bits are 0 */
    for (size_t i = 1; i < L; i++) {
        cd += (sacc)t->u * d[i] + (sacc)t->v * e[i] + (sacc)n[i] * (sdig)md;
        ce += (sacc)t->q * d[i] + (sacc)t->r * e[i] + (sacc)n[i] * (sdig)me;
        d[i - 1] = (sdig)((udig)cd & DMASK);
        e[i - 1] = (sdig)((udig)ce & DMASK);
        cd >>= D, ce >>= D;
    }
    d[L - 1] = (sdig)cd;
    e[L - 1] = (sdig)ce;
}

/* x = sx x + sn n, sx in {-1, 1} and sn in {-1, 0, 1} (L digits, renormalised). */
static void lincomb(sdig *x, sdig sx, const sdig *n, sdig sn, size_t L)
{
    sacc c = 0;
    for (size_t i = 0; i + 1 < L; i++) {
        c += (sacc)x[i] * sx + (sacc)n[i] * sn;
        x[i] = (sdig)((udig)c & DMASK);
        c >>= D;
    }
    x[L - 1] = (sdig)(c + (sacc)x[L - 1] * sx + (sacc)n[L - 1] * sn);
}

/* 1 as a signed digit when the top digit of x (L digits) is negative, else 0. */
static sdig is_negative(const sdig *x, size_t L)
{
    return (sdig)((udig)x[L - 1] >> (UW - 1));
}

/* The L digits of x (nl limbs, non-negative). */
static void to_digits(sdig *r, size_t L, const ic_limb *x, size_t nl)
{
    for (size_t i = 0; i < L; i++) {
        size_t bit = i * D, w = bit / IC_LIMB_BITS, sh = bit % IC_LIMB_BITS;
        ic_limb lo = w < nl ? x[w] >> sh : 0;
        ic_limb hi = sh != 0 && w + 1 < nl ? x[w + 1] << (IC_LIMB_BITS - sh) : 0;
        r[i] = (sdig)((udig)(lo | hi) & DMASK);
    }
}

/* x (nl limbs) from the L digits of r, which is in [0, 2^(IC_LIMB_BITS nl)). */
static void from_digits(ic_limb *x, size_t nl, const sdig *r, size_t L)
{
    memset(x, 0, nl * sizeof x[0]);
    for (size_t i = 0; i < L; i++) {
        size_t bit = i * D, w = bit / IC_LIMB_BITS, sh = bit % IC_LIMB_BITS;
        ic_limb v = (ic_limb)(udig)r[i];
        if (w < nl)
            x[w] |= v << sh;
        if (sh + D > IC_LIMB_BITS && w + 1 < nl)
            x[w + 1] |= v >> (IC_LIMB_BITS - sh);
    }
}

/* All ones when w is 0, else 0. */
static udig zero_mask(udig w)
{
    return ((w | ((udig)0 - w)) >> (UW - 1)) - 1;
}

/* All ones when the L digits of x are those of +1 (*one) or of -1
 * (*minus: digits 2^D - 1 under a top digit -1). */
static void unit_masks(const sdig *x, size_t L, udig *one, udig *minus)
{
    udig a1 = (udig)x[0] ^ 1, am = (udig)x[L - 1] ^ (udig)-1;
    for (size_t i = 1; i < L; i++)
        a1 |= (udig)x[i];
    for (size_t i = 0; i + 1 < L; i++)
        am |= (udig)x[i] ^ DMASK;
    *one = zero_mask(a1);
    *minus = zero_mask(am);
}

/* n^-1 mod 2^UW for odd n: Newton's iteration doubles the correct bits
 * (x = n is right mod 8). */
static udig inv_word(udig n)
{
    udig x = n;
    for (int i = 0; i < 5; i++)
        x *= 2 - n * x;
    return x;
}

int ic_bn_mod_inv(const ic_mont_ctx *ctx, uint8_t *out, const uint8_t *a)
{
    const size_t nl = ctx->nlimbs, bits = ctx->nbits, L = DIGITS(bits);
    /* the divsteps theorem 11.2 asks for, in batches of D */
    const size_t steps = bits < 46 ? (49 * bits + 80) / 17 : (49 * bits + 57) / 17;
    const size_t batches = steps / D + 1;
    sdig f[MAX_DIGITS], g[MAX_DIGITS], d[MAX_DIGITS], e[MAX_DIGITS], n[MAX_DIGITS];
    ic_limb x[IC_BN_MAX_LIMBS];
    to_digits(n, L, IC_BN_LIMBS(ctx->n), nl);
    memcpy(f, n, L * sizeof f[0]);
    ic_bn_from_bytes(x, nl, a, ctx->nbytes);
    to_digits(g, L, x, nl);
    memset(d, 0, L * sizeof d[0]);
    memset(e, 0, L * sizeof e[0]);
    e[0] = 1;
    const udig ninv = inv_word((udig)n[0]) & DMASK;
    udig delta = 1;
    transition t;
    for (size_t b = 0; b < batches; b++) {
        delta = divsteps(delta, (udig)f[0], (udig)g[0], &t);
        apply_fg(f, g, &t, L);
        apply_de(d, e, &t, n, ninv, L);
    }
    /* f = +-gcd(n, a): the inverse is +-d, brought from (-2n, n) to [0, n) */
    udig one, minus;
    unit_masks(f, L, &one, &minus);
    lincomb(d, 1 - 2 * (sdig)(minus & 1), n, 0, L);          /* (-2n, 2n) */
    lincomb(d, 1, n, is_negative(d, L), L);                  /* (-n, 2n) */
    lincomb(d, 1, n, is_negative(d, L), L);                  /* [0, 2n) */
    lincomb(d, 1, n, -1, L);                                 /* [-n, n) */
    lincomb(d, 1, n, is_negative(d, L), L);                  /* [0, n) */
    udig ok = one | minus;
    for (size_t i = 0; i < L; i++)                           /* 0 without an inverse */
        d[i] = (sdig)((udig)d[i] & ok);
    from_digits(x, nl, d, L);
    ic_bn_to_bytes(out, ctx->nbytes, x);
    ic_wipe(f, L * sizeof f[0]);
    ic_wipe(g, L * sizeof g[0]);
    ic_wipe(d, L * sizeof d[0]);
    ic_wipe(e, L * sizeof e[0]);
    ic_wipe(n, L * sizeof n[0]);
    ic_wipe(x, nl * sizeof x[0]);
    ic_wipe(&t, sizeof t);
    return (int)(ok & 1);
}
