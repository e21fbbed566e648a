/*
 * incore/poly1305.h - the Poly1305 one-time authenticator (RFC 8439 section
 * 2.5): a 16-byte tag over a message of any length under a 32-byte key
 * that must never be used for two messages.
 *
 * One-shot ic_poly1305() and ic_poly1305_verify(), and a streaming context
 * (init / update / final or final_verify) that may be fed in pieces of any
 * size.  Every function that can fail returns IC_OK or a negative status,
 * checked in common.h's order: IC_ERR_NULL for a NULL context, key or tag,
 * or NULL data with a non-zero length; IC_ERR_STATE for a context that was
 * never initialised or has ended; IC_ERR_AUTH for a tag that does not
 * match.  A refused call writes nothing.
 *
 * Implementations ("poly1305" in ic_impl_*, INCORE_IMPL): AVX-512 IFMA
 * ("avx512ifma", radix 2^44), AVX-512 ("avx512") and AVX2 ("avx2") on
 * x86-64, NEON ("neon") on AArch64, and the portable constant-time "c"
 * (radix 2^64, or 2^26 where the compiler has no 128-bit integer); "avx2-gg"
 * is a variant kept for comparison, never selected automatically.  The
 * vector ones evaluate long runs of blocks with 4 or 8 powers of r.  The
 * one-shots take the implementation selected at the call; a context the
 * one selected at its init.  The context is a complete type so callers
 * keep it on the stack; its state area is sized for the largest backend
 * (the powers r^1..r^8, their 5x multiples and the accumulators, about
 * 330 bytes, so 512 bytes leave room).
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

/* tag = Poly1305 of in[0..len) under key.  IC_ERR_NULL for a NULL tag or
 * key, or NULL in with len > 0 (nothing written). */
IC_NODISCARD IC_API int ic_poly1305(uint8_t tag[16], const uint8_t *in, size_t len, const uint8_t key[32]);

/* IC_OK when tag is the Poly1305 of in under key, IC_ERR_AUTH otherwise;
 * the comparison takes the same time wherever the tags differ.  Same
 * IC_ERR_NULL cases as ic_poly1305. */
IC_NODISCARD IC_API int ic_poly1305_verify(const uint8_t tag[16], const uint8_t *in, size_t len,
                                           const uint8_t key[32]);

/* Streaming.  init wipes ctx first, then IC_ERR_NULL for a NULL key.
 * update: IC_ERR_NULL for NULL in with len > 0, IC_ERR_STATE on a context
 * that was never initialised or has ended (a zeroed, wiped or final-ed
 * context; an uninitialised stack struct cannot be told apart and is the
 * caller's bug).  final writes the tag; final_verify compares it with tag
 * in constant time (IC_OK or IC_ERR_AUTH); both then wipe the context. */
IC_NODISCARD IC_API int ic_poly1305_init(ic_poly1305_ctx *ctx, const uint8_t key[32]);
IC_NODISCARD IC_API int ic_poly1305_update(ic_poly1305_ctx *ctx, const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_poly1305_final(ic_poly1305_ctx *ctx, uint8_t tag[16]);
IC_NODISCARD IC_API int ic_poly1305_final_verify(ic_poly1305_ctx *ctx, const uint8_t tag[16]);
/* Forget a context without producing a tag (wipes key material; NULL does
 * nothing). */
IC_API void ic_poly1305_wipe(ic_poly1305_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif
