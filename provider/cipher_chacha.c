/*
 * provider/cipher_chacha.c - ChaCha20 (OpenSSL's 16-byte IV: the 32-bit
 * block counter, little-endian, then the 12-byte nonce) and
 * ChaCha20-Poly1305 (RFC 8439), with the TLS 1.2 record mode of RFC 7905
 * (nonce = fixed IV xor the record's sequence number).
 *
 * The AEAD's key object (ic_chacha20_poly1305_key) is shared by reference
 * between a context and its duplicates, since a streaming message
 * (ic_chacha20_poly1305_ctx) points at it.
 */
#include <stdatomic.h>
#include <string.h>

#include <openssl/proverr.h>

#include "incore/chacha.h"
#include "prov.h"

/* ---- ChaCha20 ---------------------------------------------------------- */

typedef struct chacha_ctx {
    uint8_t key[32];
    uint8_t iv[16];        /* as set: counter (LE) || nonce               */
    uint8_t nonce[12];
    uint8_t ks[64];        /* keystream of the current partial block      */
    uint32_t counter;      /* next block                                  */
    unsigned pos;          /* bytes of ks used (64: none left)            */
    int key_set;
    int iv_set;
} chacha_ctx;

static void *chacha_newctx(void *provctx)
{
    chacha_ctx *c = ic_alloc(sizeof *c);
    if (c != NULL)
        c->pos = 64;
    return c;
}

static void chacha_freectx(void *vctx)
{
    ic_free(vctx, sizeof(chacha_ctx));
}

static void *chacha_dupctx(void *vctx)
{
    chacha_ctx *d = ic_alloc(sizeof *d);
    if (d != NULL)
        memcpy(d, vctx, sizeof *d);
    return d;
}

static int chacha_init(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                       size_t ivlen, const OSSL_PARAM params[])
{
    chacha_ctx *c = vctx;
    if (key != NULL) {
        if (keylen != 32) {
            prov_err(PROV_R_INVALID_KEY_LENGTH, "ChaCha20 keys have 32 bytes");
            return 0;
        }
        memcpy(c->key, key, 32);
        c->key_set = 1;
    }
    if (iv != NULL) {
        if (ivlen != 16) {
            prov_err(PROV_R_INVALID_IV_LENGTH, "ChaCha20's IV is counter and nonce, 16 bytes");
            return 0;
        }
        memcpy(c->iv, iv, 16);
        c->iv_set = 1;
    }
    if (c->iv_set) {
        c->counter = (uint32_t)c->iv[0] | (uint32_t)c->iv[1] << 8 | (uint32_t)c->iv[2] << 16
                     | (uint32_t)c->iv[3] << 24;
        memcpy(c->nonce, c->iv + 4, 12);
        c->pos = 64;
    }
    return 1;
}

/* Whole blocks (len a multiple of 64).  The 32-bit block counter does not
 * wrap onto block 0 of the same nonce (keystream reuse): as OpenSSL's own
 * ChaCha20 does, the run is cut where it would, and the counter carries
 * into the first word of the nonce (IV bytes 4..7, little-endian). */
static int chacha_blocks(chacha_ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    while (len > 0) {
        uint64_t room = ((uint64_t)1 << 32) - c->counter;   /* blocks before the wrap */
        size_t n = (uint64_t)(len / 64) > room ? (size_t)room * 64 : len;
        int st = ic_chacha20_xor(out, in, n, c->nonce, c->counter, c->key);
        if (st != IC_OK) {
            prov_err_ic(st, "ChaCha20");
            return 0;
        }
        uint64_t next = (uint64_t)c->counter + n / 64;
        c->counter = (uint32_t)next;
        if (next >> 32) {
            uint32_t w = ((uint32_t)c->nonce[0] | (uint32_t)c->nonce[1] << 8 | (uint32_t)c->nonce[2] << 16
                          | (uint32_t)c->nonce[3] << 24) + 1;
            for (int i = 0; i < 4; i++)
                c->nonce[i] = (uint8_t)(w >> (8 * i));
        }
        out += n, in += n, len -= n;
    }
    return 1;
}

