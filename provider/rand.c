/*
 * provider/rand.c - OpenSSL's random numbers from incore's DRBG: every
 * instance draws from ic_random, incore's per-process CTR_DRBG (AES-256
 * with the derivation function, SP 800-90A) seeded and reseeded from its
 * health-tested sources (RDSEED, DARN, RNDR, XSTORE, getrandom).  It is
 * offered as "CTR-DRBG", so the configuration that prefers incore
 * (docs/openssl.md) makes it OpenSSL's primary, public and private DRBG;
 * a parent (OpenSSL's seed source) is not needed and not read.
 * Prediction resistance reseeds ic_random from the sources first, mixing
 * in the additional input; personalisation strings go in at instantiation
 * the same way.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/proverr.h>

#include "incore/rand.h"
#include "prov.h"

#define RAND_STRENGTH    256
#define RAND_MAX_REQUEST 65536    /* SP 800-90A table 3, 2^19 bits */

typedef struct rand_ctx {
    int state;             /* EVP_RAND_STATE_* */
} rand_ctx;

static void *rand_newctx(void *provctx, void *parent, const OSSL_DISPATCH *parent_calls)
{
    return calloc(1, sizeof(rand_ctx));
}

static void rand_freectx(void *vctx)
{
    free(vctx);
}

static int reseed_with(const uint8_t *addin, size_t len)
{
    int st = ic_random_reseed(addin, len);
    if (st != IC_OK) {
        prov_err_ic(st, "ic_random_reseed");
        return 0;
    }
    return 1;
}

static int rand_instantiate(void *vctx, unsigned int strength, int prediction_resistance,
                            const unsigned char *pstr, size_t pstr_len, const OSSL_PARAM params[])
{
    rand_ctx *c = vctx;
    if (strength > RAND_STRENGTH) {
        prov_err(PROV_R_INSUFFICIENT_DRBG_STRENGTH, "incore's DRBG has 256 bits of strength");
        return 0;
    }
    if ((prediction_resistance || pstr_len > 0) && !reseed_with(pstr, pstr_len)) {
        c->state = 2;      /* EVP_RAND_STATE_ERROR */
        return 0;
    }
    c->state = 1;          /* EVP_RAND_STATE_READY */
    return 1;
}

static int rand_uninstantiate(void *vctx)
{
    ((rand_ctx *)vctx)->state = 0;
    return 1;
}

static int rand_generate(void *vctx, unsigned char *out, size_t outlen, unsigned int strength,
                         int prediction_resistance, const unsigned char *addin, size_t addin_len)
{
    rand_ctx *c = vctx;
    if (c->state != 1 || strength > RAND_STRENGTH) {
        prov_err(c->state != 1 ? PROV_R_NOT_INSTANTIATED : PROV_R_INSUFFICIENT_DRBG_STRENGTH, "DRBG generate");
        return 0;
    }
    if ((prediction_resistance || addin_len > 0) && !reseed_with(addin, addin_len > 1024 ? 1024 : addin_len))
        return 0;
    prov_count(PC_RAND, outlen);
    int st = ic_random(out, outlen);
    if (st != IC_OK) {
        c->state = 2;
        prov_err_ic(st, "ic_random");
        return 0;
    }
    return 1;
}

static int rand_reseed(void *vctx, int prediction_resistance, const unsigned char *ent, size_t ent_len,
                       const unsigned char *addin, size_t addin_len)
{
    return reseed_with(addin, addin_len > 1024 ? 1024 : addin_len);
}

/* As a parent of OpenSSL's own DRBGs: their seed is incore's output. */
static size_t rand_get_seed(void *vctx, unsigned char **buffer, int entropy, size_t min_len, size_t max_len,
                            int prediction_resistance, const unsigned char *adin, size_t adin_len)
{
    size_t n = min_len > 64 ? min_len : (max_len < 64 ? max_len : 64);
    uint8_t *b = malloc(n ? n : 1);
    if (b == NULL || !rand_generate(vctx, b, n, 0, prediction_resistance, adin, adin_len)) {
        free(b);
        return 0;
    }
    *buffer = b;
    return n;
}

static void rand_clear_seed(void *vctx, unsigned char *buffer, size_t len)
{
    if (buffer != NULL)
        ic_wipe(buffer, len);
    free(buffer);
}

