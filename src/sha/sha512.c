/*
 * sha512.c - SHA-384, SHA-512, SHA-512/224 and SHA-512/256 (FIPS 180-4,
 * 6.4-6.7): the streaming and one-shot API over whichever sha512
 * implementation the registry picks (the table is in sha_impls.c).
 *
 * The four variants differ only in the initial value and in how much of
 * the final chaining value is output, so one driver serves them all, keyed
 * by the ic_hash_alg the context was initialised for.  The byte count is
 * kept in 128 bits because the padding's length field is 128 bits (5.1.2).
 */
#include "sha/sha_impl.h"

/* 5.3.4: SHA-384, first 64 bits of the fractional parts of the square roots
 * of the 9th through 16th primes. */
static const uint64_t IV384[8] = {
    UINT64_C(0xcbbb9d5dc1059ed8), UINT64_C(0x629a292a367cd507),
    UINT64_C(0x9159015a3070dd17), UINT64_C(0x152fecd8f70e5939),
    UINT64_C(0x67332667ffc00b31), UINT64_C(0x8eb44a8768581511),
    UINT64_C(0xdb0c2e0d64f98fa7), UINT64_C(0x47b5481dbefa4fa4),
};
/* 5.3.5: SHA-512, the same for the first 8 primes. */
static const uint64_t IV512[8] = {
    UINT64_C(0x6a09e667f3bcc908), UINT64_C(0xbb67ae8584caa73b),
    UINT64_C(0x3c6ef372fe94f82b), UINT64_C(0xa54ff53a5f1d36f1),
    UINT64_C(0x510e527fade682d1), UINT64_C(0x9b05688c2b3e6c1f),
    UINT64_C(0x1f83d9abfb41bd6b), UINT64_C(0x5be0cd19137e2179),
};
/* 5.3.6.1 and 5.3.6.2: the output of the SHA-512/t IV generation function
 * (SHA-512 with IV512 ^ a5a5...a5 over the string "SHA-512/224" resp.
 * "SHA-512/256"). */
static const uint64_t IV512_224[8] = {
    UINT64_C(0x8c3d37c819544da2), UINT64_C(0x73e1996689dcd4d6),
    UINT64_C(0x1dfab7ae32ff9c82), UINT64_C(0x679dd514582f9fcf),
    UINT64_C(0x0f6d2b697bd44da8), UINT64_C(0x77e36f7304c48942),
    UINT64_C(0x3f9d85a86a1d36c8), UINT64_C(0x1112e6ad91d692a1),
};
static const uint64_t IV512_256[8] = {
    UINT64_C(0x22312194fc2bf72c), UINT64_C(0x9f555fa3c84c64c2),
    UINT64_C(0x2393b86b6f53b151), UINT64_C(0x963877195940eabd),
    UINT64_C(0x96283ee2a88effe3), UINT64_C(0xbe5e1e2553863992),
    UINT64_C(0x2b0199fc2c85b8aa), UINT64_C(0x0eb72ddc81c52ca2),
};

/* Initial value for alg, NULL if alg is not of this family. */
static const uint64_t *sha512_iv(ic_hash_alg alg)
{
    switch (alg) {
    case IC_HASH_SHA384:     return IV384;
    case IC_HASH_SHA512:     return IV512;
    case IC_HASH_SHA512_224: return IV512_224;
    case IC_HASH_SHA512_256: return IV512_256;
    default:                 return NULL;
    }
}

/* 5.1.2: the message is at most 2^128 - 1 bits, i.e. fewer than 2^125
 * bytes: the high word of the byte count stays below 2^61. */
#define SHA512_MAX_HI (UINT64_C(1) << 61)

/* 1 when ctx was set up for alg by its init and not wiped since. */
int ic_sha512_ctx_ok(const ic_sha512_ctx *ctx, ic_hash_alg alg)
{
    /* the check word is only ever set from a SHA-384/512 family alg */
    return ctx->check == IC_CHECK_SHA(alg) && IC_IMPL_OPS(sha512, ctx->impl) != NULL;
}

