/*
 * incore/sha.h - SHA-1 and the SHA-2 family (FIPS 180-4): SHA-224,
 * SHA-256, SHA-384, SHA-512, SHA-512/224 and SHA-512/256, plus a generic
 * interface (ic_hash_*) over all of them.
 *
 * Each variant has a one-shot call, ic_sha256(out, in, len), and a
 * streaming init/update/final.  Every call returns IC_OK or a negative
 * IC_ERR_* status (incore/common.h) that must not be ignored.  A context
 * records at init the implementation selected at that moment (SHA-NI,
 * ARMv8 SHA, portable, ...) and keeps it to the end.  Contexts are plain
 * structs: they may live on the stack and may be copied (struct
 * assignment) to fork a hash of a common prefix, as HMAC does.
 *
 * Rules of the one-shots:
 *  - out is a fixed-size digest: NULL is IC_ERR_NULL; in may be NULL only
 *    with len 0 (else IC_ERR_NULL).  A refused call writes nothing;
 *  - SHA-1, SHA-224 and SHA-256 refuse a message over 2^61 - 1 bytes with
 *    IC_ERR_TOOLONG (reachable only where size_t has 64 bits).
 *
 * Rules of the streaming calls:
 *  - a context is usable only by the variant whose init set it up: SHA-224
 *    shares its struct with SHA-256 (ic_sha224_ctx is ic_sha256_ctx), but a
 *    context started with ic_sha224_init() is refused by ic_sha256_update()
 *    / ic_sha256_final() with IC_ERR_STATE and vice versa; likewise within
 *    the SHA-512 family (ic_sha384_ctx, ic_sha512_224_ctx and
 *    ic_sha512_256_ctx are ic_sha512_ctx).  A zeroed context, or one
 *    already finalised, also gives IC_ERR_STATE;
 *  - update(ctx, NULL, 0) is allowed; NULL with len > 0 is IC_ERR_NULL;
 *  - the message may not exceed the standard's limit (2^64-1 bits for SHA-1,
 *    SHA-224, SHA-256; 2^128-1 bits for the SHA-512 family): an update that
 *    would pass it returns IC_ERR_TOOLONG and absorbs nothing;
 *  - final writes exactly the digest size and wipes the context; a NULL
 *    out is IC_ERR_NULL and leaves the context as it was.
 *  A hash context holds no secret of its own, but it does hold the message
 *  absorbed so far: to abandon one, ic_wipe(ctx, sizeof *ctx).
 */
#ifndef INCORE_SHA_H
#define INCORE_SHA_H

#include "incore/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IC_SHA1_DIGEST_SIZE       20
#define IC_SHA224_DIGEST_SIZE     28
#define IC_SHA256_DIGEST_SIZE     32
#define IC_SHA384_DIGEST_SIZE     48
#define IC_SHA512_DIGEST_SIZE     64
#define IC_SHA512_224_DIGEST_SIZE 28
#define IC_SHA512_256_DIGEST_SIZE 32

#define IC_SHA1_BLOCK_SIZE        64
#define IC_SHA224_BLOCK_SIZE      64
#define IC_SHA256_BLOCK_SIZE      64
#define IC_SHA384_BLOCK_SIZE      128
#define IC_SHA512_BLOCK_SIZE      128
#define IC_SHA512_224_BLOCK_SIZE  128
#define IC_SHA512_256_BLOCK_SIZE  128

#define IC_HASH_MAX_DIGEST_SIZE   64
#define IC_HASH_MAX_BLOCK_SIZE    128

/* Fields are private; the structs are public only so callers can own them. */
typedef struct ic_sha1_ctx {
    uint32_t h[5];        /* chaining value                              */
    uint64_t count;       /* bytes absorbed; count % 64 are in buf        */
    uint8_t buf[64];
    uint32_t impl;        /* registry index of the implementation chosen at init */
    uint32_t check;       /* which init set it up; 0 = not initialised or wiped  */
} ic_sha1_ctx;

typedef struct ic_sha256_ctx {   /* SHA-224 and SHA-256 */
    uint32_t h[8];
    uint64_t count;
    uint8_t buf[64];
    uint32_t impl;
    uint32_t check;
} ic_sha256_ctx;

typedef struct ic_sha512_ctx {   /* SHA-384, SHA-512, SHA-512/224, SHA-512/256 */
    uint64_t h[8];
    uint64_t count[2];    /* bytes absorbed, 128 bits: [0] low, [1] high  */
    uint8_t buf[128];
    uint32_t impl;
    uint32_t check;
} ic_sha512_ctx;

/* Each variant's own name for its context, for the prototypes below. */
typedef ic_sha256_ctx ic_sha224_ctx;
typedef ic_sha512_ctx ic_sha384_ctx;
typedef ic_sha512_ctx ic_sha512_224_ctx;
typedef ic_sha512_ctx ic_sha512_256_ctx;

