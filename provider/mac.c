/*
 * provider/mac.c - HMAC over incore's hashes and Poly1305.
 *
 * HMAC keys once per key (ic_hmac_init) and keeps the keyed state, so an
 * init without a key starts the next message under the same key.  For a
 * digest incore does not have, and for the TLS CBC record MAC
 * ("tls-data-size": computed over the padding in constant time), the
 * context hands the work to OpenSSL's own HMAC (prov_ctx in prov.h).
 */
#include <string.h>

#include <openssl/evp.h>
#include <openssl/proverr.h>

#include "incore/hmac.h"
#include "incore/poly1305.h"
#include "prov.h"

/* ---- HMAC ------------------------------------------------------------------ */

typedef struct hmac_ctx {
    ic_hmac_ctx keyed;     /* the state right after keying                */
    ic_hmac_ctx run;       /* the message in progress                     */
    prov_ctx *prov;
    EVP_MAC_CTX *other;    /* OpenSSL's HMAC, when incore cannot do it    */
    char digest[64];
    uint8_t *key;          /* kept for handing over to OpenSSL's HMAC      */
    size_t keylen;
    int alg;               /* ic_hash_alg, -1 before a digest is set      */
    int key_set;
    int live;
} hmac_ctx;

static void *hmac_newctx(void *provctx)
{
    hmac_ctx *c = ic_alloc(sizeof *c);
    if (c != NULL) {
        c->prov = provctx;
        c->alg = -1;
    }
    return c;
}

static void hmac_freectx(void *vctx)
{
    hmac_ctx *c = vctx;
    if (c == NULL)
        return;
    EVP_MAC_CTX_free(c->other);
    prov_bytes_free(&c->key, &c->keylen);
    ic_free(c, sizeof *c);
}

static void *hmac_dupctx(void *vctx)
{
    hmac_ctx *c = vctx, *d = ic_alloc(sizeof *d);
    if (d == NULL)
        return NULL;
    memcpy(d, c, sizeof *d);
    d->key = NULL;
    d->keylen = 0;
    d->other = NULL;
    if ((c->key != NULL && !prov_bytes_set(&d->key, &d->keylen, c->key, c->keylen))
        || (c->other != NULL && (d->other = EVP_MAC_CTX_dup(c->other)) == NULL)) {
        hmac_freectx(d);
        return NULL;
    }
    return d;
}

/* From here on the message runs on OpenSSL's HMAC with this digest. */
static int hand_over(hmac_ctx *c)
{
    if (c->other != NULL)
        return 1;
    EVP_MAC *m = EVP_MAC_fetch(c->prov->libctx, "HMAC", "provider!=incore");
    c->other = m == NULL ? NULL : EVP_MAC_CTX_new(m);
    EVP_MAC_free(m);
    OSSL_PARAM p[2] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, c->digest, 0), OSSL_PARAM_END };
    if (c->other == NULL || !EVP_MAC_CTX_set_params(c->other, p)
        || (c->key_set && !EVP_MAC_init(c->other, c->key, c->keylen, NULL))) {
        prov_err(PROV_R_INVALID_DIGEST, c->digest);
        return 0;
    }
    return 1;
}

static int hmac_rekey(hmac_ctx *c)
{
    if (c->other != NULL)
        return EVP_MAC_init(c->other, c->key, c->keylen, NULL);
    if (c->alg < 0)
        return 1;             /* keyed when the digest comes */
    int st = ic_hmac_init(&c->keyed, (ic_hash_alg)c->alg, c->key, c->keylen);
    if (st != IC_OK) {
        prov_err_ic(st, "ic_hmac_init");
        return 0;
    }
    c->run = c->keyed;
    return 1;
}

static int hmac_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    hmac_ctx *c = vctx;
    const OSSL_PARAM *p;
    if (params == NULL)
        return 1;
    if ((p = prov_locate_const(params, OSSL_MAC_PARAM_DIGEST)) != NULL) {
        const char *name;
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &name) || strlen(name) >= sizeof c->digest) {
            prov_err(PROV_R_INVALID_DIGEST, "digest name");
            return 0;
        }
        strcpy(c->digest, name);
        EVP_MAC_CTX_free(c->other);
        c->other = NULL;
        c->live = 0;
        if (!prov_hash_from_name(name, &c->alg)) {
            c->alg = -1;
            if (!hand_over(c))
                return 0;
        } else if (c->key_set && !hmac_rekey(c)) {
            return 0;
        }
    }
    if ((p = prov_locate_const(params, OSSL_MAC_PARAM_KEY)) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || !prov_bytes_set(&c->key, &c->keylen, p->data, p->data_size))
            return 0;
        c->key_set = 1;
        if (!hmac_rekey(c))
            return 0;
    }
    if ((p = prov_locate_const(params, OSSL_MAC_PARAM_TLS_DATA_SIZE)) != NULL) {
        if (c->alg < 0 && c->other == NULL) {
            prov_err(PROV_R_INVALID_DIGEST, "set the digest first");
            return 0;
        }
        if (!hand_over(c))
            return 0;
        OSSL_PARAM q[2] = { *p, OSSL_PARAM_END };
        if (!EVP_MAC_CTX_set_params(c->other, q))
            return 0;
    }
    return 1;
}

