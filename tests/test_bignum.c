/*
 * test_bignum.c - big numbers (incore/bignum.h): ic_mont_init, ic_mont_modexp
 * and ic_mont_modexp_public through every "montmul" implementation this CPU
 * can run.
 *
 *  1. known answers (tests/vectors/bignum_modexp.txt, from Python's pow;
 *     every leg): random moduli of 512..8192 bits, moduli 2^k - 1, base 0,
 *     1 and n - 1, exponent 1 and all ones, exponents longer than the
 *     modulus, leading zero bytes, limb-edge moduli of 3..129 bits;
 *  2. Fermat on Mersenne primes 2^p - 1 (p = 521 .. 4423): b^(n-1) = 1 and
 *     b^n = b for random b, an answer no implementation bug can fake;
 *  3. consistency in the manner of MMTEST.C (VIA PadLock Programming Guide, 6.4: random
 *     operands of 256..2048 bits in 128-bit steps, modulus the largest of
 *     three random numbers, made odd): ic_mont_modexp = ic_mont_modexp_public, and
 *     (b^e1)^e2 = b^(e1 e2) with the exponent product computed here;
 *  4. with GMP (native builds, IC_TEST_GMP): mpz_powm on random operands
 *     of 512..4096 bits and random lengths, and the MMTEST sweep against
 *     it as MMTEST.C itself does;
 *  5. a context keeps its backend: init under one implementation, select
 *     another, the result is unchanged; the selected one's KAT passes; a
 *     context names the entry that runs it (ifma hands moduli under 1024
 *     bits to adx, bn_impl.h min_limbs);
 *  6. the dual exponentiation ic_bn_modexp2 (bn_impl.h) = two ic_mont_modexp
 *     calls, moduli of 512..4096 bits, exponents of different lengths, and
 *     its refusals;
 *  7. the modular inverse ic_bn_mod_inv (bn_mod.h): known answers
 *     (tests/vectors/bignum_modinv.txt, from Python's pow(a, -1, n); every
 *     leg): moduli of 2..8192 bits across the limb and digit edges, a = 1,
 *     2, n - 1, n - 2, 0, powers of two, composite n with a sharing a
 *     factor (no inverse: verdict 0, output zeroed), 2^k - 1, sparse
 *     moduli, Fibonacci neighbours; in place too; a a^-1 = 1 and
 *     (a^-1)^-1 = a on random moduli of 64..8192 bits; natively GMP's
 *     mpz_invert on random moduli of 64..8192 bits, prime-free composites
 *     with shared factors among them.
 *
 * INCORE_TEST_EMULATED=1 (make test-x86emu: x86emu-run, ~100x slower, with
 * INCORE_TEST_IMPLS=montmul/ifma): a lighter sweep that still reaches the
 * IFMA code (moduli of 1024 bits and more) with each of its register
 * counts: the 1024..3072-bit known answers, Fermat on 2^1279 - 1, 2^3217
 * - 1 and 2^4423 - 1 (the general loop), GMP at 1024..4096 bits, the dual
 * exponentiation from 1024 + 1024 bits, no MMTEST, no inverse (it uses no
 * backend).
 */
#include <stdlib.h>
#include <string.h>
#include "testlib.h"
#include "incore/bignum.h"
#include "bn/bn_impl.h"
#include "bn/bn_mod.h"
#if defined(IC_TEST_GMP)
#include <gmp.h>
#endif

#define MAXB IC_BN_MAX_BYTES

static int emulated;        /* INCORE_TEST_EMULATED: the lighter sweep */

/* out = base^exp mod n through both exponentiations; 1 when both gave st
 * IC_OK and the same bytes (out holds ic_mont_modexp's). */
static int both(const ic_mont_ctx *c, uint8_t *out, const uint8_t *b, size_t bl, const uint8_t *e, size_t el,
                const char *impl, const char *what)
{
    static uint8_t pub[MAXB];
    size_t nb = ic_mont_size(c);
    int s1 = ic_mont_modexp(c, out, nb, b, bl, e, el);
    int s2 = ic_mont_modexp_public(c, pub, nb, b, bl, e, el);
    int ok = CHECK(s1 == IC_OK && s2 == IC_OK, "%s: %s: status %d / %d", impl, what, s1, s2);
    return ok && CHECK_MEM(pub, out, nb, "%s: %s: modexp_public = modexp", impl, what);
}