/* For a checked context only (ic_sha512_ctx_ok bounded the index). */
static void sha512_blocks(void *st, const uint8_t *p, size_t n)
{
    ic_sha512_ctx *ctx = st;
    ((const ic_sha512_ops *)ic_impls_sha512[ctx->impl].ops)->compress(ctx->h, p, n);
}

int ic_sha512_init_as(ic_sha512_ctx *ctx, ic_hash_alg alg)
{
    const uint64_t *iv = sha512_iv(alg);

    if (!ctx)
        return IC_ERR_NULL;
    if (!iv)
        return IC_ERR_PARAM;
    memset(ctx, 0, sizeof *ctx);
    memcpy(ctx->h, iv, sizeof ctx->h);
    ctx->impl = ic_impl_index(IC_PRIM_SHA512);
    ctx->check = IC_CHECK_SHA(alg);
    return IC_OK;
}

int ic_sha512_update_as(ic_sha512_ctx *ctx, const uint8_t *in, size_t len, ic_hash_alg alg)
{
    if (!ctx)
        return IC_ERR_NULL;
    if (!ic_sha512_ctx_ok(ctx, alg))
        return IC_ERR_STATE;
    IC_NULL_CHECK(in, len);
    uint64_t lo = ctx->count[0] + len;
    uint64_t hi = ctx->count[1] + (lo < ctx->count[0]);
    if (hi >= SHA512_MAX_HI)
        return IC_ERR_TOOLONG;
    ic_md_absorb(ctx, sha512_blocks, ctx->buf, IC_SHA512_BLOCK_SIZE,
                 (size_t)(ctx->count[0] % IC_SHA512_BLOCK_SIZE), in, len);
    ctx->count[0] = lo;
    ctx->count[1] = hi;
    return IC_OK;
}

int ic_sha512_final_as(ic_sha512_ctx *ctx, uint8_t *out, ic_hash_alg alg)
{
    uint8_t lenfield[16];

    if (!ctx)
        return IC_ERR_NULL;
    if (!ic_sha512_ctx_ok(ctx, alg))
        return IC_ERR_STATE;
    if (!out)
        return IC_ERR_NULL;
    /* bit length = byte count * 8, as a 128-bit big-endian field */
    ic_store64_be(lenfield, ctx->count[1] << 3 | ctx->count[0] >> 61);
    ic_store64_be(lenfield + 8, ctx->count[0] << 3);
    ic_md_pad(ctx, sha512_blocks, ctx->buf, IC_SHA512_BLOCK_SIZE,
              (size_t)(ctx->count[0] % IC_SHA512_BLOCK_SIZE), lenfield, sizeof lenfield);
    /* 6.5-6.7: the truncated variants output the leftmost bits. */
    ic_sha_out64_bytes(out, ctx->h, ic_hash_digest_size(alg));
    ic_wipe(ctx, sizeof *ctx);
    return IC_OK;
}

/* ic_md_oneshot's state: the chaining value and the implementation. */
typedef struct {
    uint64_t h[8];
    const ic_sha512_ops *ops;
} sha512_os;

static void sha512_os_blocks(void *st, const uint8_t *p, size_t n)
{
    sha512_os *s = st;
    s->ops->compress(s->h, p, n);
}

