/*
 * test_hmac_cavp.c - HMAC and HKDF against the RFC test vectors as shipped
 * in the cryptography-vectors package: HMAC/rfc-2202-sha1.txt,
 * HMAC/rfc-4231-sha{224,256,384,512}.txt, KDF/rfc-5869-HKDF-SHA{1,256}.txt.
 *
 * The HMAC files hold Key, Msg and the full MD (their "Len" field is not a
 * message length and is ignored).  The HKDF files put a blank line inside
 * some records (between L and PRK), so fields are gathered from COUNT up to
 * OKM.  Each set runs with every implementation of the underlying hash, and
 * the number of records is checked so a short file cannot pass.
 */
#define _POSIX_C_SOURCE 200809L   /* strdup */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

static const char *prim_of(ic_hash_alg alg)
{
    return alg == IC_HASH_SHA1 ? "sha1"
           : alg == IC_HASH_SHA224 || alg == IC_HASH_SHA256 ? "sha256" : "sha512";
}

/* ---- HMAC ---------------------------------------------------------------- */
static const struct { const char *file; ic_hash_alg alg; int records; } HMAC_FILES[] = {
    { "rfc-2202-sha1.txt",   IC_HASH_SHA1,   7 },
    { "rfc-4231-sha224.txt", IC_HASH_SHA224, 6 },
    { "rfc-4231-sha256.txt", IC_HASH_SHA256, 6 },
    { "rfc-4231-sha384.txt", IC_HASH_SHA384, 6 },
    { "rfc-4231-sha512.txt", IC_HASH_SHA512, 6 },
};

static void hmac_impl(const char *impl, void *arg)
{
    const char *prim = arg;
    for (size_t f = 0; f < sizeof HMAC_FILES / sizeof HMAC_FILES[0]; f++) {
        ic_hash_alg alg = HMAC_FILES[f].alg;
        size_t dn = ic_hash_digest_size(alg);
        int n = 0;
        if (strcmp(prim_of(alg), prim) != 0)
            continue;
        tl_rsp *r = tl_rsp_openf("%s/HMAC/%s", tl_cavp_dir(), HMAC_FILES[f].file);
        tl_rec rec;
        while (tl_rsp_next(r, &rec)) {
            const char *kh = tl_get(&rec, "Key"), *mh = tl_get(&rec, "Msg"), *dh = tl_get(&rec, "MD");
            uint8_t *key, *msg, want[IC_HASH_MAX_DIGEST_SIZE], got[IC_HASH_MAX_DIGEST_SIZE];
            size_t klen = 0, mlen = 0;
            if (!kh && !mh && !dh)
                continue;
            key = kh ? tl_hex_alloc(kh, &klen) : NULL;
            msg = mh ? tl_hex_alloc(mh, &mlen) : NULL;
            if (CHECK(key && msg && dh && tl_hex(want, sizeof want, dh) == (long)dn,
                      "%s line %ld: bad record", tl_rsp_path(r), rec.line)) {
                CHECK(ic_hmac(alg, got, sizeof got, msg, mlen, key, klen) == IC_OK, "ic_hmac");
                CHECK_MEM(got, want, dn, "HMAC-%s/%s %s line %ld", ic_hash_name(alg), impl,
                          HMAC_FILES[f].file, rec.line);
                CHECK(ic_hmac_verify(alg, want, dn, msg, mlen, key, klen) == IC_OK,
                      "verify %s line %ld", HMAC_FILES[f].file, rec.line);
                n++;
            }
            free(key);
            free(msg);
        }
        tl_rsp_close(r);
        CHECK(n == HMAC_FILES[f].records, "%s: %d records, expected %d", HMAC_FILES[f].file, n,
              HMAC_FILES[f].records);
    }
}

/* ---- HKDF ---------------------------------------------------------------- */
typedef struct {
    char *ikm, *salt, *info, *l, *prk, *okm, *hash;
} hkdf_rec;

static void hkdf_clear(hkdf_rec *h)
{
    free(h->ikm); free(h->salt); free(h->info); free(h->l); free(h->prk); free(h->okm); free(h->hash);
    memset(h, 0, sizeof *h);
}

static void take(char **dst, const tl_rec *rec, const char *name)
{
    const char *v = tl_get(rec, name);
    if (v) {
        free(*dst);
        *dst = strdup(v);
    }
}

