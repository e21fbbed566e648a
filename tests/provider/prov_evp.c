/*
 * prov_evp.c - the incore OpenSSL provider through EVP, in its own library
 * context with the providers "incore" and "default" loaded.  Every
 * implementation under test is fetched with "provider=incore", so a
 * fallback to OpenSSL's own code cannot pass.
 *
 *  1. known answers: CAVP AES ECB/CBC/CFB128/OFB (MMT, VarTxt), RFC 3686
 *     CTR, GCM (gcmEncryptExtIV, gcmDecrypt), XTS (XTSGenAES), SHA-1/SHA-2
 *     (ShortMsg, LongMsg), ChaCha20-Poly1305 (BoringSSL's set and RFC 8439
 *     vectors), ChaCha20 keystream blocks of RFC 8439, HMAC (RFC 2202,
 *     RFC 4231), HKDF's three modes (RFC 5869), Poly1305 (tests/vectors);
 *  2. incore against default on random inputs: every length 0..300 split
 *     at a random point, every split point of a 300-byte message, every
 *     chunking of a 9-byte one; updated IVs, tags, dupctx mid-message;
 *  3. the TLS 1.2 record modes against default, in both directions: AEAD
 *     (TLS1_AAD, fixed IV, explicit IV) and CBC (padding and MAC removed);
 *  4. bad input: an error on the queue, never a crash; the DRBG.
 *
 * Usage: prov_evp <directory of incore.so>
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/provider.h>

#include "testlib.h"

static OSSL_LIB_CTX *lib;

static EVP_CIPHER *cipher(const char *name, const char *prov)
{
    char q[64];
    snprintf(q, sizeof q, "provider=%s", prov);
    EVP_CIPHER *c = EVP_CIPHER_fetch(lib, name, q);
    CHECK(c != NULL, "fetch %s from %s", name, prov);
    return c;
}

/* ---- a whole message through EVP, in the chunks of cuts[] ---------------- */

typedef struct {
    const uint8_t *key, *iv, *aad, *tag;
    size_t ivlen, aadlen, taglen;
    int pad;                  /* -1: leave the default */
} msgspec;

/* Returns the output length, or -1 when a call failed (tag out on
 * encryption when taglen > 0; checked on decryption). */
static long run(EVP_CIPHER *c, int enc, const msgspec *m, const uint8_t *in, size_t len, uint8_t *out,
                uint8_t *tagout, const size_t *cuts, size_t ncuts, uint8_t *updated_iv)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    long total = -1;
    int ol;
    size_t pos = 0;
    OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
    size_t ivlen = m->ivlen;
    if (m->ivlen != 0 && EVP_CIPHER_get_mode(c) == EVP_CIPH_GCM_MODE) {
        p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen);
    }
    if (!EVP_CipherInit_ex2(x, c, m->key, NULL, enc, p) || !EVP_CipherInit_ex2(x, NULL, NULL, m->iv, enc, NULL))
        goto done;
    if (m->pad >= 0)
        EVP_CIPHER_CTX_set_padding(x, m->pad);
    if (!enc && m->tag != NULL && !EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)m->taglen, (void *)m->tag))
        goto done;
    if (m->aadlen > 0 && !EVP_CipherUpdate(x, NULL, &ol, m->aad, (int)m->aadlen))
        goto done;
    total = 0;
    for (size_t i = 0; i <= ncuts; i++) {
        size_t end = i < ncuts ? cuts[i] : len;
        if (!EVP_CipherUpdate(x, out + total, &ol, in + pos, (int)(end - pos))) {
            total = -1;
            goto done;
        }
        total += ol, pos = end;
    }
    if (!EVP_CipherFinal_ex(x, out + total, &ol)) {
        total = -1;
        goto done;
    }
    total += ol;
    if (enc && tagout != NULL && !EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, (int)m->taglen, tagout))
        total = -1;
    if (updated_iv != NULL && !EVP_CIPHER_CTX_get_updated_iv(x, updated_iv, 16))
        total = -1;
done:
    EVP_CIPHER_CTX_free(x);
    return total;
}

/* ---- 1. known answers ------------------------------------------------------ */

/* A hex field, or a quoted string taken literally. */
static uint8_t *field(const tl_rec *r, const char *name, size_t *len)
{
    const char *v = tl_get(r, name);
    *len = 0;
    if (v == NULL)
        return NULL;
    if (v[0] == '"') {
        size_t n = strlen(v);
        uint8_t *b = tl_xmalloc(n);
        *len = n >= 2 ? n - 2 : 0;
        memcpy(b, v + 1, *len);
        return b;
    }
    if (strcmp(v, "") == 0)
        return tl_xmalloc(1);
    return tl_hex_alloc(v, len);
}

static int kat_cipher(const char *alg, const char *file, const char *kf, const char *ivf, const char *ptf,
                      const char *ctf)
{
    EVP_CIPHER *c = cipher(alg, "incore");
    tl_rsp *r = tl_rsp_openf("%s/ciphers/AES/%s", tl_cavp_dir(), file);
    tl_rec rec;
    int n = 0;
    while (c != NULL && tl_rsp_next(r, &rec)) {
        size_t kl, ivl, pl, cl;
        uint8_t *k = field(&rec, kf, &kl), *iv = ivf ? field(&rec, ivf, &ivl) : NULL;
        uint8_t *pt = field(&rec, ptf, &pl), *ct = field(&rec, ctf, &cl);
        const char *dul = tl_get(&rec, "DataUnitLen");
        if (dul != NULL && atol(dul) % 8 != 0) {
            free(k); free(iv); free(pt); free(ct);
            continue;          /* bit-granular XTS units: not in OpenSSL's API */
        }
        int dec = strstr(rec.section, "DECRYPT") != NULL;
        uint8_t *out = tl_xmalloc(pl + 32);
        msgspec m = { .key = k, .iv = iv, .pad = 0 };
        size_t cut = pl / 2;
        long got = run(c, !dec, &m, dec ? ct : pt, pl, out, NULL, &cut,
                       EVP_CIPHER_get_mode(c) == EVP_CIPH_XTS_MODE ? 0 : 1, NULL);
        CHECK(got == (long)pl, "%s %s line %ld: length %ld", alg, file, rec.line, got);
        if (got == (long)pl)
            CHECK_MEM(out, dec ? pt : ct, pl, "%s %s line %ld", alg, file, rec.line);
        n++;
        free(k); free(iv); free(pt); free(ct); free(out);
    }
    tl_rsp_close(r);
    EVP_CIPHER_free(c);
    CHECK(n > 0, "%s: no records in %s", alg, file);
    return n;
}

static void kat_aes_modes(void)
{
    static const char *modes[] = { "ECB", "CBC", "CFB128", "OFB" };
    static const char *evp[] = { "ECB", "CBC", "CFB", "OFB" };
    static const char *kinds[] = { "MMT", "VarTxt" };
    int n = 0;
    for (int m = 0; m < 4; m++)
        for (int bits = 128; bits <= 256; bits += 64)
            for (int k = 0; k < 2; k++) {
                char file[96], alg[32];
                snprintf(file, sizeof file, "%s/%s%s%d.rsp", m == 2 ? "CFB" : evp[m], modes[m], kinds[k], bits);
                snprintf(alg, sizeof alg, "AES-%d-%s", bits, evp[m]);
                n += kat_cipher(alg, file, "KEY", m == 0 ? NULL : "IV", "PLAINTEXT", "CIPHERTEXT");
            }
    for (int bits = 128; bits <= 256; bits += 64) {
        char file[64], alg[32];
        snprintf(file, sizeof file, "CTR/aes-%d-ctr.txt", bits);
        snprintf(alg, sizeof alg, "AES-%d-CTR", bits);
        n += kat_cipher(alg, file, "KEY", "IV", "PLAINTEXT", "CIPHERTEXT");
    }
    n += kat_cipher("AES-128-XTS", "XTS/tweak-128hexstr/XTSGenAES128.rsp", "Key", "i", "PT", "CT");
    n += kat_cipher("AES-256-XTS", "XTS/tweak-128hexstr/XTSGenAES256.rsp", "Key", "i", "PT", "CT");
    printf("AES ECB/CBC/CFB128/OFB/CTR/XTS known answers: %d records\n", n);
}

