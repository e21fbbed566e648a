/*
 * poly1305.c - public Poly1305 API (one-shot, verify, streaming); the
 * "poly1305" implementation table is in poly1305_impls.c.
 *
 * The streaming driver keeps at most one partial block in the context and
 * passes every run of whole blocks straight from the caller's buffer to the
 * backend in one call (poly1305_impl.h says why that matters for SIMD).
 * The last partial block is padded as RFC 8439 section 2.5.1 says: a 0x01
 * byte after the data, zeros up to 16 bytes, and no 2^128 bit (hibit 0).
 */
#include "poly1305/poly1305_impl.h"
#include "core/ct.h"

/* ---- streaming ---------------------------------------------------------- */

/* The ops of a context init set up and final / wipe did not end, or NULL;
 * buflen is checked too, as update and final write at buf + buflen. */
static const ic_poly1305_ops *poly_ctx_ops(const ic_poly1305_ctx *ctx)
{
    if (ctx->check != IC_CHECK_POLY1305 || ctx->buflen >= IC_POLY1305_BLOCK_SIZE)
        return NULL;
    return (const ic_poly1305_ops *)IC_IMPL_OPS(poly1305, ctx->impl);
}

/* For a checked context only (poly_ctx_ops or setkey_clean bounded impl). */
static const ic_poly1305_ops *poly_ops(const ic_poly1305_ctx *ctx)
{
    return (const ic_poly1305_ops *)ic_impls_poly1305[ctx->impl].ops;
}

void ic_poly1305_setkey_clean(ic_poly1305_ctx *ctx, const uint8_t key[32])
{
    uint32_t impl = ic_impl_index(IC_PRIM_POLY1305);
    ((const ic_poly1305_ops *)IC_IMPL_OPS(poly1305, impl))->init(ctx->state, key);
    ctx->buflen = 0;
    ctx->impl = impl;
    ctx->check = IC_CHECK_POLY1305;
}

int ic_poly1305_init(ic_poly1305_ctx *ctx, const uint8_t key[32])
{
    if (ctx == NULL)
        return IC_ERR_NULL;
    /* all of it: a failed init must leave no key behind, and another
     * backend may have left its powers of r in words this one does not use */
    ic_wipe(ctx, sizeof *ctx);
    if (key == NULL)
        return IC_ERR_NULL;
    ic_poly1305_setkey_clean(ctx, key);
    return IC_OK;
}

/* update's work: top up the partial block, every whole block in one
 * backend call, keep the rest. */
void ic_poly1305_absorb(ic_poly1305_ctx *ctx, const uint8_t *in, size_t len)
{
    const ic_poly1305_ops *ops = poly_ops(ctx);
    if (len == 0)
        return;
    if (ctx->buflen != 0) {
        size_t take = IC_POLY1305_BLOCK_SIZE - ctx->buflen;
        if (take > len)
            take = len;
        memcpy(ctx->buf + ctx->buflen, in, take);
        ctx->buflen += (unsigned)take;
        in += take;
        len -= take;
        if (ctx->buflen < IC_POLY1305_BLOCK_SIZE)
            return;
        ops->blocks(ctx->state, ctx->buf, 1, 1);
        ctx->buflen = 0;
    }
    size_t nblocks = len / IC_POLY1305_BLOCK_SIZE;
    if (nblocks != 0) {
        ops->blocks(ctx->state, in, nblocks, 1);
        in += nblocks * IC_POLY1305_BLOCK_SIZE;
        len -= nblocks * IC_POLY1305_BLOCK_SIZE;
    }
    if (len != 0) {
        memcpy(ctx->buf, in, len);
        ctx->buflen = (unsigned)len;
    }
}

int ic_poly1305_update(ic_poly1305_ctx *ctx, const uint8_t *in, size_t len)
{
    if (ctx == NULL)
        return IC_ERR_NULL;
    if (poly_ctx_ops(ctx) == NULL)
        return IC_ERR_STATE;
    IC_NULL_CHECK(in, len);
    ic_poly1305_absorb(ctx, in, len);
    return IC_OK;
}

void ic_poly1305_pad16(ic_poly1305_ctx *ctx)
{
    if (ctx->buflen == 0)
        return;
    ic_zero_small(ctx->buf + ctx->buflen, IC_POLY1305_BLOCK_SIZE - ctx->buflen);   /* no libc call */
    poly_ops(ctx)->blocks(ctx->state, ctx->buf, 1, 1);
    ctx->buflen = 0;
}

/* final's work: the padded last block (section 2.5.1: 0x01 after the
 * data, no 2^128 bit), the tag, then the context ended and wiped (the
 * backend's finish erases the state words it used). */