/* ---- 1. known answers ---------------------------------------------------- */
static void kat_file(const char *impl, void *arg)
{
    (void)arg;
    tl_rsp *r = tl_rsp_openf("%s/bignum_modexp.txt", tl_data_dir());
    if (!r)
        return;
    tl_rec rec;
    int count = 0;
    static uint8_t n[MAXB + 1], b[MAXB], e[2 * MAXB], want[MAXB], got[MAXB];
    while (tl_rsp_next(r, &rec)) {
        long nl = tl_hex(n, sizeof n, tl_get(&rec, "N")), bl = tl_hex(b, sizeof b, tl_get(&rec, "B"));
        long el = tl_hex(e, sizeof e, tl_get(&rec, "E")), rl = tl_hex(want, sizeof want, tl_get(&rec, "R"));
        char what[64];
        snprintf(what, sizeof what, "line %ld (%ld-byte modulus)", rec.line, nl);
        if (emulated && (nl < 128 || nl > 384))    /* 1024..3072 bits: smaller run adx */
            continue;
        if (!CHECK(nl > 0 && bl >= 0 && el > 0 && rl == nl, "%s: %s: record", impl, what))
            continue;
        ic_mont_ctx c;
        if (!CHECK(ic_mont_init(&c, n, (size_t)nl) == IC_OK, "%s: %s: init", impl, what))
            continue;
        CHECK(ic_mont_size(&c) == (size_t)nl, "%s: %s: size", impl, what);
        memset(got, 0xee, sizeof got);
        if (both(&c, got, b, (size_t)bl, e, (size_t)el, impl, what))
            CHECK_MEM(got, want, (size_t)nl, "%s: %s: result", impl, what);
        ic_mont_wipe(&c);
        count++;
    }
    tl_rsp_close(r);
    CHECK(count >= (emulated ? 1 : 40), "%s: only %d known answers read", impl, count);
}

/* ---- 2. Fermat on Mersenne primes ------------------------------------------ */
static void mersenne(uint8_t *n, size_t *len, unsigned p)
{
    *len = (p + 7) / 8;
    memset(n, 0xff, *len);
    n[0] = (uint8_t)((1u << (p % 8 ? p % 8 : 8)) - 1);
}

static void fermat(const char *impl, void *arg)
{
    (void)arg;
    static const unsigned primes[] = { 521, 607, 1279, 2203, 2281, 3217, 4253, 4423 };
    static uint8_t n[MAXB], b[MAXB], e[MAXB], got[MAXB];
    for (size_t i = 0; i < sizeof primes / sizeof primes[0]; i++) {
        if (emulated && primes[i] != 1279 && primes[i] != 3217 && primes[i] != 4423)
            continue;
        size_t len;
        char what[64];
        snprintf(what, sizeof what, "2^%u - 1", primes[i]);
        mersenne(n, &len, primes[i]);
        ic_mont_ctx c;
        if (!CHECK(ic_mont_init(&c, n, len) == IC_OK, "%s: %s: init", impl, what))
            continue;
        tl_rand_bytes(b, len);
        b[0] &= n[0] >> 1;                          /* below n */
        b[len - 1] |= 2;                            /* not 0 or 1 */
        memcpy(e, n, len);
        e[len - 1] ^= 1;                            /* n - 1 */
        if (both(&c, got, b, len, e, len, impl, what)) {
            CHECK(tl_all_byte(got, len - 1, 0) && got[len - 1] == 1, "%s: %s: b^(n-1) = 1", impl, what);
        }
        if (both(&c, got, b, len, n, len, impl, what))
            CHECK_MEM(got, b, len, "%s: %s: b^n = b", impl, what);
        ic_mont_wipe(&c);
    }
}