static void kat_gcm(void)
{
    static const char *files[] = { "gcmEncryptExtIV128.rsp", "gcmEncryptExtIV192.rsp", "gcmEncryptExtIV256.rsp",
                                   "gcmDecrypt128.rsp", "gcmDecrypt192.rsp", "gcmDecrypt256.rsp" };
    int n = 0, forged = 0;
    for (int f = 0; f < 6; f++) {
        char alg[32];
        int dec = f >= 3;
        snprintf(alg, sizeof alg, "AES-%d-GCM", 128 + 64 * (f % 3));
        EVP_CIPHER *c = cipher(alg, "incore");
        tl_rsp *r = tl_rsp_openf("%s/ciphers/AES/GCM/%s", tl_cavp_dir(), files[f]);
        tl_rec rec;
        while (c != NULL && tl_rsp_next(r, &rec)) {
            size_t kl, ivl, al, pl, cl, tl;
            uint8_t *k = field(&rec, "Key", &kl), *iv = field(&rec, "IV", &ivl), *aad = field(&rec, "AAD", &al);
            uint8_t *pt = field(&rec, "PT", &pl), *ct = field(&rec, "CT", &cl), *tag = field(&rec, "Tag", &tl);
            int fail = tl_has(&rec, "FAIL");
            uint8_t *out = tl_xmalloc(cl + 16), t[16];
            msgspec m = { .key = k, .iv = iv, .ivlen = ivl, .aad = aad, .aadlen = al, .tag = tag, .taglen = tl,
                          .pad = -1 };
            size_t cut = cl / 3;
            long got = run(c, !dec, &m, dec ? ct : pt, cl, out, t, &cut, 1, NULL);
            if (fail) {
                CHECK(got < 0 && ERR_peek_error() != 0, "%s line %ld: forgery accepted", files[f], rec.line);
                forged++;
            } else if (CHECK(got == (long)cl, "%s line %ld: failed", files[f], rec.line)) {
                CHECK_MEM(out, dec ? pt : ct, cl, "%s line %ld: data", files[f], rec.line);
                if (!dec)
                    CHECK_MEM(t, tag, tl, "%s line %ld: tag", files[f], rec.line);
            }
            ERR_clear_error();
            n++;
            free(k); free(iv); free(aad); free(pt); free(ct); free(tag); free(out);
        }
        tl_rsp_close(r);
        EVP_CIPHER_free(c);
    }
    CHECK(n > 40000 && forged > 1000, "GCM: %d records, %d forgeries", n, forged);
    printf("AES-GCM known answers: %d records, %d forgeries refused\n", n, forged);
}

static void kat_chacha_poly(void)
{
    EVP_CIPHER *c = cipher("ChaCha20-Poly1305", "incore");
    tl_rsp *r = tl_rsp_openf("%s/ciphers/ChaCha20Poly1305/boringssl.txt", tl_cavp_dir());
    tl_rec rec;
    int n = 0;
    while (c != NULL && tl_rsp_next(r, &rec)) {
        size_t kl, nl, pl, al, cl, tl;
        uint8_t *k = field(&rec, "KEY", &kl), *iv = field(&rec, "NONCE", &nl), *pt = field(&rec, "IN", &pl);
        uint8_t *aad = field(&rec, "AD", &al), *ct = field(&rec, "CT", &cl), *tag = field(&rec, "TAG", &tl);
        uint8_t *out = tl_xmalloc(pl + 16), t[16];
        if (nl == 12 && tl == 16) {
            msgspec m = { .key = k, .iv = iv, .ivlen = 12, .aad = aad, .aadlen = al, .tag = tag, .taglen = 16,
                          .pad = -1 };
            size_t cut = pl / 2;
            long got = run(c, 1, &m, pt, pl, out, t, &cut, 1, NULL);
            if (CHECK(got == (long)pl, "boringssl.txt line %ld: seal", rec.line)) {
                CHECK_MEM(out, ct, cl, "boringssl.txt line %ld: ciphertext", rec.line);
                CHECK_MEM(t, tag, 16, "boringssl.txt line %ld: tag", rec.line);
            }
            got = run(c, 0, &m, ct, cl, out, NULL, &cut, 1, NULL);
            if (CHECK(got == (long)pl, "boringssl.txt line %ld: open", rec.line))
                CHECK_MEM(out, pt, pl, "boringssl.txt line %ld: plaintext", rec.line);
            n++;
        }
        free(k); free(iv); free(pt); free(aad); free(ct); free(tag); free(out);
    }
    tl_rsp_close(r);
    EVP_CIPHER_free(c);
    CHECK(n >= 60, "ChaCha20-Poly1305: %d records", n);
    printf("ChaCha20-Poly1305 known answers: %d records\n", n);
}

/* RFC 8439 keystream blocks ([BLOCK] of tests/vectors/chacha_kat.txt):
 * ChaCha20's 16-byte IV is the block counter (little-endian) || nonce. */
static void kat_chacha(void)
{
    EVP_CIPHER *c = cipher("ChaCha20", "incore");
    tl_rsp *r = tl_rsp_openf("%s/chacha_kat.txt", tl_data_dir());
    tl_rec rec;
    int n = 0;
    while (c != NULL && tl_rsp_next(r, &rec)) {
        if (strcmp(rec.section, "[BLOCK]") != 0)
            continue;
        size_t kl, nl, sl;
        uint8_t *k = field(&rec, "KEY", &kl), *nonce = field(&rec, "NONCE", &nl), *ks = field(&rec, "KEYSTREAM", &sl);
        uint32_t ctr = (uint32_t)atol(tl_get(&rec, "COUNTER"));
        uint8_t iv[16] = { (uint8_t)ctr, (uint8_t)(ctr >> 8), (uint8_t)(ctr >> 16), (uint8_t)(ctr >> 24) };
        memcpy(iv + 4, nonce, 12);
        uint8_t *zero = calloc(1, sl + 1), *out = tl_xmalloc(sl + 1);
        msgspec m = { .key = k, .iv = iv, .pad = -1 };
        size_t cut = sl / 3;
        if (CHECK(run(c, 1, &m, zero, sl, out, NULL, &cut, 1, NULL) == (long)sl, "chacha_kat line %ld", rec.line))
            CHECK_MEM(out, ks, sl, "chacha_kat line %ld: keystream", rec.line);
        n++;
        free(k); free(nonce); free(ks); free(zero); free(out);
    }
    tl_rsp_close(r);
    EVP_CIPHER_free(c);
    CHECK(n >= 4, "ChaCha20 keystream: %d records", n);
}

static void kat_digests(void)
{
    static const struct { const char *dir, *prefix, *evp; } ds[] = {
        { "SHA1", "SHA1", "SHA1" }, { "SHA2", "SHA224", "SHA224" }, { "SHA2", "SHA256", "SHA2-256" },
        { "SHA2", "SHA384", "SHA-384" }, { "SHA2", "SHA512", "SHA512" }, { "SHA2", "SHA512_224", "SHA2-512/224" },
        { "SHA2", "SHA512_256", "SHA512-256" },
    };
    int n = 0;
    for (size_t d = 0; d < sizeof ds / sizeof ds[0]; d++) {
        EVP_MD *md = EVP_MD_fetch(lib, ds[d].evp, "provider=incore");
        CHECK(md != NULL, "fetch %s from incore", ds[d].evp);
        for (int f = 0; md != NULL && f < 2; f++) {
            tl_rsp *r = tl_rsp_openf("%s/hashes/%s/%s%s.rsp", tl_cavp_dir(), ds[d].dir, ds[d].prefix,
                                     f ? "LongMsg" : "ShortMsg");
            tl_rec rec;
            while (tl_rsp_next(r, &rec)) {
                size_t ml, dl;
                uint8_t *msg = field(&rec, "Msg", &ml), *want = field(&rec, "MD", &dl), got[64];
                long bits = atol(tl_get(&rec, "Len"));
                unsigned gl = 0;
                EVP_MD_CTX *x = EVP_MD_CTX_new();
                size_t len = (size_t)bits / 8, cut = len / 3;
                int ok = EVP_DigestInit_ex2(x, md, NULL) && EVP_DigestUpdate(x, msg, cut)
                         && EVP_DigestUpdate(x, msg + cut, len - cut) && EVP_DigestFinal_ex(x, got, &gl);
                if (CHECK(ok && gl == dl, "%s line %ld", ds[d].evp, rec.line))
                    CHECK_MEM(got, want, dl, "%s line %ld", ds[d].evp, rec.line);
                EVP_MD_CTX_free(x);
                free(msg); free(want);
                n++;
            }
            tl_rsp_close(r);
        }
        EVP_MD_free(md);
    }
    printf("SHA-1/SHA-2 known answers: %d records\n", n);
}