static int hmac_init(void *vctx, const unsigned char *key, size_t keylen, const OSSL_PARAM params[])
{
    hmac_ctx *c = vctx;
    if (!hmac_set_ctx_params(c, params))
        return 0;
    if (key != NULL) {
        if (!prov_bytes_set(&c->key, &c->keylen, key, keylen))
            return 0;
        c->key_set = 1;
        if (!hmac_rekey(c))
            return 0;
    } else if (c->key_set && c->other != NULL) {
        if (!EVP_MAC_init(c->other, NULL, 0, NULL))
            return 0;
    } else if (c->key_set) {
        c->run = c->keyed;     /* the next message under the same key */
    }
    if (!c->key_set || (c->alg < 0 && c->other == NULL)) {
        prov_err(c->key_set ? PROV_R_INVALID_DIGEST : PROV_R_NO_KEY_SET, "HMAC needs a digest and a key");
        return 0;
    }
    c->live = 1;
    return 1;
}

static int hmac_update(void *vctx, const unsigned char *in, size_t inl)
{
    hmac_ctx *c = vctx;
    if (!c->live) {
        prov_err(PROV_R_INVALID_STATE, "HMAC update before init or after final");
        return 0;
    }
    prov_count(PC_HMAC, inl);
    if (c->other != NULL)
        return EVP_MAC_update(c->other, in, inl);
    int st = ic_hmac_update(&c->run, in, inl);
    if (st != IC_OK) {
        prov_err_ic(st, "ic_hmac_update");
        return 0;
    }
    return 1;
}

static size_t hmac_size(const hmac_ctx *c)
{
    if (c->other != NULL)
        return EVP_MAC_CTX_get_mac_size(c->other);
    return c->alg < 0 ? 0 : ic_hash_digest_size((ic_hash_alg)c->alg);
}

static int hmac_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    hmac_ctx *c = vctx;
    if (!c->live) {
        prov_err(PROV_R_INVALID_STATE, "HMAC final before init or twice");
        return 0;
    }
    c->live = 0;
    if (c->other != NULL)
        return EVP_MAC_final(c->other, out, outl, outsize);
    size_t n = hmac_size(c);
    if (outsize < n) {
        prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "HMAC output");
        return 0;
    }
    int st = ic_hmac_final(&c->run, out, n);
    if (st != IC_OK) {
        prov_err_ic(st, "ic_hmac_final");
        return 0;
    }
    *outl = n;
    return 1;
}

static int hmac_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    hmac_ctx *c = vctx;
    size_t bs = c->other != NULL ? EVP_MAC_CTX_get_block_size(c->other)
                                 : (c->alg < 0 ? 0 : ic_hash_block_size((ic_hash_alg)c->alg));
    return prov_set_size(params, OSSL_MAC_PARAM_SIZE, hmac_size(c))
        && prov_set_size(params, OSSL_MAC_PARAM_BLOCK_SIZE, bs);
}

static const OSSL_PARAM hmac_gettable[] = {
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM hmac_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_TLS_DATA_SIZE, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM *hmac_gettable_ctx_params(void *cctx, void *provctx)
{
    return hmac_gettable;
}

static const OSSL_PARAM *hmac_settable_ctx_params(void *cctx, void *provctx)
{
    return hmac_settable;
}

static const OSSL_DISPATCH hmac_functions[] = {
    { OSSL_FUNC_MAC_NEWCTX, (void (*)(void))hmac_newctx },
    { OSSL_FUNC_MAC_DUPCTX, (void (*)(void))hmac_dupctx },
    { OSSL_FUNC_MAC_FREECTX, (void (*)(void))hmac_freectx },
    { OSSL_FUNC_MAC_INIT, (void (*)(void))hmac_init },
    { OSSL_FUNC_MAC_UPDATE, (void (*)(void))hmac_update },
    { OSSL_FUNC_MAC_FINAL, (void (*)(void))hmac_final },
    { OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, (void (*)(void))hmac_gettable_ctx_params },
    { OSSL_FUNC_MAC_GET_CTX_PARAMS, (void (*)(void))hmac_get_ctx_params },
    { OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, (void (*)(void))hmac_settable_ctx_params },
    { OSSL_FUNC_MAC_SET_CTX_PARAMS, (void (*)(void))hmac_set_ctx_params },
    { 0, NULL }
};

/* ---- Poly1305 ----------------------------------------------------------------- */

typedef struct poly_ctx {
    ic_poly1305_ctx st;    /* first: 64-byte aligned by ic_alloc */
    uint8_t key[32];
    int key_set;
    int live;
} poly_ctx;

static void *poly_newctx(void *provctx)
{
    return ic_alloc(sizeof(poly_ctx));
}

static void poly_freectx(void *vctx)
{
    ic_free(vctx, sizeof(poly_ctx));
}

static void *poly_dupctx(void *vctx)
{
    poly_ctx *d = ic_alloc(sizeof *d);
    if (d != NULL)
        memcpy(d, vctx, sizeof *d);
    return d;
}

static int poly_set_key(poly_ctx *c, const uint8_t *key, size_t keylen)
{
    if (keylen != 32) {
        prov_err(PROV_R_INVALID_KEY_LENGTH, "Poly1305 keys have 32 bytes");
        return 0;
    }
    memcpy(c->key, key, 32);
    c->key_set = 1;
    return 1;
}

static int poly_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    const OSSL_PARAM *p = params == NULL ? NULL : prov_locate_const(params, OSSL_MAC_PARAM_KEY);
    if (p != NULL && (p->data_type != OSSL_PARAM_OCTET_STRING || !poly_set_key(vctx, p->data, p->data_size)))
        return 0;
    return 1;
}

