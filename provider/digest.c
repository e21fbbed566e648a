/*
 * provider/digest.c - SHA-1 and the SHA-2 family on incore's hash
 * contexts (ic_hash_*), under OpenSSL's names and aliases.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/proverr.h>

#include "incore/sha.h"
#include "prov.h"

typedef struct digest_ctx {
    ic_hash_ctx h;
    ic_hash_alg alg;
    enum prov_counter counter;
    int live;              /* init ran, final did not */
} digest_ctx;

/* Digest contexts need no 64-byte alignment: plain malloc, which costs
 * less than ic_alloc for the many short-lived contexts of EVP_Digest (one
 * per message); the hash state is set by init, so nothing is zeroed. */
static digest_ctx *digest_new(ic_hash_alg alg, enum prov_counter counter)
{
    digest_ctx *c = malloc(sizeof *c);
    if (c != NULL) {
        c->alg = alg;
        c->counter = counter;
        c->live = 0;
    }
    return c;
}

/* A final wiped the hash state already (ic_hash_final does); a context
 * freed while live still holds it. */
static void digest_freectx(void *vctx)
{
    digest_ctx *c = vctx;
    if (c != NULL && c->live)
        ic_wipe(c, sizeof *c);
    free(c);
}

static void *digest_dupctx(void *vctx)
{
    digest_ctx *d = malloc(sizeof *d);
    if (d != NULL)
        memcpy(d, vctx, sizeof *d);
    return d;
}

static int digest_init(void *vctx, const OSSL_PARAM params[])
{
    digest_ctx *c = vctx;
    int st = ic_hash_init(&c->h, c->alg);
    c->live = st == IC_OK;
    if (st != IC_OK)
        prov_err_ic(st, "ic_hash_init");
    return c->live;
}

static int digest_update(void *vctx, const unsigned char *in, size_t inl)
{
    digest_ctx *c = vctx;
    if (!c->live) {
        prov_err(PROV_R_INVALID_STATE, "digest update before init or after final");
        return 0;
    }
    prov_count(c->counter, inl);
    int st = ic_hash_update(&c->h, in, inl);
    if (st != IC_OK) {
        prov_err_ic(st, "ic_hash_update");
        return 0;
    }
    return 1;
}

static int digest_final(void *vctx, unsigned char *out, size_t *outl, size_t outsz)
{
    digest_ctx *c = vctx;
    size_t n = ic_hash_digest_size(c->alg);
    if (!c->live || outsz < n) {
        prov_err(c->live ? PROV_R_OUTPUT_BUFFER_TOO_SMALL : PROV_R_INVALID_STATE, "digest final");
        return 0;
    }
    c->live = 0;
    int st = ic_hash_final(&c->h, out, n);
    if (st != IC_OK) {
        prov_err_ic(st, "ic_hash_final");
        return 0;
    }
    *outl = n;
    return 1;
}

static int digest_get_params(OSSL_PARAM params[], ic_hash_alg alg)
{
    return prov_set_size(params, OSSL_DIGEST_PARAM_BLOCK_SIZE, ic_hash_block_size(alg))
        && prov_set_size(params, OSSL_DIGEST_PARAM_SIZE, ic_hash_digest_size(alg))
        && prov_set_int(params, OSSL_DIGEST_PARAM_XOF, 0)
        && prov_set_int(params, OSSL_DIGEST_PARAM_ALGID_ABSENT, alg == IC_HASH_SHA1 ? 0 : 1);
}

static const OSSL_PARAM digest_gettable[] = {
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, NULL),
    OSSL_PARAM_int(OSSL_DIGEST_PARAM_XOF, NULL),
    OSSL_PARAM_int(OSSL_DIGEST_PARAM_ALGID_ABSENT, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM *digest_gettable_params(void *provctx)
{
    return digest_gettable;
}

#define DIGEST(name, alg, counter)                                                                \
    static void *name##_newctx(void *provctx) { return digest_new(alg, counter); }             \
    static int name##_get_params(OSSL_PARAM params[]) { return digest_get_params(params, alg); } \
    static const OSSL_DISPATCH name##_functions[] = {                                          \
        { OSSL_FUNC_DIGEST_NEWCTX, (void (*)(void))name##_newctx },                            \
        { OSSL_FUNC_DIGEST_INIT, (void (*)(void))digest_init },                                \
        { OSSL_FUNC_DIGEST_UPDATE, (void (*)(void))digest_update },                            \
        { OSSL_FUNC_DIGEST_FINAL, (void (*)(void))digest_final },                              \
        { OSSL_FUNC_DIGEST_FREECTX, (void (*)(void))digest_freectx },                          \
        { OSSL_FUNC_DIGEST_DUPCTX, (void (*)(void))digest_dupctx },                            \
        { OSSL_FUNC_DIGEST_GET_PARAMS, (void (*)(void))name##_get_params },                    \
        { OSSL_FUNC_DIGEST_GETTABLE_PARAMS, (void (*)(void))digest_gettable_params },          \
        { 0, NULL }                                                                            \
    };

DIGEST(sha1, IC_HASH_SHA1, PC_SHA1)
DIGEST(sha224, IC_HASH_SHA224, PC_SHA224)
DIGEST(sha256, IC_HASH_SHA256, PC_SHA256)
DIGEST(sha384, IC_HASH_SHA384, PC_SHA384)
DIGEST(sha512, IC_HASH_SHA512, PC_SHA512)
DIGEST(sha512_224, IC_HASH_SHA512_224, PC_SHA512_224)
DIGEST(sha512_256, IC_HASH_SHA512_256, PC_SHA512_256)

/* OpenSSL's names, aliases and OIDs, so that every spelling a program uses
 * ("SHA256", "sha-256", the OID) finds these. */
const OSSL_ALGORITHM prov_digests[] = {
    { "SHA1:SHA-1:SSL3-SHA1:1.3.14.3.2.26", PROV_PROPS, sha1_functions, "SHA-1 (incore)" },
    { "SHA2-224:SHA-224:SHA224:2.16.840.1.101.3.4.2.4", PROV_PROPS, sha224_functions, "SHA-224 (incore)" },
    { "SHA2-256:SHA-256:SHA256:2.16.840.1.101.3.4.2.1", PROV_PROPS, sha256_functions, "SHA-256 (incore)" },
    { "SHA2-384:SHA-384:SHA384:2.16.840.1.101.3.4.2.2", PROV_PROPS, sha384_functions, "SHA-384 (incore)" },
    { "SHA2-512:SHA-512:SHA512:2.16.840.1.101.3.4.2.3", PROV_PROPS, sha512_functions, "SHA-512 (incore)" },
    { "SHA2-512/224:SHA-512/224:SHA512-224:2.16.840.1.101.3.4.2.5", PROV_PROPS, sha512_224_functions,
      "SHA-512/224 (incore)" },
    { "SHA2-512/256:SHA-512/256:SHA512-256:2.16.840.1.101.3.4.2.6", PROV_PROPS, sha512_256_functions,
      "SHA-512/256 (incore)" },
    { NULL, NULL, NULL, NULL }
};