/* HMAC (RFC 2202, RFC 4231), HKDF in its three modes (RFC 5869) and
 * Poly1305 (RFC 8439) known answers, from tests/vectors. */
static int mac_once(const char *alg, const char *digest, const char *prov, const uint8_t *key, size_t kl,
                    const uint8_t *msg, size_t ml, size_t cut, uint8_t *out, size_t *ol)
{
    char q[64];
    snprintf(q, sizeof q, "provider=%s", prov);
    EVP_MAC *m = EVP_MAC_fetch(lib, alg, q);
    EVP_MAC_CTX *x = m ? EVP_MAC_CTX_new(m) : NULL;
    OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
    if (digest != NULL)
        p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)digest, 0);
    int ok = x != NULL && EVP_MAC_init(x, key, kl, p) && EVP_MAC_update(x, msg, cut)
             && EVP_MAC_update(x, msg + cut, ml - cut) && EVP_MAC_final(x, out, ol, 64);
    EVP_MAC_CTX_free(x);
    EVP_MAC_free(m);
    return ok;
}

static void kat_mac_kdf(void)
{
    tl_rsp *r = tl_rsp_openf("%s/hmac_kat.txt", tl_data_dir());
    tl_rec rec;
    int n = 0;
    while (tl_rsp_next(r, &rec)) {
        size_t kl, dl, ml, ol = 0;
        uint8_t *k = field(&rec, "Key", &kl), *d = field(&rec, "Data", &dl), *mac = field(&rec, "MAC", &ml), out[64];
        if (CHECK(mac_once("HMAC", tl_get(&rec, "Alg"), "incore", k, kl, d, dl, dl / 2, out, &ol), "HMAC line %ld",
                  rec.line))
            CHECK_MEM(out, mac, ml, "HMAC line %ld", rec.line);
        n++;
        free(k); free(d); free(mac);
    }
    tl_rsp_close(r);
    r = tl_rsp_openf("%s/poly1305_kat.txt", tl_data_dir());
    while (tl_rsp_next(r, &rec)) {
        size_t kl, ml, tl, ol = 0;
        uint8_t *k = field(&rec, "KEY", &kl), *m = field(&rec, "MSG", &ml), *t = field(&rec, "TAG", &tl), out[64];
        if (CHECK(mac_once("POLY1305", NULL, "incore", k, kl, m, ml, ml / 3, out, &ol) && ol == 16,
                  "Poly1305 line %ld", rec.line))
            CHECK_MEM(out, t, 16, "Poly1305 line %ld", rec.line);
        n++;
        free(k); free(m); free(t);
    }
    tl_rsp_close(r);
    EVP_KDF *kdf = EVP_KDF_fetch(lib, "HKDF", "provider=incore");
    CHECK(kdf != NULL, "fetch HKDF from incore");
    r = tl_rsp_openf("%s/hkdf_kat.txt", tl_data_dir());
    while (kdf != NULL && tl_rsp_next(r, &rec)) {
        size_t il, sl = 0, nl, pl, ol;
        uint8_t *ikm = field(&rec, "IKM", &il), *salt = field(&rec, "Salt", &sl), *info = field(&rec, "Info", &nl);
        uint8_t *prk = field(&rec, "PRK", &pl), *okm = field(&rec, "OKM", &ol), out[128];
        const char *dg = tl_get(&rec, "Alg");
        for (int mode = 0; mode < 3; mode++) {
            EVP_KDF_CTX *x = EVP_KDF_CTX_new(kdf);
            OSSL_PARAM p[6], *q = p;
            *q++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)dg, 0);
            *q++ = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
            if (mode == EVP_KDF_HKDF_MODE_EXPAND_ONLY)
                *q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, prk, pl);
            else
                *q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, ikm, il);
            if (salt != NULL)
                *q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, salt, sl);
            *q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, info, nl);
            *q = OSSL_PARAM_construct_end();
            size_t len = mode == EVP_KDF_HKDF_MODE_EXTRACT_ONLY ? pl : ol;
            if (CHECK(x != NULL && EVP_KDF_derive(x, out, len, p) > 0, "HKDF line %ld mode %d", rec.line, mode))
                CHECK_MEM(out, mode == EVP_KDF_HKDF_MODE_EXTRACT_ONLY ? prk : okm, len, "HKDF line %ld mode %d",
                          rec.line, mode);
            EVP_KDF_CTX_free(x);
            n++;
        }
        free(ikm); free(salt); free(info); free(prk); free(okm);
    }
    tl_rsp_close(r);
    EVP_KDF_free(kdf);
    CHECK(n >= 14 + 11 + 21, "MAC and KDF known answers: %d", n);
    printf("HMAC, Poly1305, HKDF known answers: %d\n", n);
}

/* HMAC and Poly1305 against default: every length 0..300 with a random
 * cut, keys of 0..200 bytes; an HMAC context re-initialised without a key
 * and a copied one go on under the same key; HMAC over SHA3-256, which
 * incore hands to OpenSSL's own HMAC, still agrees. */
static void mac_differential(void)
{
    static const char *dg[] = { "SHA1", "SHA2-224", "SHA256", "SHA-384", "SHA512", "SHA512-256", "SHA3-256" };
    uint8_t msg[301], key[201], a[64], b[64];
    tl_rand_bytes(msg, sizeof msg);
    tl_rand_bytes(key, sizeof key);
    int n = 0;
    for (size_t d = 0; d < sizeof dg / sizeof dg[0]; d++)
        for (size_t len = 0; len <= 300; len += d == 6 ? 50 : 1) {
            size_t kl = tl_rand_below(201), la = 0, lb = 0, cut = tl_rand_below((uint32_t)len + 1);
            int ok = mac_once("HMAC", dg[d], "incore", key, kl, msg, len, cut, a, &la)
                     && mac_once("HMAC", dg[d], "default", key, kl, msg, len, 0, b, &lb);
            if (CHECK(ok && la == lb, "HMAC-%s len %zu", dg[d], len))
                CHECK_MEM(a, b, la, "HMAC-%s len %zu key %zu", dg[d], len, kl);
            n++;
        }
    for (size_t len = 0; len <= 300; len++) {
        size_t la = 0, lb = 0, cut = tl_rand_below((uint32_t)len + 1);
        int ok = mac_once("POLY1305", NULL, "incore", key, 32, msg, len, cut, a, &la)
                 && mac_once("POLY1305", NULL, "default", key, 32, msg, len, 0, b, &lb);
        if (CHECK(ok && la == 16 && lb == 16, "Poly1305 len %zu", len))
            CHECK_MEM(a, b, 16, "Poly1305 len %zu", len);
        n++;
    }
    /* re-init without a key, and dupctx */
    EVP_MAC *m = EVP_MAC_fetch(lib, "HMAC", "provider=incore");
    EVP_MAC_CTX *x = m ? EVP_MAC_CTX_new(m) : NULL, *y = NULL;
    OSSL_PARAM p[2] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA256", 0), OSSL_PARAM_END };
    size_t la = 0, lb = 0, lc = 0;
    uint8_t c[64];
    int ok = x && EVP_MAC_init(x, key, 40, p) && EVP_MAC_update(x, msg, 100) && EVP_MAC_final(x, a, &la, 64)
             && EVP_MAC_init(x, NULL, 0, NULL) && EVP_MAC_update(x, msg, 50) && (y = EVP_MAC_CTX_dup(x)) != NULL
             && EVP_MAC_update(x, msg + 50, 50) && EVP_MAC_final(x, b, &lb, 64)
             && EVP_MAC_update(y, msg + 50, 50) && EVP_MAC_final(y, c, &lc, 64);
    if (CHECK(ok && la == 32 && lb == 32 && lc == 32, "HMAC re-init and dupctx"))
        CHECK(memcmp(a, b, 32) == 0 && memcmp(a, c, 32) == 0, "HMAC: same key, same MAC after re-init and copy");
    ERR_clear_error();
    CHECK(x && EVP_MAC_update(x, msg, 1) == 0, "HMAC: update after final refused");
    ERR_clear_error();
    EVP_MAC_CTX_free(x);
    EVP_MAC_CTX_free(y);
    EVP_MAC_free(m);
    printf("HMAC and Poly1305 against default: %d messages\n", n);
}

