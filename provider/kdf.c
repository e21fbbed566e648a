/*
 * provider/kdf.c - HKDF (RFC 5869) in its three modes: extract and expand,
 * extract only (the PRK), expand only (the key is the PRK), over incore's
 * hashes.  A digest incore does not have is derived by OpenSSL's own HKDF
 * (prov_ctx in prov.h) from the same parameters.
 */
#include <string.h>
#include <strings.h>

#include <openssl/kdf.h>
#include <openssl/proverr.h>

#include "incore/hmac.h"
#include "prov.h"

#define HKDF_MAX_INFO 1024   /* the info parameters of one derivation, joined */

typedef struct hkdf_ctx {
    prov_ctx *prov;
    uint8_t *key, *salt;
    size_t keylen, saltlen;
    uint8_t info[HKDF_MAX_INFO];
    size_t infolen;
    char digest[64];
    int alg;               /* ic_hash_alg, -1: none or not incore's   */
    int mode;              /* EVP_KDF_HKDF_MODE_*                      */
} hkdf_ctx;

static void *hkdf_newctx(void *provctx)
{
    hkdf_ctx *c = ic_alloc(sizeof *c);
    if (c != NULL) {
        c->prov = provctx;
        c->alg = -1;
    }
    return c;
}

static void hkdf_reset(void *vctx)
{
    hkdf_ctx *c = vctx;
    prov_ctx *prov = c->prov;
    prov_bytes_free(&c->key, &c->keylen);
    prov_bytes_free(&c->salt, &c->saltlen);
    ic_wipe(c, sizeof *c);
    c->prov = prov;
    c->alg = -1;
}

static void hkdf_freectx(void *vctx)
{
    if (vctx == NULL)
        return;
    hkdf_reset(vctx);
    ic_free(vctx, sizeof(hkdf_ctx));
}

static void *hkdf_dupctx(void *vctx)
{
    hkdf_ctx *c = vctx, *d = ic_alloc(sizeof *d);
    if (d == NULL)
        return NULL;
    memcpy(d, c, sizeof *d);
    d->key = d->salt = NULL;
    d->keylen = d->saltlen = 0;
    if ((c->key != NULL && !prov_bytes_set(&d->key, &d->keylen, c->key, c->keylen))
        || (c->salt != NULL && !prov_bytes_set(&d->salt, &d->saltlen, c->salt, c->saltlen))) {
        hkdf_freectx(d);
        return NULL;
    }
    return d;
}

static int set_mode(hkdf_ctx *c, const OSSL_PARAM *p)
{
    if (p->data_type == OSSL_PARAM_UTF8_STRING) {
        static const char *names[] = { "EXTRACT_AND_EXPAND", "EXTRACT_ONLY", "EXPAND_ONLY" };
        for (int i = 0; i < 3; i++)
            if (strcasecmp(p->data, names[i]) == 0) {
                c->mode = i;
                return 1;
            }
    } else {
        int v;
        if (OSSL_PARAM_get_int(p, &v) && v >= 0 && v <= 2) {
            c->mode = v;
            return 1;
        }
    }
    prov_err(PROV_R_INVALID_MODE, "HKDF mode");
    return 0;
}

static int hkdf_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    hkdf_ctx *c = vctx;
    const OSSL_PARAM *p;
    if (params == NULL)
        return 1;
    if ((p = prov_locate_const(params, OSSL_KDF_PARAM_DIGEST)) != NULL) {
        const char *name;
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &name) || strlen(name) >= sizeof c->digest) {
            prov_err(PROV_R_INVALID_DIGEST, "digest name");
            return 0;
        }
        strcpy(c->digest, name);
        if (!prov_hash_from_name(name, &c->alg))
            c->alg = -1;
    }
    if ((p = prov_locate_const(params, OSSL_KDF_PARAM_MODE)) != NULL && !set_mode(c, p))
        return 0;
    if ((p = prov_locate_const(params, OSSL_KDF_PARAM_KEY)) != NULL
        && (p->data_type != OSSL_PARAM_OCTET_STRING || !prov_bytes_set(&c->key, &c->keylen, p->data, p->data_size)))
        return 0;
    if ((p = prov_locate_const(params, OSSL_KDF_PARAM_SALT)) != NULL
        && (p->data_type != OSSL_PARAM_OCTET_STRING || !prov_bytes_set(&c->salt, &c->saltlen, p->data, p->data_size)))
        return 0;
    /* every info parameter, in order, joined (as OpenSSL's HKDF does) */
    int first = 1;
    for (p = params; (p = prov_locate_const(p, OSSL_KDF_PARAM_INFO)) != NULL; p++) {
        if (first)
            c->infolen = 0, first = 0;
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size > HKDF_MAX_INFO - c->infolen) {
            prov_err(PROV_R_LENGTH_TOO_LARGE, "HKDF info over 1024 bytes");
            return 0;
        }
        memcpy(c->info + c->infolen, p->data, p->data_size);
        c->infolen += p->data_size;
    }
    return 1;
}