static int chacha_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                         const unsigned char *in, size_t inl)
{
    static const uint8_t zero[64];
    chacha_ctx *c = vctx;
    if ((out == NULL || in == NULL) && inl > 0) {
        prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "no input or output buffer (this cipher takes no AAD)");
        return 0;
    }
    if (!c->key_set || !c->iv_set) {
        prov_err(c->key_set ? PROV_R_INVALID_STATE : PROV_R_NO_KEY_SET, "ChaCha20 needs a key and an IV");
        return 0;
    }
    if (outsize < inl) {
        prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "output");
        return 0;
    }
    prov_count(PC_CHACHA20, inl);
    size_t n = 0;
    for (; n < inl && c->pos < 64; n++)
        out[n] = in[n] ^ c->ks[c->pos++];
    size_t whole = (inl - n) & ~(size_t)63;
    if (!chacha_blocks(c, out + n, in + n, whole))
        return 0;
    n += whole;
    if (n < inl) {
        if (!chacha_blocks(c, c->ks, zero, 64))
            return 0;
        for (c->pos = 0; n < inl; n++)
            out[n] = in[n] ^ c->ks[c->pos++];
    }
    *outl = inl;
    return 1;
}

static int chacha_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    *outl = 0;
    return 1;
}

static int chacha_get_params(OSSL_PARAM params[])
{
    return prov_cipher_get_params(params, PROV_MODE_STREAM, 32, 16, 1, 0, 1);
}

static int chacha_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    chacha_ctx *c = vctx;
    return prov_set_size(params, OSSL_CIPHER_PARAM_KEYLEN, 32)
        && prov_set_size(params, OSSL_CIPHER_PARAM_IVLEN, 16)
        && prov_set_octets(params, OSSL_CIPHER_PARAM_IV, c->iv, 16);
}

static int chacha_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    const OSSL_PARAM *p = params == NULL ? NULL : prov_locate_const(params, OSSL_CIPHER_PARAM_IVLEN);
    size_t v;
    if (p != NULL && (!OSSL_PARAM_get_size_t(p, &v) || v != 16)) {
        prov_err(PROV_R_INVALID_IV_LENGTH, "ChaCha20's IV has 16 bytes");
        return 0;
    }
    return prov_check_keylen(params, 32);
}

static int chacha_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                        size_t ivlen, const OSSL_PARAM params[])
{
    return chacha_init(vctx, key, keylen, iv, ivlen, params) && chacha_set_ctx_params(vctx, params);
}

static const OSSL_PARAM chacha_gettable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM chacha_settable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM *chacha_gettable_ctx_params(void *cctx, void *provctx)
{
    return chacha_gettable_ctx;
}

static const OSSL_PARAM *chacha_settable_ctx_params(void *cctx, void *provctx)
{
    return chacha_settable_ctx;
}

const OSSL_DISPATCH prov_chacha20_functions[] = {
    { OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))chacha_newctx },
    { OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))chacha_freectx },
    { OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))chacha_dupctx },
    { OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))chacha_einit },
    { OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))chacha_einit },
    { OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))chacha_cipher },
    { OSSL_FUNC_CIPHER_FINAL, (void (*)(void))chacha_final },
    { OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))chacha_cipher },
    { OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))chacha_get_params },
    { OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))prov_cipher_gettable_params },
    { OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))chacha_get_ctx_params },
    { OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))chacha_set_ctx_params },
    { OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))chacha_gettable_ctx_params },
    { OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))chacha_settable_ctx_params },
    { 0, NULL }
};

/* ---- ChaCha20-Poly1305 ------------------------------------------------- */

typedef struct cp_key {
    ic_chacha20_poly1305_key k;
    _Atomic int refs;
} cp_key;

typedef struct cp_ctx {
    ic_chacha20_poly1305_ctx msg;   /* first: 64-byte aligned by ic_alloc */
    cp_key *key;
    uint8_t iv[12];
    uint8_t nonce[12];     /* 0^(12 - ivlen) || iv                       */
    uint8_t tag[16];
    uint8_t tls_aad[PROV_TLS1_AAD_LEN];
    size_t ivlen;
    size_t taglen;
    size_t tls_plen;       /* payload bytes of the TLS record            */
    int enc;
    int iv_set;
    int started;
    int tag_ready;
    int tls_aad_set;
} cp_ctx;

