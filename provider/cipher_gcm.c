/*
 * provider/cipher_gcm.c - AES-128/192/256-GCM.
 *
 * The key is expanded once per key (ic_aes_gcm_key: AES schedule and the
 * powers of H) into an object that dupctx shares by reference, since a
 * streaming message (ic_aes_gcm_ctx) points at its key object.  A message
 * begins at the first data call after an IV was set; final ends it and
 * uses the IV up, so a second message needs a new IV (or the TLS IV
 * generator).  With a TLS 1.2 AAD set (OSSL_CIPHER_PARAM_AEAD_TLS1_AAD) the
 * next update is one whole record, in place: explicit IV || data || tag,
 * sealed or opened in one call (a failing tag releases nothing: the
 * output is zeroed).
 */
#include <stdatomic.h>
#include <string.h>

#include <openssl/proverr.h>

#include "incore/gcm.h"
#include "incore/rand.h"
#include "prov.h"

#define GCM_MAX_IV 128

typedef struct gcm_key {
    ic_aes_gcm_key k;      /* first: 64-byte aligned by ic_alloc */
    _Atomic int refs;
} gcm_key;

typedef struct gcm_ctx {
    ic_aes_gcm_ctx msg;
    gcm_key *key;
    uint8_t iv[GCM_MAX_IV];
    uint8_t tag[16];
    uint8_t tls_aad[PROV_TLS1_AAD_LEN];
    size_t ivlen;
    size_t taglen;         /* decrypt: bytes of tag set; encrypt: asked     */
    size_t keylen;
    uint64_t tls_records;
    enum prov_counter counter;
    int enc;
    int iv_set;            /* an unused IV is there                          */
    int started;           /* msg holds a message                            */
    int tag_ready;         /* encrypt: final wrote tag; decrypt: tag set      */
    int tls_aad_set;
    int iv_gen;            /* TLS: fixed IV set, invocation field counts    */
} gcm_ctx;

static void key_release(gcm_key *k)
{
    if (k != NULL && atomic_fetch_sub(&k->refs, 1) == 1) {
        ic_aes_gcm_key_wipe(&k->k);
        ic_free(k, sizeof *k);
    }
}

static gcm_ctx *gcm_new(size_t keylen, enum prov_counter counter)
{
    gcm_ctx *c = ic_alloc(sizeof *c);
    if (c == NULL)
        return NULL;
    c->keylen = keylen;
    c->ivlen = IC_GCM_IV_SIZE;
    c->taglen = 16;
    c->counter = counter;
    return c;
}

static void gcm_freectx(void *vctx)
{
    gcm_ctx *c = vctx;
    if (c == NULL)
        return;
    ic_aes_gcm_wipe(&c->msg);
    key_release(c->key);
    ic_free(c, sizeof *c);
}

static void *gcm_dupctx(void *vctx)
{
    gcm_ctx *c = vctx, *d = ic_alloc(sizeof *d);
    if (d == NULL)
        return NULL;
    memcpy(d, c, sizeof *d);
    if (d->key != NULL)
        atomic_fetch_add(&d->key->refs, 1);
    return d;
}

static int gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int set_key(gcm_ctx *c, const uint8_t *key, size_t keylen)
{
    if (keylen != c->keylen) {
        key_release(c->key);   /* a refused re-key leaves no older key usable */
        c->key = NULL;
        prov_err(PROV_R_INVALID_KEY_LENGTH, "key length of this cipher");
        return 0;
    }
    /* A key object no duplicate shares is expanded again in place: a
     * program that sets a key per message (openssl speed does) then pays
     * no allocation and no wipe of the old object. */
    if (c->key == NULL || atomic_load(&c->key->refs) != 1) {
        key_release(c->key);
        c->key = ic_alloc(sizeof *c->key);
        if (c->key == NULL)
            return 0;
        atomic_init(&c->key->refs, 1);
    }
    int st = ic_aes_gcm_key_init(&c->key->k, key, keylen);
    if (st != IC_OK) {
        key_release(c->key);
        c->key = NULL;
        prov_err_ic(st, "ic_aes_gcm_key_init");
        return 0;
    }
    return 1;
}

static int gcm_init(gcm_ctx *c, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                    const OSSL_PARAM params[], int enc)
{
    /* An expected tag set before this init (as CMS does: tag, then key
     * and IV) stays; a computed one, or one of the other direction, goes. */
    if (enc || c->enc)
        c->tag_ready = 0;
    c->enc = enc;
    ic_aes_gcm_wipe(&c->msg);
    c->started = 0;
    c->tls_aad_set = 0;
    if (!gcm_set_ctx_params(c, params))
        return 0;
    if (iv != NULL) {
        if (ivlen != c->ivlen) {
            prov_err(PROV_R_INVALID_IV_LENGTH, "IV length (set \"ivlen\" first)");
            return 0;
        }
        memcpy(c->iv, iv, ivlen);
        c->iv_set = 1;
        c->iv_gen = 0;
    }
    if (key != NULL && !set_key(c, key, keylen))
        return 0;
    return 1;
}