/* ---- 3. MMTEST-style consistency ------------------------------------------- */
/* r (la + lb bytes) = a * b, all big-endian: the schoolbook product. */
static void mul_bytes(uint8_t *r, const uint8_t *a, size_t la, const uint8_t *b, size_t lb)
{
    static unsigned acc[2 * MAXB];
    memset(acc, 0, (la + lb) * sizeof acc[0]);
    for (size_t i = 0; i < la; i++)
        for (size_t j = 0; j < lb; j++)
            acc[(la - 1 - i) + (lb - 1 - j)] += (unsigned)a[i] * b[j];
    unsigned carry = 0;
    for (size_t k = 0; k < la + lb; k++) {
        unsigned v = acc[k] + carry;
        r[la + lb - 1 - k] = (uint8_t)v;
        carry = v >> 8;
    }
}

/* Random x, y, m of words 32-bit words; m the largest, odd (MMTEST.C). */
static void mm_operands(uint8_t *x, uint8_t *y, uint8_t *m, size_t len)
{
    tl_rand_bytes(x, len);
    tl_rand_bytes(y, len);
    tl_rand_bytes(m, len);
    uint8_t *v[3] = { x, y, m }, *t;
    for (int i = 0; i < 2; i++)
        if (memcmp(v[i], v[2], len) > 0)
            t = v[i], v[i] = v[2], v[2] = t;
    if (v[2] != m) {                   /* keep the names: copy the largest to m */
        static uint8_t tmp[MAXB];
        memcpy(tmp, v[2], len);
        memcpy(v[2], m, len);
        memcpy(m, tmp, len);
    }
    if (m[0] == 0)
        m[0] = 1;
    m[len - 1] |= 1;                   /* MMTEST adds 1; or-ing keeps m >= x, y */
}

static void mmtest(const char *impl, void *arg)
{
    (void)arg;
    static uint8_t x[MAXB], y[MAXB], m[MAXB], got[MAXB], e1[32], e2[32], e12[64], a[MAXB], want[MAXB];
    for (size_t words = 8; words <= 64; words += 4) {
        size_t len = words * 4;
        char what[64];
        snprintf(what, sizeof what, "MMTEST %zu bits", len * 8);
        mm_operands(x, y, m, len);
        ic_mont_ctx c;
        if (!CHECK(ic_mont_init(&c, m, len) == IC_OK, "%s: %s: init", impl, what))
            continue;
        int st = ic_mont_modexp(&c, got, len, x, len, y, len);
        /* x or y may equal m when m was not made odd by the or */
        if (memcmp(x, m, len) == 0) {
            CHECK(st == IC_ERR_RANGE, "%s: %s: base = modulus", impl, what);
            ic_mont_wipe(&c);
            continue;
        }
        both(&c, got, x, len, y, len, impl, what);
        /* (x^e1)^e2 = x^(e1 e2) */
        tl_rand_bytes(e1, sizeof e1);
        tl_rand_bytes(e2, sizeof e2);
        e1[0] |= 0x80;
        mul_bytes(e12, e1, sizeof e1, e2, sizeof e2);
        if (both(&c, a, x, len, e1, sizeof e1, impl, what) && both(&c, got, a, len, e2, sizeof e2, impl, what) &&
            both(&c, want, x, len, e12, sizeof e12, impl, what))
            CHECK_MEM(got, want, len, "%s: %s: (x^e1)^e2 = x^(e1 e2)", impl, what);
        ic_mont_wipe(&c);
    }
}

/* ---- 4. against GMP ----------------------------------------------------------- */
#if defined(IC_TEST_GMP)
static void gmp_check(const ic_mont_ctx *c, const uint8_t *n, size_t nl, const uint8_t *b, size_t bl,
                      const uint8_t *e, size_t el, const char *impl, const char *what)
{
    static uint8_t got[MAXB], want[MAXB];
    mpz_t N, B, E, R;
    mpz_inits(N, B, E, R, NULL);
    mpz_import(N, nl, 1, 1, 1, 0, n);
    mpz_import(B, bl, 1, 1, 1, 0, b);
    mpz_import(E, el, 1, 1, 1, 0, e);
    mpz_powm(R, B, E, N);
    size_t cnt = 0, sz = (mpz_sizeinbase(R, 2) + 7) / 8;
    memset(want, 0, nl);
    if (mpz_sgn(R) != 0)
        mpz_export(want + nl - sz, &cnt, 1, 1, 1, 0, R);
    if (both(c, got, b, bl, e, el, impl, what))
        CHECK_MEM(got, want, nl, "%s: %s: = mpz_powm", impl, what);
    mpz_clears(N, B, E, R, NULL);
}