static void cp_key_release(cp_key *k)
{
    if (k != NULL && atomic_fetch_sub(&k->refs, 1) == 1) {
        ic_chacha20_poly1305_key_wipe(&k->k);
        ic_free(k, sizeof *k);
    }
}

static void *cp_newctx(void *provctx)
{
    cp_ctx *c = ic_alloc(sizeof *c);
    if (c != NULL) {
        c->ivlen = 12;
        c->taglen = 16;
    }
    return c;
}

static void cp_freectx(void *vctx)
{
    cp_ctx *c = vctx;
    if (c == NULL)
        return;
    ic_chacha20_poly1305_wipe(&c->msg);
    cp_key_release(c->key);
    ic_free(c, sizeof *c);
}

static void *cp_dupctx(void *vctx)
{
    cp_ctx *c = vctx, *d = ic_alloc(sizeof *d);
    if (d == NULL)
        return NULL;
    memcpy(d, c, sizeof *d);
    if (d->key != NULL)
        atomic_fetch_add(&d->key->refs, 1);
    return d;
}

static int cp_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static void set_nonce(cp_ctx *c)
{
    memset(c->nonce, 0, 12);
    memcpy(c->nonce + 12 - c->ivlen, c->iv, c->ivlen);
}

static int cp_init(cp_ctx *c, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                   const OSSL_PARAM params[], int enc)
{
    /* An expected tag set before this init (as CMS does: tag, then key
     * and IV) stays; a computed one, or one of the other direction, goes. */
    if (enc || c->enc)
        c->tag_ready = 0;
    c->enc = enc;
    ic_chacha20_poly1305_wipe(&c->msg);
    c->started = 0;
    c->tls_aad_set = 0;
    if (!cp_set_ctx_params(c, params))
        return 0;
    if (key != NULL) {
        if (keylen != 32) {
            cp_key_release(c->key);   /* a refused re-key leaves no older key usable */
            c->key = NULL;
            prov_err(PROV_R_INVALID_KEY_LENGTH, "ChaCha20-Poly1305 keys have 32 bytes");
            return 0;
        }
        /* an unshared key object is set again in place (as the GCM one) */
        if (c->key == NULL || atomic_load(&c->key->refs) != 1) {
            cp_key_release(c->key);
            c->key = ic_alloc(sizeof *c->key);
            if (c->key == NULL)
                return 0;
            atomic_init(&c->key->refs, 1);
        }
        if (ic_chacha20_poly1305_key_init(&c->key->k, key) != IC_OK) {
            cp_key_release(c->key);
            c->key = NULL;
            prov_err(PROV_R_INVALID_KEY, "key");
            return 0;
        }
    }
    if (iv != NULL) {
        if (ivlen != c->ivlen) {
            prov_err(PROV_R_INVALID_IV_LENGTH, "IV length (set \"ivlen\" first)");
            return 0;
        }
        memcpy(c->iv, iv, ivlen);
        set_nonce(c);
        c->iv_set = 1;
    }
    return 1;
}

static int cp_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                    size_t ivlen, const OSSL_PARAM params[])
{
    return cp_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int cp_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                    size_t ivlen, const OSSL_PARAM params[])
{
    return cp_init(vctx, key, keylen, iv, ivlen, params, 0);
}

static int cp_start(cp_ctx *c)
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
    int st = ic_chacha20_poly1305_init(&c->msg, &c->key->k, c->nonce);
    if (st != IC_OK) {
        prov_err_ic(st, "ic_chacha20_poly1305_init");
        return 0;
    }
    c->started = 1;
    c->iv_set = 0;
    return 1;
}

