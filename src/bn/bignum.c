/*
 * bignum.c - the Montgomery context and modular exponentiation (constant
 * time and public-exponent); the "montmul" table is in bn_impls.c.
 *
 * Backends only multiply (bn_impl.h); everything else is here, once:
 * conversion between big-endian bytes and limbs, n0 = -n^-1 mod 2^w by
 * Newton's iteration, R^2 mod n by doubling, the fixed-window ladder and
 * its masked table lookup.
 */
#include "bn/bn_impl.h"
#include "core/ct.h"

/* ---- limbs and bytes ------------------------------------------------------ */

/* r (nl limbs) = the big-endian len bytes at in; len <= nl limbs' bytes. */
void ic_bn_from_bytes(ic_limb *r, size_t nl, const uint8_t *in, size_t len)
{
    memset(r, 0, nl * sizeof r[0]);
    for (size_t k = 0; k < len; k++)        /* k: byte weight, 0 = least */
        r[k / IC_LIMB_BYTES] |= (ic_limb)in[len - 1 - k] << (8 * (k % IC_LIMB_BYTES));
}

/* The len low bytes of a, big-endian. */
void ic_bn_to_bytes(uint8_t *out, size_t len, const ic_limb *a)
{
    for (size_t k = 0; k < len; k++)
        out[len - 1 - k] = (uint8_t)(a[k / IC_LIMB_BYTES] >> (8 * (k % IC_LIMB_BYTES)));
}

/* All ones when a < n, else 0 (the borrow of a - n); no branch. */
ic_limb ic_bn_ct_less(const ic_limb *a, const ic_limb *n, size_t nl)
{
    ic_limb borrow = 0;
    for (size_t j = 0; j < nl; j++) {
        ic_dlimb x = (ic_dlimb)a[j] - n[j] - borrow;
        borrow = (ic_limb)(x >> IC_LIMB_BITS) & 1;
    }
    return (ic_limb)0 - borrow;
}

/* All ones when x == y, else 0. */
static inline ic_limb ct_eq_mask(ic_limb x, ic_limb y)
{
    ic_limb d = x ^ y;
    return ((d | ((ic_limb)0 - d)) >> (IC_LIMB_BITS - 1)) - 1;
}

/* 1 when the len bytes at p are all zero; time independent of them. */
static int bytes_ct_zero(const uint8_t *p, size_t len)
{
    unsigned acc = 0;
    for (size_t i = 0; i < len; i++)
        acc |= p[i];
    return (int)(((acc | (0u - acc)) >> (sizeof acc * 8 - 1)) ^ 1);
}

/* Bit length of the big-endian len bytes at p, without a branch on them
 * (a modulus may be a secret prime; only its length becomes public). */
static size_t bytes_ct_bitlen(const uint8_t *p, size_t len)
{
    size_t bits = 0;
    for (size_t i = len; i-- > 0;) {          /* least significant first */
        unsigned b = p[i], bl = 0;
        for (unsigned k = 0; k < 8; k++)     /* bl = bit length of b */
            bl += ((b >> k) != 0);
        size_t here = (len - 1 - i) * 8 + bl;
        size_t nz = (size_t)0 - (size_t)(b != 0);
        bits = (here & nz) | (bits & ~nz);
    }
    return bits;
}

/* -n0^-1 mod 2^w for odd n0: Newton's iteration x <- x (2 - n0 x) doubles
 * the correct low bits, starting from x = n0 (right mod 8). */
static ic_limb mont_n0(ic_limb n0)
{
    ic_limb x = n0;
    for (int i = 0; i < 5; i++)
        x *= 2 - n0 * x;
    return (ic_limb)0 - x;
}

/* rr = 2^(2 rbits) mod n by doubling 2^(nbits-1) (below n: n is odd and
 * has nbits bits), one masked subtraction per step. */
