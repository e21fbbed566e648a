/*
 * provider/provider.c - the entry point of incore.so (OSSL_provider_init),
 * the provider's own parameters, the algorithm query, and the functions the
 * algorithm files share (errors, parameters, byte counters).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/crypto.h>
#include <openssl/proverr.h>

#include "incore/incore.h"
#include "prov.h"

/* ---- errors --------------------------------------------------------------- */

void prov_err(int reason, const char *what)
{
    ERR_raise_data(ERR_LIB_PROV, reason, "incore: %s", what);
}

void prov_err_ic(int status, const char *call)
{
    int reason = ERR_R_INTERNAL_ERROR;
    switch (status) {
    case IC_ERR_KEYLEN:  reason = PROV_R_INVALID_KEY_LENGTH; break;
    case IC_ERR_WEAKKEY: reason = PROV_R_XTS_DUPLICATED_KEYS; break;
    case IC_ERR_IVLEN:   reason = PROV_R_INVALID_IV_LENGTH; break;
    case IC_ERR_TAGLEN:  reason = PROV_R_INVALID_TAG_LENGTH; break;
    case IC_ERR_LENGTH:  reason = PROV_R_WRONG_FINAL_BLOCK_LENGTH; break;
    case IC_ERR_TOOLONG: reason = PROV_R_INVALID_INPUT_LENGTH; break;
    case IC_ERR_AUTH:    reason = PROV_R_CIPHER_OPERATION_FAILED; break;
    case IC_ERR_STATE:   reason = PROV_R_INVALID_STATE; break;
    case IC_ERR_OVERLAP: reason = PROV_R_OUTPUT_BUFFER_TOO_SMALL; break;
    default: break;
    }
    ERR_raise_data(ERR_LIB_PROV, reason, "incore: %s: %s", call, ic_status_str(status));
}

/* ---- parameters ----------------------------------------------------------- */

int prov_set_size(OSSL_PARAM params[], const char *key, size_t v)
{
    OSSL_PARAM *p = prov_locate(params, key);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, v)) {
        prov_err(PROV_R_FAILED_TO_SET_PARAMETER, key);
        return 0;
    }
    return 1;
}

int prov_check_keylen(const OSSL_PARAM params[], size_t want)
{
    const OSSL_PARAM *p = params == NULL ? NULL : prov_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN);
    size_t v;
    if (p != NULL && (!OSSL_PARAM_get_size_t(p, &v) || v != want)) {
        prov_err(PROV_R_INVALID_KEY_LENGTH, "key length of this cipher");
        return 0;
    }
    return 1;
}

void prov_bytes_free(uint8_t **p, size_t *len)
{
    if (*p != NULL)
        ic_free(*p, *len ? *len : 1);
    *p = NULL;
    *len = 0;
}

int prov_bytes_set(uint8_t **p, size_t *len, const uint8_t *src, size_t n)
{
    prov_bytes_free(p, len);
    *p = ic_alloc(n ? n : 1);   /* an empty key is a key: a buffer all the same */
    if (*p == NULL)
        return 0;
    memcpy(*p, src, n);
    *len = n;
    return 1;
}

int prov_set_uint(OSSL_PARAM params[], const char *key, unsigned v)
{
    OSSL_PARAM *p = prov_locate(params, key);
    if (p != NULL && !OSSL_PARAM_set_uint(p, v)) {
        prov_err(PROV_R_FAILED_TO_SET_PARAMETER, key);
        return 0;
    }
    return 1;
}

int prov_set_int(OSSL_PARAM params[], const char *key, int v)
{
    OSSL_PARAM *p = prov_locate(params, key);
    if (p != NULL && !OSSL_PARAM_set_int(p, v)) {
        prov_err(PROV_R_FAILED_TO_SET_PARAMETER, key);
        return 0;
    }
    return 1;
}

/* An octet string the caller sized (at least len bytes, len returned), or
 * a pointer to the context's own bytes (what EVP_CIPHER_CTX_iv() asks). */
int prov_set_octets(OSSL_PARAM params[], const char *key, const void *v, size_t len)
{
    OSSL_PARAM *p = prov_locate(params, key);
    if (p == NULL)
        return 1;
    if (p->data_type == OSSL_PARAM_OCTET_PTR ? !OSSL_PARAM_set_octet_ptr(p, v, len)
                                             : !OSSL_PARAM_set_octet_string(p, v, len)) {
        prov_err(PROV_R_FAILED_TO_SET_PARAMETER, key);
        return 0;
    }
    return 1;
}

int prov_cipher_get_params(OSSL_PARAM params[], unsigned mode, size_t keylen, size_t ivlen,
                           size_t blocksize, int aead, int custom_iv)
{
    return prov_set_uint(params, OSSL_CIPHER_PARAM_MODE, mode)
        && prov_set_size(params, OSSL_CIPHER_PARAM_KEYLEN, keylen)
        && prov_set_size(params, OSSL_CIPHER_PARAM_IVLEN, ivlen)
        && prov_set_size(params, OSSL_CIPHER_PARAM_BLOCK_SIZE, blocksize)
        && prov_set_int(params, OSSL_CIPHER_PARAM_AEAD, aead)
        && prov_set_int(params, OSSL_CIPHER_PARAM_CUSTOM_IV, custom_iv)
        && prov_set_int(params, OSSL_CIPHER_PARAM_CTS, 0)
        && prov_set_int(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, 0)
        && prov_set_int(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY, 0);
}

