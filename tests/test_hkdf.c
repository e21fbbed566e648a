/*
 * test_hkdf.c - HKDF: the RFC 5869 appendix A known answers
 * (tests/vectors/hkdf_kat.txt, with A.7's "salt not provided" as a NULL
 * salt), a check against the definition of RFC 5869 section 2 built from
 * ic_hmac for every hash and many output lengths up to 255 * HashLen, and
 * bad input with exact statuses (extract's PRK capacity included).
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

static const ic_hash_alg ALL[IC_HASH_COUNT] = {
    IC_HASH_SHA1, IC_HASH_SHA224, IC_HASH_SHA256, IC_HASH_SHA384,
    IC_HASH_SHA512, IC_HASH_SHA512_224, IC_HASH_SHA512_256,
};

static void test_kat(void)
{
    tl_rsp *r = tl_rsp_openf("%s/hkdf_kat.txt", tl_data_dir());
    tl_rec rec;
    int n = 0;

    while (tl_rsp_next(r, &rec)) {
        ic_hash_alg alg;
        uint8_t ikm[128], salt[128], info[128], prk[64], okm[128], got[128 + 8], gotprk[64];
        const char *a = tl_get(&rec, "Alg"), *s = tl_get(&rec, "Salt"), *l = tl_get(&rec, "L");
        long ikml = tl_has(&rec, "IKM") ? tl_hex(ikm, sizeof ikm, tl_get(&rec, "IKM")) : -1;
        long infol = tl_has(&rec, "Info") ? tl_hex(info, sizeof info, tl_get(&rec, "Info")) : -1;
        long prkl = tl_has(&rec, "PRK") ? tl_hex(prk, sizeof prk, tl_get(&rec, "PRK")) : -1;
        long okml = tl_has(&rec, "OKM") ? tl_hex(okm, sizeof okm, tl_get(&rec, "OKM")) : -1;
        long saltl = s ? tl_hex(salt, sizeof salt, s) : 0;
        if (!CHECK(a && ic_hash_from_name(&alg, a) == IC_OK && ikml >= 0 && infol >= 0
                   && prkl == (long)ic_hash_digest_size(alg) && okml > 0 && saltl >= 0
                   && l && strtol(l, NULL, 10) == okml,
                   "hkdf_kat.txt line %ld: bad record", rec.line))
            continue;
        const uint8_t *sp = s ? salt : NULL;   /* no Salt line: not provided */

        CHECK(ic_hkdf_extract(alg, gotprk, (size_t)prkl, sp, (size_t)saltl, ikm, (size_t)ikml) == IC_OK,
              "extract");
        CHECK_MEM(gotprk, prk, (size_t)prkl, "PRK line %ld", rec.line);
        memset(got, 0xa5, sizeof got);
        CHECK(ic_hkdf_expand(alg, got, (size_t)okml, info, (size_t)infol, prk, (size_t)prkl) == IC_OK,
              "expand");
        CHECK_MEM(got, okm, (size_t)okml, "OKM line %ld", rec.line);
        CHECK(got[okml] == 0xa5, "expand wrote past okm + L");
        memset(got, 0, sizeof got);
        CHECK(ic_hkdf(alg, got, (size_t)okml, info, (size_t)infol, sp, (size_t)saltl, ikm,
                      (size_t)ikml) == IC_OK, "hkdf");
        CHECK_MEM(got, okm, (size_t)okml, "OKM one-shot line %ld", rec.line);
        n++;
    }
    tl_rsp_close(r);
    CHECK(n == 7, "hkdf_kat.txt: %d records, expected 7", n);
}

/* RFC 5869 2.2 and 2.3 spelled out with ic_hmac. */
static void hkdf_by_definition(ic_hash_alg alg, const uint8_t *salt, size_t saltlen,
                               const uint8_t *ikm, size_t ikmlen, const uint8_t *info,
                               size_t infolen, uint8_t *okm, size_t okmlen)
{
    size_t dn = ic_hash_digest_size(alg), done = 0;
    uint8_t zeros[64] = {0}, prk[64], t[64];
    uint8_t *buf = tl_xmalloc(dn + infolen + 1);
    int st = ic_hmac(alg, prk, sizeof prk, ikm, ikmlen, saltlen ? salt : zeros, saltlen ? saltlen : dn);

    for (unsigned i = 1; st == IC_OK && done < okmlen; i++) {
        size_t blen = 0;
        if (i > 1) {
            memcpy(buf, t, dn);
            blen = dn;
        }
        memcpy(buf + blen, info, infolen);
        blen += infolen;
        buf[blen++] = (uint8_t)i;
        st = ic_hmac(alg, t, sizeof t, buf, blen, prk, dn);
        size_t k = okmlen - done < dn ? okmlen - done : dn;
        memcpy(okm + done, t, k);
        done += k;
    }
    if (st != IC_OK)
        CHECK(0, "HKDF-%s by definition: status %d", ic_hash_name(alg), st);
    free(buf);
}