static void mont_rr(ic_limb *rr, const ic_limb *n, size_t nl, size_t nbits, size_t rbits)
{
    ic_limb t[IC_BN_MAX_LIMBS];
    memset(rr, 0, nl * sizeof rr[0]);
    rr[(nbits - 1) / IC_LIMB_BITS] = (ic_limb)1 << ((nbits - 1) % IC_LIMB_BITS);
    for (size_t s = nbits - 1; s < 2 * rbits; s++) {
        ic_limb c = 0;
        for (size_t j = 0; j < nl; j++) {
            t[j] = rr[j] << 1 | c;
            c = rr[j] >> (IC_LIMB_BITS - 1);
        }
        ic_mont_final_sub(rr, t, c, n, nl);
    }
    ic_wipe(t, nl * sizeof t[0]);
}

/* ---- the context ---------------------------------------------------------- */

/* The ops of a context init set up and wipe did not end, or NULL; the
 * lengths used as bounds are checked against each other too. */
const ic_mont_ops *ic_mont_ctx_ops(const ic_mont_ctx *ctx)
{
    size_t nl = ctx->nlimbs;
    if (ctx->check != IC_CHECK_MONT || nl == 0 || nl > IC_BN_MAX_LIMBS ||
        ctx->nbits <= (nl - 1) * IC_LIMB_BITS || ctx->nbits > nl * IC_LIMB_BITS ||
        ctx->nbytes != (ctx->nbits + 7) / 8)
        return NULL;
    return (const ic_mont_ops *)IC_IMPL_OPS(montmul, ctx->impl);
}

int ic_mont_init(ic_mont_ctx *ctx, const uint8_t *n, size_t nlen)
{
    if (ctx == NULL)
        return IC_ERR_NULL;
    ic_wipe(ctx, sizeof *ctx);
    IC_NULL_CHECK(n, nlen);
    if (nlen == 0)
        return IC_ERR_MODULUS;
    size_t nbits = bytes_ct_bitlen(n, nlen);
    ic_ct_declassify(&nbits, sizeof nbits);     /* the modulus length is public */
    int odd = n[nlen - 1] & 1;
    ic_ct_declassify(&odd, sizeof odd);         /* a verdict, as common.h's order wants */
    /* below 3: 0 and 1 (under 2 bits) and 2 (2 bits, even) */
    if (nbits < 2 || nbits > IC_BN_MAX_BITS || (nbits == 2 && !odd))
        return IC_ERR_MODULUS;
    if (!odd)
        return IC_ERR_EVEN;
    size_t nbytes = (nbits + 7) / 8;
    size_t nl = (nbits + IC_LIMB_BITS - 1) / IC_LIMB_BITS;
    ic_limb *N = IC_BN_LIMBS(ctx->n);
    ic_bn_from_bytes(N, nl, n + (nlen - nbytes), nbytes);
    ctx->n0 = mont_n0(N[0]);
    uint32_t impl = ic_impl_index(IC_PRIM_MONTMUL);
    const ic_mont_ops *ops = (const ic_mont_ops *)IC_IMPL_OPS(montmul, impl);
    while (nl < ops->min_limbs && impl + 1 < ic_nimpls_montmul)   /* nl is public */
        ops = (const ic_mont_ops *)IC_IMPL_OPS(montmul, ++impl);
    mont_rr(IC_BN_LIMBS(ctx->rr), N, nl, nbits, ops->rbits ? ops->rbits(nbits, nl) : IC_LIMB_BITS * nl);
    ctx->nlimbs = (uint32_t)nl;
    ctx->nbits = (uint32_t)nbits;
    ctx->nbytes = (uint32_t)nbytes;
    ctx->impl = impl;
    ctx->check = IC_CHECK_MONT;
    return IC_OK;
}

size_t ic_mont_size(const ic_mont_ctx *ctx)
{
    return ctx != NULL && ic_mont_ctx_ops(ctx) != NULL ? ctx->nbytes : 0;
}