static void gmp_random(const char *impl, void *arg)
{
    (void)arg;
    static uint8_t n[MAXB], b[MAXB], e[MAXB], x[MAXB], y[MAXB];
    static const unsigned sizes[] = { 512, 1024, 2048, 3072, 4096 };
    for (int round = 0; round < (emulated ? 4 : 40); round++) {
        /* the named sizes, then random ones in 512..4096 */
        unsigned bits = emulated ? 1024u + 1024u * (unsigned)(round % 4) :
                        round < 10 ? sizes[round % 5] : 512 + tl_rand_below(4096 - 512 + 1);
        size_t nl = (bits + 7) / 8;
        tl_rand_bytes(n, nl);
        n[0] &= (uint8_t)(0xff >> ((8 - bits % 8) % 8));
        n[0] |= (uint8_t)(1u << ((bits - 1) % 8));
        n[nl - 1] |= 1;
        size_t bl = round % 3 == 0 ? tl_rand_below((uint32_t)nl) : nl;
        tl_rand_bytes(b, bl);
        if (bl == nl)
            b[0] &= (uint8_t)(n[0] >> 1);       /* below n */
        size_t el = round % 4 == 0 ? 1 + tl_rand_below((uint32_t)nl) : nl;
        tl_rand_bytes(e, el);
        e[el - 1] |= 1;                          /* not zero */
        ic_mont_ctx c;
        char what[64];
        snprintf(what, sizeof what, "GMP round %d, %u bits, base %zu B, exp %zu B", round, bits, bl, el);
        if (!CHECK(ic_mont_init(&c, n, nl) == IC_OK, "%s: %s: init", impl, what))
            continue;
        gmp_check(&c, n, nl, b, bl, e, el, impl, what);
        ic_mont_wipe(&c);
    }
    for (size_t words = 8; words <= 64 && !emulated; words += 4) {    /* MMTEST.C's sweep */
        size_t len = words * 4;
        mm_operands(x, y, n, len);
        if (memcmp(x, n, len) == 0)
            continue;
        ic_mont_ctx c;
        char what[64];
        snprintf(what, sizeof what, "GMP MMTEST %zu bits", len * 8);
        if (CHECK(ic_mont_init(&c, n, len) == IC_OK, "%s: %s: init", impl, what))
            gmp_check(&c, n, len, x, len, y, len, impl, what);
        ic_mont_wipe(&c);
    }
}
#endif

/* ---- 5. a context keeps its backend ------------------------------------------- */
static void keeps_backend(void)
{
    size_t count = ic_impl_count("montmul");
    CHECK(count >= 1 && !strcmp(ic_impl_name("montmul", count - 1), "port"), "portable entry last");
    uint8_t n[256], b[256], e[256], r0[256], r1[256];
    tl_rand_bytes(n, sizeof n);
    n[0] |= 0x80;
    n[255] |= 1;
    tl_rand_bytes(b, sizeof b);
    b[0] &= 0x7f;
    tl_rand_bytes(e, sizeof e);
    ic_mont_ctx c;
    CHECK(ic_impl_select("montmul", "port") == IC_OK, "select port");
    CHECK(ic_mont_init(&c, n, sizeof n) == IC_OK, "init under port");
    CHECK(ic_mont_modexp(&c, r0, sizeof r0, b, sizeof b, e, sizeof e) == IC_OK, "modexp under port");
    for (size_t i = 0; i < count; i++) {
        if (!ic_impl_available("montmul", i))
            continue;
        CHECK(ic_impl_select("montmul", ic_impl_name("montmul", i)) == IC_OK, "select");
        CHECK(ic_selftest("montmul") == IC_OK, "montmul/%s: self-test", ic_impl_name("montmul", i));
        CHECK(ic_mont_modexp(&c, r1, sizeof r1, b, sizeof b, e, sizeof e) == IC_OK, "modexp after select");
        CHECK_MEM(r1, r0, sizeof r0, "context made under port, %s selected", ic_impl_name("montmul", i));
    }
    CHECK(ic_impl_select("montmul", NULL) == IC_OK, "montmul: back to automatic selection");
    printf("montmul selected on this CPU: %s\n", ic_impl_selected("montmul"));
}

