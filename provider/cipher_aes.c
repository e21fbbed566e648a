/*
 * provider/cipher_aes.c - AES-128/192/256 in ECB, CBC (PKCS#7 padding on by
 * default, off with the "padding" parameter), CFB128, OFB and CTR, on an
 * incore ic_aes_key expanded once per key.
 *
 * ECB and CBC buffer a partial block between calls (and, when decrypting
 * with padding, hold the last whole block back for final).  The stream
 * modes keep their position inside the current block ("num", as OpenSSL's
 * own code does) and hand every run of whole blocks to incore; the updated
 * IV after any call is the one OpenSSL's implementation leaves.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/proverr.h>

#include "incore/aes.h"
#include "incore/rand.h"
#include "prov.h"

typedef struct aes_ctx {
    ic_aes_key key;        /* first: 64-byte aligned by ic_alloc */
    uint8_t iv[16];        /* the IV as set (OSSL_CIPHER_PARAM_IV)          */
    uint8_t reg[16];       /* CBC/CFB/OFB register, CTR counter             */
    uint8_t ks[16];        /* CTR: keystream block of a partial block      */
    uint8_t buf[16];       /* ECB/CBC: bytes waiting for a whole block      */
    size_t buflen;
    unsigned num;          /* stream modes: bytes used of the current block */
    unsigned mode;
    size_t keylen;
    int enc;
    int key_set;
    int iv_set;
    int pad;               /* ECB/CBC: PKCS#7 padding                       */
    int tls_version;       /* CBC: > 0 when every update is one TLS record  */
    size_t tls_mac_size;   /* CBC: the record's MAC size (0 with ETM)       */
    uint8_t tls_mac[64];   /* CBC: the MAC taken off the last record        */
} aes_ctx;

static enum prov_counter mode_counter(unsigned mode)
{
    switch (mode) {
    case PROV_MODE_ECB: return PC_AES_ECB;
    case PROV_MODE_CBC: return PC_AES_CBC;
    case PROV_MODE_CFB: return PC_AES_CFB;
    case PROV_MODE_OFB: return PC_AES_OFB;
    default:            return PC_AES_CTR;
    }
}

static aes_ctx *aes_new(unsigned mode, size_t keylen)
{
    aes_ctx *c = ic_alloc(sizeof *c);
    if (c == NULL)
        return NULL;
    c->mode = mode;
    c->keylen = keylen;
    c->pad = 1;
    return c;
}

static void aes_freectx(void *vctx)
{
    aes_ctx *c = vctx;
    if (c != NULL)
        ic_aes_key_wipe(&c->key);
    ic_free(c, sizeof *c);
}

static void *aes_dupctx(void *vctx)
{
    aes_ctx *c = vctx, *d = ic_alloc(sizeof *d);
    if (d != NULL)
        memcpy(d, c, sizeof *d);
    return d;
}

static int block_mode(const aes_ctx *c)
{
    return c->mode == PROV_MODE_ECB || c->mode == PROV_MODE_CBC;
}

static int aes_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int aes_init(aes_ctx *c, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                    const OSSL_PARAM params[], int enc)
{
    c->enc = enc;
    c->buflen = 0;
    c->num = 0;
    if (iv != NULL && c->mode != PROV_MODE_ECB) {
        if (ivlen != 16) {
            prov_err(PROV_R_INVALID_IV_LENGTH, "the IV has 16 bytes");
            return 0;
        }
        memcpy(c->iv, iv, 16);
        memcpy(c->reg, iv, 16);
        c->iv_set = 1;
    } else if (c->iv_set) {
        memcpy(c->reg, c->iv, 16);        /* a re-init restarts the IV */
    }
    if (key != NULL) {
        if (keylen != c->keylen) {
            c->key_set = 0;   /* a refused re-key leaves no older key usable */
            prov_err(PROV_R_INVALID_KEY_LENGTH, "key length of this cipher");
            return 0;
        }
        int st = ic_aes_key_init(&c->key, key, keylen);
        if (st != IC_OK) {
            c->key_set = 0;
            prov_err_ic(st, "ic_aes_key_init");
            return 0;
        }
        c->key_set = 1;
    }
    return aes_set_ctx_params(c, params);
}

static int aes_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return aes_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int aes_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return aes_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* Whole blocks through incore (len a multiple of 16 for ECB/CBC). */
static int blocks(aes_ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    int st;
    if (len == 0)
        return 1;
    switch (c->mode) {
    case PROV_MODE_ECB:
        st = c->enc ? ic_aes_ecb_encrypt(&c->key, out, in, len) : ic_aes_ecb_decrypt(&c->key, out, in, len);
        break;
    case PROV_MODE_CBC:
        st = c->enc ? ic_aes_cbc_encrypt(&c->key, out, in, len, c->reg)
                    : ic_aes_cbc_decrypt(&c->key, out, in, len, c->reg);
        break;
    case PROV_MODE_CFB:
        st = c->enc ? ic_aes_cfb128_encrypt(&c->key, out, in, len, c->reg)
                    : ic_aes_cfb128_decrypt(&c->key, out, in, len, c->reg);
        break;
    case PROV_MODE_OFB:
        st = ic_aes_ofb_crypt(&c->key, out, in, len, c->reg);
        break;
    default:
        st = ic_aes_ctr_crypt(&c->key, out, in, len, c->reg);
        break;
    }
    if (st != IC_OK) {
        prov_err_ic(st, "AES");
        return 0;
    }
    return 1;
}

/* Start a new block of keystream for a stream mode's partial block:
 * CFB and OFB keep E(register) in the register itself (CFB then turns
 * it into ciphertext byte by byte), CTR keeps E(counter) in ks and
 * advances the counter. */
static int stream_new_block(aes_ctx *c)
{
    static const uint8_t zero[16];
    int st;
    if (c->mode == PROV_MODE_CTR)
        st = ic_aes_ctr_crypt(&c->key, c->ks, zero, 16, c->reg);
    else
        st = ic_aes_ecb_encrypt(&c->key, c->reg, c->reg, 16);
    if (st != IC_OK) {
        prov_err_ic(st, "AES");
        return 0;
    }
    return 1;
}

/* Bytes inside the current block, from position num on. */
static void stream_bytes(aes_ctx *c, uint8_t *out, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++, c->num++) {
        uint8_t x = in[i];
        switch (c->mode) {
        case PROV_MODE_CFB:
            out[i] = c->reg[c->num] ^ x;
            c->reg[c->num] = c->enc ? out[i] : x;
            break;
        case PROV_MODE_OFB:
            out[i] = c->reg[c->num] ^ x;
            break;
        default:
            out[i] = c->ks[c->num] ^ x;
            break;
        }
    }
    c->num &= 15;
}

static int stream_update(aes_ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    if (c->num != 0) {
        size_t n = 16 - c->num < len ? 16 - c->num : len;
        stream_bytes(c, out, in, n);
        out += n, in += n, len -= n;
    }
    size_t whole = len & ~(size_t)15;
    if (!blocks(c, out, in, whole))
        return 0;
    out += whole, in += whole, len -= whole;
    if (len > 0) {
        if (!stream_new_block(c))
            return 0;
        stream_bytes(c, out, in, len);
    }
    return 1;
}

/* ECB/CBC: complete the buffered block, then whole blocks straight from
 * in, then keep the rest.  Decrypting with padding holds back the last
 * whole block (final strips the padding from it). */
static int block_update(aes_ctx *c, uint8_t *out, size_t *outl, const uint8_t *in, size_t len)
{
    size_t done = 0;
    int hold = !c->enc && c->pad;
    if (c->buflen > 0 && c->buflen + len > (size_t)(hold ? 16 : 15)) {
        size_t n = 16 - c->buflen;
        if (n > len)
            n = len;
        memcpy(c->buf + c->buflen, in, n);
        c->buflen += n, in += n, len -= n;
        if (c->buflen == 16 && (!hold || len > 0)) {
            if (!blocks(c, out, c->buf, 16))
                return 0;
            done = 16, c->buflen = 0;
        }
    }
    if (c->buflen == 0) {
        size_t whole = len & ~(size_t)15;
        if (hold && whole == len && whole > 0)
            whole -= 16;
        if (!blocks(c, out + done, in, whole))
            return 0;
        done += whole, in += whole, len -= whole;
    }
    memcpy(c->buf + c->buflen, in, len);
    c->buflen += len;
    *outl = done;
    return 1;
}

/* ---- TLS records in CBC (RFC 5246 6.2.3.2) ------------------------------
 * With "tls-version" set each update is one whole record, in place.
 * Sealing appends the TLS padding (n + 1 bytes of value n) and encrypts;
 * the explicit IV block is the caller's first block.  Opening decrypts,
 * drops the explicit IV (TLS 1.1 on), then removes the padding and takes
 * the MAC off the end without a branch or an index on the padding length
 * (Lucky 13): a bad padding gives a random MAC, which the caller's MAC
 * check then refuses, so both faults look alike.  Only a record too short
 * or not of whole blocks, which is public, is refused here. */

#define TLS1_VERSION_NUM 0x0301

#define SIZE_BITS (sizeof(size_t) * 8)

static size_t ct_mask_ge(size_t a, size_t b)   /* all ones when a >= b, else 0 */
{
    size_t lt = (a ^ ((a ^ b) | ((a - b) ^ b))) >> (SIZE_BITS - 1);
    return lt - 1;
}

static size_t ct_mask_eq(size_t a, size_t b)   /* all ones when a == b, else 0 */
{
    size_t x = a ^ b;
    return ((x | ((size_t)0 - x)) >> (SIZE_BITS - 1)) - 1;
}

static int prov_tls_cbc_seal(aes_ctx *c, uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in,
                             size_t inl)
{
    size_t padnum = 16 - inl % 16;
    if (in != out || outsize < inl + padnum) {
        prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "TLS record: in place, room for the padding");
        return 0;
    }
    memset(out + inl, (int)(padnum - 1), padnum);
    if (!blocks(c, out, out, inl + padnum))
        return 0;
    *outl = inl + padnum;
    return 1;
}

static int prov_tls_cbc_open(aes_ctx *c, uint8_t *out, size_t *outl, const uint8_t *in, size_t inl)
{
    size_t iv = c->tls_version == TLS1_VERSION_NUM ? 0 : 16, mac = c->tls_mac_size;
    if (in != out || inl % 16 != 0 || inl < iv + 16 || inl - iv < mac + 1 || mac > sizeof c->tls_mac) {
        prov_err(PROV_R_CIPHER_OPERATION_FAILED, "TLS record: in place, whole blocks, room for the MAC");
        return 0;
    }
    if (!blocks(c, out, out, inl))
        return 0;
    uint8_t *data = out + iv;
    size_t n = inl - iv, pad = data[n - 1];
    size_t good = ct_mask_ge(n, mac + 1 + pad);
    size_t scan = n < 256 ? n : 256;
    for (size_t i = 0; i < scan; i++) {
        size_t in_pad = ct_mask_ge(pad, i);
        good &= ~(in_pad & (size_t)(pad ^ data[n - 1 - i]));
    }
    good = ct_mask_eq(good & 0xff, 0xff);
    n -= good & (pad + 1);
    if (mac == 0) {
        if (!good) {
            prov_err(PROV_R_BAD_DECRYPT, "bad TLS padding");
            return 0;
        }
        *outl = n;
        return 1;
    }
    /* The MAC ends at data[n], n secret: read every position it can start
     * at, keep the one that matches. */
    uint8_t rnd[64];
    size_t start = n - mac, lowest = inl - iv - mac - (scan < inl - iv - mac ? scan : inl - iv - mac);
    memset(c->tls_mac, 0, mac);
    for (size_t j = lowest; j <= inl - iv - mac; j++) {
        uint8_t m = (uint8_t)ct_mask_eq(j, start);
        for (size_t k = 0; k < mac; k++)
            c->tls_mac[k] |= data[j + k] & m;
    }
    if (ic_random(rnd, mac) != IC_OK) {
        prov_err(PROV_R_CIPHER_OPERATION_FAILED, "random");
        return 0;
    }
    for (size_t k = 0; k < mac; k++)
        c->tls_mac[k] = (uint8_t)((c->tls_mac[k] & good) | (rnd[k] & ~good));
    ic_wipe(rnd, sizeof rnd);
    *outl = n - mac;
    return 1;
}

static int ready(const aes_ctx *c)
{
    if (!c->key_set) {
        prov_err(PROV_R_NO_KEY_SET, "no key");
        return 0;
    }
    if (c->mode != PROV_MODE_ECB && !c->iv_set) {
        prov_err(PROV_R_INVALID_STATE, "no IV");
        return 0;
    }
    return 1;
}

static int aes_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    aes_ctx *c = vctx;
    if ((out == NULL || in == NULL) && inl > 0) {
        prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "no input or output buffer (this cipher takes no AAD)");
        return 0;
    }
    if (!ready(c))
        return 0;
    if (c->tls_version > 0 && c->mode == PROV_MODE_CBC) {
        prov_count(PC_AES_CBC, inl);
        return c->enc ? prov_tls_cbc_seal(c, out, outl, outsize, in, inl)
                      : prov_tls_cbc_open(c, out, outl, in, inl);
    }
    size_t need = block_mode(c) ? ((c->buflen + inl) & ~(size_t)15) : inl;
    if (outsize < need) {
        prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "output");
        return 0;
    }
    prov_count(mode_counter(c->mode), inl);
    if (block_mode(c))
        return block_update(c, out, outl, in, inl);
    if (!stream_update(c, out, in, inl))
        return 0;
    *outl = inl;
    return 1;
}

/* PKCS#7: the last byte p must be 1..16 and the last p bytes all p; the
 * check looks at every byte whatever p is. */
static size_t unpad(const uint8_t b[16])
{
    unsigned p = b[15], bad = (unsigned)((p - 1) >> 8) | (unsigned)((16 - p) >> 8);
    for (unsigned i = 0; i < 16; i++) {
        unsigned in_pad = (unsigned)((15 - i - p) >> 8) & 1;   /* i >= 16 - p */
        bad |= in_pad & (unsigned)((b[i] ^ p) != 0);
    }
    return bad ? 17 : 16 - p;
}

static int aes_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    aes_ctx *c = vctx;
    *outl = 0;
    if (!ready(c))
        return 0;
    if (!block_mode(c))
        return 1;
    if (!c->pad) {
        /* a whole block held back while padding was on, switched off since */
        if (c->buflen == 16 && !c->enc) {
            if (outsize < 16) {
                prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "output");
                return 0;
            }
            c->buflen = 0;
            if (!blocks(c, out, c->buf, 16))
                return 0;
            *outl = 16;
            return 1;
        }
        if (c->buflen != 0) {
            prov_err(PROV_R_WRONG_FINAL_BLOCK_LENGTH, "data not a multiple of 16 bytes");
            return 0;
        }
        return 1;
    }
    if (c->enc) {
        if (outsize < 16) {
            prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "output");
            return 0;
        }
        memset(c->buf + c->buflen, (int)(16 - c->buflen), 16 - c->buflen);
        c->buflen = 0;
        if (!blocks(c, out, c->buf, 16))
            return 0;
        *outl = 16;
        return 1;
    }
    if (c->buflen != 16) {
        prov_err(PROV_R_WRONG_FINAL_BLOCK_LENGTH, "ciphertext not a multiple of 16 bytes");
        return 0;
    }
    uint8_t b[16];
    c->buflen = 0;
    if (!blocks(c, b, c->buf, 16))
        return 0;
    size_t n = unpad(b);
    if (n > 16) {
        ic_wipe(b, sizeof b);
        prov_err(PROV_R_BAD_DECRYPT, "bad padding");
        return 0;
    }
    if (outsize < n) {
        ic_wipe(b, sizeof b);
        prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "output");
        return 0;
    }
    memcpy(out, b, n);
    ic_wipe(b, sizeof b);
    *outl = n;
    return 1;
}