/* One TLS record in place: payload || tag, nonce = IV xor (0^4 || seq). */
static int cp_tls_record(cp_ctx *c, uint8_t *out, size_t *outl, const uint8_t *in, size_t len)
{
    uint8_t nonce[12];
    int st;
    c->tls_aad_set = 0;
    if (c->key == NULL || in != out || len != c->tls_plen + 16 || c->ivlen != 12) {
        prov_err(PROV_R_INVALID_INPUT_LENGTH, "TLS record: in place, payload and tag");
        return 0;
    }
    memcpy(nonce, c->iv, 12);
    for (int i = 0; i < 8; i++)
        nonce[4 + i] ^= c->tls_aad[i];
    size_t plen = c->tls_plen;
    if (c->enc)
        st = ic_chacha20_poly1305_key_seal(&c->key->k, out, out + plen, in, plen, c->tls_aad,
                                           PROV_TLS1_AAD_LEN, nonce);
    else
        st = ic_chacha20_poly1305_key_open(&c->key->k, out, in + plen, in, plen, c->tls_aad,
                                           PROV_TLS1_AAD_LEN, nonce);
    if (st != IC_OK) {
        *outl = 0;
        prov_err_ic(st, c->enc ? "TLS record seal" : "TLS record open");
        return 0;
    }
    prov_count(PC_CHACHA20_POLY1305, plen);
    *outl = c->enc ? len : plen;
    return 1;
}

static int cp_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                     const unsigned char *in, size_t inl)
{
    cp_ctx *c = vctx;
    int st;
    if (outsize < inl && out != NULL) {
        prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "output");
        return 0;
    }
    if (c->tls_aad_set)
        return cp_tls_record(c, out, outl, in, inl);
    if (!cp_start(c))
        return 0;
    if (out == NULL) {
        st = ic_chacha20_poly1305_aad(&c->msg, in, inl);
    } else {
        prov_count(PC_CHACHA20_POLY1305, inl);
        st = c->enc ? ic_chacha20_poly1305_encrypt(&c->msg, out, in, inl)
                    : ic_chacha20_poly1305_decrypt(&c->msg, out, in, inl);
    }
    if (st != IC_OK) {
        prov_err_ic(st, out == NULL ? "ChaCha20-Poly1305 AAD" : "ChaCha20-Poly1305 data");
        return 0;
    }
    *outl = inl;
    return 1;
}

static int cp_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    cp_ctx *c = vctx;
    int st;
    *outl = 0;
    if (c->tls_aad_set) {   /* a TLS record is one update call, final has no part in it */
        prov_err(PROV_R_INVALID_STATE, "final with a TLS AAD set");
        return 0;
    }
    if (!cp_start(c))
        return 0;
    c->started = 0;
    if (c->enc) {
        st = ic_chacha20_poly1305_final(&c->msg, c->tag);
        c->tag_ready = st == IC_OK;
    } else {
        if (!c->tag_ready || c->taglen != 16) {
            ic_chacha20_poly1305_wipe(&c->msg);
            prov_err(PROV_R_TAG_NOT_SET, "set the expected 16-byte tag before final");
            return 0;
        }
        st = ic_chacha20_poly1305_final_verify(&c->msg, c->tag);
        c->tag_ready = 0;
        ic_chacha20_poly1305_wipe(&c->msg);
    }
    if (st != IC_OK) {
        prov_err_ic(st, c->enc ? "ChaCha20-Poly1305 final" : "ChaCha20-Poly1305 tag");
        return 0;
    }
    return 1;
}

static int cp_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                     const unsigned char *in, size_t inl)
{
    if (in == NULL)
        return cp_final(vctx, out, outl, outsize);
    return cp_update(vctx, out, outl, outsize, in, inl);
}

static int cp_get_params(OSSL_PARAM params[])
{
    return prov_cipher_get_params(params, PROV_MODE_STREAM, 32, 12, 1, 1, 1);
}

static int cp_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    cp_ctx *c = vctx;
    OSSL_PARAM *p;
    if (!prov_set_size(params, OSSL_CIPHER_PARAM_KEYLEN, 32)
        || !prov_set_size(params, OSSL_CIPHER_PARAM_IVLEN, c->ivlen)
        || !prov_set_size(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN, c->taglen)
        || !prov_set_size(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, 16)
        || !prov_set_octets(params, OSSL_CIPHER_PARAM_IV, c->iv, c->ivlen))
        return 0;
    if ((p = prov_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != NULL) {
        if (!c->enc || !c->tag_ready || p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0
            || p->data_size > 16) {
            prov_err(PROV_R_INVALID_TAG, "the tag is there after an encryption's final, 1 to 16 bytes");
            return 0;
        }
        memcpy(p->data, c->tag, p->data_size);
        p->return_size = p->data_size;
    }
    return 1;
}

