/*
 * provider/cipher_xts.c - AES-128-XTS and AES-256-XTS (IEEE 1619): the key
 * is both AES keys (32 or 64 bytes, halves different), the IV the 16-byte
 * tweak, and every update call one whole data unit of 16 bytes to 2^24
 * bytes under that tweak (XTS cannot continue a data unit across calls).
 */
#include <string.h>

#include <openssl/proverr.h>

#include "incore/xts.h"
#include "prov.h"

typedef struct xts_ctx {
    ic_aes_xts_key key;    /* first: 64-byte aligned by ic_alloc */
    uint8_t tweak[16];
    size_t keylen;
    int enc;
    int key_set;
    int iv_set;
} xts_ctx;

static xts_ctx *xts_new(size_t keylen)
{
    xts_ctx *c = ic_alloc(sizeof *c);
    if (c != NULL)
        c->keylen = keylen;
    return c;
}

static void xts_freectx(void *vctx)
{
    xts_ctx *c = vctx;
    if (c != NULL)
        ic_aes_xts_key_wipe(&c->key);
    ic_free(c, sizeof *c);
}

static void *xts_dupctx(void *vctx)
{
    xts_ctx *d = ic_alloc(sizeof *d);
    if (d != NULL)
        memcpy(d, vctx, sizeof *d);
    return d;
}

static int xts_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    xts_ctx *c = vctx;
    return prov_check_keylen(params, c->keylen);
}

static int xts_init(xts_ctx *c, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                    const OSSL_PARAM params[], int enc)
{
    c->enc = enc;
    if (iv != NULL) {
        if (ivlen != 16) {
            prov_err(PROV_R_INVALID_IV_LENGTH, "the XTS tweak has 16 bytes");
            return 0;
        }
        memcpy(c->tweak, iv, 16);
        c->iv_set = 1;
    }
    if (key != NULL) {
        if (keylen != c->keylen) {
            prov_err(PROV_R_INVALID_KEY_LENGTH, "key length of this cipher");
            return 0;
        }
        int st = ic_aes_xts_key_init(&c->key, key, keylen);
        c->key_set = st == IC_OK;
        if (st != IC_OK) {
            prov_err_ic(st, "ic_aes_xts_key_init");
            return 0;
        }
    }
    return xts_set_ctx_params(c, params);
}

static int xts_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return xts_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int xts_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return xts_init(vctx, key, keylen, iv, ivlen, params, 0);
}

static int xts_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    xts_ctx *c = vctx;
    if ((out == NULL || in == NULL) && inl > 0) {
        prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "no input or output buffer (this cipher takes no AAD)");
        return 0;
    }
    if (!c->key_set || !c->iv_set) {
        prov_err(c->key_set ? PROV_R_INVALID_STATE : PROV_R_NO_KEY_SET, "XTS needs a key and a tweak");
        return 0;
    }
    if (outsize < inl) {
        prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "output");
        return 0;
    }
    prov_count(PC_AES_XTS, inl);
    int st = c->enc ? ic_aes_xts_encrypt(&c->key, out, in, inl, c->tweak)
                    : ic_aes_xts_decrypt(&c->key, out, in, inl, c->tweak);
    if (st != IC_OK) {
        prov_err_ic(st, "XTS data unit");
        return 0;
    }
    *outl = inl;
    return 1;
}

static int xts_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    *outl = 0;
    return 1;
}

static int xts_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    xts_ctx *c = vctx;
    return prov_set_size(params, OSSL_CIPHER_PARAM_KEYLEN, c->keylen)
        && prov_set_size(params, OSSL_CIPHER_PARAM_IVLEN, 16)
        && prov_set_octets(params, OSSL_CIPHER_PARAM_IV, c->tweak, 16)
        && prov_set_octets(params, OSSL_CIPHER_PARAM_UPDATED_IV, c->tweak, 16);
}

static const OSSL_PARAM xts_gettable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM xts_settable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM *xts_gettable_ctx_params(void *cctx, void *provctx)
{
    return xts_gettable_ctx;
}

static const OSSL_PARAM *xts_settable_ctx_params(void *cctx, void *provctx)
{
    return xts_settable_ctx;
}

#define XTS_CIPHER(name, kbytes)                                                                  \
    static void *name##_newctx(void *provctx) { return xts_new(kbytes); }                      \
    static int name##_get_params(OSSL_PARAM params[])                                          \
    {                                                                                          \
        return prov_cipher_get_params(params, PROV_MODE_XTS, kbytes, 16, 1, 0, 1);             \
    }                                                                                          \
    const OSSL_DISPATCH prov_##name##_functions[] = {                                          \
        { OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))name##_newctx },                            \
        { OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))xts_freectx },                             \
        { OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))xts_dupctx },                               \
        { OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))xts_einit },                          \
        { OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))xts_dinit },                          \
        { OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))xts_cipher },                               \
        { OSSL_FUNC_CIPHER_FINAL, (void (*)(void))xts_final },                                 \
        { OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))xts_cipher },                               \
        { OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))name##_get_params },                    \
        { OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))prov_cipher_gettable_params },     \
        { OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))xts_get_ctx_params },               \
        { OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))xts_set_ctx_params },               \
        { OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))xts_gettable_ctx_params },     \
        { OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))xts_settable_ctx_params },     \
        { 0, NULL }                                                                            \
    };

XTS_CIPHER(aes128xts, 32)
XTS_CIPHER(aes256xts, 64)
