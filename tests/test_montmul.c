/*
 * test_montmul.c - every "montmul" implementation this CPU can run against
 * the portable one, one multiplication at a time (bignum.c's contract in
 * bn_impl.h), in the manner of MMTEST.C (VIA PadLock Programming Guide, 6.4: random
 * operands below a random odd modulus, every supported size):
 *
 *  - every limb count 1 .. IC_BN_MAX_LIMBS, each with a modulus whose top
 *    limb is full (the hardest case for a backend whose R is only a little
 *    above the modulus) and one of a random bit length in that limb;
 *  - operands random below the modulus, and 0, 1, n - 1;
 *  - the backend's result x = a b R_x^-1 mod n and the portable one's
 *    y = a b R_p^-1 mod n are compared as x 2^(r_x - r_p) = y mod n (or
 *    the other way round), R_x = 2^rbits of the backend: the test's own
 *    doubling modulo n, so a backend with its own R (IFMA's radix 2^52,
 *    PadLock's 2^ECX) is compared as well;
 *  - both results fully reduced (< n), r = a and r = b aliasing, and the
 *    backend's squaring, when it has one, against its multiplication;
 *  - a backend's whole exponentiations (ic_mont_ops.modexp), one job and
 *    two side by side, at every limb count to 40 and every eighth above
 *    (engine_modexp).
 */
#include <stdlib.h>
#include <string.h>
#include "testlib.h"
#include "bn/bn_impl.h"

#define LB IC_LIMB_BITS
#define ML IC_BN_MAX_LIMBS

/* v = 2 v mod n (v < n): shift, then subtract n when the shifted value is
 * not below it; a plain branch, this is the test's arithmetic. */
static void dbl_mod(ic_limb *v, const ic_limb *n, size_t nl)
{
    ic_limb top = v[nl - 1] >> (LB - 1);
    for (size_t j = nl; j-- > 1;)
        v[j] = v[j] << 1 | v[j - 1] >> (LB - 1);
    v[0] <<= 1;
    int ge = top != 0;
    if (!ge) {
        ge = 1;                               /* equal counts as >= */
        for (size_t j = nl; j-- > 0;)
            if (v[j] != n[j]) {
                ge = v[j] > n[j];
                break;
            }
    }
    if (ge) {
        ic_limb borrow = 0;
        for (size_t j = 0; j < nl; j++) {
            ic_dlimb d = (ic_dlimb)v[j] - n[j] - borrow;
            v[j] = (ic_limb)d;
            borrow = (ic_limb)(d >> LB) & 1;
        }
    }
}

static int below(const ic_limb *a, const ic_limb *n, size_t nl)
{
    for (size_t j = nl; j-- > 0;)
        if (a[j] != n[j])
            return a[j] < n[j];
    return 0;
}

static const ic_mont_ops *ops_named(const char *name)
{
    for (size_t i = 0; i < ic_nimpls_montmul; i++)
        if (strcmp(ic_impls_montmul[i].name, name) == 0)
            return (const ic_mont_ops *)ic_impls_montmul[i].ops;
    return NULL;
}

static ic_limb n0_of(ic_limb n0)
{
    ic_limb x = n0;                            /* Newton: correct mod 8 to start */
    for (int i = 0; i < 6; i++)
        x *= 2 - n0 * x;
    return (ic_limb)0 - x;
}

/* a random number of bits bits (the top one may be 0), nl limbs */
static void rand_bits(ic_limb *a, size_t nl, size_t bits)
{
    tl_rand_bytes(a, nl * sizeof a[0]);
    for (size_t j = 0; j < nl; j++) {
        size_t lo = j * LB;
        if (lo >= bits)
            a[j] = 0;
        else if (bits - lo < LB)
            a[j] &= ((ic_limb)1 << (bits - lo)) - 1;
    }
}

typedef struct { size_t mods, checked; } mm_stats;