static void test_definition(void)
{
    uint8_t salt[200], ikm[100], info[100], want[255 * 64], got[255 * 64 + 8];

    for (int a = 0; a < IC_HASH_COUNT; a++) {
        ic_hash_alg alg = ALL[a];
        size_t dn = ic_hash_digest_size(alg), max = 255 * dn;
        size_t lens[] = { 0, 1, dn - 1, dn, dn + 1, 2 * dn, 3 * dn + 7, max - 1, max,
                          tl_rand_below((uint32_t)max + 1) };
        for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            size_t sl = tl_rand_below(sizeof salt + 1), il = tl_rand_below(sizeof ikm + 1);
            size_t nl = tl_rand_below(sizeof info + 1), L = lens[i];
            tl_rand_bytes(salt, sl);
            tl_rand_bytes(ikm, il);
            tl_rand_bytes(info, nl);
            hkdf_by_definition(alg, salt, sl, ikm, il, info, nl, want, L);
            memset(got, 0xa5, sizeof got);
            CHECK(ic_hkdf(alg, got, L, info, nl, salt, sl, ikm, il) == IC_OK,
                  "HKDF-%s L=%zu", ic_hash_name(alg), L);
            CHECK_MEM(got, want, L, "HKDF-%s L=%zu salt %zu ikm %zu info %zu", ic_hash_name(alg),
                      L, sl, il, nl);
            CHECK(got[L] == 0xa5 && got[L + 7] == 0xa5, "HKDF-%s wrote past okm + %zu",
                  ic_hash_name(alg), L);
        }
        /* the empty salt and a NULL salt are HashLen zero bytes */
        uint8_t zeros[64] = {0}, p1[64], p2[64], p3[64];
        CHECK(ic_hkdf_extract(alg, p1, sizeof p1, NULL, 0, ikm, 20) == IC_OK
              && ic_hkdf_extract(alg, p2, dn, salt, 0, ikm, 20) == IC_OK
              && ic_hkdf_extract(alg, p3, sizeof p3, zeros, dn, ikm, 20) == IC_OK, "extract");
        CHECK_MEM(p1, p3, dn, "HKDF-%s NULL salt", ic_hash_name(alg));
        CHECK_MEM(p2, p3, dn, "HKDF-%s empty salt", ic_hash_name(alg));

        /* okm may be the prk buffer itself */
        uint8_t buf[64 * 3];
        tl_rand_bytes(buf, sizeof buf);
        CHECK(ic_hkdf_expand(alg, want, 3 * dn, info, 10, buf, dn) == IC_OK, "expand");
        CHECK(ic_hkdf_expand(alg, buf, 3 * dn, info, 10, buf, dn) == IC_OK, "expand in place");
        CHECK_MEM(buf, want, 3 * dn, "HKDF-%s expand with okm over prk", ic_hash_name(alg));
    }
}