/* ic_random has its own lock: nothing to do here. */
static int rand_enable_locking(void *vctx)
{
    return 1;
}

static int rand_lock(void *vctx)
{
    return 1;
}

static void rand_unlock(void *vctx)
{
}

static int rand_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    rand_ctx *c = vctx;
    return prov_set_int(params, OSSL_RAND_PARAM_STATE, c->state)
        && prov_set_uint(params, OSSL_RAND_PARAM_STRENGTH, RAND_STRENGTH)
        && prov_set_size(params, OSSL_RAND_PARAM_MAX_REQUEST, RAND_MAX_REQUEST);
}

/* OpenSSL's DRBG setup names the cipher of a CTR-DRBG; incore's is
 * AES-256 with the derivation function, so that is the one accepted. */
static int rand_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    const OSSL_PARAM *p;
    const char *name;
    if (params == NULL)
        return 1;
    if ((p = prov_locate_const(params, OSSL_DRBG_PARAM_CIPHER)) != NULL
        && (!OSSL_PARAM_get_utf8_string_ptr(p, &name) || strcasecmp(name, "AES-256-CTR") != 0)) {
        prov_err(PROV_R_UNABLE_TO_FIND_CIPHERS, "incore's CTR-DRBG is AES-256-CTR");
        return 0;
    }
    return 1;
}

static int rand_verify_zeroization(void *vctx)
{
    return 1;
}

static const OSSL_PARAM rand_gettable[] = {
    OSSL_PARAM_int(OSSL_RAND_PARAM_STATE, NULL),
    OSSL_PARAM_uint(OSSL_RAND_PARAM_STRENGTH, NULL),
    OSSL_PARAM_size_t(OSSL_RAND_PARAM_MAX_REQUEST, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM rand_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_DRBG_PARAM_CIPHER, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_DRBG_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_int(OSSL_DRBG_PARAM_USE_DF, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM *rand_gettable_ctx_params(void *cctx, void *provctx)
{
    return rand_gettable;
}

static const OSSL_PARAM *rand_settable_ctx_params(void *cctx, void *provctx)
{
    return rand_settable;
}

static const OSSL_DISPATCH rand_functions[] = {
    { OSSL_FUNC_RAND_NEWCTX, (void (*)(void))rand_newctx },
    { OSSL_FUNC_RAND_FREECTX, (void (*)(void))rand_freectx },
    { OSSL_FUNC_RAND_INSTANTIATE, (void (*)(void))rand_instantiate },
    { OSSL_FUNC_RAND_UNINSTANTIATE, (void (*)(void))rand_uninstantiate },
    { OSSL_FUNC_RAND_GENERATE, (void (*)(void))rand_generate },
    { OSSL_FUNC_RAND_RESEED, (void (*)(void))rand_reseed },
    { OSSL_FUNC_RAND_GET_SEED, (void (*)(void))rand_get_seed },
    { OSSL_FUNC_RAND_CLEAR_SEED, (void (*)(void))rand_clear_seed },
    { OSSL_FUNC_RAND_ENABLE_LOCKING, (void (*)(void))rand_enable_locking },
    { OSSL_FUNC_RAND_LOCK, (void (*)(void))rand_lock },
    { OSSL_FUNC_RAND_UNLOCK, (void (*)(void))rand_unlock },
    { OSSL_FUNC_RAND_GETTABLE_CTX_PARAMS, (void (*)(void))rand_gettable_ctx_params },
    { OSSL_FUNC_RAND_GET_CTX_PARAMS, (void (*)(void))rand_get_ctx_params },
    { OSSL_FUNC_RAND_SETTABLE_CTX_PARAMS, (void (*)(void))rand_settable_ctx_params },
    { OSSL_FUNC_RAND_SET_CTX_PARAMS, (void (*)(void))rand_set_ctx_params },
    { OSSL_FUNC_RAND_VERIFY_ZEROIZATION, (void (*)(void))rand_verify_zeroization },
    { 0, NULL }
};

const OSSL_ALGORITHM prov_rands[] = {
    { "CTR-DRBG", PROV_PROPS, rand_functions, "incore's CTR_DRBG (AES-256, seeded from its sources)" },
    { NULL, NULL, NULL, NULL }
};