/* ---- 2. incore against default ------------------------------------------- */

typedef struct {
    const char *name;
    int aead, stream, xts;
} algspec;

static const algspec algs[] = {
    { "AES-128-ECB", 0, 0, 0 }, { "AES-192-CBC", 0, 0, 0 }, { "AES-256-CBC", 0, 0, 0 },
    { "AES-128-CFB", 0, 1, 0 }, { "AES-256-OFB", 0, 1, 0 }, { "AES-192-CTR", 0, 1, 0 },
    { "AES-128-GCM", 1, 1, 0 }, { "AES-192-GCM", 1, 1, 0 }, { "AES-256-GCM", 1, 1, 0 },
    { "ChaCha20", 0, 1, 0 }, { "ChaCha20-Poly1305", 1, 1, 0 },
    { "AES-128-XTS", 0, 0, 1 }, { "AES-256-XTS", 0, 0, 1 },
};

/* One message both ways on both providers; the outputs (and the tag and
 * updated IV) must agree, and incore must decrypt its own output. */
static int compare_one(const algspec *a, EVP_CIPHER *ci, EVP_CIPHER *cd, const uint8_t *in, size_t len,
                       const size_t *cuts, size_t ncuts, int pad)
{
    uint8_t key[64], iv[16], aad[40], t1[16], t2[16], u1[16], u2[16];
    uint8_t *o1 = tl_xmalloc(len + 32), *o2 = tl_xmalloc(len + 32), *back = tl_xmalloc(len + 32);
    tl_rand_bytes(key, sizeof key);
    tl_rand_bytes(iv, sizeof iv);
    tl_rand_bytes(aad, sizeof aad);
    if (a->xts)
        key[0] ^= 0x55, key[32] = (uint8_t)~key[0];   /* halves differ */
    msgspec m = { .key = key, .iv = iv, .aad = aad, .aadlen = a->aead ? len % 40 : 0, .taglen = 16, .pad = pad };
    /* the updated IV of the chained AES modes (ChaCha20 has none) */
    int chained = a->stream && !a->aead && strncmp(a->name, "AES", 3) == 0;
    uint8_t *ui = chained ? u1 : NULL, *ud = chained ? u2 : NULL;
    long l1 = run(ci, 1, &m, in, len, o1, a->aead ? t1 : NULL, cuts, ncuts, ui);
    long l2 = run(cd, 1, &m, in, len, o2, a->aead ? t2 : NULL, cuts, ncuts, ud);
    int ok = CHECK(l1 == l2, "%s len %zu pad %d: lengths %ld and %ld", a->name, len, pad, l1, l2);
    if (ok && l1 >= 0) {
        ok &= CHECK_MEM(o1, o2, (size_t)l1, "%s len %zu: output", a->name, len);
        if (a->aead)
            ok &= CHECK_MEM(t1, t2, 16, "%s len %zu: tag", a->name, len);
        if (ui != NULL)
            ok &= CHECK_MEM(u1, u2, 16, "%s len %zu: updated IV", a->name, len);
        m.tag = t1;
        size_t dcuts[8];
        for (size_t i = 0; i < ncuts; i++)
            dcuts[i] = cuts[i] < (size_t)l1 ? cuts[i] : (size_t)l1;
        long lb = run(ci, 0, &m, o1, (size_t)l1, back, NULL, dcuts, ncuts, NULL);
        ok &= CHECK(lb == (long)len && memcmp(back, in, len) == 0, "%s len %zu: round trip", a->name, len);
    }
    ERR_clear_error();
    free(o1); free(o2); free(back);
    return ok;
}

static void differential(void)
{
    uint8_t *in = tl_xmalloc(301);
    tl_rand_bytes(in, 301);
    int n = 0;
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++) {
        EVP_CIPHER *ci = cipher(algs[a].name, "incore"), *cd = cipher(algs[a].name, "default");
        if (ci == NULL || cd == NULL)
            continue;
        int bm = !algs[a].stream && !algs[a].xts;
        /* every length 0..300, cut at a random point (block modes with
         * padding; without it the whole blocks) */
        for (size_t len = algs[a].xts ? 16 : 0; len <= 300; len++) {
            size_t cut = len ? tl_rand_below((uint32_t)len + 1) : 0;
            n += compare_one(&algs[a], ci, cd, in, len, &cut, algs[a].xts ? 0 : 1, bm ? 1 : -1);
            if (bm && len % 16 == 0)
                n += compare_one(&algs[a], ci, cd, in, len, &cut, 1, 0);
        }
        if (!algs[a].xts) {
            /* every split point of a 300-byte message, and every chunking
             * of a 9-byte one (2^8 ways) */
            for (size_t cut = 0; cut <= 300; cut++)
                n += compare_one(&algs[a], ci, cd, in, 300, &cut, 1, bm ? 1 : -1);
            for (unsigned mask = 0; mask < 256; mask++) {
                size_t cuts[8], nc = 0;
                for (unsigned b = 0; b < 8; b++)
                    if (mask >> b & 1)
                        cuts[nc++] = b + 1;
                n += compare_one(&algs[a], ci, cd, in, 9, cuts, nc, bm ? 1 : -1);
            }
        }
        EVP_CIPHER_free(ci);
        EVP_CIPHER_free(cd);
    }
    /* digests: every length 0..300 cut at a random point, and dupctx */
    static const char *mds[] = { "SHA1", "SHA224", "SHA256", "SHA384", "SHA512", "SHA512-224", "SHA512-256" };
    for (size_t d = 0; d < sizeof mds / sizeof mds[0]; d++) {
        EVP_MD *mi = EVP_MD_fetch(lib, mds[d], "provider=incore"), *md = EVP_MD_fetch(lib, mds[d], "provider=default");
        CHECK(mi && md, "fetch %s", mds[d]);
        for (size_t len = 0; mi && md && len <= 300; len++) {
            uint8_t h1[64], h2[64], h3[64];
            unsigned l1 = 0, l2 = 0, l3 = 0;
            size_t cut = tl_rand_below((uint32_t)len + 1);
            EVP_MD_CTX *x = EVP_MD_CTX_new(), *y = EVP_MD_CTX_new();
            int ok = EVP_DigestInit_ex2(x, mi, NULL) && EVP_DigestUpdate(x, in, cut) && EVP_MD_CTX_copy_ex(y, x)
                     && EVP_DigestUpdate(x, in + cut, len - cut) && EVP_DigestFinal_ex(x, h1, &l1)
                     && EVP_DigestUpdate(y, in + cut, len - cut) && EVP_DigestFinal_ex(y, h3, &l3)
                     && EVP_Digest(in, len, h2, &l2, md, NULL);
            if (CHECK(ok && l1 == l2 && l3 == l2, "%s len %zu", mds[d], len)) {
                CHECK_MEM(h1, h2, l2, "%s len %zu", mds[d], len);
                CHECK_MEM(h3, h2, l2, "%s len %zu: copied context", mds[d], len);
            }
            EVP_MD_CTX_free(x);
            EVP_MD_CTX_free(y);
        }
        EVP_MD_free(mi);
        EVP_MD_free(md);
    }
    free(in);
    printf("incore against default: %d cipher messages agree\n", n);
}

/* ChaCha20 from a block counter of 2^32 - 2 over 300 bytes, in pieces
 * that cross the counter's wrap inside and between calls: the counter
 * carries into the nonce's first word as in OpenSSL's own ChaCha20, never
 * back to block 0 of the same nonce (which would repeat keystream). */
