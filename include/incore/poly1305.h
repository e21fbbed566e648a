/*
 * incore/poly1305.h - the Poly1305 one-time authenticator (RFC 8439 section
 * 2.5): a 16-byte tag over a message of any length under a 32-byte key
 * that must never be used for two messages.
 *
 * One-shot ic_poly1305() and ic_poly1305_verify(), and a streaming context
 * (init / update / final) that may be fed in pieces of any size.  The
 * context is a complete type so callers keep it on the stack; it records
 * the implementation selected at init (portable radix 2^64 or 2^26 now,
 * AVX2 / AVX-512 / NEON / VSX vector code later), and its state area is
 * sized for the largest of them: a vector backend keeps the powers
 * r^1..r^8 of the key there (8 powers x 5 limbs x 32 bits, their 5x
 * multiples, the accumulators), about 330 bytes, so 512 bytes leave room.
 */
#ifndef INCORE_POLY1305_H
#define INCORE_POLY1305_H

#include "incore/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IC_POLY1305_KEY_SIZE    32
#define IC_POLY1305_TAG_SIZE    16
#define IC_POLY1305_BLOCK_SIZE  16
#define IC_POLY1305_STATE_SIZE  512   /* bytes of backend state in a context */

typedef struct ic_poly1305_ctx {
    /* Backend-owned: accumulator, r (and its powers), s.  64-bit words so
     * every backend reads it as integers without aliasing tricks; 64-byte
     * aligned for full-width vector loads. */
    IC_ALIGNAS(64) uint64_t state[IC_POLY1305_STATE_SIZE / 8];
    uint32_t impl;         /* registry index of the implementation owning state */
    uint32_t check;        /* set by init, cleared by final and wipe            */
    uint8_t buf[IC_POLY1305_BLOCK_SIZE];  /* a partial block waiting for more input */
    unsigned buflen;
} ic_poly1305_ctx;

/* One-shot tag.  Void as in the API contract: with a NULL tag nothing
 * happens; a NULL key, or NULL in with len > 0, writes an all-zero tag
 * (which ic_poly1305_verify never accepts for such input). */
IC_API void ic_poly1305(uint8_t tag[16], const void *in, size_t len, const uint8_t key[32]);

/* IC_OK when tag is the Poly1305 of in under key, IC_ERR_AUTH otherwise;
 * the comparison takes the same time wherever the tags differ. */
IC_NODISCARD IC_API int ic_poly1305_verify(const uint8_t tag[16], const void *in, size_t len, const uint8_t key[32]);

/* Streaming.  init: IC_ERR_NULL for a NULL ctx or key.  update: IC_ERR_NULL
 * for NULL in with len > 0, IC_ERR_STATE on a context that was never
 * initialised or is already finished (a zeroed or final-ed context; an
 * uninitialised stack struct cannot be told apart and is the caller's bug).
 * final writes the tag and wipes the context. */
IC_NODISCARD IC_API int ic_poly1305_init(ic_poly1305_ctx *ctx, const uint8_t key[32]);
IC_API int ic_poly1305_update(ic_poly1305_ctx *ctx, const void *in, size_t len);
IC_API int ic_poly1305_final(ic_poly1305_ctx *ctx, uint8_t tag[16]);
/* Forget a context without producing a tag (wipes key material). */
IC_API void ic_poly1305_wipe(ic_poly1305_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif
