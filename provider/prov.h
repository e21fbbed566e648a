/*
 * provider/prov.h - what the files of the incore OpenSSL 3 provider share:
 * the algorithm tables each family exports to provider.c, the error and
 * parameter functions, and the per-algorithm byte counters that
 * INCORE_PROVIDER_TRACE writes out (docs/openssl.md).
 */
#ifndef INCORE_PROV_H
#define INCORE_PROV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/types.h>

#define PROV_PROPS "provider=incore"

/* One OSSL_ALGORITHM table per family, terminated by a NULL entry. */
extern const OSSL_ALGORITHM prov_ciphers[];
extern const OSSL_ALGORITHM prov_digests[];
extern const OSSL_ALGORITHM prov_macs[];
extern const OSSL_ALGORITHM prov_kdfs[];
extern const OSSL_ALGORITHM prov_rands[];

/* The provider context: the core handle and a child library context,
 * which sees the providers of the one that loaded incore.  HMAC and HKDF
 * over a hash incore lacks (SHA-3, MD5, ...), and the TLS CBC record MAC
 * (computed in constant time over the padding), run on OpenSSL's own
 * implementations fetched there with "provider!=incore". */
typedef struct prov_ctx {
    const OSSL_CORE_HANDLE *handle;
    OSSL_LIB_CTX *libctx;
} prov_ctx;

/* An OpenSSL digest name ("SHA2-256", "SHA-256", "sha512-256", "SHA1")
 * as an ic_hash_alg: 1, or 0 for a hash incore does not have. */
int prov_hash_from_name(const char *name, int *alg);

/* The dispatch tables the cipher table names (one file per family). */
extern const OSSL_DISPATCH prov_aes128ecb_functions[], prov_aes192ecb_functions[], prov_aes256ecb_functions[];
extern const OSSL_DISPATCH prov_aes128cbc_functions[], prov_aes192cbc_functions[], prov_aes256cbc_functions[];
extern const OSSL_DISPATCH prov_aes128cfb_functions[], prov_aes192cfb_functions[], prov_aes256cfb_functions[];
extern const OSSL_DISPATCH prov_aes128ofb_functions[], prov_aes192ofb_functions[], prov_aes256ofb_functions[];
extern const OSSL_DISPATCH prov_aes128ctr_functions[], prov_aes192ctr_functions[], prov_aes256ctr_functions[];
extern const OSSL_DISPATCH prov_aes128xts_functions[], prov_aes256xts_functions[];
extern const OSSL_DISPATCH prov_aes128gcm_functions[], prov_aes192gcm_functions[], prov_aes256gcm_functions[];
extern const OSSL_DISPATCH prov_chacha20_functions[], prov_chacha20_poly1305_functions[];

/* OSSL_PARAM_locate's result (the first entry whose key is key, NULL when
 * none is or params is NULL) without a call into libcrypto and a strcmp
 * per entry: the first bytes are compared inline, and keys rarely share
 * one.  EVP asks one parameter at a time (ivlen, keylen, padding, ...)
 * and each get/set function looks for all of its own, so lookups were the
 * largest single cost of a short AES-GCM message through EVP. */
static inline OSSL_PARAM *prov_locate(OSSL_PARAM *params, const char *key)
{
    for (; params != NULL && params->key != NULL; params++)
        if (params->key[0] == key[0] && strcmp(params->key, key) == 0)
            return params;
    return NULL;
}

static inline const OSSL_PARAM *prov_locate_const(const OSSL_PARAM *params, const char *key)
{
    return prov_locate((OSSL_PARAM *)(uintptr_t)params, key);
}

/* Raise an OpenSSL error (library "Provider routines") with a reason code
 * of <openssl/proverr.h> and a message naming what was refused. */
void prov_err(int reason, const char *what);
/* The same for a status of an ic_* call. */
void prov_err_ic(int status, const char *call);

/* Byte counters, one per algorithm, counted at every data call while
 * INCORE_PROVIDER_TRACE names a file (read when the provider loads); the
 * counts are written there when it is unloaded, so a test can prove which
 * provider ran.  Without it nothing is counted: an atomic add per call
 * costs a short message a few percent, and threads of a server would
 * contend for the counters' cache line. */
enum prov_counter {
    PC_AES_ECB, PC_AES_CBC, PC_AES_CFB, PC_AES_OFB, PC_AES_CTR, PC_AES_XTS,
    PC_AES_128_GCM, PC_AES_192_GCM, PC_AES_256_GCM, PC_CHACHA20, PC_CHACHA20_POLY1305,
    PC_SHA1, PC_SHA224, PC_SHA256, PC_SHA384, PC_SHA512, PC_SHA512_224, PC_SHA512_256,
    PC_HMAC, PC_POLY1305, PC_HKDF, PC_RAND,
    PC_COUNT
};
extern int prov_trace_on;
void prov_count_add(enum prov_counter c, size_t bytes);
static inline void prov_count(enum prov_counter c, size_t bytes)
{
    if (prov_trace_on)
        prov_count_add(c, bytes);
}
void prov_trace_write(void);

/* Parameter setters: 1 on success, 0 (with an error raised) otherwise. */
int prov_set_size(OSSL_PARAM params[], const char *key, size_t v);
/* A key length among params (set_ctx_params), if any, must be want: a
 * cipher's key length is fixed.  1 when absent or equal, else 0 with an
 * error raised. */
int prov_check_keylen(const OSSL_PARAM params[], size_t want);

/* Secret bytes a context keeps (an HMAC or HKDF key, a salt) in an
 * allocation of their own: prov_bytes_set replaces *p with a copy of the
 * n bytes at src (1 on success, 0 out of memory, *p then NULL);
 * prov_bytes_free wipes and frees *p.  *p NULL means none. */
int prov_bytes_set(uint8_t **p, size_t *len, const uint8_t *src, size_t n);
void prov_bytes_free(uint8_t **p, size_t *len);
int prov_set_uint(OSSL_PARAM params[], const char *key, unsigned v);
int prov_set_int(OSSL_PARAM params[], const char *key, int v);
int prov_set_octets(OSSL_PARAM params[], const char *key, const void *p, size_t len);

/* The algorithm-level answers of every cipher (get_params). */
int prov_cipher_get_params(OSSL_PARAM params[], unsigned mode, size_t keylen, size_t ivlen,
                           size_t blocksize, int aead, int custom_iv);
const OSSL_PARAM *prov_cipher_gettable_params(void *provctx);

/* Cipher mode numbers as EVP_CIPHER_get_mode() reports them. */
#define PROV_MODE_STREAM 0x0
#define PROV_MODE_ECB    0x1
#define PROV_MODE_CBC    0x2
#define PROV_MODE_CFB    0x3
#define PROV_MODE_OFB    0x4
#define PROV_MODE_CTR    0x5
#define PROV_MODE_GCM    0x6
#define PROV_MODE_XTS    0x10001

/* TLS 1.2 AEAD record layout (RFC 5246 6.2.3.3, RFC 5288, RFC 7905). */
#define PROV_TLS1_AAD_LEN      13
#define PROV_TLS_EXPLICIT_IV   8
#define PROV_TLS_FIXED_IV      4
#define PROV_TLS_TAG_LEN       16

#endif