void ic_poly1305_finish(ic_poly1305_ctx *ctx, uint8_t tag[16])
{
    const ic_poly1305_ops *ops = poly_ops(ctx);
    if (ctx->buflen != 0) {
        ctx->buf[ctx->buflen] = 1;
        ic_zero_small(ctx->buf + ctx->buflen + 1, IC_POLY1305_BLOCK_SIZE - ctx->buflen - 1);
        ops->blocks(ctx->state, ctx->buf, 1, 0);
    }
    ops->finish(ctx->state, tag);
    IC_WIPE_FIXED(ctx->buf, sizeof ctx->buf);
    ctx->buflen = 0;
    ctx->impl = 0;
    ctx->check = 0;
}

void ic_poly1305_aead_mac(ic_poly1305_ctx *ctx, const uint8_t *aad, size_t aadlen, const uint8_t *ct, size_t len,
                          uint8_t tag[16])
{
    const ic_poly1305_ops *ops = poly_ops(ctx);
    uint8_t last[32];   /* public bytes only: a tail of aad or ct, the lengths */
    const size_t a = aadlen / 16, n = len / 16, ta = aadlen % 16, tn = len % 16;
    if (a != 0)
        ops->blocks(ctx->state, aad, a, 1);
    if (ta != 0) {
        ic_copy_padded(last, 16, aad + 16 * a, ta);
        ops->blocks(ctx->state, last, 1, 1);
    }
    if (n != 0)
        ops->blocks(ctx->state, ct, n, 1);
    if (tn != 0)
        ic_copy_padded(last, 16, ct + 16 * n, tn);
    ic_store_2x64le(last + (tn != 0 ? 16 : 0), aadlen, len);   /* one store: read back at once */
    ops->blocks(ctx->state, last, 1 + (tn != 0), 1);
    ops->finish(ctx->state, tag);
    ctx->buflen = 0;
    ctx->impl = 0;
    ctx->check = 0;
}

/* Steps 1-2 shared by final and final_verify. */
static int poly_final_check(const ic_poly1305_ctx *ctx, const uint8_t *tag)
{
    if (ctx == NULL)
        return IC_ERR_NULL;
    if (poly_ctx_ops(ctx) == NULL)
        return IC_ERR_STATE;
    if (tag == NULL)
        return IC_ERR_NULL;
    return IC_OK;
}

int ic_poly1305_final(ic_poly1305_ctx *ctx, uint8_t tag[16])
{
    int rc = poly_final_check(ctx, tag);
    if (rc != IC_OK)
        return rc;
    ic_poly1305_finish(ctx, tag);
    return IC_OK;
}

/* want is secret until compared: only the verdict is declassified. */
static int poly_tag_equal(const uint8_t want[16], const uint8_t tag[16])
{
    int ok = ic_ct_equal(want, tag, 16);
    ic_ct_declassify(&ok, sizeof ok);
    return ok ? IC_OK : IC_ERR_AUTH;
}

int ic_poly1305_final_verify(ic_poly1305_ctx *ctx, const uint8_t tag[16])
{
    uint8_t want[16];
    int rc = poly_final_check(ctx, tag);
    if (rc != IC_OK)
        return rc;
    ic_poly1305_finish(ctx, want);
    rc = poly_tag_equal(want, tag);
    ic_wipe(want, sizeof want);
    return rc;
}

/* Abandoning a context: its backend never ran finish, so wipe it all. */
void ic_poly1305_wipe(ic_poly1305_ctx *ctx)
{
    if (ctx != NULL)
        ic_wipe(ctx, sizeof *ctx);
}

/* ---- one-shot ------------------------------------------------------------ */
/* A fresh stack context: keyed without the whole-context wipe (its state
 * holds nothing of an earlier key, ic_poly1305_setkey_clean), and finish
 * erases what the backend wrote. */
static int poly_oneshot(uint8_t tag[16], const uint8_t *in, size_t len, const uint8_t *key)
{
    ic_poly1305_ctx ctx;
    if (tag == NULL || key == NULL)
        return IC_ERR_NULL;
    IC_NULL_CHECK(in, len);
    ic_poly1305_setkey_clean(&ctx, key);
    ic_poly1305_absorb(&ctx, in, len);
    ic_poly1305_finish(&ctx, tag);
    return IC_OK;
}

int ic_poly1305(uint8_t tag[16], const uint8_t *in, size_t len, const uint8_t key[32])
{
    return poly_oneshot(tag, in, len, key);
}

int ic_poly1305_verify(const uint8_t tag[16], const uint8_t *in, size_t len, const uint8_t key[32])
{
    uint8_t want[16];
    if (tag == NULL)
        return IC_ERR_NULL;
    int rc = poly_oneshot(want, in, len, key);
    if (rc != IC_OK)
        return rc;
    rc = poly_tag_equal(want, tag);
    ic_wipe(want, sizeof want);
    return rc;
}
