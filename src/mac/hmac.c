/*
 * hmac.c - HMAC (FIPS 198-1, RFC 2104) over any ic_hash_alg.
 *
 *   HMAC(K, m) = H((K0 ^ opad) || H((K0 ^ ipad) || m))
 *
 * K0 is the key padded with zeros to the hash's block size, or the hash of
 * the key (then padded) when the key is longer than a block (FIPS 198-1
 * section 4, steps 1-3).  Keying absorbs exactly one block into each of
 * two hash contexts, the inner and the outer; they are kept instead of the
 * key, so a keyed context never holds K0 itself, and copying a keyed
 * context reuses the two precomputed block compressions.
 */
#include "core/internal.h"
#include "incore/hmac.h"
#include "sha/sha_impl.h"
#include "core/ct.h"

#define IPAD 0x36
#define OPAD 0x5c

/* k0 ^= pad byte by byte, bs bytes (64 or 128), 16 at a time with one
 * 16-byte store each: the hash reads the block back at once, and 16-byte
 * loads cannot be forwarded from byte or 8-byte stores (ic_store_2x64le). */
static void hmac_xor_pad(uint8_t *k0, size_t bs, uint8_t pad)
{
    const uint64_t p = UINT64_C(0x0101010101010101) * pad;
    for (size_t i = 0; i < bs; i += 16)
        ic_store_2x64le(k0 + i, ic_load64_le(k0 + i) ^ p, ic_load64_le(k0 + i + 8) ^ p);
}

int ic_hmac_init(ic_hmac_ctx *ctx, ic_hash_alg alg, const uint8_t *key, size_t keylen)
{
    uint8_t k0[IC_HASH_MAX_BLOCK_SIZE] = {0};
    size_t bs = ic_hash_block_size(alg);
    int st;

    if (!ctx)
        return IC_ERR_NULL;
    ic_wipe(ctx, sizeof *ctx); /* a failed re-init must not leave the old key usable */
    IC_NULL_CHECK(key, keylen);
    if (!bs)
        return IC_ERR_PARAM;
    if (keylen > bs)
        st = ic_hash(alg, k0, sizeof k0, key, keylen); /* step 2: K0 = H(K) || 0... */
    else {
        if (keylen)
            memcpy(k0, key, keylen);                 /* step 1 / 3 */
        st = IC_OK;
    }
    hmac_xor_pad(k0, bs, IPAD);
    if (st == IC_OK)
        st = ic_hash_init(&ctx->inner, alg);
    if (st == IC_OK)
        st = ic_hash_update(&ctx->inner, k0, bs);
    hmac_xor_pad(k0, bs, IPAD ^ OPAD);
    if (st == IC_OK)
        st = ic_hash_init(&ctx->outer, alg);
    if (st == IC_OK)
        st = ic_hash_update(&ctx->outer, k0, bs);
    ic_wipe(k0, sizeof k0);
    if (st != IC_OK)
        ic_wipe(ctx, sizeof *ctx);
    return st;
}


/* Keyed by ic_hmac_init and not finalised or wiped since. */
static int hmac_ok(const ic_hmac_ctx *ctx)
{
    return ctx->outer.alg == ctx->inner.alg && ic_hash_ctx_ok(&ctx->inner) &&
           ic_hash_ctx_ok(&ctx->outer);
}

int ic_hmac_update(ic_hmac_ctx *ctx, const uint8_t *in, size_t len)
{
    if (!ctx)
        return IC_ERR_NULL;
    if (!hmac_ok(ctx))
        return IC_ERR_STATE;
    return ic_hash_update(&ctx->inner, in, len);
}

/* The tag of a checked, keyed ctx into out (room for the digest); wipes
 * ctx. */
static int hmac_finish(ic_hmac_ctx *ctx, uint8_t *out)
{
    uint8_t ih[IC_HASH_MAX_DIGEST_SIZE];
    size_t n = ic_hash_digest_size(ctx->inner.alg);
    int st;

    st = ic_hash_final(&ctx->inner, ih, sizeof ih);
    if (st == IC_OK)
        st = ic_hash_update(&ctx->outer, ih, n);
    if (st == IC_OK)
        st = ic_hash_final(&ctx->outer, out, n);
    ic_wipe(ih, sizeof ih);
    ic_wipe(ctx, sizeof *ctx);
    return st;
}