static int aes_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    aes_ctx *c = vctx;
    if ((out == NULL || in == NULL) && inl > 0) {
        prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "no input or output buffer (this cipher takes no AAD)");
        return 0;
    }
    if (!ready(c))
        return 0;
    if (outsize < inl) {
        prov_err(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "output");
        return 0;
    }
    if (block_mode(c) && (inl & 15) != 0) {
        prov_err(PROV_R_WRONG_FINAL_BLOCK_LENGTH, "data not a multiple of 16 bytes");
        return 0;
    }
    prov_count(mode_counter(c->mode), inl);
    if (block_mode(c) ? !blocks(c, out, in, inl) : !stream_update(c, out, in, inl))
        return 0;
    *outl = inl;
    return 1;
}

static int get_tls_mac(aes_ctx *c, OSSL_PARAM params[])
{
    OSSL_PARAM *p = prov_locate(params, OSSL_CIPHER_PARAM_TLS_MAC);
    if (p != NULL && (c->tls_version <= 0 || c->tls_mac_size == 0
                      || !OSSL_PARAM_set_octet_ptr(p, c->tls_mac, c->tls_mac_size))) {
        prov_err(PROV_R_FAILED_TO_SET_PARAMETER, "TLS MAC");
        return 0;
    }
    return 1;
}

static int aes_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    aes_ctx *c = vctx;
    size_t ivlen = c->mode == PROV_MODE_ECB ? 0 : 16;
    return prov_set_size(params, OSSL_CIPHER_PARAM_KEYLEN, c->keylen)
        && prov_set_size(params, OSSL_CIPHER_PARAM_IVLEN, ivlen)
        && prov_set_uint(params, OSSL_CIPHER_PARAM_PADDING, (unsigned)c->pad)
        && prov_set_uint(params, OSSL_CIPHER_PARAM_NUM, c->num)
        && (ivlen == 0 || prov_set_octets(params, OSSL_CIPHER_PARAM_IV, c->iv, 16))
        && (ivlen == 0 || prov_set_octets(params, OSSL_CIPHER_PARAM_UPDATED_IV, c->reg, 16))
        && get_tls_mac(c, params);
}

static int aes_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    aes_ctx *c = vctx;
    const OSSL_PARAM *p;
    if (params == NULL)
        return 1;
    if ((p = prov_locate_const(params, OSSL_CIPHER_PARAM_PADDING)) != NULL) {
        unsigned v;
        if (!OSSL_PARAM_get_uint(p, &v)) {
            prov_err(PROV_R_FAILED_TO_GET_PARAMETER, "padding");
            return 0;
        }
        c->pad = v != 0;
    }
    if ((p = prov_locate_const(params, OSSL_CIPHER_PARAM_NUM)) != NULL) {
        unsigned v;
        if (!OSSL_PARAM_get_uint(p, &v) || v > 15 || block_mode(c)) {
            prov_err(PROV_R_FAILED_TO_GET_PARAMETER, "num");
            return 0;
        }
        c->num = v;
    }
    if ((p = prov_locate_const(params, OSSL_CIPHER_PARAM_TLS_VERSION)) != NULL) {
        int v;
        if (!OSSL_PARAM_get_int(p, &v) || (v > 0 && v < TLS1_VERSION_NUM && c->mode == PROV_MODE_CBC)) {
            prov_err(PROV_R_FAILED_TO_GET_PARAMETER, "TLS version (TLS 1.0 and later)");
            return 0;
        }
        c->tls_version = v;
    }
    if ((p = prov_locate_const(params, OSSL_CIPHER_PARAM_TLS_MAC_SIZE)) != NULL) {
        size_t v;
        if (!OSSL_PARAM_get_size_t(p, &v) || v > sizeof c->tls_mac) {
            prov_err(PROV_R_FAILED_TO_GET_PARAMETER, "TLS MAC size");
            return 0;
        }
        c->tls_mac_size = v;
    }
    return prov_check_keylen(params, c->keylen);
}

