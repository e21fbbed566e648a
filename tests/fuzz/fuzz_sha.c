/*
 * fuzz_sha.c - differential target for SHA-1 and the SHA-2 family
 * (incore/sha.h).
 *
 * The input picks a variant, the cut points of a streamed message, where a
 * context is copied (forked, as HMAC does) and the message.  The portable
 * implementation's one-shot digest is the reference; for every available
 * implementation of the variant's primitive ("sha1", "sha256" for SHA-224
 * and SHA-256, "sha512" for the other four) the variant's own streaming
 * calls, the generic ic_hash_* calls, a copy of a context taken half way,
 * and the one-shots (variant and generic) must give the same digest and
 * write exactly the digest size, whatever the capacity given to the
 * generic calls; a capacity one byte short is IC_ERR_SIZE with nothing
 * written.
 */
#include "fuzz_common.h"

static const char *prim_of(ic_hash_alg a)
{
    return a == IC_HASH_SHA1 ? "sha1" : a <= IC_HASH_SHA256 ? "sha256" : "sha512";
}

/* The variant's own API, behind one signature. */
typedef union {
    ic_sha1_ctx s1;
    ic_sha256_ctx s256;
    ic_sha512_ctx s512;
} any_ctx;

static int v_init(ic_hash_alg a, any_ctx *c)
{
    switch (a) {
    case IC_HASH_SHA1: return ic_sha1_init(&c->s1);
    case IC_HASH_SHA224: return ic_sha224_init(&c->s256);
    case IC_HASH_SHA256: return ic_sha256_init(&c->s256);
    case IC_HASH_SHA384: return ic_sha384_init(&c->s512);
    case IC_HASH_SHA512: return ic_sha512_init(&c->s512);
    case IC_HASH_SHA512_224: return ic_sha512_224_init(&c->s512);
    default: return ic_sha512_256_init(&c->s512);
    }
}

static int v_update(ic_hash_alg a, any_ctx *c, const uint8_t *p, size_t n)
{
    switch (a) {
    case IC_HASH_SHA1: return ic_sha1_update(&c->s1, p, n);
    case IC_HASH_SHA224: return ic_sha224_update(&c->s256, p, n);
    case IC_HASH_SHA256: return ic_sha256_update(&c->s256, p, n);
    case IC_HASH_SHA384: return ic_sha384_update(&c->s512, p, n);
    case IC_HASH_SHA512: return ic_sha512_update(&c->s512, p, n);
    case IC_HASH_SHA512_224: return ic_sha512_224_update(&c->s512, p, n);
    default: return ic_sha512_256_update(&c->s512, p, n);
    }
}

static int v_final(ic_hash_alg a, any_ctx *c, uint8_t *out)
{
    switch (a) {
    case IC_HASH_SHA1: return ic_sha1_final(&c->s1, out);
    case IC_HASH_SHA224: return ic_sha224_final(&c->s256, out);
    case IC_HASH_SHA256: return ic_sha256_final(&c->s256, out);
    case IC_HASH_SHA384: return ic_sha384_final(&c->s512, out);
    case IC_HASH_SHA512: return ic_sha512_final(&c->s512, out);
    case IC_HASH_SHA512_224: return ic_sha512_224_final(&c->s512, out);
    default: return ic_sha512_256_final(&c->s512, out);
    }
}

static int v_oneshot(ic_hash_alg a, uint8_t *out, const uint8_t *p, size_t n)
{
    switch (a) {
    case IC_HASH_SHA1: return ic_sha1(out, p, n);
    case IC_HASH_SHA224: return ic_sha224(out, p, n);
    case IC_HASH_SHA256: return ic_sha256(out, p, n);
    case IC_HASH_SHA384: return ic_sha384(out, p, n);
    case IC_HASH_SHA512: return ic_sha512(out, p, n);
    case IC_HASH_SHA512_224: return ic_sha512_224(out, p, n);
    default: return ic_sha512_256(out, p, n);
    }
}

/* A digest buffer with canaries: out = d + 8, the digest size ds; the
 * generic calls are given all of it from out on (OUTCAP bytes). */
#define OUTCAP (IC_HASH_MAX_DIGEST_SIZE + 8)
static void fresh(uint8_t d[IC_HASH_MAX_DIGEST_SIZE + 16])
{
    memset(d, FZ_CANARY, IC_HASH_MAX_DIGEST_SIZE + 16);
}

