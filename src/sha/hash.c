/*
 * hash.c - the generic hash interface (ic_hash_*): one context type and one
 * set of calls over every SHA variant, chosen by an ic_hash_alg value, for
 * HMAC, HKDF and the incore command.
 *
 * It mostly dispatches: each call goes to the variant's driver (sha1.c,
 * sha256.c, sha512.c), which does the argument and state checks; only the
 * output capacity (outlen), which the variants' fixed-size outputs do not
 * have, is checked here.  The union in ic_hash_ctx is read through the
 * member of the family alg belongs to, the one the init wrote.  The
 * fixed-size one-shots (ic_sha256 ...) are ic_hash with their digest size.
 */
#include "sha/sha_impl.h"

#include <ctype.h>

typedef struct {
    const char *name;       /* canonical name, as ic_hash_from_name() reads it */
    uint8_t digest, block;
} hash_info;

static const hash_info info[IC_HASH_COUNT] = {
    [IC_HASH_SHA1]       = { "sha1",       IC_SHA1_DIGEST_SIZE,       IC_SHA1_BLOCK_SIZE },
    [IC_HASH_SHA224]     = { "sha224",     IC_SHA224_DIGEST_SIZE,     IC_SHA224_BLOCK_SIZE },
    [IC_HASH_SHA256]     = { "sha256",     IC_SHA256_DIGEST_SIZE,     IC_SHA256_BLOCK_SIZE },
    [IC_HASH_SHA384]     = { "sha384",     IC_SHA384_DIGEST_SIZE,     IC_SHA384_BLOCK_SIZE },
    [IC_HASH_SHA512]     = { "sha512",     IC_SHA512_DIGEST_SIZE,     IC_SHA512_BLOCK_SIZE },
    [IC_HASH_SHA512_224] = { "sha512-224", IC_SHA512_224_DIGEST_SIZE, IC_SHA512_224_BLOCK_SIZE },
    [IC_HASH_SHA512_256] = { "sha512-256", IC_SHA512_256_DIGEST_SIZE, IC_SHA512_256_BLOCK_SIZE },
};

/* An enum may hold any int: check before indexing. */
static const hash_info *lookup(ic_hash_alg alg)
{
    return (unsigned)alg < IC_HASH_COUNT ? &info[alg] : NULL;
}

size_t ic_hash_digest_size(ic_hash_alg alg)
{
    const hash_info *h = lookup(alg);
    return h ? h->digest : 0;
}

size_t ic_hash_block_size(ic_hash_alg alg)
{
    const hash_info *h = lookup(alg);
    return h ? h->block : 0;
}

const char *ic_hash_name(ic_hash_alg alg)
{
    const hash_info *h = lookup(alg);
    return h ? h->name : NULL;
}

/* Bring a name to the canonical spelling: lower case, no '-' right after
 * "sha", and '-' for the '/', '_' or '-' that separates a truncation. */
int ic_hash_from_name(ic_hash_alg *alg, const char *name)
{
    char norm[16];
    size_t n = 0;

    if (!alg || !name)
        return IC_ERR_NULL;
    for (const char *s = name; *s; s++) {
        char c = (char)tolower((unsigned char)*s);
        if (c == '/' || c == '_')
            c = '-';
        if (c == '-' && s == name + 3)  /* "sha-256" -> "sha256" */
            continue;
        if (n + 1 >= sizeof norm)
            return IC_ERR_UNKNOWN;
        norm[n++] = c;
    }
    norm[n] = 0;
    for (int i = 0; i < IC_HASH_COUNT; i++)
        if (strcmp(norm, info[i].name) == 0) {
            *alg = (ic_hash_alg)i;
            return IC_OK;
        }
    return IC_ERR_UNKNOWN;
}

int ic_hash_init(ic_hash_ctx *ctx, ic_hash_alg alg)
{
    int st;

    if (!ctx)
        return IC_ERR_NULL;
    switch (alg) {
    case IC_HASH_SHA1:
        st = ic_sha1_init(&ctx->u.sha1);
        break;
    case IC_HASH_SHA224: case IC_HASH_SHA256:
        st = ic_sha256_init_as(&ctx->u.sha256, alg);
        break;
    case IC_HASH_SHA384: case IC_HASH_SHA512:
    case IC_HASH_SHA512_224: case IC_HASH_SHA512_256:
        st = ic_sha512_init_as(&ctx->u.sha512, alg);
        break;
    default:
        return IC_ERR_PARAM;
    }
    ctx->alg = alg;
    return st;
}

