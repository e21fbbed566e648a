/*
 * sha1.c - SHA-1 (FIPS 180-4, 6.1): the streaming and one-shot API over
 * whichever sha1 implementation the registry picks (the table is in
 * sha_impls.c).  Same driver shape as sha256.c: buffer partial blocks, pass whole
 * input blocks straight to the implementation, pad (5.1.1), write the
 * big-endian digest.
 */
#include "sha/sha_impl.h"

/* 5.3.1 */
static const uint32_t IV1[5] = {
    0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0,
};

/* 1 when ctx was set up by ic_sha1_init and not wiped since. */
int ic_sha1_ctx_ok(const ic_sha1_ctx *ctx)
{
    return ctx->check == IC_CHECK_SHA(IC_HASH_SHA1) && IC_IMPL_OPS(sha1, ctx->impl) != NULL;
}

/* For a checked context only (ic_sha1_ctx_ok bounded the index). */
static void sha1_blocks(void *st, const uint8_t *p, size_t n)
{
    ic_sha1_ctx *ctx = st;
    ((const ic_sha1_ops *)ic_impls_sha1[ctx->impl].ops)->compress(ctx->h, p, n);
}

int ic_sha1_init(ic_sha1_ctx *ctx)
{
    if (!ctx)
        return IC_ERR_NULL;
    memset(ctx, 0, sizeof *ctx);
    memcpy(ctx->h, IV1, sizeof ctx->h);
    ctx->impl = ic_impl_index(IC_PRIM_SHA1);
    ctx->check = IC_CHECK_SHA(IC_HASH_SHA1);
    return IC_OK;
}

int ic_sha1_update(ic_sha1_ctx *ctx, const uint8_t *in, size_t len)
{
    if (!ctx)
        return IC_ERR_NULL;
    if (!ic_sha1_ctx_ok(ctx))
        return IC_ERR_STATE;
    return ic_md64_update(&ctx->count, ctx->buf, ctx, sha1_blocks, in, len);
}

int ic_sha1_final(ic_sha1_ctx *ctx, uint8_t out[IC_SHA1_DIGEST_SIZE])
{
    if (!ctx)
        return IC_ERR_NULL;
    if (!ic_sha1_ctx_ok(ctx))
        return IC_ERR_STATE;
    if (!out)
        return IC_ERR_NULL;
    const ic_sha1_ops *ops = (const ic_sha1_ops *)ic_impls_sha1[ctx->impl].ops;
    size_t fill = (size_t)(ctx->count % IC_MD64_BLOCK);
    if (ops->finish)     /* hardware that pads: hand it the buffered tail */
        ops->finish(ctx->h, ctx->count - fill, ctx->buf, fill);
    else
        ic_md64_pad(ctx, sha1_blocks, ctx->buf, ctx->count);
    ic_sha_out32(out, ctx->h, 5);
    ic_wipe(ctx, sizeof *ctx);
    return IC_OK;
}

/* ic_md_oneshot's state: the chaining value and the implementation. */
typedef struct {
    uint32_t h[5];
    const ic_sha1_ops *ops;
} sha1_os;

static void sha1_os_blocks(void *st, const uint8_t *p, size_t n)
{
    sha1_os *s = st;
    s->ops->compress(s->h, p, n);
}

/* No context: hardware that pads (PadLock PHE) takes the whole message in
 * one instruction; otherwise ic_md_oneshot (sha_impl.h).  out and in
 * checked by the caller (ic_hash). */
int ic_sha1_oneshot(uint8_t *out, const uint8_t *in, size_t len)
{
    sha1_os s;
    uint8_t lenfield[8];

    if (!ic_md64_fits(len))
        return IC_ERR_TOOLONG;
    memcpy(s.h, IV1, sizeof s.h);
    s.ops = (const ic_sha1_ops *)ic_ops_fast(IC_PRIM_SHA1);
    if (s.ops->finish) {
        s.ops->finish(s.h, 0, in, len);
    } else {
        ic_store64_be(lenfield, (uint64_t)len << 3);
        ic_md_oneshot(&s, sha1_os_blocks, IC_MD64_BLOCK, in, len, lenfield, 8);
    }
    ic_sha_out32(out, s.h, 5);
    IC_WIPE_FIXED(s.h, sizeof s.h);
    return IC_OK;
}

int ic_sha1(uint8_t out[IC_SHA1_DIGEST_SIZE], const uint8_t *in, size_t len)
{
    return ic_hash(IC_HASH_SHA1, out, IC_SHA1_DIGEST_SIZE, in, len);
}