void ic_mont_wipe(ic_mont_ctx *ctx)
{
    if (ctx != NULL)
        ic_wipe(ctx, sizeof *ctx);
}

/* ---- modular exponentiation ------------------------------------------------ */

/* Everything both exponentiations share: the checks in common.h's order,
 * base to Montgomery form (bm = base R mod n) and R mod n (one). */
typedef struct {
    const ic_mont_ops *ops;
    const ic_limb *n;
    ic_limb n0;
    size_t nl;
    ic_limb bm[IC_BN_MAX_LIMBS];
    ic_limb one[IC_BN_MAX_LIMBS];     /* R mod n: 1 in Montgomery form */
} mx_setup;

static int mx_check(mx_setup *s, const ic_mont_ctx *ctx, const uint8_t *out, size_t outlen,
                    const uint8_t *base, size_t blen, const uint8_t *exp, size_t elen)
{
    if (ctx == NULL)
        return IC_ERR_NULL;
    s->ops = ic_mont_ctx_ops(ctx);
    if (s->ops == NULL)
        return IC_ERR_STATE;
    if (out == NULL)
        return IC_ERR_NULL;
    IC_NULL_CHECK(base, blen);
    IC_NULL_CHECK(exp, elen);
    if (outlen != ctx->nbytes || blen > ctx->nbytes || elen > IC_BN_MAX_BYTES)
        return IC_ERR_SIZE;
    s->nl = ctx->nlimbs;
    s->n = IC_BN_LIMBS(ctx->n);
    s->n0 = (ic_limb)ctx->n0;
    ic_bn_from_bytes(s->bm, s->nl, base, blen);
    int below = (int)(ic_bn_ct_less(s->bm, s->n, s->nl) & 1);
    ic_ct_declassify(&below, sizeof below);
    if (!below)
        return IC_ERR_RANGE;
    int ezero = bytes_ct_zero(exp, elen);
    ic_ct_declassify(&ezero, sizeof ezero);
    if (ezero)
        return IC_ERR_EXPONENT;
    return IC_OK;
}

/* After mx_check: one = R mod n = mont(R^2, 1); bm = mont(base, R^2) =
 * base R. */
static void mx_to_mont(mx_setup *s, const ic_mont_ctx *ctx)
{
    memset(s->one, 0, s->nl * sizeof s->one[0]);
    s->one[0] = 1;
    s->ops->mul(s->one, IC_BN_LIMBS(ctx->rr), s->one, s->n, s->n0, s->nl);
    s->ops->mul(s->bm, s->bm, IC_BN_LIMBS(ctx->rr), s->n, s->n0, s->nl);
}

/* r = a^2 R^-1 mod n: the backend's squaring when it has one. */
static inline void mx_sqr(const mx_setup *s, ic_limb *r, const ic_limb *a)
{
    if (s->ops->sqr)
        s->ops->sqr(r, a, s->n, s->n0, s->nl);
    else
        s->ops->mul(r, a, a, s->n, s->n0, s->nl);
}

/* mx_check, and on a refusal the base read so far wiped. */
static int mx_checked(mx_setup *s, const ic_mont_ctx *ctx, const uint8_t *out, size_t outlen,
                      const uint8_t *base, size_t blen, const uint8_t *exp, size_t elen)
{
    int st = mx_check(s, ctx, out, outlen, base, blen, exp, elen);
    if (st != IC_OK)
        ic_wipe(s, sizeof *s);
    return st;
}

/* mx_checked, then the base in Montgomery form. */
static int mx_begin(mx_setup *s, const ic_mont_ctx *ctx, const uint8_t *out, size_t outlen,
                    const uint8_t *base, size_t blen, const uint8_t *exp, size_t elen)
{
    int st = mx_checked(s, ctx, out, outlen, base, blen, exp, elen);
    if (st == IC_OK)
        mx_to_mont(s, ctx);
    return st;
}