static const OSSL_PARAM aes_gettable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM aes_settable_ctx[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS_VERSION, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM *aes_gettable_ctx_params(void *cctx, void *provctx)
{
    return aes_gettable_ctx;
}

static const OSSL_PARAM *aes_settable_ctx_params(void *cctx, void *provctx)
{
    return aes_settable_ctx;
}

#define AES_CIPHER(name, MODE, kbits, blk, ivl)                                                   \
    static void *name##_newctx(void *provctx) { return aes_new(MODE, kbits / 8); }             \
    static int name##_get_params(OSSL_PARAM params[])                                          \
    {                                                                                          \
        return prov_cipher_get_params(params, MODE, kbits / 8, ivl, blk, 0, 0);                \
    }                                                                                          \
    const OSSL_DISPATCH prov_##name##_functions[] = {                                          \
        { OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))name##_newctx },                            \
        { OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))aes_freectx },                             \
        { OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))aes_dupctx },                               \
        { OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))aes_einit },                          \
        { OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))aes_dinit },                          \
        { OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))aes_update },                               \
        { OSSL_FUNC_CIPHER_FINAL, (void (*)(void))aes_final },                                 \
        { OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))aes_cipher },                               \
        { OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))name##_get_params },                    \
        { OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))prov_cipher_gettable_params },     \
        { OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))aes_get_ctx_params },               \
        { OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))aes_set_ctx_params },               \
        { OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))aes_gettable_ctx_params },     \
        { OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))aes_settable_ctx_params },     \
        { 0, NULL }                                                                            \
    };

AES_CIPHER(aes128ecb, PROV_MODE_ECB, 128, 16, 0)
AES_CIPHER(aes192ecb, PROV_MODE_ECB, 192, 16, 0)
AES_CIPHER(aes256ecb, PROV_MODE_ECB, 256, 16, 0)
AES_CIPHER(aes128cbc, PROV_MODE_CBC, 128, 16, 16)
AES_CIPHER(aes192cbc, PROV_MODE_CBC, 192, 16, 16)
AES_CIPHER(aes256cbc, PROV_MODE_CBC, 256, 16, 16)
AES_CIPHER(aes128cfb, PROV_MODE_CFB, 128, 1, 16)
AES_CIPHER(aes192cfb, PROV_MODE_CFB, 192, 1, 16)
AES_CIPHER(aes256cfb, PROV_MODE_CFB, 256, 1, 16)
AES_CIPHER(aes128ofb, PROV_MODE_OFB, 128, 1, 16)
AES_CIPHER(aes192ofb, PROV_MODE_OFB, 192, 1, 16)
AES_CIPHER(aes256ofb, PROV_MODE_OFB, 256, 1, 16)
AES_CIPHER(aes128ctr, PROV_MODE_CTR, 128, 1, 16)
AES_CIPHER(aes192ctr, PROV_MODE_CTR, 192, 1, 16)
AES_CIPHER(aes256ctr, PROV_MODE_CTR, 256, 1, 16)