/* The context under impl names the entry that runs it: impl itself, or
 * for ifma under 1024 bits (16 limbs) adx. */
static void names_its_backend(const char *impl, void *arg)
{
    (void)arg;
    static const unsigned sizes[] = { 512, 1024, 2048, 3072, 4096 };
    uint8_t n[512];
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t len = sizes[i] / 8;
        memset(n, 0xa5, len);
        n[0] |= 0x80;
        n[len - 1] |= 1;
        ic_mont_ctx c;
        if (!CHECK(ic_mont_init(&c, n, len) == IC_OK, "%s: init %u bits", impl, sizes[i]))
            continue;
        const char *want = !strcmp(impl, "ifma") && sizes[i] < 1024 ? "adx" : impl;
        const char *got = ic_impl_name("montmul", c.impl);
        CHECK(got && !strcmp(got, want), "%s: a %u-bit context runs %s, says %s", impl, sizes[i], want,
              got ? got : "(none)");
        ic_mont_wipe(&c);
    }
}

/* ---- 6. the dual exponentiation ----------------------------------------------- */
/* A random odd modulus of bits bits (top bit set) in len = bits / 8 bytes,
 * a base below it and an exponent of elen bytes. */
static void dual_operands(uint8_t *n, uint8_t *b, uint8_t *e, unsigned bits, size_t elen)
{
    size_t len = bits / 8;
    tl_rand_bytes(n, len);
    n[0] |= 0x80;
    n[len - 1] |= 1;
    tl_rand_bytes(b, len);
    b[0] &= 0x7f;
    tl_rand_bytes(e, elen);
    e[0] |= 1;
}

static void dual(const char *impl, void *arg)
{
    (void)arg;
    /* pairs of sizes (the CRT halves are equal; the rest checks unequal ones) */
    static const unsigned pairs[][2] = { { 512, 512 }, { 1024, 1024 }, { 1024, 1536 }, { 2048, 512 },
                                         { 1536, 1536 }, { 3072, 3072 }, { 4096, 2048 }, { 2048, 2048 },
                                         { 1000, 1000 }, { 2040, 2040 },
                                         /* 18 limbs: ifma's pair of three full vectors (from 17
                                          * to 19 limbs; 16 make the last a half one) */
                                         { 1152, 1152 } };
    static uint8_t n[2][MAXB], b[2][MAXB], e[2][MAXB], got[2][MAXB], want[2][MAXB];
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        if (emulated && (pairs[p][0] < 1024 || p >= 7))     /* the later pairs: native only */
            continue;
        ic_mont_ctx c[2];
        ic_bn_modexp_job job[2];
        char what[64];
        snprintf(what, sizeof what, "dual %u + %u bits", pairs[p][0], pairs[p][1]);
        /* equal sizes get one exponent length, as the CRT halves (the
         * engines run such jobs side by side) */
        size_t elen0 = p % 2 ? pairs[p][0] / 8 : 1 + tl_rand_below((uint32_t)(pairs[p][0] / 8));
        for (int k = 0; k < 2; k++) {
            size_t len = pairs[p][k] / 8;
            size_t elen = pairs[p][0] == pairs[p][1] ? elen0 : p % 2 ? len : 1 + tl_rand_below((uint32_t)len);
            dual_operands(n[k], b[k], e[k], pairs[p][k], elen);
            CHECK(ic_mont_init(&c[k], n[k], len) == IC_OK, "%s: %s: init", impl, what);
            CHECK(ic_mont_modexp(&c[k], want[k], len, b[k], len, e[k], elen) == IC_OK, "%s: %s: modexp", impl, what);
            job[k] = (ic_bn_modexp_job){ &c[k], got[k], len, b[k], len, e[k], elen };
        }
        if (CHECK(ic_bn_modexp2(&job[0], &job[1]) == IC_OK, "%s: %s: status", impl, what)) {
            CHECK_MEM(got[0], want[0], pairs[p][0] / 8, "%s: %s: first = ic_mont_modexp", impl, what);
            CHECK_MEM(got[1], want[1], pairs[p][1] / 8, "%s: %s: second = ic_mont_modexp", impl, what);
        }
        /* refusals: the first one's status, nothing written */
        memset(got[0], 0xee, pairs[p][0] / 8);
        ic_bn_modexp_job bad = job[1];
        bad.base = n[1];                             /* base = modulus */
        CHECK(ic_bn_modexp2(&job[0], &bad) == IC_ERR_RANGE, "%s: %s: second base = n", impl, what);
        CHECK(tl_all_byte(got[0], pairs[p][0] / 8, 0xee), "%s: %s: refused, nothing written", impl, what);
        bad = job[0];
        bad.outlen--;
        CHECK(ic_bn_modexp2(&bad, &job[1]) == IC_ERR_SIZE, "%s: %s: first output size", impl, what);
        CHECK(ic_bn_modexp2(NULL, &job[1]) == IC_ERR_NULL, "%s: %s: NULL job", impl, what);
        ic_mont_wipe(&c[0]);
        ic_mont_wipe(&c[1]);
    }
}