static void chacha_counter_wrap(void)
{
    EVP_CIPHER *ci = cipher("ChaCha20", "incore"), *cd = cipher("ChaCha20", "default");
    uint8_t key[32] = { 7 }, iv[16] = { 0xfe, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
    uint8_t zero[300] = { 0 }, oi[300], od[300], o0[64];
    size_t cuts[3] = { 37, 101, 230 };
    msgspec m = { .key = key, .iv = iv, .pad = -1 };
    if (ci == NULL || cd == NULL)
        return;
    CHECK(run(ci, 1, &m, zero, 300, oi, NULL, cuts, 3, NULL) == 300 && run(cd, 1, &m, zero, 300, od, NULL, NULL, 0, NULL) == 300,
          "ChaCha20 across the counter wrap");
    CHECK_MEM(oi, od, 300, "ChaCha20 across the counter wrap: incore against default");
    iv[0] = iv[1] = iv[2] = iv[3] = 0;                 /* block 0 of the same nonce */
    CHECK(run(ci, 1, &m, zero, 64, o0, NULL, NULL, 0, NULL) == 64 && memcmp(o0, oi + 128, 64) != 0,
          "ChaCha20: the block after the wrap is not block 0 again");
    EVP_CIPHER_free(ci);
    EVP_CIPHER_free(cd);
}

/* A GCM or ChaCha20-Poly1305 context duplicated mid-message finishes the
 * message as the original does. */
static void dup_midstream(const char *name)
{
    EVP_CIPHER *c = cipher(name, "incore");
    uint8_t key[32] = { 1 }, iv[12] = { 2 }, in[100] = { 3 }, o1[100], o2[100], t1[16], t2[16];
    int l, ok = c != NULL;
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new(), *y = EVP_CIPHER_CTX_new();
    ok = ok && EVP_EncryptInit_ex2(x, c, key, iv, NULL) && EVP_EncryptUpdate(x, NULL, &l, in, 7)
         && EVP_EncryptUpdate(x, o1, &l, in, 33) && EVP_CIPHER_CTX_copy(y, x);
    EVP_CIPHER_CTX_free(x);      /* the copy must not depend on the original */
    ok = ok && EVP_EncryptUpdate(y, o1 + 33, &l, in + 33, 67) && EVP_EncryptFinal_ex(y, o1 + 100, &l)
         && EVP_CIPHER_CTX_ctrl(y, EVP_CTRL_AEAD_GET_TAG, 16, t1);
    EVP_CIPHER_CTX_free(y);
    x = EVP_CIPHER_CTX_new();
    ok = ok && EVP_EncryptInit_ex2(x, c, key, iv, NULL) && EVP_EncryptUpdate(x, NULL, &l, in, 7)
         && EVP_EncryptUpdate(x, o2, &l, in, 100) && EVP_EncryptFinal_ex(x, o2 + 100, &l)
         && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, t2);
    EVP_CIPHER_CTX_free(x);
    if (CHECK(ok, "%s: dupctx mid-message", name)) {
        CHECK_MEM(o1, o2, 100, "%s: duplicated context's output", name);
        CHECK_MEM(t1, t2, 16, "%s: duplicated context's tag", name);
    }
    EVP_CIPHER_free(c);
}

/* Orders other programs use: CMS sets the expected tag before the key and
 * IV, and asks for the IV as a pointer (EVP_CIPHER_CTX_iv's way). */
static void call_orders(const char *name)
{
    EVP_CIPHER *c = cipher(name, "incore");
    uint8_t key[32] = { 4 }, iv[12] = { 5 }, pt[50] = { 6 }, ct[50], back[50], tag[16];
    int l, ok = c != NULL;
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    ok = ok && EVP_EncryptInit_ex2(x, c, key, iv, NULL) && EVP_EncryptUpdate(x, ct, &l, pt, 50)
         && EVP_EncryptFinal_ex(x, ct + 50, &l) && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag);
    ok = ok && EVP_DecryptInit_ex2(x, c, NULL, NULL, NULL) && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, tag)
         && EVP_DecryptInit_ex2(x, NULL, key, iv, NULL) && EVP_DecryptUpdate(x, back, &l, ct, 50)
         && EVP_DecryptFinal_ex(x, back + 50, &l);
    CHECK(ok && memcmp(back, pt, 50) == 0, "%s: tag set before key and IV", name);
    void *ivp = NULL;
    OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_IV, &ivp, 0), OSSL_PARAM_END };
    CHECK(EVP_CIPHER_CTX_get_params(x, p) && ivp != NULL && memcmp(ivp, iv, 12) == 0, "%s: IV as a pointer", name);
    ERR_clear_error();
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(c);
}

/* ---- 3. TLS 1.2 records ---------------------------------------------------- */

/* seq(8) type(1) version(2) length(2), length as libssl gives it. */
static void tls_aad(uint8_t aad[13], uint64_t seq, size_t len)
{
    for (int i = 0; i < 8; i++)
        aad[i] = (uint8_t)(seq >> (56 - 8 * i));
    aad[8] = 23, aad[9] = 3, aad[10] = 3;
    aad[11] = (uint8_t)(len >> 8), aad[12] = (uint8_t)len;
}

/* One record through a TLS-mode context: returns the output length or -1. */
static long tls_record(EVP_CIPHER_CTX *x, uint64_t seq, uint8_t *rec, size_t payload, int enc, int gcm)
{
    uint8_t aad[13];
    size_t eiv = gcm ? 8 : 0;
    size_t len = eiv + payload + (enc ? 0 : 16);
    tls_aad(aad, seq, len);
    int pad = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 13, aad);
    if (pad != 16)
        return -1;
    int ol;
    if (!EVP_CipherUpdate(x, rec, &ol, rec, (int)(eiv + payload + 16)))
        return -1;
    return ol;
}

static EVP_CIPHER_CTX *tls_ctx(EVP_CIPHER *c, int enc, const uint8_t *key, const uint8_t *iv, int gcm)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    if (gcm) {
        if (!EVP_CipherInit_ex(x, c, NULL, key, NULL, enc) || !EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_IV_FIXED, -1, (void *)iv))
            goto err;
    } else if (!EVP_CipherInit_ex(x, c, NULL, key, iv, enc)) {
        goto err;
    }
    return x;
err:
    EVP_CIPHER_CTX_free(x);
    return NULL;
}

static void tls_records(const char *name)
{
    int gcm = strstr(name, "GCM") != NULL;
    EVP_CIPHER *ci = cipher(name, "incore"), *cd = cipher(name, "default");
    uint8_t key[32], iv[12];
    tl_rand_bytes(key, sizeof key);
    tl_rand_bytes(iv, sizeof iv);
    if (ci == NULL || cd == NULL)
        return;
    EVP_CIPHER_CTX *ei = tls_ctx(ci, 1, key, iv, gcm), *ed = tls_ctx(cd, 1, key, iv, gcm);
    EVP_CIPHER_CTX *di = tls_ctx(ci, 0, key, iv, gcm), *dd = tls_ctx(cd, 0, key, iv, gcm);
    int n = 0;
    if (!CHECK(ei && ed && di && dd, "%s: TLS contexts", name))
        goto done;
    for (uint64_t seq = 0; seq < 40; seq++) {
        size_t payload = seq == 0 ? 0 : tl_rand_below(1500);
        uint8_t r1[1600], r2[1600], pt[1600];
        size_t eiv = gcm ? 8 : 0;
        tl_rand_bytes(pt, payload);
        memcpy(r1 + eiv, pt, payload);
        memcpy(r2 + eiv, pt, payload);
        long l1 = tls_record(ei, seq, r1, payload, 1, gcm), l2 = tls_record(ed, seq, r2, payload, 1, gcm);
        if (!CHECK(l1 == (long)(eiv + payload + 16) && l1 == l2, "%s seq %llu: seal lengths %ld %ld", name,
                   (unsigned long long)seq, l1, l2))
            break;
        CHECK_MEM(r1, r2, (size_t)l1, "%s seq %llu: record", name, (unsigned long long)seq);
        /* each side opens the other's record */
        long o1 = tls_record(di, seq, r2, payload, 0, gcm), o2 = tls_record(dd, seq, r1, payload, 0, gcm);
        if (CHECK(o1 == (long)payload && o2 == (long)payload, "%s seq %llu: open %ld %ld", name,
                  (unsigned long long)seq, o1, o2)) {
            CHECK_MEM(r2 + eiv, pt, payload, "%s seq %llu: incore opened", name, (unsigned long long)seq);
            CHECK_MEM(r1 + eiv, pt, payload, "%s seq %llu: default opened incore's", name, (unsigned long long)seq);
        }
        n++;
    }
    /* a forged record: refused, an error queued, no plaintext left */
    {
        uint8_t r[200];
        size_t eiv = gcm ? 8 : 0;
        memset(r, 0x41, sizeof r);
        long l = tls_record(ei, 99, r, 100, 1, gcm);
        r[eiv + 5] ^= 1;
        ERR_clear_error();
        long o = tls_record(di, 99, r, 100, 0, gcm);
        CHECK(l > 0 && o < 0 && ERR_peek_error() != 0, "%s: forged record refused with an error", name);
        CHECK(tl_all_byte(r + eiv, 100, 0), "%s: forged record's plaintext zeroed", name);
        ERR_clear_error();
    }
    printf("%s: %d TLS 1.2 records agree with default\n", name, n);
done:
    EVP_CIPHER_CTX_free(ei); EVP_CIPHER_CTX_free(ed); EVP_CIPHER_CTX_free(di); EVP_CIPHER_CTX_free(dd);
    EVP_CIPHER_free(ci); EVP_CIPHER_free(cd);
}