int ic_sha512_oneshot(ic_hash_alg alg, uint8_t *out, const uint8_t *in, size_t len)
{
    sha512_os s;
    uint8_t lenfield[16];
    const uint64_t *iv = sha512_iv(alg);

    if (!iv)
        return IC_ERR_PARAM;
    memcpy(s.h, iv, sizeof s.h);
    s.ops = (const ic_sha512_ops *)ic_ops_fast(IC_PRIM_SHA512);
    /* a size_t count stays far below 5.1.2's 2^125 bytes */
    ic_store64_be(lenfield, (uint64_t)len >> 61);
    ic_store64_be(lenfield + 8, (uint64_t)len << 3);
    ic_md_oneshot(&s, sha512_os_blocks, IC_SHA512_BLOCK_SIZE, in, len, lenfield, 16);
    ic_sha_out64_bytes(out, s.h, ic_hash_digest_size(alg));
    IC_WIPE_FIXED(s.h, sizeof s.h);
    return IC_OK;
}

int ic_sha384_init(ic_sha384_ctx *ctx) { return ic_sha512_init_as(ctx, IC_HASH_SHA384); }
int ic_sha512_init(ic_sha512_ctx *ctx) { return ic_sha512_init_as(ctx, IC_HASH_SHA512); }
int ic_sha512_224_init(ic_sha512_224_ctx *ctx) { return ic_sha512_init_as(ctx, IC_HASH_SHA512_224); }
int ic_sha512_256_init(ic_sha512_256_ctx *ctx) { return ic_sha512_init_as(ctx, IC_HASH_SHA512_256); }

int ic_sha384_update(ic_sha384_ctx *ctx, const uint8_t *in, size_t len)
{
    return ic_sha512_update_as(ctx, in, len, IC_HASH_SHA384);
}

int ic_sha512_update(ic_sha512_ctx *ctx, const uint8_t *in, size_t len)
{
    return ic_sha512_update_as(ctx, in, len, IC_HASH_SHA512);
}

int ic_sha512_224_update(ic_sha512_224_ctx *ctx, const uint8_t *in, size_t len)
{
    return ic_sha512_update_as(ctx, in, len, IC_HASH_SHA512_224);
}

int ic_sha512_256_update(ic_sha512_256_ctx *ctx, const uint8_t *in, size_t len)
{
    return ic_sha512_update_as(ctx, in, len, IC_HASH_SHA512_256);
}

int ic_sha384_final(ic_sha384_ctx *ctx, uint8_t out[IC_SHA384_DIGEST_SIZE])
{
    return ic_sha512_final_as(ctx, out, IC_HASH_SHA384);
}

int ic_sha512_final(ic_sha512_ctx *ctx, uint8_t out[IC_SHA512_DIGEST_SIZE])
{
    return ic_sha512_final_as(ctx, out, IC_HASH_SHA512);
}

int ic_sha512_224_final(ic_sha512_224_ctx *ctx, uint8_t out[IC_SHA512_224_DIGEST_SIZE])
{
    return ic_sha512_final_as(ctx, out, IC_HASH_SHA512_224);
}

int ic_sha512_256_final(ic_sha512_256_ctx *ctx, uint8_t out[IC_SHA512_256_DIGEST_SIZE])
{
    return ic_sha512_final_as(ctx, out, IC_HASH_SHA512_256);
}

int ic_sha384(uint8_t out[IC_SHA384_DIGEST_SIZE], const uint8_t *in, size_t len)
{
    return ic_hash(IC_HASH_SHA384, out, IC_SHA384_DIGEST_SIZE, in, len);
}

int ic_sha512(uint8_t out[IC_SHA512_DIGEST_SIZE], const uint8_t *in, size_t len)
{
    return ic_hash(IC_HASH_SHA512, out, IC_SHA512_DIGEST_SIZE, in, len);
}

int ic_sha512_224(uint8_t out[IC_SHA512_224_DIGEST_SIZE], const uint8_t *in, size_t len)
{
    return ic_hash(IC_HASH_SHA512_224, out, IC_SHA512_224_DIGEST_SIZE, in, len);
}

int ic_sha512_256(uint8_t out[IC_SHA512_256_DIGEST_SIZE], const uint8_t *in, size_t len)
{
    return ic_hash(IC_HASH_SHA512_256, out, IC_SHA512_256_DIGEST_SIZE, in, len);
}