static void hkdf_check(const hkdf_rec *h, const char *impl, const char *path)
{
    ic_hash_alg alg = strcmp(h->hash, "SHA-256") == 0 ? IC_HASH_SHA256 : IC_HASH_SHA1;
    size_t ikmlen, saltlen, infolen, prklen, okmlen, dn = ic_hash_digest_size(alg);
    uint8_t *ikm = tl_hex_alloc(h->ikm, &ikmlen), *salt = tl_hex_alloc(h->salt, &saltlen);
    uint8_t *info = tl_hex_alloc(h->info, &infolen), *prk = tl_hex_alloc(h->prk, &prklen);
    uint8_t *okm = tl_hex_alloc(h->okm, &okmlen);
    uint8_t gotprk[IC_HASH_MAX_DIGEST_SIZE], *got;
    long l = strtol(h->l, NULL, 10);

    if (CHECK(ikm && salt && info && prk && okm && prklen == dn && (size_t)l == okmlen,
              "%s: bad HKDF record", path)) {
        got = malloc(okmlen + 1);
        CHECK(ic_hkdf_extract(alg, gotprk, sizeof gotprk, salt, saltlen, ikm, ikmlen) == IC_OK,
              "extract");
        CHECK_MEM(gotprk, prk, dn, "HKDF-%s/%s PRK (%s)", ic_hash_name(alg), impl, path);
        CHECK(ic_hkdf_expand(alg, got, okmlen, info, infolen, prk, prklen) == IC_OK, "expand");
        CHECK_MEM(got, okm, okmlen, "HKDF-%s/%s OKM expand (%s)", ic_hash_name(alg), impl, path);
        memset(got, 0, okmlen);
        CHECK(ic_hkdf(alg, got, okmlen, info, infolen, salt, saltlen, ikm, ikmlen) == IC_OK, "hkdf");
        CHECK_MEM(got, okm, okmlen, "HKDF-%s/%s OKM one-shot (%s)", ic_hash_name(alg), impl, path);
        free(got);
    }
    free(ikm); free(salt); free(info); free(prk); free(okm);
}

static int hkdf_file(const char *name, const char *impl)
{
    tl_rsp *r = tl_rsp_openf("%s/KDF/%s", tl_cavp_dir(), name);
    hkdf_rec h = {0};
    tl_rec rec;
    int n = 0;

    while (tl_rsp_next(r, &rec)) {
        if (tl_has(&rec, "COUNT"))
            hkdf_clear(&h);
        take(&h.hash, &rec, "Hash"); take(&h.ikm, &rec, "IKM"); take(&h.salt, &rec, "salt");
        take(&h.info, &rec, "info"); take(&h.l, &rec, "L"); take(&h.prk, &rec, "PRK");
        take(&h.okm, &rec, "OKM");
        if (!h.okm)
            continue;
        if (CHECK(h.hash && h.ikm && h.salt && h.info && h.l && h.prk,
                  "%s line %ld: incomplete HKDF record", tl_rsp_path(r), rec.line)) {
            hkdf_check(&h, impl, tl_rsp_path(r));
            n++;
        }
        hkdf_clear(&h);
    }
    hkdf_clear(&h);
    tl_rsp_close(r);
    return n;
}

static void hkdf_impl(const char *impl, void *arg)
{
    int n;
    if (strcmp(arg, "sha1") == 0) {
        n = hkdf_file("rfc-5869-HKDF-SHA1.txt", impl);
        CHECK(n == 4, "rfc-5869-HKDF-SHA1.txt: %d records, expected 4 (A.4-A.7)", n);
    } else {
        n = hkdf_file("rfc-5869-HKDF-SHA256.txt", impl);
        CHECK(n == 3, "rfc-5869-HKDF-SHA256.txt: %d records, expected 3 (A.1-A.3)", n);
    }
}

int main(void)
{
    static const char *prims[] = { "sha1", "sha256", "sha512" };
    for (int i = 0; i < 3; i++)
        CHECK(tl_for_each_impl(prims[i], hmac_impl, (void *)prims[i]) >= 1, "%s: nothing ran", prims[i]);
    CHECK(tl_for_each_impl("sha1", hkdf_impl, "sha1") >= 1, "sha1: nothing ran");
    CHECK(tl_for_each_impl("sha256", hkdf_impl, "sha256") >= 1, "sha256: nothing ran");
    return tl_finish();
}