static void same(const uint8_t got[IC_HASH_MAX_DIGEST_SIZE + 16], const uint8_t *ref, size_t ds,
                 const char *impl, const char *how, ic_hash_alg a, size_t len)
{
    for (size_t i = 0; i < IC_HASH_MAX_DIGEST_SIZE + 16; i++)
        if ((i < 8 || i >= 8 + ds) && got[i] != FZ_CANARY)
            FZ_FAIL("%s %s (%s): byte %zd of a %zu-byte digest written", ic_hash_name(a), how, impl,
                    (ptrdiff_t)i - 8, ds);
    if (memcmp(got + 8, ref, ds) != 0) {
        fprintf(stderr, "%s impl %s, %s, len %zu\n", ic_hash_name(a), impl, how, len);
        FZ_CHECK_MEM(got + 8, ref, ds, "digest differs from the portable one-shot");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    ic_hash_alg a = (ic_hash_alg)(fz_u8(&in) % IC_HASH_COUNT);
    uint8_t forkbyte = fz_u8(&in);
    size_t len;
    fz_splits s;
    uint8_t *msg = fz_split_message(&in, &len, &s);
    size_t fork_at = s.n ? 1 + forkbyte % s.n : 0;   /* fork before piece fork_at */

    const char *prim = prim_of(a);
    size_t ds = ic_hash_digest_size(a);
    FZ_CHECK(ds > 0 && ds <= IC_HASH_MAX_DIGEST_SIZE, "digest size of %d: %zu", (int)a, ds);
    uint8_t ref[IC_HASH_MAX_DIGEST_SIZE], d[IC_HASH_MAX_DIGEST_SIZE + 16];

    fz_select(prim, fz_portable(prim));
    int rc = v_oneshot(a, ref, msg, len);
    FZ_CHECK(rc == IC_OK, "portable one-shot: %d", rc);

    size_t n = ic_impl_count(prim);
    for (size_t i = 0; i < n; i++) {
        if (!ic_impl_available(prim, i))
            continue;
        const char *impl = ic_impl_name(prim, i);
        fz_select(prim, i);

        fresh(d);
        rc = v_oneshot(a, d + 8, msg, len);
        FZ_CHECK(rc == IC_OK, "one-shot: %d", rc);
        same(d, ref, ds, impl, "one-shot", a, len);

        fresh(d);
        rc = ic_hash(a, d + 8, OUTCAP, msg, len);
        FZ_CHECK(rc == IC_OK, "ic_hash: %d", rc);
        same(d, ref, ds, impl, "ic_hash", a, len);

        fresh(d);
        rc = ic_hash(a, d + 8, ds - 1, msg, len);
        FZ_CHECK(rc == IC_ERR_SIZE, "ic_hash with outlen %zu: %d, want IC_ERR_SIZE", ds - 1, rc);
        for (size_t k = 0; k < sizeof d; k++)
            FZ_CHECK(d[k] == FZ_CANARY, "ic_hash refused but wrote byte %zu", k);

        /* the variant's streaming calls, and a copy taken before piece fork_at */
        any_ctx c, fork;
        int forked = 0;
        rc = v_init(a, &c);
        FZ_CHECK(rc == IC_OK, "init: %d", rc);
        for (size_t k = 0; k <= s.n; k++) {
            if (k == fork_at && k != 0) {
                fork = c;
                forked = 1;
            }
            rc = v_update(a, &c, msg + FZ_PIECE_OFF(&s, k), FZ_PIECE_LEN(&s, k));
            FZ_CHECK(rc == IC_OK, "update piece %zu: %d", k, rc);
        }
        fresh(d);
        rc = v_final(a, &c, d + 8);
        FZ_CHECK(rc == IC_OK, "final: %d", rc);
        same(d, ref, ds, impl, "streamed", a, len);
        rc = v_update(a, &c, msg, len);
        FZ_CHECK(rc == IC_ERR_STATE, "%s update after final: %d, want IC_ERR_STATE", ic_hash_name(a), rc);
        if (forked) {
            for (size_t k = fork_at; k <= s.n; k++) {
                rc = v_update(a, &fork, msg + FZ_PIECE_OFF(&s, k), FZ_PIECE_LEN(&s, k));
                FZ_CHECK(rc == IC_OK, "update of the copy, piece %zu: %d", k, rc);
            }
            fresh(d);
            rc = v_final(a, &fork, d + 8);
            FZ_CHECK(rc == IC_OK, "final of the copy: %d", rc);
            same(d, ref, ds, impl, "copied context", a, len);
        }

        /* the generic streaming calls */
        ic_hash_ctx h;
        rc = ic_hash_init(&h, a);
        FZ_CHECK(rc == IC_OK, "ic_hash_init: %d", rc);
        for (size_t k = 0; k <= s.n; k++) {
            rc = ic_hash_update(&h, msg + FZ_PIECE_OFF(&s, k), FZ_PIECE_LEN(&s, k));
            FZ_CHECK(rc == IC_OK, "ic_hash_update piece %zu: %d", k, rc);
        }
        fresh(d);
        rc = ic_hash_final(&h, d + 8, ds - 1);
        FZ_CHECK(rc == IC_ERR_SIZE, "ic_hash_final with outlen %zu: %d, want IC_ERR_SIZE", ds - 1, rc);
        rc = ic_hash_final(&h, d + 8, len % 2 ? ds : OUTCAP);   /* the refusal kept the context */
        FZ_CHECK(rc == IC_OK, "ic_hash_final: %d", rc);
        same(d, ref, ds, impl, "ic_hash streamed", a, len);
    }
    fz_select_auto(prim);
    free(msg);
    return 0;
}