/* ---- exponentiation by the backend's own engine (ic_mont_ops.modexp) ------- */

/* A checked exponentiation for the engine: its set-up, job and result. */
typedef struct {
    mx_setup s;
    ic_mont_exp job;
    ic_limb r[IC_BN_MAX_LIMBS];
} mx_engine_job;

static int mx_engine_begin(mx_engine_job *x, const ic_mont_ctx *ctx, const uint8_t *out, size_t outlen,
                           const uint8_t *base, size_t blen, const uint8_t *exp, size_t elen, int pub)
{
    int st = mx_checked(&x->s, ctx, out, outlen, base, blen, exp, elen);
    if (st == IC_OK)
        x->job = (ic_mont_exp){ x->r, x->s.bm, x->s.n, IC_BN_LIMBS(ctx->rr), x->s.n0, x->s.nl, exp, elen, pub };
    return st;
}

/* The result to out, and everything wiped. */
static void mx_engine_end(mx_engine_job *x, uint8_t *out, size_t outlen)
{
    ic_bn_to_bytes(out, outlen, x->r);
    ic_wipe(x, sizeof *x);
}

/* One exponentiation by the context's engine. */
static int mx_engine(const ic_mont_ops *ops, const ic_mont_ctx *ctx, uint8_t *out, size_t outlen,
                     const uint8_t *base, size_t blen, const uint8_t *exp, size_t elen, int pub)
{
    mx_engine_job x;
    int st = mx_engine_begin(&x, ctx, out, outlen, base, blen, exp, elen, pub);
    if (st != IC_OK)
        return st;
    ops->modexp(&x.job, 1);
    mx_engine_end(&x, out, outlen);
    return IC_OK;
}

/* The engine of ctx's backend, or NULL (no engine, or an invalid context,
 * which the window loop's checks then report). */
static const ic_mont_ops *mx_engine_ops(const ic_mont_ctx *ctx)
{
    const ic_mont_ops *ops = ctx != NULL ? ic_mont_ctx_ops(ctx) : NULL;
    return ops != NULL && ops->modexp != NULL ? ops : NULL;
}

/* Both jobs of ic_bn_modexp2 by their engines: side by side when they
 * share the backend and the sizes, else one after the other; nothing is
 * written unless both pass their checks. */
static int mx_engine2(const ic_bn_modexp_job *a, const ic_bn_modexp_job *b)
{
    mx_engine_job x[2];
    const ic_bn_modexp_job *job[2] = { a, b };
    const ic_mont_ops *ops[2] = { mx_engine_ops(a->ctx), mx_engine_ops(b->ctx) };
    for (int k = 0; k < 2; k++) {
        int st = mx_engine_begin(&x[k], job[k]->ctx, job[k]->out, job[k]->outlen, job[k]->base, job[k]->blen,
                                 job[k]->exp, job[k]->elen, 0);
        if (st != IC_OK) {
            if (k == 1)
                ic_wipe(&x[0], sizeof x[0]);
            return st;
        }
    }
    if (ops[0] == ops[1] && x[0].job.nl == x[1].job.nl && x[0].job.elen == x[1].job.elen) {
        ic_mont_exp both[2] = { x[0].job, x[1].job };
        ops[0]->modexp(both, 2);
        ic_wipe(both, sizeof both);
    } else {
        for (int k = 0; k < 2; k++)
            ops[k]->modexp(&x[k].job, 1);
    }
    for (int k = 0; k < 2; k++)
        mx_engine_end(&x[k], job[k]->out, job[k]->outlen);
    return IC_OK;
}

/* acc (Montgomery form) out of Montgomery form, to out (outlen bytes). */
static void mx_end(mx_setup *s, ic_limb *acc, uint8_t *out, size_t outlen)
{
    memset(s->one, 0, s->nl * sizeof s->one[0]);
    s->one[0] = 1;
    s->ops->mul(acc, acc, s->one, s->n, s->n0, s->nl);
    ic_bn_to_bytes(out, outlen, acc);
}