static int cp_set_tag(cp_ctx *c, const OSSL_PARAM *p)
{
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0 || p->data_size > 16
        || (p->data != NULL && c->enc)) {
        prov_err(PROV_R_INVALID_TAG_LENGTH, "the expected tag is set when decrypting, 16 bytes");
        return 0;
    }
    if (p->data != NULL) {
        memcpy(c->tag, p->data, p->data_size);
        c->tag_ready = 1;
    }
    c->taglen = p->data_size;
    return 1;
}

/* The 13-byte TLS AAD; when decrypting, its length field counts the tag,
 * which the record's AAD does not. */
static int cp_set_tls_aad(cp_ctx *c, const OSSL_PARAM *p)
{
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != PROV_TLS1_AAD_LEN) {
        prov_err(PROV_R_INVALID_INPUT_LENGTH, "the TLS AAD has 13 bytes");
        return 0;
    }
    const uint8_t *a = p->data;
    size_t len = (size_t)a[11] << 8 | a[12];
    if (!c->enc) {
        if (len < 16) {
            prov_err(PROV_R_INVALID_INPUT_LENGTH, "TLS record shorter than its tag");
            return 0;
        }
        len -= 16;
    }
    memcpy(c->tls_aad, a, 11);
    c->tls_aad[11] = (uint8_t)(len >> 8);
    c->tls_aad[12] = (uint8_t)len;
    c->tls_plen = len;
    c->tls_aad_set = 1;
    return 1;
}

static int cp_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    cp_ctx *c = vctx;
    const OSSL_PARAM *p;
    size_t v;
    if (params == NULL)
        return 1;
    if (!prov_check_keylen(params, 32))
        return 0;
    if ((p = prov_locate_const(params, OSSL_CIPHER_PARAM_AEAD_IVLEN)) != NULL) {
        if (!OSSL_PARAM_get_size_t(p, &v) || v == 0 || v > 12) {
            prov_err(PROV_R_INVALID_IV_LENGTH, "ChaCha20-Poly1305 IV of 1 to 12 bytes");
            return 0;
        }
        if (v != c->ivlen)
            c->iv_set = 0;
        c->ivlen = v;
    }
    if ((p = prov_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != NULL && !cp_set_tag(c, p))
        return 0;
    if ((p = prov_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD)) != NULL
        && !cp_set_tls_aad(c, p))
        return 0;
    if ((p = prov_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED)) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL || p->data_size != c->ivlen) {
            prov_err(PROV_R_INVALID_IV_LENGTH, "TLS fixed IV");
            return 0;
        }
        memcpy(c->iv, p->data, c->ivlen);
        set_nonce(c);
        c->iv_set = 1;
    }
    return 1;
}

static const OSSL_PARAM cp_gettable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM cp_settable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *cp_gettable_ctx_params(void *cctx, void *provctx)
{
    return cp_gettable_ctx;
}

static const OSSL_PARAM *cp_settable_ctx_params(void *cctx, void *provctx)
{
    return cp_settable_ctx;
}

const OSSL_DISPATCH prov_chacha20_poly1305_functions[] = {
    { OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))cp_newctx },
    { OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))cp_freectx },
    { OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))cp_dupctx },
    { OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))cp_einit },
    { OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))cp_dinit },
    { OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))cp_update },
    { OSSL_FUNC_CIPHER_FINAL, (void (*)(void))cp_final },
    { OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))cp_cipher },
    { OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))cp_get_params },
    { OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))prov_cipher_gettable_params },
    { OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))cp_get_ctx_params },
    { OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))cp_set_ctx_params },
    { OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))cp_gettable_ctx_params },
    { OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))cp_settable_ctx_params },
    { 0, NULL }
};