IC_NODISCARD IC_API int ic_sha1(uint8_t out[IC_SHA1_DIGEST_SIZE], const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_sha1_init(ic_sha1_ctx *ctx);
IC_NODISCARD IC_API int ic_sha1_update(ic_sha1_ctx *ctx, const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_sha1_final(ic_sha1_ctx *ctx, uint8_t out[IC_SHA1_DIGEST_SIZE]);

IC_NODISCARD IC_API int ic_sha224(uint8_t out[IC_SHA224_DIGEST_SIZE], const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_sha224_init(ic_sha224_ctx *ctx);
IC_NODISCARD IC_API int ic_sha224_update(ic_sha224_ctx *ctx, const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_sha224_final(ic_sha224_ctx *ctx, uint8_t out[IC_SHA224_DIGEST_SIZE]);

IC_NODISCARD IC_API int ic_sha256(uint8_t out[IC_SHA256_DIGEST_SIZE], const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_sha256_init(ic_sha256_ctx *ctx);
IC_NODISCARD IC_API int ic_sha256_update(ic_sha256_ctx *ctx, const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_sha256_final(ic_sha256_ctx *ctx, uint8_t out[IC_SHA256_DIGEST_SIZE]);

IC_NODISCARD IC_API int ic_sha384(uint8_t out[IC_SHA384_DIGEST_SIZE], const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_sha384_init(ic_sha384_ctx *ctx);
IC_NODISCARD IC_API int ic_sha384_update(ic_sha384_ctx *ctx, const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_sha384_final(ic_sha384_ctx *ctx, uint8_t out[IC_SHA384_DIGEST_SIZE]);

IC_NODISCARD IC_API int ic_sha512(uint8_t out[IC_SHA512_DIGEST_SIZE], const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_sha512_init(ic_sha512_ctx *ctx);
IC_NODISCARD IC_API int ic_sha512_update(ic_sha512_ctx *ctx, const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_sha512_final(ic_sha512_ctx *ctx, uint8_t out[IC_SHA512_DIGEST_SIZE]);

IC_NODISCARD IC_API int ic_sha512_224(uint8_t out[IC_SHA512_224_DIGEST_SIZE], const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_sha512_224_init(ic_sha512_224_ctx *ctx);
IC_NODISCARD IC_API int ic_sha512_224_update(ic_sha512_224_ctx *ctx, const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_sha512_224_final(ic_sha512_224_ctx *ctx, uint8_t out[IC_SHA512_224_DIGEST_SIZE]);

IC_NODISCARD IC_API int ic_sha512_256(uint8_t out[IC_SHA512_256_DIGEST_SIZE], const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_sha512_256_init(ic_sha512_256_ctx *ctx);
IC_NODISCARD IC_API int ic_sha512_256_update(ic_sha512_256_ctx *ctx, const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_sha512_256_final(ic_sha512_256_ctx *ctx, uint8_t out[IC_SHA512_256_DIGEST_SIZE]);

/* ---- generic interface ------------------------------------------------- */
typedef enum {
    IC_HASH_SHA1, IC_HASH_SHA224, IC_HASH_SHA256, IC_HASH_SHA384,
    IC_HASH_SHA512, IC_HASH_SHA512_224, IC_HASH_SHA512_256
} ic_hash_alg;
#define IC_HASH_COUNT 7   /* number of ic_hash_alg values, 0 .. 6 */

typedef struct ic_hash_ctx {
    union {
        ic_sha1_ctx sha1;
        ic_sha256_ctx sha256;
        ic_sha512_ctx sha512;
    } u;
    ic_hash_alg alg;
} ic_hash_ctx;

/* 0 / NULL for a value that is not an ic_hash_alg. */
IC_API size_t      ic_hash_digest_size(ic_hash_alg alg);
IC_API size_t      ic_hash_block_size(ic_hash_alg alg);
IC_API const char *ic_hash_name(ic_hash_alg alg);   /* "sha1", "sha256", "sha512-256", ... */

/* Sets *alg from a name: those of ic_hash_name() in any case, with an
 * optional '-' after "sha" and '-', '_' or '/' before a truncation
 * ("SHA-512/256", "sha512_256").  IC_ERR_NULL for a NULL alg or name,
 * IC_ERR_UNKNOWN for any other name; *alg is written only on IC_OK. */
IC_NODISCARD IC_API int ic_hash_from_name(ic_hash_alg *alg, const char *name);

/*
 * The generic calls take the algorithm as a value and behave as that
 * variant's calls, with these additions:
 *  - an alg that names no hash is IC_ERR_PARAM (ic_hash, ic_hash_init);
 *  - out is a pointer and its capacity outlen: an outlen below
 *    ic_hash_digest_size(alg) is IC_ERR_SIZE, checked after the NULL
 *    pointers and the alg (common.h's order), and exactly the digest size
 *    is written (a larger buffer keeps its tail);
 *  - ic_hash_final refuses a context that ic_hash_init did not set up, or
 *    that was finalised since, with IC_ERR_STATE; a refused final (NULL
 *    out, short outlen) leaves the context as it was.
 */
IC_NODISCARD IC_API int ic_hash(ic_hash_alg alg, uint8_t *out, size_t outlen,
                                const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_hash_init(ic_hash_ctx *ctx, ic_hash_alg alg);
IC_NODISCARD IC_API int ic_hash_update(ic_hash_ctx *ctx, const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_hash_final(ic_hash_ctx *ctx, uint8_t *out, size_t outlen);

#ifdef __cplusplus
}
#endif
#endif