/* OpenSSL's HKDF for a digest incore lacks, from the same parameters. */
static int derive_elsewhere(hkdf_ctx *c, uint8_t *out, size_t outlen)
{
    EVP_KDF *k = EVP_KDF_fetch(c->prov->libctx, "HKDF", "provider!=incore");
    EVP_KDF_CTX *x = k == NULL ? NULL : EVP_KDF_CTX_new(k);
    EVP_KDF_free(k);
    OSSL_PARAM p[6], *q = p;
    *q++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, c->digest, 0);
    *q++ = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &c->mode);
    *q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, c->key, c->keylen);
    if (c->salt != NULL)
        *q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, c->salt, c->saltlen);
    *q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, c->info, c->infolen);
    *q = OSSL_PARAM_construct_end();
    int ok = x != NULL && EVP_KDF_derive(x, out, outlen, p) > 0;
    EVP_KDF_CTX_free(x);
    if (!ok)
        prov_err(PROV_R_INVALID_DIGEST, c->digest);
    return ok;
}

static int hkdf_derive(void *vctx, unsigned char *out, size_t outlen, const OSSL_PARAM params[])
{
    hkdf_ctx *c = vctx;
    int st;
    if (!hkdf_set_ctx_params(c, params))
        return 0;
    if (c->digest[0] == '\0' || c->key == NULL) {
        prov_err(c->key == NULL ? PROV_R_MISSING_KEY : PROV_R_MISSING_MESSAGE_DIGEST, "HKDF needs a digest and a key");
        return 0;
    }
    prov_count(PC_HKDF, outlen);
    if (c->alg < 0)
        return derive_elsewhere(c, out, outlen);
    ic_hash_alg alg = (ic_hash_alg)c->alg;
    switch (c->mode) {
    case EVP_KDF_HKDF_MODE_EXTRACT_ONLY:
        if (outlen != ic_hash_digest_size(alg)) {
            prov_err(PROV_R_WRONG_OUTPUT_BUFFER_SIZE, "the PRK has the digest's size");
            return 0;
        }
        st = ic_hkdf_extract(alg, out, outlen, c->salt, c->saltlen, c->key, c->keylen);
        break;
    case EVP_KDF_HKDF_MODE_EXPAND_ONLY:
        st = ic_hkdf_expand(alg, out, outlen, c->info, c->infolen, c->key, c->keylen);
        break;
    default:
        st = ic_hkdf(alg, out, outlen, c->info, c->infolen, c->salt, c->saltlen, c->key, c->keylen);
        break;
    }
    if (st != IC_OK) {
        prov_err_ic(st, "HKDF");
        return 0;
    }
    return 1;
}

static int hkdf_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    hkdf_ctx *c = vctx;
    size_t n = SIZE_MAX;
    if (c->mode == EVP_KDF_HKDF_MODE_EXTRACT_ONLY && c->alg >= 0)
        n = ic_hash_digest_size((ic_hash_alg)c->alg);
    return prov_set_size(params, OSSL_KDF_PARAM_SIZE, n);
}

static const OSSL_PARAM hkdf_gettable[] = {
    OSSL_PARAM_size_t(OSSL_KDF_PARAM_SIZE, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM hkdf_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_KDF_PARAM_MODE, NULL, 0),
    OSSL_PARAM_int(OSSL_KDF_PARAM_MODE, NULL),
    OSSL_PARAM_utf8_string(OSSL_KDF_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_KDF_PARAM_DIGEST, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_KDF_PARAM_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_KDF_PARAM_SALT, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_KDF_PARAM_INFO, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *hkdf_gettable_ctx_params(void *cctx, void *provctx)
{
    return hkdf_gettable;
}

static const OSSL_PARAM *hkdf_settable_ctx_params(void *cctx, void *provctx)
{
    return hkdf_settable;
}

static const OSSL_DISPATCH hkdf_functions[] = {
    { OSSL_FUNC_KDF_NEWCTX, (void (*)(void))hkdf_newctx },
    { OSSL_FUNC_KDF_DUPCTX, (void (*)(void))hkdf_dupctx },
    { OSSL_FUNC_KDF_FREECTX, (void (*)(void))hkdf_freectx },
    { OSSL_FUNC_KDF_RESET, (void (*)(void))hkdf_reset },
    { OSSL_FUNC_KDF_DERIVE, (void (*)(void))hkdf_derive },
    { OSSL_FUNC_KDF_SETTABLE_CTX_PARAMS, (void (*)(void))hkdf_settable_ctx_params },
    { OSSL_FUNC_KDF_SET_CTX_PARAMS, (void (*)(void))hkdf_set_ctx_params },
    { OSSL_FUNC_KDF_GETTABLE_CTX_PARAMS, (void (*)(void))hkdf_gettable_ctx_params },
    { OSSL_FUNC_KDF_GET_CTX_PARAMS, (void (*)(void))hkdf_get_ctx_params },
    { 0, NULL }
};

const OSSL_ALGORITHM prov_kdfs[] = {
    { "HKDF", PROV_PROPS, hkdf_functions, "HKDF over incore's HMAC" },
    { NULL, NULL, NULL, NULL }
};