#define MX_MAX_WIN IC_BN_MAX_WIN
/* r = table[idx] reading every entry of the table (masks, no index).
 * Eight limbs of r at a time gathered over all entries in locals, which
 * the compiler keeps in (vector) registers: OR-ing each entry into r in
 * memory made every entry wait for the store of the one before. */
static void ct_lookup(ic_limb *r, const ic_limb *table, size_t entries, size_t nl, ic_limb idx)
{
    ic_limb m[(size_t)1 << MX_MAX_WIN];
    for (size_t e = 0; e < entries; e++)
        m[e] = ct_eq_mask((ic_limb)e, idx);
    size_t j = 0;
    for (; j + 8 <= nl; j += 8) {
        ic_limb acc[8] = { 0 };
        for (size_t e = 0; e < entries; e++)
            for (size_t k = 0; k < 8; k++)
                acc[k] |= table[e * nl + j + k] & m[e];
        memcpy(r + j, acc, sizeof acc);
    }
    for (; j < nl; j++) {
        ic_limb acc = 0;
        for (size_t e = 0; e < entries; e++)
            acc |= table[e * nl + j] & m[e];
        r[j] = acc;
    }
    ic_wipe(m, sizeof m);
}

/* One fixed-window exponentiation in steps, so that two can run side by
 * side (ic_bn_modexp2): the set-up, the table, and the windows from the
 * top, each w squarings and one multiplication by a masked table read. */
typedef struct {
    mx_setup s;
    const uint8_t *exp;
    size_t elen, nwin;
    unsigned w;
    ic_limb table[(1u << MX_MAX_WIN) * IC_BN_MAX_LIMBS];
    ic_limb acc[IC_BN_MAX_LIMBS], t[IC_BN_MAX_LIMBS];
} mx_run;

/* The checks, table[i] = base^i R mod n and acc = the top window's entry. */
static int mx_run_begin(mx_run *x, const ic_mont_ctx *ctx, const uint8_t *out, size_t outlen,
                        const uint8_t *base, size_t blen, const uint8_t *exp, size_t elen)
{
    int st = mx_begin(&x->s, ctx, out, outlen, base, blen, exp, elen);
    if (st != IC_OK)
        return st;
    const size_t nl = x->s.nl, ebits = elen * 8;
    x->exp = exp;
    x->elen = elen;
    x->w = ic_bn_window_bits(ebits);
    x->nwin = (ebits + x->w - 1) / x->w;
    const size_t entries = (size_t)1 << x->w;
    memcpy(x->table, x->s.one, nl * sizeof x->table[0]);
    memcpy(x->table + nl, x->s.bm, nl * sizeof x->table[0]);
    for (size_t i = 2; i < entries; i++)
        x->s.ops->mul(x->table + i * nl, x->table + (i - 1) * nl, x->s.bm, x->s.n, x->s.n0, nl);
    ct_lookup(x->acc, x->table, entries, nl, ic_bn_exp_window(exp, elen, (x->nwin - 1) * x->w, x->w));
    return IC_OK;
}

/* Window win (counted from the bottom; below the top one): acc = acc^(2^w)
 * times the entry its bits pick. */
static void mx_run_window(mx_run *x, size_t win)
{
    for (unsigned k = 0; k < x->w; k++)
        mx_sqr(&x->s, x->acc, x->acc);
    ct_lookup(x->t, x->table, (size_t)1 << x->w, x->s.nl, ic_bn_exp_window(x->exp, x->elen, win * x->w, x->w));
    x->s.ops->mul(x->acc, x->acc, x->t, x->s.n, x->s.n0, x->s.nl);
}

/* The result out of Montgomery form into out, and everything wiped. */
static void mx_run_end(mx_run *x, uint8_t *out, size_t outlen)
{
    mx_end(&x->s, x->acc, out, outlen);
    ic_wipe(x, sizeof *x);
}