/* A Poly1305 key is one message's: every init needs it (again). */
static int poly_init(void *vctx, const unsigned char *key, size_t keylen, const OSSL_PARAM params[])
{
    poly_ctx *c = vctx;
    if (!poly_set_ctx_params(c, params) || (key != NULL && !poly_set_key(c, key, keylen)))
        return 0;
    if (!c->key_set) {
        prov_err(PROV_R_NO_KEY_SET, "Poly1305 needs a key");
        return 0;
    }
    int st = ic_poly1305_init(&c->st, c->key);
    c->live = st == IC_OK;
    return c->live;
}

static int poly_update(void *vctx, const unsigned char *in, size_t inl)
{
    poly_ctx *c = vctx;
    prov_count(PC_POLY1305, inl);
    int st = c->live ? ic_poly1305_update(&c->st, in, inl) : IC_ERR_STATE;
    if (st != IC_OK) {
        prov_err_ic(st, "ic_poly1305_update");
        return 0;
    }
    return 1;
}

static int poly_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    poly_ctx *c = vctx;
    int st = !c->live ? IC_ERR_STATE : outsize < 16 ? IC_ERR_TAGLEN : ic_poly1305_final(&c->st, out);
    c->live = 0;
    if (st != IC_OK) {
        prov_err_ic(st, "ic_poly1305_final");
        return 0;
    }
    *outl = 16;
    return 1;
}

static int poly_get_params(OSSL_PARAM params[])
{
    return prov_set_size(params, OSSL_MAC_PARAM_SIZE, 16);
}

static int poly_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    return poly_get_params(params);
}

static const OSSL_PARAM poly_gettable[] = {
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM poly_settable[] = {
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *poly_gettable_params(void *provctx)
{
    return poly_gettable;
}

static const OSSL_PARAM *poly_gettable_ctx_params(void *cctx, void *provctx)
{
    return poly_gettable;
}

static const OSSL_PARAM *poly_settable_ctx_params(void *cctx, void *provctx)
{
    return poly_settable;
}

static const OSSL_DISPATCH poly_functions[] = {
    { OSSL_FUNC_MAC_NEWCTX, (void (*)(void))poly_newctx },
    { OSSL_FUNC_MAC_DUPCTX, (void (*)(void))poly_dupctx },
    { OSSL_FUNC_MAC_FREECTX, (void (*)(void))poly_freectx },
    { OSSL_FUNC_MAC_INIT, (void (*)(void))poly_init },
    { OSSL_FUNC_MAC_UPDATE, (void (*)(void))poly_update },
    { OSSL_FUNC_MAC_FINAL, (void (*)(void))poly_final },
    { OSSL_FUNC_MAC_GET_PARAMS, (void (*)(void))poly_get_params },
    { OSSL_FUNC_MAC_GETTABLE_PARAMS, (void (*)(void))poly_gettable_params },
    { OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, (void (*)(void))poly_gettable_ctx_params },
    { OSSL_FUNC_MAC_GET_CTX_PARAMS, (void (*)(void))poly_get_ctx_params },
    { OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, (void (*)(void))poly_settable_ctx_params },
    { OSSL_FUNC_MAC_SET_CTX_PARAMS, (void (*)(void))poly_set_ctx_params },
    { 0, NULL }
};

const OSSL_ALGORITHM prov_macs[] = {
    { "HMAC", PROV_PROPS, hmac_functions, "HMAC over incore's SHA-1 and SHA-2" },
    { "POLY1305", PROV_PROPS, poly_functions, "Poly1305 (incore)" },
    { NULL, NULL, NULL, NULL }
};
