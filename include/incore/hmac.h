/*
 * incore/hmac.h - HMAC (FIPS 198-1, RFC 2104) and HKDF (RFC 5869) over
 * every hash of incore/sha.h.
 *
 * HMAC takes keys of any length (longer than the hash's block are hashed
 * first, FIPS 198-1 step 2).  Tags are verified in constant time; a
 * truncated tag is accepted down to IC_HMAC_MIN_TAG_SIZE bytes (80 bits,
 * the lower bound of RFC 2104 section 5 and of SP 800-107 5.3.3), shorter
 * ones are refused with IC_ERR_TAGLEN.  Every key-derived value (padded
 * key, inner and outer states, PRK copies) is wiped after use.
 *
 * Every call returns IC_OK or a negative IC_ERR_* status that must not be
 * ignored, with its checks in incore/common.h's order: the context, NULL
 * pointers (a NULL pointer is refused with IC_ERR_NULL unless its length
 * is 0), the alg (IC_ERR_PARAM when it names no hash), then lengths.  An
 * output whose size the hash decides (a tag, a PRK) is a pointer and its
 * capacity: a capacity below ic_hash_digest_size(alg) is IC_ERR_SIZE, and
 * exactly the digest size is written.  A refused call writes nothing.
 */
#ifndef INCORE_HMAC_H
#define INCORE_HMAC_H

#include "incore/common.h"
#include "incore/sha.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IC_HMAC_MIN_TAG_SIZE 10
#define IC_HMAC_MAX_SIZE     IC_HASH_MAX_DIGEST_SIZE

/* Fields are private.  A keyed context may be copied (struct assignment)
 * to MAC several messages under one key without re-keying. */
typedef struct ic_hmac_ctx {
    ic_hash_ctx inner;   /* H((K ^ ipad) || message so far)               */
    ic_hash_ctx outer;   /* H((K ^ opad) || ...), waiting for the inner hash */
} ic_hmac_ctx;

/* Keys ctx for alg.  Wipes ctx first, so a failed re-init leaves no older
 * key usable; then IC_ERR_NULL for key NULL with keylen > 0, IC_ERR_PARAM
 * for an unknown alg. */
IC_NODISCARD IC_API int ic_hmac_init(ic_hmac_ctx *ctx, ic_hash_alg alg,
                                     const uint8_t *key, size_t keylen);
/* IC_ERR_STATE when ctx is not keyed (or already finalised or wiped);
 * IC_ERR_TOOLONG past the hash's message limit (2^61 - 1 bytes in all for
 * SHA-1 and SHA-224/256, counting the key block; the SHA-512 family's
 * 2^125 bytes cannot be reached through a size_t). */
IC_NODISCARD IC_API int ic_hmac_update(ic_hmac_ctx *ctx, const uint8_t *in, size_t len);
/* Writes the ic_hash_digest_size(alg)-byte tag to out and wipes ctx.
 * Refused, leaving ctx as it was: IC_ERR_STATE for an unkeyed ctx,
 * IC_ERR_NULL for a NULL out with outlen > 0, IC_ERR_SIZE when outlen is
 * below the digest size.  For a truncated tag, copy the leading bytes. */
IC_NODISCARD IC_API int ic_hmac_final(ic_hmac_ctx *ctx, uint8_t *out, size_t outlen);
/* Compares the first taglen bytes of the MAC with tag in constant time and
 * wipes ctx: IC_OK or IC_ERR_AUTH.  Refused before anything is computed,
 * leaving ctx as it was: IC_ERR_STATE for an unkeyed ctx, IC_ERR_NULL for
 * a NULL tag with taglen > 0, IC_ERR_TAGLEN when taglen is below
 * IC_HMAC_MIN_TAG_SIZE or above the digest size. */
IC_NODISCARD IC_API int ic_hmac_final_verify(ic_hmac_ctx *ctx, const uint8_t *tag, size_t taglen);
/* Abandons a context without a tag: wipes every key-derived state in it
 * (after which it is unkeyed: IC_ERR_STATE).  ctx may be NULL, or already
 * finalised or wiped. */
IC_API void ic_hmac_wipe(ic_hmac_ctx *ctx);

/* One-shot: init, update, final under key.  Checks, in order: IC_ERR_NULL
 * (out, in or key NULL with a non-zero length), IC_ERR_PARAM (alg),
 * IC_ERR_SIZE (outlen below the digest size). */
IC_NODISCARD IC_API int ic_hmac(ic_hash_alg alg, uint8_t *out, size_t outlen,
                                const uint8_t *in, size_t len,
                                const uint8_t *key, size_t keylen);
/* One-shot verification, as ic_hmac_final_verify(); the tag is read where
 * ic_hmac() writes it.  taglen is checked before any hashing, so a bad
 * length costs nothing. */
IC_NODISCARD IC_API int ic_hmac_verify(ic_hash_alg alg, const uint8_t *tag, size_t taglen,
                                       const uint8_t *in, size_t len,
                                       const uint8_t *key, size_t keylen);

/* ---- HKDF (RFC 5869) ---------------------------------------------------
 * extract: prk = HMAC(salt, ikm), HashLen = ic_hash_digest_size(alg)
 * bytes, written to prk whose capacity prklen must be at least HashLen
 * (IC_ERR_SIZE); a NULL or empty salt means HashLen zero bytes (2.2),
 * which HMAC pads to the same key block.
 * expand: okmlen bytes of T(1) || T(2) || ... keyed with prk; prklen must
 * be at least HashLen (IC_ERR_KEYLEN), okmlen at most 255 * HashLen
 * (IC_ERR_TOOLONG).  okm may overlap prk (prk is read before okm is
 * written) but not info, which is read for every block (IC_ERR_OVERLAP).
 * ic_hkdf: extract then expand, with expand's limits on okmlen and info.
 * NULL pointers (with a non-zero length) are IC_ERR_NULL, an unknown alg
 * IC_ERR_PARAM, both checked before the lengths. */
IC_NODISCARD IC_API int ic_hkdf_extract(ic_hash_alg alg, uint8_t *prk, size_t prklen,
                                        const uint8_t *salt, size_t saltlen,
                                        const uint8_t *ikm, size_t ikmlen);
IC_NODISCARD IC_API int ic_hkdf_expand(ic_hash_alg alg, uint8_t *okm, size_t okmlen,
                                       const uint8_t *info, size_t infolen,
                                       const uint8_t *prk, size_t prklen);
IC_NODISCARD IC_API int ic_hkdf(ic_hash_alg alg, uint8_t *okm, size_t okmlen,
                                const uint8_t *info, size_t infolen,
                                const uint8_t *salt, size_t saltlen,
                                const uint8_t *ikm, size_t ikmlen);

#ifdef __cplusplus
}
#endif
#endif