int ic_mont_modexp(const ic_mont_ctx *ctx, uint8_t *out, size_t outlen,
                   const uint8_t *base, size_t blen, const uint8_t *exp, size_t elen)
{
    const ic_mont_ops *engine = mx_engine_ops(ctx);
    if (engine != NULL)
        return mx_engine(engine, ctx, out, outlen, base, blen, exp, elen, 0);
    mx_run x;
    int st = mx_run_begin(&x, ctx, out, outlen, base, blen, exp, elen);
    if (st != IC_OK)
        return st;
    for (size_t win = x.nwin - 1; win-- > 0;)
        mx_run_window(&x, win);
    mx_run_end(&x, out, outlen);
    return IC_OK;
}

/* Two exponentiations window by window in turn (the two halves of an RSA
 * CRT signature): the same results as two ic_mont_modexp calls, the same
 * constant-time steps; the longer exponent's extra windows come first, so
 * both end together.  Either refusal wipes both and returns its status. */
int ic_bn_modexp2(const ic_bn_modexp_job *a, const ic_bn_modexp_job *b)
{
    mx_run x[2];                                   /* about 2 x 35 KB of stack at 8192 bits */
    const ic_bn_modexp_job *job[2] = { a, b };
    if (a == NULL || b == NULL)
        return IC_ERR_NULL;
    if (mx_engine_ops(a->ctx) != NULL && mx_engine_ops(b->ctx) != NULL)
        return mx_engine2(a, b);
    for (int k = 0; k < 2; k++) {
        int st = mx_run_begin(&x[k], job[k]->ctx, job[k]->out, job[k]->outlen, job[k]->base, job[k]->blen,
                              job[k]->exp, job[k]->elen);
        if (st != IC_OK) {
            if (k == 1)
                ic_wipe(&x[0], sizeof x[0]);
            return st;
        }
    }
    size_t most = x[0].nwin > x[1].nwin ? x[0].nwin : x[1].nwin;   /* public lengths */
    for (size_t left = most - 1; left-- > 0;)      /* windows still to go after this one */
        for (int k = 0; k < 2; k++)
            if (left < x[k].nwin - 1)
                mx_run_window(&x[k], left);
    for (int k = 0; k < 2; k++)
        mx_run_end(&x[k], job[k]->out, job[k]->outlen);
    return IC_OK;
}

/* Left-to-right square and multiply over the exponent's bits from its top
 * set bit: branches on the (public) exponent only. */
int ic_mont_modexp_public(const ic_mont_ctx *ctx, uint8_t *out, size_t outlen,
                          const uint8_t *base, size_t blen, const uint8_t *exp, size_t elen)
{
    const ic_mont_ops *engine = mx_engine_ops(ctx);
    if (engine != NULL)
        return mx_engine(engine, ctx, out, outlen, base, blen, exp, elen, 1);
    mx_setup s;
    int st = mx_begin(&s, ctx, out, outlen, base, blen, exp, elen);
    if (st != IC_OK)
        return st;
    ic_limb acc[IC_BN_MAX_LIMBS];
    size_t b = elen * 8;
    while (!((exp[elen - 1 - (b - 1) / 8] >> ((b - 1) % 8)) & 1))
        b--;                                    /* exp != 0: stops */
    memcpy(acc, s.bm, s.nl * sizeof acc[0]);
    while (--b > 0) {
        mx_sqr(&s, acc, acc);
        if ((exp[elen - 1 - (b - 1) / 8] >> ((b - 1) % 8)) & 1)
            s.ops->mul(acc, acc, s.bm, s.n, s.n0, s.nl);
    }
    mx_end(&s, acc, out, outlen);
    ic_wipe(acc, s.nl * sizeof acc[0]);
    ic_wipe(&s, sizeof s);
    return IC_OK;
}