static int gcm_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return gcm_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int gcm_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return gcm_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* Begin the message on the first call that needs it. */
static int start(gcm_ctx *c)
{
    if (c->started)
        return 1;
    if (c->key == NULL) {
        prov_err(PROV_R_NO_KEY_SET, "no key");
        return 0;
    }
    if (!c->iv_set) {
        prov_err(PROV_R_INVALID_STATE, "no unused IV: set a new one for each message");
        return 0;
    }
    int st = ic_aes_gcm_init(&c->msg, &c->key->k, c->iv, c->ivlen);
    if (st != IC_OK) {
        prov_err_ic(st, "ic_aes_gcm_init");
        return 0;
    }
    c->started = 1;
    c->iv_set = 0;
    c->tag_ready = c->enc ? 0 : c->tag_ready;
    return 1;
}

/* Big-endian increment of the 64-bit invocation field (the IV's last 8
 * bytes, RFC 5288 section 3). */
static void invocation_next(gcm_ctx *c)
{
    uint8_t *p = c->iv + c->ivlen - 8;
    for (int i = 7; i >= 0; i--)
        if (++p[i] != 0)
            break;
}

static int tls_record(gcm_ctx *c, uint8_t *out, size_t *outl, const uint8_t *in, size_t len)
{
    int st;
    c->tls_aad_set = 0;
    if (c->key == NULL || in == NULL || in != out || len < PROV_TLS_EXPLICIT_IV + PROV_TLS_TAG_LEN
        || c->ivlen != 12) {
        prov_err(PROV_R_INVALID_INPUT_LENGTH, "TLS record: in place, explicit IV and tag");
        return 0;
    }
    size_t plen = len - PROV_TLS_EXPLICIT_IV - PROV_TLS_TAG_LEN;
    if (plen != ((size_t)c->tls_aad[11] << 8 | c->tls_aad[12])) {   /* the length the AAD states */
        prov_err(PROV_R_INVALID_INPUT_LENGTH, "TLS record length differs from its AAD's");
        return 0;
    }
    if (!c->iv_gen) {
        prov_err(PROV_R_INVALID_STATE, "TLS record without a fixed IV");
        return 0;
    }
    uint8_t *data = out + PROV_TLS_EXPLICIT_IV;
    if (c->enc) {
        if (++c->tls_records == 0) {
            prov_err(PROV_R_TOO_MANY_RECORDS, "TLS IV generator");
            return 0;
        }
        memcpy(out, c->iv + 4, PROV_TLS_EXPLICIT_IV);
        st = ic_aes_gcm_key_seal(&c->key->k, data, data + plen, 16, data, plen, c->tls_aad,
                                 PROV_TLS1_AAD_LEN, c->iv, 12);
        invocation_next(c);
        *outl = len;
    } else {
        memcpy(c->iv + 4, in, PROV_TLS_EXPLICIT_IV);
        st = ic_aes_gcm_key_open(&c->key->k, data, data + plen, 16, data, plen, c->tls_aad,
                                 PROV_TLS1_AAD_LEN, c->iv, 12);
        *outl = plen;
    }
    c->iv_set = 0;
    if (st != IC_OK) {
        *outl = 0;
        prov_err_ic(st, c->enc ? "TLS record seal" : "TLS record open");
        return 0;
    }
    prov_count(c->counter, plen);
    return 1;
}

static int gcm_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    gcm_ctx *c = vctx;
    int st;
    if (outsize < inl && out != NULL) {
        prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "output");
        return 0;
    }
    if (c->tls_aad_set)
        return tls_record(c, out, outl, in, inl);
    if (!start(c))
        return 0;
    if (out == NULL) {
        st = ic_aes_gcm_aad(&c->msg, in, inl);
    } else {
        prov_count(c->counter, inl);
        st = c->enc ? ic_aes_gcm_encrypt(&c->msg, out, in, inl) : ic_aes_gcm_decrypt(&c->msg, out, in, inl);
    }
    if (st != IC_OK) {
        prov_err_ic(st, out == NULL ? "GCM AAD" : "GCM data");
        return 0;
    }
    *outl = inl;
    return 1;
}