/* ---- 7. the modular inverse ------------------------------------------------- */
/* ic_bn_mod_inv(a) must give want (all zero: no inverse, verdict 0), into
 * a separate output and in place. */
static void inv_check(const ic_mont_ctx *c, const uint8_t *a, const uint8_t *want, const char *impl,
                      const char *what)
{
    static uint8_t got[MAXB];
    size_t nb = ic_mont_size(c);
    int want_ok = !tl_all_byte(want, nb, 0);
    memset(got, 0xee, nb);
    int ok = ic_bn_mod_inv(c, got, a);
    CHECK(ok == want_ok, "%s: %s: verdict %d, want %d", impl, what, ok, want_ok);
    CHECK_MEM(got, want, nb, "%s: %s: inverse", impl, what);
    memcpy(got, a, nb);
    ok = ic_bn_mod_inv(c, got, got);
    CHECK(ok == want_ok, "%s: %s: in place: verdict %d, want %d", impl, what, ok, want_ok);
    CHECK_MEM(got, want, nb, "%s: %s: in place", impl, what);
}

/* ic_bn_mod_inv2 of two records (sizes may differ) must give both wants
 * and verdicts, the second in place. */
static void inv2_check(const ic_mont_ctx *c0, const uint8_t *a0, const uint8_t *want0, const ic_mont_ctx *c1,
                       const uint8_t *a1, const uint8_t *want1, const char *impl, const char *what)
{
    static uint8_t got0[MAXB], got1[MAXB];
    size_t nb0 = ic_mont_size(c0), nb1 = ic_mont_size(c1);
    int want_ok0 = !tl_all_byte(want0, nb0, 0), want_ok1 = !tl_all_byte(want1, nb1, 0), ok0 = -1, ok1 = -1;
    memset(got0, 0xee, nb0);
    memcpy(got1, a1, nb1);
    int both = ic_bn_mod_inv2(c0, got0, a0, &ok0, c1, got1, got1, &ok1);
    CHECK(ok0 == want_ok0 && ok1 == want_ok1 && both == (want_ok0 & want_ok1),
          "%s: %s: inv2 verdicts %d %d %d, want %d %d", impl, what, ok0, ok1, both, want_ok0, want_ok1);
    CHECK_MEM(got0, want0, nb0, "%s: %s: inv2 first", impl, what);
    CHECK_MEM(got1, want1, nb1, "%s: %s: inv2 second (in place)", impl, what);
}