static const OSSL_PARAM cipher_gettable[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
    OSSL_PARAM_END
};

const OSSL_PARAM *prov_cipher_gettable_params(void *provctx)
{
    return cipher_gettable;
}

/* ---- counters and the trace file ------------------------------------------ */

static _Atomic uint64_t counters[PC_COUNT];

static const char *const counter_names[PC_COUNT] = {
    "AES-ECB", "AES-CBC", "AES-CFB", "AES-OFB", "AES-CTR", "AES-XTS",
    "AES-128-GCM", "AES-192-GCM", "AES-256-GCM", "ChaCha20", "ChaCha20-Poly1305",
    "SHA1", "SHA2-224", "SHA2-256", "SHA2-384", "SHA2-512", "SHA2-512/224", "SHA2-512/256",
    "HMAC", "Poly1305", "HKDF", "CTR-DRBG",
};

int prov_trace_on;

void prov_count_add(enum prov_counter c, size_t bytes)
{
    atomic_fetch_add_explicit(&counters[c], bytes, memory_order_relaxed);
}

/* One line per algorithm that processed data: "<pid> <name> <bytes>",
 * appended (several processes may share the file). */
void prov_trace_write(void)
{
    const char *path = getenv("INCORE_PROVIDER_TRACE");
    if (!prov_trace_on || path == NULL || *path == '\0')
        return;
    FILE *f = fopen(path, "a");
    if (f == NULL)
        return;
    for (int i = 0; i < PC_COUNT; i++) {
        uint64_t n = atomic_load(&counters[i]);
        if (n != 0)
            fprintf(f, "%ld %s %llu\n", (long)getpid(), counter_names[i], (unsigned long long)n);
    }
    fclose(f);
}

/* ---- the provider --------------------------------------------------------- */

static const OSSL_PARAM provider_gettable[] = {
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, NULL, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, NULL, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, NULL, 0),
    OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM *provider_gettable_params(void *provctx)
{
    return provider_gettable;
}

static int set_utf8_ptr(OSSL_PARAM params[], const char *key, const char *v)
{
    OSSL_PARAM *p = prov_locate(params, key);
    return p == NULL || OSSL_PARAM_set_utf8_ptr(p, v);
}

static int provider_get_params(void *provctx, OSSL_PARAM params[])
{
    return set_utf8_ptr(params, OSSL_PROV_PARAM_NAME, "incore")
        && set_utf8_ptr(params, OSSL_PROV_PARAM_VERSION, ic_version())
        && set_utf8_ptr(params, OSSL_PROV_PARAM_BUILDINFO, "incore " IC_VERSION_STRING)
        && prov_set_int(params, OSSL_PROV_PARAM_STATUS, 1);
}

static const OSSL_ALGORITHM *provider_query(void *provctx, int operation_id, int *no_cache)
{
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_CIPHER: return prov_ciphers;
    case OSSL_OP_DIGEST: return prov_digests;
    case OSSL_OP_MAC:    return prov_macs;
    case OSSL_OP_KDF:    return prov_kdfs;
    case OSSL_OP_RAND:   return prov_rands;
    default: return NULL;
    }
}

static void provider_teardown(void *provctx)
{
    prov_ctx *p = provctx;
    prov_trace_write();
    OSSL_LIB_CTX_free(p->libctx);
    free(p);
}

int prov_hash_from_name(const char *name, int *alg)
{
    char buf[32];
    ic_hash_alg a;
    if (name == NULL || strlen(name) >= sizeof buf)
        return 0;
    /* OpenSSL's "SHA2-256" is incore's "sha256" */
    if (strncasecmp(name, "SHA2-", 5) == 0)
        snprintf(buf, sizeof buf, "sha%s", name + 5);
    else
        snprintf(buf, sizeof buf, "%s", name);
    if (ic_hash_from_name(&a, buf) != IC_OK)
        return 0;
    *alg = (int)a;
    return 1;
}

static const OSSL_DISPATCH provider_functions[] = {
    { OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))provider_teardown },
    { OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))provider_gettable_params },
    { OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))provider_get_params },
    { OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))provider_query },
    { 0, NULL }
};

/* incore selects its implementations once per process; the provider's
 * own state is the child library context of prov_ctx. */
__attribute__((visibility("default")))
int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx)
{
    prov_ctx *p = calloc(1, sizeof *p);
    if (p == NULL)
        return 0;
    p->handle = handle;
    const char *trace = getenv("INCORE_PROVIDER_TRACE");
    prov_trace_on = trace != NULL && *trace != '\0';
    p->libctx = OSSL_LIB_CTX_new_child(handle, in);
    if (p->libctx == NULL) {
        free(p);
        return 0;
    }
    *out = provider_functions;
    *provctx = p;
    return 1;
}
