/*
 * fuzz_bignum.c - differential target for modular exponentiation
 * (incore/bignum.h).
 *
 * The input gives the lengths and bytes of a modulus (up to 72 bytes, or
 * 1..IC_BN_MAX_BYTES expanded from a seed), a base and an exponent.  The
 * status every call must return follows from the values alone (empty,
 * over-long, below 3 or even modulus; base not below it; zero exponent),
 * computed here independently.  For valid input, every available
 * "montmul" implementation must give the same bytes from ic_mont_modexp and
 * ic_mont_modexp_public; for moduli of at most 64 bits the answer is also
 * checked against square-and-multiply on uint64_t written here (no
 * 128-bit type needed, so the replay checks it on armhf too).
 */
#include "fuzz_common.h"

/* a + b mod n for a, b < n, without overflow. */
static uint64_t addmod(uint64_t a, uint64_t b, uint64_t n)
{
    uint64_t s = a + b;
    return (s < a || s >= n) ? s - n : s;
}

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t n)
{
    uint64_t r = 0;
    for (int i = 63; i >= 0; i--) {
        r = addmod(r, r, n);
        if (b >> i & 1)
            r = addmod(r, a, n);
    }
    return r;
}

/* Value of the big-endian bytes when it fits 64 bits, else 0 with *big. */
static uint64_t be64(const uint8_t *p, size_t n, int *big)
{
    uint64_t v = 0;
    *big = 0;
    for (size_t i = 0; i < n; i++) {
        if (v >> 56)
            *big = 1;
        v = v << 8 | p[i];
    }
    return v;
}

/* Compare the big-endian a (alen) with b (blen): <0, 0, >0. */
static int cmp_be(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    while (alen && !*a)
        a++, alen--;
    while (blen && !*b)
        b++, blen--;
    if (alen != blen)
        return alen < blen ? -1 : 1;
    return alen ? memcmp(a, b, alen) : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t n[IC_BN_MAX_BYTES + 8], b[IC_BN_MAX_BYTES + 8], e[IC_BN_MAX_BYTES + 8];
    static uint8_t r1[IC_BN_MAX_BYTES], r2[IC_BN_MAX_BYTES], ref[IC_BN_MAX_BYTES];
    fz_in in = { data, size };
    uint8_t mode = fz_u8(&in);
    size_t nlen, blen, elen;
    if (mode & 1) {                 /* big: expanded from a seed, made odd */
        nlen = 1 + fz_upto(&in, IC_BN_MAX_BYTES + 1);
        blen = fz_upto(&in, nlen);
        elen = fz_upto(&in, 8);     /* short: an 8192-bit exponentiation is slow under ASan */
        fz_expand(n, nlen, fz_u64(&in));
        fz_expand(b, blen, fz_u64(&in));
        fz_take(&in, e, elen);
        if (mode & 2)
            n[nlen - 1] |= 1;
        if (blen == nlen && (mode & 4))
            b[0] = 0;
    } else {
        nlen = fz_upto(&in, 72);
        blen = fz_upto(&in, 72);
        elen = fz_upto(&in, 72);
        fz_take(&in, n, nlen);
        fz_take(&in, b, blen);
        fz_take(&in, e, elen);
    }

    /* the status the headers promise */
    size_t lead = 0;
    while (lead < nlen && n[lead] == 0)
        lead++;
    size_t nbytes = nlen - lead;
    int nbits = 0;
    if (nbytes)
        for (unsigned v = n[lead]; v; v >>= 1)
            nbits++;
    size_t bits = nbytes ? (nbytes - 1) * 8 + (size_t)nbits : 0;
    int odd = nlen && (n[nlen - 1] & 1);
    int want_init = bits < 2 || bits > IC_BN_MAX_BITS || (bits == 2 && !odd) ? IC_ERR_MODULUS
                    : !odd                                                   ? IC_ERR_EVEN
                                                                             : IC_OK;
    int ezero = 1;
    for (size_t i = 0; i < elen; i++)
        ezero &= e[i] == 0;
    int want = blen > nbytes                                  ? IC_ERR_SIZE
               : cmp_be(b, blen, n + lead, nbytes) >= 0       ? IC_ERR_RANGE
               : ezero                                        ? IC_ERR_EXPONENT
                                                              : IC_OK;

    int wide = 0, have_ref = 0, bwide;
    uint64_t nv = be64(n, nlen, &wide);
    if (!wide && want_init == IC_OK && want == IC_OK) {   /* base < n: it fits too */
        uint64_t bv = be64(b, blen, &bwide), acc = 1 % nv;
        for (size_t i = 0; i < elen; i++)
            for (int k = 7; k >= 0; k--) {
                acc = mulmod(acc, acc, nv);
                if (e[i] >> k & 1)
                    acc = mulmod(acc, bv, nv);
            }
        for (size_t i = 0; i < nbytes; i++)
            ref[nbytes - 1 - i] = (uint8_t)(i < 8 ? acc >> (8 * i) : 0);
        have_ref = 1;
    }

    const char *prim = "montmul";
    int first = 1;
    for (size_t i = 0; i < ic_impl_count(prim); i++) {
        if (!ic_impl_available(prim, i))
            continue;
        fz_select(prim, i);
        ic_mont_ctx c;
        int st = ic_mont_init(&c, nlen ? n : NULL, nlen);
        FZ_CHECK(st == want_init, "%s: ic_mont_init gave %d, want %d (%zu bytes)", ic_impl_name(prim, i), st,
                 want_init, nlen);
        if (st != IC_OK)
            continue;
        FZ_CHECK(ic_mont_size(&c) == nbytes, "%s: size", ic_impl_name(prim, i));
        int s1 = ic_mont_modexp(&c, r1, nbytes, blen ? b : NULL, blen, elen ? e : NULL, elen);
        int s2 = ic_mont_modexp_public(&c, r2, nbytes, blen ? b : NULL, blen, elen ? e : NULL, elen);
        FZ_CHECK(s1 == want && s2 == want, "%s: statuses %d %d, want %d", ic_impl_name(prim, i), s1, s2, want);
        if (want == IC_OK) {
            FZ_CHECK_MEM(r2, r1, nbytes, "modexp_public = modexp");
            if (have_ref)
                FZ_CHECK_MEM(r1, ref, nbytes, "modexp = 64-bit reference");
            if (first)
                memcpy(ref, r1, nbytes), have_ref = 1;   /* later backends against the first */
        }
        first = 0;
        ic_mont_wipe(&c);
    }
    fz_select_auto(prim);
    return 0;
}