static void inv_kat(const char *impl, void *arg)
{
    (void)arg;
    tl_rsp *r = tl_rsp_openf("%s/bignum_modinv.txt", tl_data_dir());
    if (!r)
        return;
    tl_rec rec;
    int count = 0, none = 0, have_prev = 0;
    static uint8_t n[MAXB + 1], a[MAXB + 1], want[MAXB + 1], pa[MAXB + 1], pwant[MAXB + 1];
    ic_mont_ctx prev;
    while (tl_rsp_next(r, &rec)) {
        long nl = tl_hex(n, sizeof n, tl_get(&rec, "N")), al = tl_hex(a, sizeof a, tl_get(&rec, "A"));
        long rl = tl_hex(want, sizeof want, tl_get(&rec, "R"));
        char what[64];
        snprintf(what, sizeof what, "modinv line %ld (%ld-byte modulus)", rec.line, nl);
        if (!CHECK(nl > 0 && al == nl && rl == nl, "%s: %s: record", impl, what))
            continue;
        ic_mont_ctx c;
        if (!CHECK(ic_mont_init(&c, n, (size_t)nl) == IC_OK, "%s: %s: init", impl, what))
            continue;
        inv_check(&c, a, want, impl, what);
        if (have_prev && !emulated)       /* with the record before: the dual inverse */
            inv2_check(&prev, pa, pwant, &c, a, want, impl, what);
        none += tl_all_byte(want, (size_t)nl, 0);
        prev = c;
        memcpy(pa, a, (size_t)nl);
        memcpy(pwant, want, (size_t)nl);
        have_prev = 1;
        count++;
    }
    if (have_prev)
        ic_mont_wipe(&prev);
    tl_rsp_close(r);
    CHECK(count >= 90 && none >= 10, "%s: only %d known inverses read, %d without an inverse", impl, count, none);
}

/* A random odd modulus of bits bits in len = ceil(bits / 8) bytes. */
static size_t random_modulus(uint8_t *n, unsigned bits)
{
    size_t len = (bits + 7) / 8;
    tl_rand_bytes(n, len);
    n[0] &= (uint8_t)(0xff >> ((8 - bits % 8) % 8));
    n[0] |= (uint8_t)(1u << ((bits - 1) % 8));
    n[len - 1] |= 1;
    return len;
}

/* out (len bytes) = x y mod n through ic_bn_mod_mul. */
static void mod_mul(const ic_mont_ctx *c, uint8_t *out, const uint8_t *x, const uint8_t *y)
{
    ic_bn_mod_mul(c, out, x, y);
}

/* Random moduli of 64..8192 bits (every leg, no reference needed): when a
 * has an inverse, a a^-1 = 1 and (a^-1)^-1 = a; when it has none, 0 and a
 * zero output.  Mersenne primes too, where every a != 0 has one. */
static void inv_random(void)
{
    static uint8_t n[MAXB], a[MAXB], x[MAXB], y[MAXB], one[MAXB];
    static const unsigned primes[] = { 521, 607, 1279, 2203, 4253 };
    int rounds = 60, invertible = 0;
    for (int round = 0; round < rounds; round++) {
        int mersenne_round = round < 5;
        unsigned bits = mersenne_round ? primes[round] : 64 + tl_rand_below(8192 - 64 + 1);
        size_t len;
        if (mersenne_round)
            mersenne(n, &len, bits);
        else
            len = random_modulus(n, bits);
        tl_rand_bytes(a, len);
        a[0] &= (uint8_t)(n[0] >> 1);                           /* below n */
        a[len - 1] |= (uint8_t)(round % 3 == 0);                /* odd, some of the time */
        ic_mont_ctx c;
        char what[64];
        snprintf(what, sizeof what, "modinv round %d, %u bits", round, bits);
        if (!CHECK(ic_mont_init(&c, n, len) == IC_OK, "%s: init", what))
            continue;
        memset(x, 0xee, len);
        int ok = ic_bn_mod_inv(&c, x, a);
        if (mersenne_round)
            CHECK(ok == 1, "%s: a prime modulus, an inverse", what);
        if (ok) {
            invertible++;
            memset(one, 0, len);
            one[len - 1] = 1;
            mod_mul(&c, y, a, x);
            CHECK_MEM(y, one, len, "%s: a a^-1 = 1", what);
            CHECK(ic_bn_mod_inv(&c, y, x) == 1, "%s: a^-1 has an inverse", what);
            CHECK_MEM(y, a, len, "%s: (a^-1)^-1 = a", what);
        } else {
            CHECK(tl_all_byte(x, len, 0), "%s: no inverse: output zeroed", what);
        }
        ic_mont_wipe(&c);
    }
    CHECK(invertible >= rounds / 2, "modinv: only %d of %d random a had an inverse", invertible, rounds);
}

#if defined(IC_TEST_GMP)
/* Against mpz_invert: random odd moduli of 64..8192 bits (the limb-edge
 * lengths first), random a; every fourth modulus is a product x y with a
 * a multiple of x (no inverse) or of a small factor. */