static void test_bad_input(void)
{
    uint8_t prk[64] = {0}, okm[255 * 64 + 1], info[16] = {0}, ikm[8] = {0};
    const size_t n = 32, max = 255 * 32;

    CHECK(ic_hkdf_expand(IC_HASH_SHA256, okm, max, info, 16, prk, n) == IC_OK, "255 * HashLen");
    CHECK(ic_hkdf_expand(IC_HASH_SHA256, okm, max + 1, info, 16, prk, n) == IC_ERR_TOOLONG,
          "expand: 255 * HashLen + 1");
    CHECK(ic_hkdf(IC_HASH_SHA256, okm, max + 1, info, 16, NULL, 0, ikm, 8) == IC_ERR_TOOLONG,
          "hkdf: 255 * HashLen + 1");
    CHECK(ic_hkdf_expand(IC_HASH_SHA1, okm, 255 * 20 + 1, info, 16, prk, 20) == IC_ERR_TOOLONG,
          "sha1: 255 * 20 + 1");
    CHECK(ic_hkdf_expand(IC_HASH_SHA256, okm, 32, info, 16, prk, n - 1) == IC_ERR_KEYLEN,
          "prk shorter than HashLen");
    CHECK(ic_hkdf_expand(IC_HASH_SHA256, okm, 32, info, 16, prk, n + 5) == IC_OK, "longer prk");
    CHECK(ic_hkdf_expand(IC_HASH_SHA256, okm, 32, info, 16, NULL, n) == IC_ERR_NULL, "prk NULL");
    CHECK(ic_hkdf_expand(IC_HASH_SHA256, okm, 32, NULL, 16, prk, n) == IC_ERR_NULL, "info NULL, 16");
    CHECK(ic_hkdf_expand(IC_HASH_SHA256, okm, 32, NULL, 0, prk, n) == IC_OK, "info NULL, 0");
    CHECK(ic_hkdf_expand(IC_HASH_SHA256, NULL, 32, info, 16, prk, n) == IC_ERR_NULL, "okm NULL, 32");
    CHECK(ic_hkdf_expand(IC_HASH_SHA256, NULL, 0, info, 16, prk, n) == IC_OK, "okm NULL, 0");
    CHECK(ic_hkdf_expand((ic_hash_alg)IC_HASH_COUNT, okm, 32, info, 16, prk, n) == IC_ERR_PARAM,
          "expand: bad alg");
    CHECK(ic_hkdf_expand(IC_HASH_SHA256, okm, 32, okm + 8, 16, prk, n) == IC_ERR_OVERLAP,
          "expand: okm over info");
    CHECK(ic_hkdf_expand(IC_HASH_SHA256, okm, 32, okm, 16, prk, n) == IC_ERR_OVERLAP,
          "expand: okm == info");
    CHECK(ic_hkdf_expand(IC_HASH_SHA256, okm, 32, okm + 32, 16, prk, n) == IC_OK,
          "expand: info right after okm");
    CHECK(ic_hkdf(IC_HASH_SHA256, okm, 32, okm + 31, 16, NULL, 0, ikm, 8) == IC_ERR_OVERLAP,
          "hkdf: okm over info");
    CHECK(ic_hkdf_extract(IC_HASH_SHA256, NULL, 32, NULL, 0, ikm, 8) == IC_ERR_NULL, "extract prk NULL");
    CHECK(ic_hkdf_extract(IC_HASH_SHA256, prk, 32, NULL, 5, ikm, 8) == IC_ERR_NULL, "extract salt NULL, 5");
    CHECK(ic_hkdf_extract(IC_HASH_SHA256, prk, 32, NULL, 0, NULL, 8) == IC_ERR_NULL, "extract ikm NULL, 8");
    CHECK(ic_hkdf_extract((ic_hash_alg)-1, prk, 32, NULL, 0, ikm, 8) == IC_ERR_PARAM, "extract: bad alg");
    CHECK(ic_hkdf_extract((ic_hash_alg)-1, prk, 0, NULL, 0, ikm, 8) == IC_ERR_PARAM,
          "extract: bad alg before the capacity");
    CHECK(ic_hkdf_extract(IC_HASH_SHA256, NULL, 0, NULL, 0, ikm, 8) == IC_ERR_SIZE, "extract prk NULL, 0");
    memset(prk, 0x5a, sizeof prk);
    CHECK(ic_hkdf_extract(IC_HASH_SHA256, prk, 31, NULL, 0, ikm, 8) == IC_ERR_SIZE, "extract prklen 31");
    CHECK(ic_hkdf_extract(IC_HASH_SHA384, prk, 47, NULL, 0, ikm, 8) == IC_ERR_SIZE, "extract prklen 47");
    CHECK(tl_all_byte(prk, sizeof prk, 0x5a), "a refused extract writes nothing");
    CHECK(ic_hkdf_extract(IC_HASH_SHA256, prk, sizeof prk, NULL, 0, ikm, 8) == IC_OK, "extract prklen 64");
    CHECK(tl_all_byte(prk + 32, sizeof prk - 32, 0x5a), "extract writes HashLen bytes only");
    CHECK(ic_hkdf((ic_hash_alg)-1, okm, 32, info, 16, NULL, 0, ikm, 8) == IC_ERR_PARAM, "hkdf: bad alg");
    CHECK(ic_hkdf(IC_HASH_SHA256, NULL, 32, info, 16, NULL, 0, ikm, 8) == IC_ERR_NULL, "hkdf: okm NULL");
    CHECK(ic_hkdf(IC_HASH_SHA256, okm, 32, info, 16, NULL, 0, NULL, 8) == IC_ERR_NULL, "hkdf: ikm NULL");
    CHECK(ic_hkdf(IC_HASH_SHA256, okm, 32, NULL, 16, NULL, 0, ikm, 8) == IC_ERR_NULL, "hkdf: info NULL");
}

int main(void)
{
    test_kat();
    test_definition();
    test_bad_input();
    return tl_finish();
}