static int gcm_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    gcm_ctx *c = vctx;
    int st;
    *outl = 0;
    if (c->tls_aad_set) {   /* a TLS record is one update call, final has no part in it */
        prov_err(PROV_R_INVALID_STATE, "final with a TLS AAD set");
        return 0;
    }
    if (!start(c))
        return 0;
    c->started = 0;
    if (c->enc) {
        st = ic_aes_gcm_final(&c->msg, c->tag, 16);
        c->tag_ready = st == IC_OK;
    } else {
        if (!c->tag_ready) {
            ic_aes_gcm_wipe(&c->msg);
            prov_err(PROV_R_TAG_NOT_SET, "set the expected tag before final");
            return 0;
        }
        st = ic_aes_gcm_final_verify(&c->msg, c->tag, c->taglen);
        c->tag_ready = 0;
        ic_aes_gcm_wipe(&c->msg);
    }
    if (st != IC_OK) {
        prov_err_ic(st, c->enc ? "GCM final" : "GCM tag");
        return 0;
    }
    return 1;
}

/* EVP_Cipher(): data with in set, final with in NULL. */
static int gcm_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    if (in == NULL)
        return gcm_final(vctx, out, outl, outsize);
    return gcm_update(vctx, out, outl, outsize, in, inl);
}

static int get_tag(gcm_ctx *c, OSSL_PARAM *p)
{
    if (!c->enc || !c->tag_ready || p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0
        || p->data_size > 16) {
        prov_err(PROV_R_INVALID_TAG, "the tag is there after an encryption's final, 1 to 16 bytes");
        return 0;
    }
    memcpy(p->data, c->tag, p->data_size);
    p->return_size = p->data_size;
    return 1;
}

/* TLS1_GET_IV_GEN (EVP_CTRL_GCM_IV_GEN): the IV of the next message is the
 * fixed part and the invocation field; the caller gets its last bytes. */
static int get_iv_gen(gcm_ctx *c, OSSL_PARAM *p)
{
    if (!c->iv_gen || c->ivlen < 8 || c->key == NULL || p->data_type != OSSL_PARAM_OCTET_STRING
        || p->data_size == 0) {
        prov_err(PROV_R_INVALID_STATE, "no TLS fixed IV set (and an 8-byte invocation field)");
        return 0;
    }
    size_t n = p->data_size > c->ivlen ? c->ivlen : p->data_size;
    memcpy(p->data, c->iv + c->ivlen - n, n);
    p->return_size = n;
    c->iv_set = 1;
    c->started = 0;
    /* the message begins with this IV; the next one gets the next value */
    int ok = start(c);
    invocation_next(c);
    return ok;
}

static int gcm_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    gcm_ctx *c = vctx;
    OSSL_PARAM *p;
    if (!prov_set_size(params, OSSL_CIPHER_PARAM_KEYLEN, c->keylen)
        || !prov_set_size(params, OSSL_CIPHER_PARAM_IVLEN, c->ivlen)
        || !prov_set_size(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN, c->enc ? 16 : c->taglen)
        || !prov_set_size(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, PROV_TLS_TAG_LEN)
        || !prov_set_octets(params, OSSL_CIPHER_PARAM_IV, c->iv, c->ivlen)
        || !prov_set_octets(params, OSSL_CIPHER_PARAM_UPDATED_IV, c->iv, c->ivlen))
        return 0;
    if ((p = prov_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != NULL && !get_tag(c, p))
        return 0;
    if ((p = prov_locate(params, OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN)) != NULL && !get_iv_gen(c, p))
        return 0;
    return 1;
}

static int set_tag(gcm_ctx *c, const OSSL_PARAM *p)
{
    /* the tag itself, not a length alone (that is CCM's and OCB's way;
     * OpenSSL's GCM refuses it too) */
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL || p->data_size == 0 || p->data_size > 16
        || c->enc) {
        prov_err(PROV_R_INVALID_TAG_LENGTH, "the expected tag is set when decrypting, 1 to 16 bytes");
        return 0;
    }
    memcpy(c->tag, p->data, p->data_size);
    c->tag_ready = 1;
    c->taglen = p->data_size;
    return 1;
}

static int set_ivlen(gcm_ctx *c, const OSSL_PARAM *p)
{
    size_t v;
    if (!OSSL_PARAM_get_size_t(p, &v) || v == 0 || v > GCM_MAX_IV) {
        prov_err(PROV_R_INVALID_IV_LENGTH, "GCM IV of 1 to 128 bytes");
        return 0;
    }
    if (v != c->ivlen)
        c->iv_set = c->iv_gen = 0;   /* a fixed IV of the old length is gone too */
    c->ivlen = v;
    return 1;
}

/* The 13-byte TLS AAD: its length field counts the explicit IV (and when
 * decrypting the tag too), which the record's AAD does not. */