static void inv_gmp(void)
{
    static const unsigned edges[] = { 64, 65, 124, 125, 126, 127, 128, 129, 1024, 2048, 3072, 4096, 8192 };
    static uint8_t n[MAXB], a[MAXB], want[MAXB];
    int rounds = 300, none = 0;
    mpz_t N, A, R, X, Y;
    mpz_inits(N, A, R, X, Y, NULL);
    for (int round = 0; round < rounds; round++) {
        unsigned bits = round < (int)(sizeof edges / sizeof edges[0]) ? edges[round]
                                                                      : 64 + tl_rand_below(8192 - 64 + 1);
        size_t len = random_modulus(n, bits), cnt = 0;
        tl_rand_bytes(a, len);
        a[0] &= (uint8_t)(n[0] >> 1);
        if (round % 4 == 3) {
            /* n = x y (odd), a = x t mod n */
            size_t xl = len / 2;
            random_modulus(want, (unsigned)(8 * xl));
            mpz_import(X, xl, 1, 1, 1, 0, want);
            random_modulus(want, (unsigned)(8 * (len - xl)));
            mpz_import(Y, len - xl, 1, 1, 1, 0, want);
            mpz_mul(N, X, Y);
            mpz_import(A, len, 1, 1, 1, 0, a);
            mpz_mul(A, A, X);
            mpz_mod(A, A, N);
            len = (mpz_sizeinbase(N, 2) + 7) / 8;
            memset(n, 0, len);
            mpz_export(n, &cnt, 1, 1, 1, 0, N);
            memset(a, 0, len);
            if (mpz_sgn(A) != 0)
                mpz_export(a + len - (mpz_sizeinbase(A, 2) + 7) / 8, &cnt, 1, 1, 1, 0, A);
        } else {
            mpz_import(N, len, 1, 1, 1, 0, n);
            mpz_import(A, len, 1, 1, 1, 0, a);
        }
        memset(want, 0, len);
        if (mpz_invert(R, A, N) && mpz_sgn(R) != 0)
            mpz_export(want + len - (mpz_sizeinbase(R, 2) + 7) / 8, &cnt, 1, 1, 1, 0, R);
        else
            none++;
        ic_mont_ctx c;
        char what[64];
        snprintf(what, sizeof what, "modinv GMP round %d, %zu bits", round, mpz_sizeinbase(N, 2));
        if (CHECK(ic_mont_init(&c, n, len) == IC_OK, "%s: init", what))
            inv_check(&c, a, want, "gmp", what);
        ic_mont_wipe(&c);
    }
    mpz_clears(N, A, R, X, Y, NULL);
    CHECK(none >= rounds / 8, "modinv GMP: only %d of %d without an inverse", none, rounds);
}
#endif

int main(void)
{
    emulated = getenv("INCORE_TEST_EMULATED") != NULL;
    if (emulated)
        printf("INCORE_TEST_EMULATED: the lighter sweep (1024..4423 bits for ifma, no MMTEST)\n");
    int ran = tl_for_each_impl("montmul", kat_file, NULL);
    tl_for_each_impl("montmul", fermat, NULL);
    if (!emulated)
        tl_for_each_impl("montmul", mmtest, NULL);
    tl_for_each_impl("montmul", names_its_backend, NULL);
    tl_for_each_impl("montmul", dual, NULL);
    /* the inverse uses no backend; the known answers run under each to see
     * every backend's contexts give it the same modulus (not in the
     * emulated sweep, which is there for the IFMA products) */
    if (!emulated) {
        tl_for_each_impl("montmul", inv_kat, NULL);
        inv_random();
    }
#if defined(IC_TEST_GMP)
    tl_for_each_impl("montmul", gmp_random, NULL);
    printf("GMP: mpz_powm comparisons ran\n");
    if (!emulated) {
        inv_gmp();
        printf("GMP: mpz_invert comparisons ran\n");
    }
#else
    printf("GMP: not in this build (cross leg); known answers, Fermat and consistency only\n");
#endif
    keeps_backend();
    printf("montmul implementations tested: %d\n", ran);
    return tl_finish();
}