/* TLS 1.2 CBC records (tls-version and tls-mac-size set): sealing adds
 * the padding; opening drops the explicit IV, the padding and the MAC,
 * which the caller reads with OSSL_CIPHER_PARAM_TLS_MAC.  Against default
 * for every payload length 0..100 with a 32-byte MAC and without one
 * (encrypt-then-MAC); a bad padding gives a record whose MAC is not the
 * one sent. */
static EVP_CIPHER_CTX *tls_cbc_ctx(EVP_CIPHER *c, int enc, const uint8_t *key, const uint8_t *iv, size_t mac)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int version = 0x0303;
    OSSL_PARAM p[3] = { OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_TLS_VERSION, &version),
                        OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, &mac), OSSL_PARAM_END };
    if (!EVP_CipherInit_ex2(x, c, key, iv, enc, NULL) || !EVP_CIPHER_CTX_set_params(x, p)) {
        EVP_CIPHER_CTX_free(x);
        return NULL;
    }
    return x;
}

static long tls_cbc_open(EVP_CIPHER_CTX *x, uint8_t *rec, size_t len, uint8_t **mac, size_t macsize)
{
    int ol;
    if (!EVP_CipherUpdate(x, rec, &ol, rec, (int)len))
        return -1;
    if (macsize > 0) {
        OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, (void **)mac, macsize),
                            OSSL_PARAM_END };
        if (!EVP_CIPHER_CTX_get_params(x, p))
            return -1;
    }
    return ol;
}

static void tls_cbc(size_t macsize)
{
    EVP_CIPHER *ci = cipher("AES-256-CBC", "incore"), *cd = cipher("AES-256-CBC", "default");
    uint8_t key[32], iv[16];
    tl_rand_bytes(key, sizeof key);
    tl_rand_bytes(iv, sizeof iv);
    EVP_CIPHER_CTX *ei = tls_cbc_ctx(ci, 1, key, iv, macsize), *ed = tls_cbc_ctx(cd, 1, key, iv, macsize);
    EVP_CIPHER_CTX *di = tls_cbc_ctx(ci, 0, key, iv, macsize), *dd = tls_cbc_ctx(cd, 0, key, iv, macsize);
    int n = 0;
    if (!CHECK(ei && ed && di && dd, "TLS CBC contexts"))
        goto done;
    for (size_t payload = 0; payload <= 100; payload++) {
        /* explicit IV block || payload || MAC, then the padding */
        size_t len = 16 + payload + macsize;
        uint8_t r1[200], r2[200], plain[200], *m1 = NULL, *m2 = NULL;
        int l1, l2;
        tl_rand_bytes(plain, len);
        memcpy(r1, plain, len);
        memcpy(r2, plain, len);
        if (!CHECK(EVP_CipherUpdate(ei, r1, &l1, r1, (int)len) && EVP_CipherUpdate(ed, r2, &l2, r2, (int)len)
                   && l1 == l2 && l1 % 16 == 0 && (size_t)l1 > len, "TLS CBC seal %zu", payload))
            break;
        CHECK_MEM(r1, r2, (size_t)l1, "TLS CBC record %zu", payload);
        long o1 = tls_cbc_open(di, r1, (size_t)l1, &m1, macsize), o2 = tls_cbc_open(dd, r2, (size_t)l2, &m2, macsize);
        if (CHECK(o1 == (long)payload && o2 == o1, "TLS CBC open %zu: %ld %ld", payload, o1, o2)) {
            CHECK_MEM(r1 + 16, plain + 16, payload, "TLS CBC payload %zu", payload);
            if (macsize > 0)
                CHECK(m1 && m2 && memcmp(m1, plain + 16 + payload, macsize) == 0
                      && memcmp(m2, m1, macsize) == 0, "TLS CBC MAC %zu", payload);
        }
        n++;
    }
    /* bad padding: the last byte of the last block changed */
    {
        uint8_t *m = NULL;
        int l;
        /* a record encrypted by hand whose last byte says 9 bytes of
         * padding but whose padding is not all nines */
        EVP_CIPHER_CTX *raw = EVP_CIPHER_CTX_new();
        uint8_t rec[64] = { 0 };
        memset(rec + 16, 0x41, 48);
        rec[63] = 9, rec[62] = 9, rec[61] = 3;      /* pad byte 9, not all nines */
        CHECK(EVP_EncryptInit_ex2(raw, ci, key, iv, NULL) && EVP_CIPHER_CTX_set_padding(raw, 0)
              && EVP_EncryptUpdate(raw, rec, &l, rec, 64), "raw CBC");
        EVP_CIPHER_CTX_free(raw);
        EVP_CIPHER_CTX *d2 = tls_cbc_ctx(ci, 0, key, iv, macsize);
        ERR_clear_error();
        long o = tls_cbc_open(d2, rec, 64, &m, macsize);
        if (macsize > 0)
            CHECK(o == (long)(48 - macsize) && m != NULL && !tl_all_byte(m, macsize, 0x41),
                  "TLS CBC bad padding: whole record, a MAC that cannot match (%ld)", o);
        else
            CHECK(o < 0 && ERR_peek_error() != 0, "TLS CBC bad padding without a MAC refused");
        ERR_clear_error();
        EVP_CIPHER_CTX_free(d2);
    }
    printf("AES-256-CBC: %d TLS 1.2 records (MAC %zu bytes) agree with default\n", n, macsize);
done:
    EVP_CIPHER_CTX_free(ei); EVP_CIPHER_CTX_free(ed); EVP_CIPHER_CTX_free(di); EVP_CIPHER_CTX_free(dd);
    EVP_CIPHER_free(ci); EVP_CIPHER_free(cd);
}

/* A random walk over every cipher context's state machine: init with and
 * without key or IV, AAD, data of any length (in place too), final, tag
 * set and get, IV and key length, TLS AAD and fixed IV, padding, copies,
 * in any order.  Every call either works or fails with an error on the
 * queue; none may crash or touch memory it should not (the sanitizer
 * build runs this too). */