static int set_tls_aad(gcm_ctx *c, const OSSL_PARAM *p)
{
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != PROV_TLS1_AAD_LEN) {
        prov_err(PROV_R_INVALID_INPUT_LENGTH, "the TLS AAD has 13 bytes");
        return 0;
    }
    const uint8_t *a = p->data;
    size_t len = (size_t)a[11] << 8 | a[12];
    size_t over = PROV_TLS_EXPLICIT_IV + (c->enc ? 0 : PROV_TLS_TAG_LEN);
    if (len < over) {
        prov_err(PROV_R_INVALID_INPUT_LENGTH, "TLS record shorter than its explicit IV and tag");
        return 0;
    }
    len -= over;
    memcpy(c->tls_aad, a, 11);
    c->tls_aad[11] = (uint8_t)(len >> 8);
    c->tls_aad[12] = (uint8_t)len;
    c->tls_aad_set = 1;
    return 1;
}

/* The fixed part of the TLS 1.2 nonce (4 bytes), or the whole IV; an
 * encrypting context starts its invocation field at a random value. */
static int set_iv_fixed(gcm_ctx *c, const OSSL_PARAM *p)
{
    size_t n = p->data_size;
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL) {
        prov_err(PROV_R_FAILED_TO_GET_PARAMETER, "TLS fixed IV");
        return 0;
    }
    if (n == (size_t)-1 || n == c->ivlen) {
        memcpy(c->iv, p->data, c->ivlen);
    } else {
        if (n < PROV_TLS_FIXED_IV || c->ivlen < n + 8) {
            prov_err(PROV_R_INVALID_IV_LENGTH, "TLS fixed IV");
            return 0;
        }
        memcpy(c->iv, p->data, n);
        if (c->enc && ic_random(c->iv + n, c->ivlen - n) != IC_OK) {
            prov_err(PROV_R_FAILED_TO_GENERATE_KEY, "random invocation field");
            return 0;
        }
    }
    c->iv_gen = 1;
    c->iv_set = 1;
    return 1;
}

static int set_iv_inv(gcm_ctx *c, const OSSL_PARAM *p)
{
    if (!c->iv_gen || c->enc || p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0
        || p->data_size > c->ivlen) {
        prov_err(PROV_R_INVALID_STATE, "TLS invocation field");
        return 0;
    }
    memcpy(c->iv + c->ivlen - p->data_size, p->data, p->data_size);
    c->iv_set = 1;
    c->started = 0;
    return start(c);
}

static int gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    gcm_ctx *c = vctx;
    const OSSL_PARAM *p;
    if (params == NULL)
        return 1;
    if (!prov_check_keylen(params, c->keylen))
        return 0;
    if ((p = prov_locate_const(params, OSSL_CIPHER_PARAM_AEAD_IVLEN)) != NULL && !set_ivlen(c, p))
        return 0;
    if ((p = prov_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != NULL && !set_tag(c, p))
        return 0;
    if ((p = prov_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD)) != NULL && !set_tls_aad(c, p))
        return 0;
    if ((p = prov_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED)) != NULL
        && !set_iv_fixed(c, p))
        return 0;
    if ((p = prov_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV)) != NULL
        && !set_iv_inv(c, p))
        return 0;
    return 1;
}

static const OSSL_PARAM gcm_gettable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM gcm_settable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *gcm_gettable_ctx_params(void *cctx, void *provctx)
{
    return gcm_gettable_ctx;
}

static const OSSL_PARAM *gcm_settable_ctx_params(void *cctx, void *provctx)
{
    return gcm_settable_ctx;
}

#define GCM_CIPHER(name, kbits, counter)                                                          \
    static void *name##_newctx(void *provctx) { return gcm_new(kbits / 8, counter); }          \
    static int name##_get_params(OSSL_PARAM params[])                                          \
    {                                                                                          \
        return prov_cipher_get_params(params, PROV_MODE_GCM, kbits / 8, 12, 1, 1, 1);          \
    }                                                                                          \
    const OSSL_DISPATCH prov_##name##_functions[] = {                                          \
        { OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))name##_newctx },                            \
        { OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))gcm_freectx },                             \
        { OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))gcm_dupctx },                               \
        { OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))gcm_einit },                          \
        { OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))gcm_dinit },                          \
        { OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))gcm_update },                               \
        { OSSL_FUNC_CIPHER_FINAL, (void (*)(void))gcm_final },                                 \
        { OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))gcm_cipher },                               \
        { OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))name##_get_params },                    \
        { OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))prov_cipher_gettable_params },     \
        { OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))gcm_get_ctx_params },               \
        { OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))gcm_set_ctx_params },               \
        { OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))gcm_gettable_ctx_params },     \
        { OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))gcm_settable_ctx_params },     \
        { 0, NULL }                                                                            \
    };

GCM_CIPHER(aes128gcm, 128, PC_AES_128_GCM)
GCM_CIPHER(aes192gcm, 192, PC_AES_192_GCM)
GCM_CIPHER(aes256gcm, 256, PC_AES_256_GCM)
