/*
 * sha256.c - SHA-224 and SHA-256 (FIPS 180-4, 6.2 and 6.3): the streaming
 * and one-shot API over whichever sha256 implementation the registry picks
 * (the table is in sha_impls.c).
 *
 * The implementation only compresses whole blocks; this driver buffers
 * partial blocks, hands whole input blocks straight to it, pads (5.1.1) and
 * writes the big-endian digest, truncated to 224 bits for SHA-224.  A
 * context keeps the implementation it was initialised with.
 */
#include "sha/sha_impl.h"

/* 5.3.3: first 32 bits of the fractional parts of the square roots of the
 * first 8 primes. */
static const uint32_t IV256[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};
/* 5.3.2: the second 32 bits of the fractional parts of the square roots of
 * the 9th through 16th primes. */
static const uint32_t IV224[8] = {
    0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
    0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
};

/* 1 when ctx was set up for alg by its init and not wiped since. */
int ic_sha256_ctx_ok(const ic_sha256_ctx *ctx, ic_hash_alg alg)
{
    /* the check word is only ever set from a SHA-224/256 alg */
    return ctx->check == IC_CHECK_SHA(alg) && IC_IMPL_OPS(sha256, ctx->impl) != NULL;
}

/* For a checked context only (ic_sha256_ctx_ok bounded the index). */
static void sha256_blocks(void *st, const uint8_t *p, size_t n)
{
    ic_sha256_ctx *ctx = st;
    ((const ic_sha256_ops *)ic_impls_sha256[ctx->impl].ops)->compress(ctx->h, p, n);
}

int ic_sha256_init_as(ic_sha256_ctx *ctx, ic_hash_alg alg)
{
    if (!ctx)
        return IC_ERR_NULL;
    if (alg != IC_HASH_SHA224 && alg != IC_HASH_SHA256)
        return IC_ERR_PARAM;
    memset(ctx, 0, sizeof *ctx);
    memcpy(ctx->h, alg == IC_HASH_SHA224 ? IV224 : IV256, sizeof ctx->h);
    ctx->impl = ic_impl_index(IC_PRIM_SHA256);
    ctx->check = IC_CHECK_SHA(alg);
    return IC_OK;
}

int ic_sha256_update_as(ic_sha256_ctx *ctx, const uint8_t *in, size_t len, ic_hash_alg alg)
{
    if (!ctx)
        return IC_ERR_NULL;
    if (!ic_sha256_ctx_ok(ctx, alg))
        return IC_ERR_STATE;
    return ic_md64_update(&ctx->count, ctx->buf, ctx, sha256_blocks, in, len);
}

int ic_sha256_final_as(ic_sha256_ctx *ctx, uint8_t *out, ic_hash_alg alg)
{
    if (!ctx)
        return IC_ERR_NULL;
    if (!ic_sha256_ctx_ok(ctx, alg))
        return IC_ERR_STATE;
    if (!out)
        return IC_ERR_NULL;
    const ic_sha256_ops *ops = (const ic_sha256_ops *)ic_impls_sha256[ctx->impl].ops;
    size_t fill = (size_t)(ctx->count % IC_MD64_BLOCK);
    if (ops->finish)     /* hardware that pads: hand it the buffered tail */
        ops->finish(ctx->h, ctx->count - fill, ctx->buf, fill);
    else
        ic_md64_pad(ctx, sha256_blocks, ctx->buf, ctx->count);
    /* 6.3: SHA-224 is the leftmost 224 bits. */
    ic_sha_out32(out, ctx->h, alg == IC_HASH_SHA224 ? 7 : 8);
    ic_wipe(ctx, sizeof *ctx);
    return IC_OK;
}

int ic_sha224_init(ic_sha224_ctx *ctx) { return ic_sha256_init_as(ctx, IC_HASH_SHA224); }
int ic_sha256_init(ic_sha256_ctx *ctx) { return ic_sha256_init_as(ctx, IC_HASH_SHA256); }

int ic_sha224_update(ic_sha224_ctx *ctx, const uint8_t *in, size_t len)
{
    return ic_sha256_update_as(ctx, in, len, IC_HASH_SHA224);
}
int ic_sha256_update(ic_sha256_ctx *ctx, const uint8_t *in, size_t len)
{
    return ic_sha256_update_as(ctx, in, len, IC_HASH_SHA256);
}

int ic_sha224_final(ic_sha224_ctx *ctx, uint8_t out[IC_SHA224_DIGEST_SIZE])
{
    return ic_sha256_final_as(ctx, out, IC_HASH_SHA224);
}
int ic_sha256_final(ic_sha256_ctx *ctx, uint8_t out[IC_SHA256_DIGEST_SIZE])
{
    return ic_sha256_final_as(ctx, out, IC_HASH_SHA256);
}

/* ic_md_oneshot's state: the chaining value and the implementation. */
typedef struct {
    uint32_t h[8];
    const ic_sha256_ops *ops;
} sha256_os;

static void sha256_os_blocks(void *st, const uint8_t *p, size_t n)
{
    sha256_os *s = st;
    s->ops->compress(s->h, p, n);
}

/* No context: hardware that pads (PadLock PHE) takes the whole message in
 * one instruction; otherwise ic_md_oneshot (sha_impl.h).  out and in
 * checked by the caller (ic_hash); alg SHA-224 or SHA-256. */
int ic_sha256_oneshot_as(uint8_t *out, const uint8_t *in, size_t len, ic_hash_alg alg)
{
    sha256_os s;
    uint8_t lenfield[8];

    if (!ic_md64_fits(len))
        return IC_ERR_TOOLONG;
    memcpy(s.h, alg == IC_HASH_SHA224 ? IV224 : IV256, sizeof s.h);
    s.ops = (const ic_sha256_ops *)ic_ops_fast(IC_PRIM_SHA256);
    if (s.ops->finish) {
        s.ops->finish(s.h, 0, in, len);
    } else {
        ic_store64_be(lenfield, (uint64_t)len << 3);
        ic_md_oneshot(&s, sha256_os_blocks, IC_MD64_BLOCK, in, len, lenfield, 8);
    }
    ic_sha_out32(out, s.h, alg == IC_HASH_SHA224 ? 7 : 8);
    IC_WIPE_FIXED(s.h, sizeof s.h);
    return IC_OK;
}

int ic_sha224(uint8_t out[IC_SHA224_DIGEST_SIZE], const uint8_t *in, size_t len)
{
    return ic_hash(IC_HASH_SHA224, out, IC_SHA224_DIGEST_SIZE, in, len);
}
int ic_sha256(uint8_t out[IC_SHA256_DIGEST_SIZE], const uint8_t *in, size_t len)
{
    return ic_hash(IC_HASH_SHA256, out, IC_SHA256_DIGEST_SIZE, in, len);
}