int ic_hash_ctx_ok(const ic_hash_ctx *ctx)
{
    switch (ctx->alg) {
    case IC_HASH_SHA1:
        return ic_sha1_ctx_ok(&ctx->u.sha1);
    case IC_HASH_SHA224: case IC_HASH_SHA256:
        return ic_sha256_ctx_ok(&ctx->u.sha256, ctx->alg);
    case IC_HASH_SHA384: case IC_HASH_SHA512:
    case IC_HASH_SHA512_224: case IC_HASH_SHA512_256:
        return ic_sha512_ctx_ok(&ctx->u.sha512, ctx->alg);
    }
    return 0;              /* garbage in alg: never initialised */
}

int ic_hash_update(ic_hash_ctx *ctx, const uint8_t *in, size_t len)
{
    if (!ctx)
        return IC_ERR_NULL;
    switch (ctx->alg) {
    case IC_HASH_SHA1:
        return ic_sha1_update(&ctx->u.sha1, in, len);
    case IC_HASH_SHA224: case IC_HASH_SHA256:
        return ic_sha256_update_as(&ctx->u.sha256, in, len, ctx->alg);
    case IC_HASH_SHA384: case IC_HASH_SHA512:
    case IC_HASH_SHA512_224: case IC_HASH_SHA512_256:
        return ic_sha512_update_as(&ctx->u.sha512, in, len, ctx->alg);
    }
    return IC_ERR_STATE;   /* garbage in alg: never initialised */
}

/* The variant's final wipes its member; the rest of the union and alg are
 * wiped here so no trace of the state is left and a second final fails.
 * Everything that refuses the call is checked before the variant's final
 * runs, so a refused call leaves the context as it was. */
int ic_hash_final(ic_hash_ctx *ctx, uint8_t *out, size_t outlen)
{
    int st;

    if (!ctx)
        return IC_ERR_NULL;
    if (!ic_hash_ctx_ok(ctx))
        return IC_ERR_STATE;
    IC_NULL_CHECK(out, outlen);
    if (outlen < ic_hash_digest_size(ctx->alg))
        return IC_ERR_SIZE;
    switch (ctx->alg) {
    case IC_HASH_SHA1:
        st = ic_sha1_final(&ctx->u.sha1, out);
        break;
    case IC_HASH_SHA224: case IC_HASH_SHA256:
        st = ic_sha256_final_as(&ctx->u.sha256, out, ctx->alg);
        break;
    case IC_HASH_SHA384: case IC_HASH_SHA512:
    case IC_HASH_SHA512_224: case IC_HASH_SHA512_256:
        st = ic_sha512_final_as(&ctx->u.sha512, out, ctx->alg);
        break;
    default:
        return IC_ERR_STATE;
    }
    if (st == IC_OK)
        ic_wipe(ctx, sizeof *ctx);
    return st;
}

/* Also the body of the fixed-size one-shots (ic_sha256 ...), which pass
 * their digest size as outlen. */
int ic_hash(ic_hash_alg alg, uint8_t *out, size_t outlen, const uint8_t *in, size_t len)
{
    size_t n = ic_hash_digest_size(alg);

    IC_NULL_CHECK(out, outlen);
    IC_NULL_CHECK(in, len);
    if (!n)
        return IC_ERR_PARAM;
    if (outlen < n)
        return IC_ERR_SIZE;
    /* no context: the family's one-shot (sha_impl.h, ic_md_oneshot), the
     * same digest as init/update/final with fewer steps (tests/test_sha.c
     * compares them) */
    switch (alg) {
    case IC_HASH_SHA1:
        return ic_sha1_oneshot(out, in, len);
    case IC_HASH_SHA224: case IC_HASH_SHA256:
        return ic_sha256_oneshot_as(out, in, len, alg);
    case IC_HASH_SHA384: case IC_HASH_SHA512:
    case IC_HASH_SHA512_224: case IC_HASH_SHA512_256:
        return ic_sha512_oneshot(alg, out, in, len);
    }
    return IC_ERR_PARAM;
}