int ic_hmac_final(ic_hmac_ctx *ctx, uint8_t *out, size_t outlen)
{
    if (!ctx)
        return IC_ERR_NULL;
    if (!hmac_ok(ctx))
        return IC_ERR_STATE;
    IC_NULL_CHECK(out, outlen);
    if (outlen < ic_hash_digest_size(ctx->inner.alg))
        return IC_ERR_SIZE;
    return hmac_finish(ctx, out);
}

/* Both hash states were seeded from the key: the whole struct goes. */
void ic_hmac_wipe(ic_hmac_ctx *ctx)
{
    if (ctx)
        ic_wipe(ctx, sizeof *ctx);
}

/* Checks in common.h's order (an unkeyed context first, then the tag), so a
 * refused call leaves the context as it was; a comparison, equal or not,
 * consumes it. */
int ic_hmac_final_verify(ic_hmac_ctx *ctx, const uint8_t *tag, size_t taglen)
{
    uint8_t mac[IC_HASH_MAX_DIGEST_SIZE];
    size_t n;
    int st;

    if (!ctx)
        return IC_ERR_NULL;
    if (!hmac_ok(ctx))
        return IC_ERR_STATE;
    IC_NULL_CHECK(tag, taglen);
    n = ic_hash_digest_size(ctx->inner.alg);
    if (taglen < IC_HMAC_MIN_TAG_SIZE || taglen > n)
        return IC_ERR_TAGLEN;
    st = hmac_finish(ctx, mac);
    if (st == IC_OK) {
        int ok = ic_ct_equal(mac, tag, taglen);
        ic_ct_declassify(&ok, sizeof ok);   /* the verdict is public; mac is not */
        if (!ok)
            st = IC_ERR_AUTH;
    }
    ic_wipe(mac, sizeof mac);
    return st;
}

/* The one-shots' common start: key ctx and absorb the message; on error
 * nothing is left in ctx. */
static int hmac_start(ic_hmac_ctx *ctx, ic_hash_alg alg, const uint8_t *in, size_t len,
                      const uint8_t *key, size_t keylen)
{
    int st;

    st = ic_hmac_init(ctx, alg, key, keylen);
    if (st == IC_OK && (st = ic_hmac_update(ctx, in, len)) != IC_OK)
        ic_wipe(ctx, sizeof *ctx);
    return st;
}

int ic_hmac(ic_hash_alg alg, uint8_t *out, size_t outlen, const uint8_t *in, size_t len,
            const uint8_t *key, size_t keylen)
{
    ic_hmac_ctx ctx;
    size_t n = ic_hash_digest_size(alg);
    int st;

    IC_NULL_CHECK(out, outlen);
    IC_NULL_CHECK(in, len);
    IC_NULL_CHECK(key, keylen);
    if (!n)
        return IC_ERR_PARAM;
    if (outlen < n)
        return IC_ERR_SIZE;
    st = hmac_start(&ctx, alg, in, len, key, keylen);
    return st != IC_OK ? st : hmac_finish(&ctx, out);
}

/* taglen is checked before any hashing, so a bad length costs nothing. */
int ic_hmac_verify(ic_hash_alg alg, const uint8_t *tag, size_t taglen, const uint8_t *in,
                   size_t len, const uint8_t *key, size_t keylen)
{
    ic_hmac_ctx ctx;
    size_t n = ic_hash_digest_size(alg);
    int st;

    IC_NULL_CHECK(tag, taglen);
    IC_NULL_CHECK(in, len);
    IC_NULL_CHECK(key, keylen);
    if (!n)
        return IC_ERR_PARAM;
    if (taglen < IC_HMAC_MIN_TAG_SIZE || taglen > n)
        return IC_ERR_TAGLEN;
    st = hmac_start(&ctx, alg, in, len, key, keylen);
    return st != IC_OK ? st : ic_hmac_final_verify(&ctx, tag, taglen);
}