/* One modulus: operand pairs through the backend and through port. */
static void one_modulus(const char *impl, const ic_mont_ops *x, const ic_mont_ops *p,
                        const ic_limb *n, size_t nl, size_t nbits, mm_stats *st)
{
    static ic_limb a[ML], b[ML], rx[ML], rp[ML], t[ML];
    ic_limb n0 = n0_of(n[0]);
    size_t rbx = x->rbits ? x->rbits(nbits, nl) : LB * nl;
    size_t rbp = p->rbits ? p->rbits(nbits, nl) : LB * nl;
    for (int k = 0; k < 6; k++) {
        switch (k) {
        case 0: memset(a, 0, nl * sizeof a[0]); rand_bits(b, nl, nbits - 1); break;
        case 1: memset(a, 0, nl * sizeof a[0]); a[0] = 1; rand_bits(b, nl, nbits - 1); break;
        case 2:                                /* n - 1 squared */
            memcpy(a, n, nl * sizeof a[0]);
            a[0] ^= 1;
            memcpy(b, a, nl * sizeof b[0]);
            break;
        default: rand_bits(a, nl, nbits - 1); rand_bits(b, nl, k == 3 ? nbits - 1 : nbits / 2); break;
        }
        char what[96];
        snprintf(what, sizeof what, "%s: %zu limbs, %zu-bit modulus, pair %d", impl, nl, nbits, k);
        x->mul(rx, a, b, n, n0, nl);
        p->mul(rp, a, b, n, n0, nl);
        CHECK(below(rx, n, nl) && below(rp, n, nl), "%s: results below n", what);
        /* bring both to the larger R: x 2^(R_x - R_p) = y, or y 2^(R_p - R_x) = x */
        ic_limb *lo = rbx < rbp ? rx : rp, *hi = rbx < rbp ? rp : rx;
        for (size_t s = rbx < rbp ? rbp - rbx : rbx - rbp; s > 0; s--)
            dbl_mod(hi, n, nl);
        if (!CHECK_MEM(hi, lo, nl * sizeof hi[0], "%s: = port (R 2^%zu vs 2^%zu)", what, rbx, rbp))
            continue;
        /* aliasing: r = a, r = b; squaring */
        memcpy(t, a, nl * sizeof t[0]);
        x->mul(t, t, b, n, n0, nl);
        x->mul(rx, a, b, n, n0, nl);
        CHECK_MEM(t, rx, nl * sizeof t[0], "%s: r = a", what);
        memcpy(t, b, nl * sizeof t[0]);
        x->mul(t, a, t, n, n0, nl);
        CHECK_MEM(t, rx, nl * sizeof t[0], "%s: r = b", what);
        if (x->sqr) {
            x->sqr(t, a, n, n0, nl);
            x->mul(rx, a, a, n, n0, nl);
            CHECK_MEM(t, rx, nl * sizeof t[0], "%s: sqr = mul(a, a)", what);
        }
        st->checked++;
    }
    st->mods++;
}

/* base^exp mod n through port's products, square and multiply from the
 * top bit (a plain branch on the exponent: this is the reference). */
static void ref_modexp(const ic_mont_ops *p, ic_limb *r, const ic_limb *base, const uint8_t *e, size_t elen,
                       const ic_limb *n, size_t nl, size_t nbits)
{
    static ic_limb rr[ML], bm[ML], one[ML];
    ic_limb n0 = n0_of(n[0]);
    size_t rbits = p->rbits ? p->rbits(nbits, nl) : LB * nl;
    memset(rr, 0, nl * sizeof rr[0]);
    rr[0] = 1;
    for (size_t s = 0; s < 2 * rbits; s++)              /* R^2 mod n (n > 1) */
        dbl_mod(rr, n, nl);
    p->mul(bm, base, rr, n, n0, nl);
    memcpy(r, bm, nl * sizeof r[0]);
    size_t top = elen * 8;
    while (top > 0 && !((e[elen - 1 - (top - 1) / 8] >> ((top - 1) % 8)) & 1))
        top--;
    for (size_t b = top - 1; b-- > 0;) {
        p->mul(r, r, r, n, n0, nl);
        if ((e[elen - 1 - b / 8] >> (b % 8)) & 1)
            p->mul(r, r, bm, n, n0, nl);
    }
    memset(one, 0, nl * sizeof one[0]);
    one[0] = 1;
    p->mul(r, r, one, n, n0, nl);
}

/* A random odd modulus of exactly nbits bits in nl limbs. */
static void rand_modulus(ic_limb *n, size_t nl, size_t nbits)
{
    rand_bits(n, nl, nbits);
    n[(nbits - 1) / LB] |= (ic_limb)1 << ((nbits - 1) % LB);
    n[0] |= 1;
}

/* The backend's whole exponentiations (ic_mont_ops.modexp), called
 * directly at every size (the driver hands small moduli of some
 * backends to the next entry; the engine must be right anyway): two jobs
 * of the same size side by side (the RSA-CRT halves), with full and odd
 * top limbs, and one job, secret and public exponent, against ref_modexp.
 * The exponents are short (the windows are the same code for every
 * length) except at the RSA-CRT sizes, where they are as long as n. */