static void state_walk(void)
{
    static const char *names[] = { "AES-128-GCM", "AES-256-GCM", "ChaCha20-Poly1305", "AES-128-CBC",
                                   "AES-256-ECB", "AES-192-CTR", "AES-128-CFB", "AES-256-OFB",
                                   "AES-128-XTS", "ChaCha20" };
    uint8_t key[64], iv[32], buf[600], out[700], tag[16], aad[13];
    int calls = 0, refused = 0;
    tl_rand_bytes(key, sizeof key);
    key[32] ^= 1;                             /* XTS halves differ */
    for (size_t a = 0; a < sizeof names / sizeof names[0]; a++) {
        EVP_CIPHER *c = cipher(names[a], "incore");
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new(), *y = NULL;
        for (int step = 0; c != NULL && step < 3000; step++) {
            int ol = 0, r = 1, enc = (int)tl_rand_below(2);
            size_t len = tl_rand_below(5) == 0 ? tl_rand_below(600) : tl_rand_below(40);
            tl_rand_bytes(buf, len);
            tl_rand_bytes(iv, sizeof iv);
            ERR_clear_error();
            switch (tl_rand_below(13)) {
            case 0: r = EVP_CipherInit_ex2(x, c, key, iv, enc, NULL); break;
            case 1: r = EVP_CipherInit_ex2(x, c, key, NULL, enc, NULL); break;
            case 2: r = EVP_CipherInit_ex2(x, NULL, NULL, iv, -1, NULL); break;
            case 3: r = EVP_CipherUpdate(x, NULL, &ol, buf, (int)len); break;
            case 4: case 5: r = EVP_CipherUpdate(x, out, &ol, buf, (int)len); break;
            case 6: memcpy(out, buf, len); r = EVP_CipherUpdate(x, out, &ol, out, (int)len); break;
            case 7: r = EVP_CipherFinal_ex(x, out, &ol); break;
            case 8: r = EVP_CIPHER_CTX_ctrl(x, tl_rand_below(2) ? EVP_CTRL_AEAD_GET_TAG : EVP_CTRL_AEAD_SET_TAG,
                                            (int)tl_rand_below(18), tag); break;
            case 9: r = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)tl_rand_below(20), NULL); break;
            case 10:
                tls_aad(aad, tl_rand64(), tl_rand_below(120));
                r = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 13 - (int)tl_rand_below(2), aad);
                break;
            case 11: r = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_IV_FIXED, tl_rand_below(2) ? -1 : 4, iv); break;
            default:
                if (tl_rand_below(2)) {
                    EVP_CIPHER_CTX_free(y);
                    y = EVP_CIPHER_CTX_new();
                    r = EVP_CIPHER_CTX_copy(y, x);
                } else if (y != NULL) {
                    EVP_CIPHER_CTX *t = x;
                    x = y, y = t;
                } else {
                    r = EVP_CIPHER_CTX_set_padding(x, (int)tl_rand_below(2));
                }
                break;
            }
            calls++;
            if (r <= 0) {
                refused++;
                ol = 0;
            }
            CHECK(ol >= 0 && ol <= 700, "%s step %d: output length %d", names[a], step, ol);
        }
        ERR_clear_error();
        EVP_CIPHER_CTX_free(x);
        EVP_CIPHER_CTX_free(y);
        EVP_CIPHER_free(c);
    }
    printf("state walk: %d calls, %d refused, none crashed\n", calls, refused);
}

/* The DRBG: instantiated, two requests differ, its parameters; then as
 * the library context's own generator (RAND_bytes_ex) once incore is
 * preferred, which is what the configuration file does. */
static void drbg(void)
{
    EVP_RAND *r = EVP_RAND_fetch(lib, "CTR-DRBG", "provider=incore");
    EVP_RAND_CTX *x = r ? EVP_RAND_CTX_new(r, NULL) : NULL;
    uint8_t a[1000], b[1000];
    int ok = x && EVP_RAND_instantiate(x, 256, 0, (const uint8_t *)"prov_evp", 8, NULL)
             && EVP_RAND_generate(x, a, sizeof a, 256, 0, NULL, 0)
             && EVP_RAND_generate(x, b, sizeof b, 256, 1, (const uint8_t *)"addin", 5);
    CHECK(ok && memcmp(a, b, sizeof a) != 0 && !tl_all_byte(a, sizeof a, 0), "CTR-DRBG: two requests");
    CHECK(x && EVP_RAND_get_state(x) == EVP_RAND_STATE_READY && EVP_RAND_get_strength(x) == 256,
          "CTR-DRBG: state and strength");
    ERR_clear_error();
    CHECK(x && !EVP_RAND_generate(x, a, 16, 384, 0, NULL, 0) && ERR_peek_error() != 0,
          "CTR-DRBG: a strength over 256 bits refused");
    ERR_clear_error();
    EVP_RAND_CTX_free(x);
    EVP_RAND_free(r);
}

/* ---- 4. bad input ---------------------------------------------------------- */

#define REFUSED(call, ...)                                                                     \
    do {                                                                                       \
        ERR_clear_error();                                                                     \
        int r_ = (call);                                                                       \
        CHECK(r_ <= 0 && ERR_peek_error() != 0, __VA_ARGS__);                                  \
        ERR_clear_error();                                                                     \
    } while (0)

