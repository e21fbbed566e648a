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
/* One divstep on the low words f, g, the transition's rows (u, v), (q, r)
 * and zeta; a macro so that divsteps2 interleaves two chains in
 * registers.  neg: delta > 0. */
#define DIVSTEP(f, g, u, v, q, r, zeta)                                       \
    do {                                                                      \
        udig neg = sign_mask(zeta), odd = (udig)0 - (g & 1);                \
        udig x = (f ^ neg) - neg, y = (u ^ neg) - neg, z = (v ^ neg) - neg;   \
        g += x & odd, q += y & odd, r += z & odd;                             \
        udig swap = neg & odd;                                                \
        zeta = (zeta ^ swap) + ~swap;                                         \
        f += g & swap, u += q & swap, v += r & swap;                          \
        g >>= 1;                                                              \
        u <<= 1, v <<= 1;                                                     \
    } while (0)

static udig divsteps(udig delta, udig f, udig g, transition *t)
{
    udig u = 1, v = 0, q = 0, r = 1, zeta = (udig)0 - delta;
    for (int i = 0; i < D; i++)
        DIVSTEP(f, g, u, v, q, r, zeta);
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

/* The inverses of K (1 or 2) jobs: ctx[k], out[k], a[k], with the
 * verdicts in ok[k].  Two run their divsteps in one loop (divsteps2): a
 * batch of divsteps is one serial chain of about five operations a step,
 * so two independent ones fill each other's waits (the two primes of an
 * RSA key's blinding).  Both take the larger count of batches: more steps
 * change nothing. */
typedef struct {
    sdig f[MAX_DIGITS], g[MAX_DIGITS], d[MAX_DIGITS], e[MAX_DIGITS], n[MAX_DIGITS];
    ic_limb x[IC_BN_MAX_LIMBS];
    udig ninv, delta;
    size_t L, nl;
    transition t;
} inv_job;

/* divsteps for two jobs, step by step in one loop (each as divsteps). */
static void divsteps2(inv_job *j)
{
    udig f0 = (udig)j[0].f[0], g0 = (udig)j[0].g[0], f1 = (udig)j[1].f[0], g1 = (udig)j[1].g[0];
    udig u0 = 1, v0 = 0, q0 = 0, r0 = 1, zeta0 = (udig)0 - j[0].delta;
    udig u1 = 1, v1 = 0, q1 = 0, r1 = 1, zeta1 = (udig)0 - j[1].delta;
    for (int i = 0; i < D; i++) {
        DIVSTEP(f0, g0, u0, v0, q0, r0, zeta0);
        DIVSTEP(f1, g1, u1, v1, q1, r1, zeta1);
    }
    j[0].t = (transition){ (sdig)u0, (sdig)v0, (sdig)q0, (sdig)r0 };
    j[1].t = (transition){ (sdig)u1, (sdig)v1, (sdig)q1, (sdig)r1 };
    j[0].delta = (udig)0 - zeta0;
    j[1].delta = (udig)0 - zeta1;
}

/* bits < 46 has its own bound (theorem 11.2) */
static size_t inv_batches(size_t bits)
{
    const size_t steps = bits < 46 ? (49 * bits + 80) / 17 : (49 * bits + 57) / 17;
    return steps / D + 1;
}

static void inv_run(size_t K, inv_job *j, const ic_mont_ctx *const ctx[], uint8_t *const out[],
                    const uint8_t *const a[], int ok[])
{
    size_t batches = 0;
    for (size_t k = 0; k < K; k++) {
        const size_t nl = ctx[k]->nlimbs, bits = ctx[k]->nbits, L = DIGITS(bits);
        const size_t nb = inv_batches(bits);
        batches = nb > batches ? nb : batches;                 /* lengths: public */
        j[k].L = L, j[k].nl = nl;
        to_digits(j[k].n, L, IC_BN_LIMBS(ctx[k]->n), nl);
        memcpy(j[k].f, j[k].n, L * sizeof j[k].f[0]);
        ic_bn_from_bytes(j[k].x, nl, a[k], ctx[k]->nbytes);
        to_digits(j[k].g, L, j[k].x, nl);
        memset(j[k].d, 0, L * sizeof j[k].d[0]);
        memset(j[k].e, 0, L * sizeof j[k].e[0]);
        j[k].e[0] = 1;
        j[k].ninv = inv_word((udig)j[k].n[0]) & DMASK;
        j[k].delta = 1;
    }
    for (size_t b = 0; b < batches; b++) {
        if (K == 2)
            divsteps2(j);
        else
            j[0].delta = divsteps(j[0].delta, (udig)j[0].f[0], (udig)j[0].g[0], &j[0].t);
        for (size_t k = 0; k < K; k++) {
            apply_fg(j[k].f, j[k].g, &j[k].t, j[k].L);
            apply_de(j[k].d, j[k].e, &j[k].t, j[k].n, j[k].ninv, j[k].L);
        }
    }
    for (size_t k = 0; k < K; k++) {
        /* f = +-gcd(n, a): the inverse is +-d, brought from (-2n, n) to [0, n) */
        sdig *d = j[k].d, *n = j[k].n;
        const size_t L = j[k].L;
        udig one, minus;
        unit_masks(j[k].f, L, &one, &minus);
        lincomb(d, 1 - 2 * (sdig)(minus & 1), n, 0, L);          /* (-2n, 2n) */
        lincomb(d, 1, n, is_negative(d, L), L);                  /* (-n, 2n) */
        lincomb(d, 1, n, is_negative(d, L), L);                  /* [0, 2n) */
        lincomb(d, 1, n, -1, L);                                 /* [-n, n) */
        lincomb(d, 1, n, is_negative(d, L), L);                  /* [0, n) */
        udig okm = one | minus;
        for (size_t i = 0; i < L; i++)                           /* 0 without an inverse */
            d[i] = (sdig)((udig)d[i] & okm);
        from_digits(j[k].x, j[k].nl, d, L);
        ic_bn_to_bytes(out[k], ctx[k]->nbytes, j[k].x);
        ok[k] = (int)(okm & 1);
        ic_wipe(j[k].f, L * sizeof j[k].f[0]);
        ic_wipe(j[k].g, L * sizeof j[k].g[0]);
        ic_wipe(d, L * sizeof d[0]);
        ic_wipe(j[k].e, L * sizeof j[k].e[0]);
        ic_wipe(n, L * sizeof n[0]);
        ic_wipe(j[k].x, j[k].nl * sizeof j[k].x[0]);
        ic_wipe(&j[k].t, sizeof j[k].t);
        ic_wipe(&j[k].ninv, sizeof j[k].ninv);
        ic_wipe(&j[k].delta, sizeof j[k].delta);
    }
}

int ic_bn_mod_inv(const ic_mont_ctx *ctx, uint8_t *out, const uint8_t *a)
{
    inv_job j[1];
    const ic_mont_ctx *const c[1] = { ctx };
    uint8_t *const o[1] = { out };
    const uint8_t *const x[1] = { a };
    int ok[1];
    inv_run(1, j, c, o, x, ok);
    return ok[0];
}

int ic_bn_mod_inv2(const ic_mont_ctx *ctx0, uint8_t *out0, const uint8_t *a0, int *ok0,
                   const ic_mont_ctx *ctx1, uint8_t *out1, const uint8_t *a1, int *ok1)
{
    inv_job j[2];
    const ic_mont_ctx *const c[2] = { ctx0, ctx1 };
    uint8_t *const o[2] = { out0, out1 };
    const uint8_t *const x[2] = { a0, a1 };
    int ok[2];
    inv_run(2, j, c, o, x, ok);
    *ok0 = ok[0];
    *ok1 = ok[1];
    return ok[0] & ok[1];
}