static void engine_modexp(const char *impl, const ic_mont_ops *x, const ic_mont_ops *p, mm_stats *st)
{
    static ic_limb n[2][ML], base[2][ML], rr[2][ML], got[2][ML], want[2][ML];
    static uint8_t e[2][IC_BN_MAX_BYTES];
    /* under an emulator (INCORE_TEST_EMULATED) the CRT sizes only, with
     * short exponents */
    const int emulated = getenv("INCORE_TEST_EMULATED") != NULL;
    for (size_t nl = 1; nl <= ML; nl++) {
        int crt = nl == 16 || nl == 24 || nl == 32;          /* RSA-2048, 3072, 4096 halves */
        /* every limb count up to 40 (ifma's pairs reach 32), then every
         * eighth and the largest: the reference's cost grows as nl^3 */
        if ((emulated && !crt) || (nl > 40 && nl % 8 != 0 && nl != ML))
            continue;
        size_t elen = crt && !emulated ? nl * IC_LIMB_BYTES : 1 + tl_rand_below(8);
        for (int variant = 0; variant < 3; variant++) {
            size_t njobs = variant == 2 ? 1 : 2;
            ic_mont_exp job[2];
            for (size_t k = 0; k < njobs; k++) {
                size_t nbits = variant == 0 ? nl * LB : (nl - 1) * LB + 2 + tl_rand_below(LB - 2);
                if (nbits < 3)
                    nbits = 3;
                rand_modulus(n[k], nl, nbits);
                rand_bits(base[k], nl, nbits - 1);
                if (k == 1 && variant == 0) {                /* n - 1, the largest base */
                    memcpy(base[k], n[k], nl * sizeof base[k][0]);
                    base[k][0] ^= 1;
                }
                tl_rand_bytes(e[k], elen);
                e[k][0] |= 0x80;
                size_t rbits = x->rbits ? x->rbits(nbits, nl) : LB * nl;
                memset(rr[k], 0, nl * sizeof rr[k][0]);
                rr[k][0] = 1;
                for (size_t s = 0; s < 2 * rbits; s++)
                    dbl_mod(rr[k], n[k], nl);
                job[k] = (ic_mont_exp){ got[k], base[k], n[k], rr[k], n0_of(n[k][0]), nl, e[k], elen,
                                        variant == 2 && (elen % 2) };
                ref_modexp(p, want[k], base[k], e[k], elen, n[k], nl, nbits);
            }
            x->modexp(job, njobs);
            for (size_t k = 0; k < njobs; k++)
                CHECK_MEM(got[k], want[k], nl * sizeof got[k][0], "%s: modexp, %zu limbs, %zu job(s)%s, job %zu",
                          impl, nl, njobs, job[0].pub ? " (public)" : "", k);
            st->checked += njobs;
        }
    }
}

static void against_port(const char *impl, void *arg)
{
    mm_stats *st = arg;
    const ic_mont_ops *x = ops_named(impl), *p = ops_named("port");
    if (!CHECK(x && p, "%s: ops found", impl))
        return;
    static ic_limb n[ML];
    /* every limb count; under an emulator (INCORE_TEST_EMULATED) every
     * fourth one and the largest */
    size_t step = getenv("INCORE_TEST_EMULATED") ? 4 : 1;
    for (size_t nl = 1; nl <= ML; nl = (nl < ML && nl + step > ML) ? ML : nl + step) {
        for (int full = 1; full >= 0; full--) {
            size_t nbits = full ? nl * LB : (nl - 1) * LB + 2 + tl_rand_below(LB - 2);
            if (nbits < 3)
                nbits = 3;
            rand_bits(n, nl, nbits);
            n[(nbits - 1) / LB] |= (ic_limb)1 << ((nbits - 1) % LB);   /* exactly nbits */
            n[0] |= 1;
            one_modulus(impl, x, p, n, nl, nbits, st);
        }
    }
    /* 16 and 32 limbs (the CRT halves of RSA-2048 and RSA-4096) have
     * code of their own in adx (the squaring's cross products written
     * out): more moduli there */
    for (size_t nl = 16; nl <= 32 && nl <= ML; nl += 16)
        for (int k = 0; k < 32; k++) {
            size_t nbits = k % 2 ? nl * LB : nl * LB - 1 - tl_rand_below(LB - 2);
            rand_bits(n, nl, nbits);
            n[(nbits - 1) / LB] |= (ic_limb)1 << ((nbits - 1) % LB);
            n[0] |= 1;
            one_modulus(impl, x, p, n, nl, nbits, st);
        }
    if (x->modexp)
        engine_modexp(impl, x, p, st);
}

int main(void)
{
    mm_stats st = { 0, 0 };
    int ran = tl_for_each_impl("montmul", against_port, &st);
    printf("montmul implementations compared with port: %d (%zu moduli, %zu operand pairs)\n", ran,
           st.mods, st.checked);
    CHECK(ran >= 1 && st.checked > 0, "something was compared");
    return tl_finish();
}