static void bad_input(void)
{
    uint8_t key[64] = { 9 }, iv[16] = { 7 }, buf[256] = { 0 }, tag[16] = { 0 };
    int l;
    EVP_CIPHER *gcm = cipher("AES-128-GCM", "incore"), *cp = cipher("ChaCha20-Poly1305", "incore");
    EVP_CIPHER *cbc = cipher("AES-128-CBC", "incore"), *xts = cipher("AES-128-XTS", "incore");
    EVP_CIPHER *ctr = cipher("AES-128-CTR", "incore");
    if (!gcm || !cp || !cbc || !xts || !ctr)
        return;
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    size_t v;
    OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };

    /* wrong key length, wrong IV length */
    v = 17, p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &v);
    REFUSED(EVP_EncryptInit_ex2(x, cbc, key, iv, p), "CBC: key length 17 refused");
    v = 0, p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &v);
    REFUSED(EVP_EncryptInit_ex2(x, gcm, key, NULL, p), "GCM: IV length 0 refused");
    v = 13, p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &v);
    REFUSED(EVP_EncryptInit_ex2(x, cp, key, NULL, p), "ChaCha20-Poly1305: IV length 13 refused");

    /* missing IV */
    CHECK(EVP_EncryptInit_ex2(x, gcm, key, NULL, NULL), "GCM: key alone");
    REFUSED(EVP_EncryptUpdate(x, buf, &l, buf, 16), "GCM: data without an IV refused");
    CHECK(EVP_EncryptInit_ex2(x, ctr, key, NULL, NULL), "CTR: key alone");
    REFUSED(EVP_EncryptUpdate(x, buf, &l, buf, 16), "CTR: data without an IV refused");

    /* reuse after final */
    CHECK(EVP_EncryptInit_ex2(x, gcm, key, iv, NULL) && EVP_EncryptUpdate(x, buf, &l, buf, 16)
          && EVP_EncryptFinal_ex(x, buf, &l), "GCM: one message");
    REFUSED(EVP_EncryptUpdate(x, buf, &l, buf, 16), "GCM: data after final without a new IV refused");
    CHECK(EVP_EncryptInit_ex2(x, cp, key, iv, NULL) && EVP_EncryptFinal_ex(x, buf, &l), "ChaCha20-Poly1305: empty");
    REFUSED(EVP_EncryptUpdate(x, buf, &l, buf, 16), "ChaCha20-Poly1305: data after final refused");

    /* failing tag; missing tag; tag get on decryption */
    CHECK(EVP_DecryptInit_ex2(x, gcm, key, iv, NULL) && EVP_DecryptUpdate(x, buf, &l, buf, 32)
          && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, tag), "GCM: decrypt");
    REFUSED(EVP_DecryptFinal_ex(x, buf, &l), "GCM: wrong tag refused");
    CHECK(EVP_DecryptInit_ex2(x, cp, key, iv, NULL) && EVP_DecryptUpdate(x, buf, &l, buf, 32), "CP: decrypt");
    REFUSED(EVP_DecryptFinal_ex(x, buf, &l), "ChaCha20-Poly1305: final without a tag refused");
    CHECK(EVP_DecryptInit_ex2(x, gcm, key, iv, NULL), "GCM: decrypt init");
    REFUSED(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag), "GCM: tag read when decrypting refused");
    REFUSED(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 17, tag), "GCM: 17-byte tag refused");
    /* a tag length without the tag (fuzz_provider: default refuses it) */
    p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 16);
    REFUSED(EVP_CIPHER_CTX_set_params(x, p), "GCM: tag length without the tag refused");
    /* final while a TLS AAD waits for its record */
    CHECK(EVP_EncryptInit_ex2(x, gcm, key, iv, NULL), "GCM: encrypt init");
    uint8_t aad0[13] = { 0 };
    aad0[12] = 32;
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 13, aad0) == 16, "GCM: TLS AAD");
    REFUSED(EVP_EncryptFinal_ex(x, buf, &l), "GCM: final with a TLS AAD set refused");
    CHECK(EVP_EncryptInit_ex2(x, cp, key, iv, NULL), "CP: encrypt init");
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 13, aad0) == 16, "CP: TLS AAD");
    REFUSED(EVP_EncryptFinal_ex(x, buf, &l), "ChaCha20-Poly1305: final with a TLS AAD set refused");

    /* TLS AAD of the wrong size, records too short for their tag */
    CHECK(EVP_EncryptInit_ex2(x, gcm, key, NULL, NULL), "GCM: key");
    REFUSED(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 12, buf), "GCM: 12-byte TLS AAD refused");
    uint8_t aad[13];
    tls_aad(aad, 0, 4);
    REFUSED(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 13, aad), "GCM: TLS record below its explicit IV");
    CHECK(EVP_DecryptInit_ex2(x, cp, key, iv, NULL), "CP: key");
    REFUSED(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 14, buf), "ChaCha20-Poly1305: 14-byte TLS AAD refused");
    REFUSED(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 13, aad), "ChaCha20-Poly1305: TLS record below its tag");
    CHECK(EVP_EncryptInit_ex2(x, gcm, key, NULL, NULL), "GCM: key");
    tls_aad(aad, 0, 100);
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 13, aad) == 16, "GCM: TLS AAD");
    REFUSED(EVP_EncryptUpdate(x, buf, &l, buf, 116), "GCM: TLS record without a fixed IV refused");
    /* with a fixed IV: a record of another length than its AAD states, a
     * record without buffers; then a fixed IV cut short by a new IV length */
    uint8_t fixed[4] = { 1, 2, 3, 4 };
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_IV_FIXED, 4, fixed) == 1, "GCM: TLS fixed IV");
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 13, aad) == 16, "GCM: TLS AAD");
    REFUSED(EVP_EncryptUpdate(x, buf, &l, buf, 124), "GCM: TLS record longer than its AAD says refused");
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 13, aad) == 16, "GCM: TLS AAD");
    ERR_clear_error();
    CHECK(EVP_CipherUpdate(x, NULL, &l, NULL, 116) <= 0, "GCM: TLS record without buffers refused");
    ERR_clear_error();
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 13, aad) == 16, "GCM: TLS AAD");
    CHECK(EVP_EncryptUpdate(x, buf, &l, buf, 116) == 1 && l == 116, "GCM: TLS record of its AAD's length");
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, 4, NULL) == 1, "GCM: IV length 4");
    REFUSED(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_IV_GEN, 4, buf), "GCM: next TLS IV after the IV length changed refused");

    /* XTS: a unit under 16 bytes, equal key halves */
    CHECK(EVP_EncryptInit_ex2(x, xts, (uint8_t *)"0123456789abcdefFEDCBA9876543210", iv, NULL), "XTS: init");
    REFUSED(EVP_EncryptUpdate(x, buf, &l, buf, 15), "XTS: 15-byte unit refused");
    memset(key, 5, 32);
    REFUSED(EVP_EncryptInit_ex2(x, xts, key, iv, NULL), "XTS: equal halves refused");

    /* CBC: bad padding, data not a multiple of the block without padding */
    memset(key, 9, 32);
    uint8_t ct[32];
    int lf = 0;
    memset(buf, 0, 32);   /* a last plaintext byte of 0: padding no PKCS#7 block has */
    CHECK(EVP_EncryptInit_ex2(x, cbc, key, iv, NULL) && EVP_CIPHER_CTX_set_padding(x, 0)
          && EVP_EncryptUpdate(x, ct, &l, buf, 32) && l == 32, "CBC: two blocks without padding");
    CHECK(EVP_DecryptInit_ex2(x, cbc, key, iv, NULL) && EVP_CIPHER_CTX_set_padding(x, 1)
          && EVP_DecryptUpdate(x, buf, &l, ct, 32), "CBC: decrypt");
    REFUSED(EVP_DecryptFinal_ex(x, buf + 32, &lf), "CBC: bad padding refused at final");
    /* padding switched off after the last block was held back for it:
     * final gives that block, as default does */
    uint8_t back[32];
    int lb = 0;
    CHECK(EVP_DecryptInit_ex2(x, cbc, key, iv, NULL) && EVP_DecryptUpdate(x, back, &l, ct, 32) && l == 16
          && EVP_CIPHER_CTX_set_padding(x, 0) && EVP_DecryptFinal_ex(x, back + 16, &lb) && lb == 16
          && tl_all_byte(back, 32, 0), "CBC: padding off after a block was held back, final gives it");
    CHECK(EVP_EncryptInit_ex2(x, cbc, key, iv, NULL) && EVP_CIPHER_CTX_set_padding(x, 0)
          && EVP_EncryptUpdate(x, buf, &l, buf, 17), "CBC: 17 bytes without padding");
    REFUSED(EVP_EncryptFinal_ex(x, buf + 16, &l), "CBC: partial block without padding refused at final");

    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(gcm); EVP_CIPHER_free(cp); EVP_CIPHER_free(cbc); EVP_CIPHER_free(xts); EVP_CIPHER_free(ctr);
}

/* The algorithm-level answers that libssl reads: mode, AEAD flag, IV and
 * block lengths, and every implementation in incore's provider. */
static void flags(void)
{
    static const struct { const char *name; int mode, aead, ivlen, bs, keylen; } fs[] = {
        { "AES-128-GCM", EVP_CIPH_GCM_MODE, 1, 12, 1, 16 }, { "AES-256-GCM", EVP_CIPH_GCM_MODE, 1, 12, 1, 32 },
        { "ChaCha20-Poly1305", EVP_CIPH_STREAM_CIPHER, 1, 12, 1, 32 }, { "AES-128-CBC", EVP_CIPH_CBC_MODE, 0, 16, 16, 16 },
        { "AES-256-XTS", EVP_CIPH_XTS_MODE, 0, 16, 1, 64 }, { "ChaCha20", EVP_CIPH_STREAM_CIPHER, 0, 16, 1, 32 },
        { "id-aes128-GCM", EVP_CIPH_GCM_MODE, 1, 12, 1, 16 }, { "AES192", EVP_CIPH_CBC_MODE, 0, 16, 16, 24 },
    };
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
        EVP_CIPHER *c = cipher(fs[i].name, "incore");
        if (c == NULL)
            continue;
        CHECK(EVP_CIPHER_get_mode(c) == fs[i].mode && !!(EVP_CIPHER_get_flags(c) & EVP_CIPH_FLAG_AEAD_CIPHER) == fs[i].aead
              && EVP_CIPHER_get_iv_length(c) == fs[i].ivlen && EVP_CIPHER_get_block_size(c) == fs[i].bs
              && EVP_CIPHER_get_key_length(c) == fs[i].keylen
              && strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c)), "incore") == 0,
              "%s: mode, flags and lengths", fs[i].name);
        EVP_CIPHER_free(c);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: prov_evp <directory of incore.so>\n");
        return 2;
    }
    lib = OSSL_LIB_CTX_new();
    OSSL_PROVIDER_set_default_search_path(lib, argv[1]);
    OSSL_PROVIDER *pi = OSSL_PROVIDER_load(lib, "incore"), *pd = OSSL_PROVIDER_load(lib, "default");
    if (!CHECK(pi != NULL && pd != NULL, "load the providers incore (from %s) and default", argv[1])) {
        ERR_print_errors_fp(stderr);
        return tl_finish();
    }
    flags();
    kat_aes_modes();
    kat_gcm();
    kat_chacha_poly();
    kat_chacha();
    chacha_counter_wrap();
    kat_digests();
    kat_mac_kdf();
    mac_differential();
    differential();
    dup_midstream("AES-256-GCM");
    dup_midstream("ChaCha20-Poly1305");
    call_orders("AES-256-GCM");
    call_orders("ChaCha20-Poly1305");
    tls_records("AES-128-GCM");
    tls_records("AES-256-GCM");
    tls_records("ChaCha20-Poly1305");
    tls_cbc(32);
    tls_cbc(0);
    bad_input();
    state_walk();
    drbg();
    OSSL_PROVIDER_unload(pi);
    OSSL_PROVIDER_unload(pd);
    OSSL_LIB_CTX_free(lib);
    return tl_finish();
}
