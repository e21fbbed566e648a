/*
 * poly1305_impl.h - what every Poly1305 implementation provides to the
 * drivers (poly1305.c, the ChaCha20-Poly1305 AEADs) through the "poly1305"
 * registry table.
 *
 * A backend owns the state words of ic_poly1305_ctx (IC_POLY1305_STATE_SIZE
 * bytes, 64-byte aligned) and lays them out as it likes.  The driver hands
 * it every run of whole 16-byte blocks in ONE call, so a vector backend can
 * evaluate the run with 4- or 8-way decimated Horner:
 *     h' = (h + m1) r^n + m2 r^(n-1) + ... + mn r     (mod 2^130 - 5)
 * split over lanes holding r^4 (r^8) steps, with the powers of r computed
 * once at init.  A run whose length is not a multiple of the lane count is
 * handled inside the backend, for instance by logically prepending zero
 * blocks (a zero block in front of h + m1 adds nothing: Sarkar /
 * Bhattacharyya, "Improved SIMD Implementation of Poly1305",
 * section 4), so no call boundary forces a lane
 * realignment except where the caller's own data ends.
 */
#ifndef INCORE_POLY1305_IMPL_H
#define INCORE_POLY1305_IMPL_H

#include "core/internal.h"
#include "incore/poly1305.h"

typedef struct ic_poly1305_ops {
    /* Load a fresh key: r = key[0..15] clamped (RFC 8439 section 2.5),
     * s = key[16..31], accumulator 0, plus whatever precomputation the
     * backend wants (powers of r). */
    void (*init)(uint64_t *st, const uint8_t key[32]);
    /* Absorb nblocks 16-byte blocks: h = (h + m + hibit * 2^128) * r for
     * each block m read little-endian.  hibit is 1 for whole message
     * blocks and 0 for the driver's padded final block, which already
     * carries its 0x01 byte (section 2.5.1).  nblocks may be 0. */
    void (*blocks)(uint64_t *st, const uint8_t *in, size_t nblocks, unsigned hibit);
    /* tag = (h mod 2^130 - 5) + s mod 2^128, little-endian; then wipe
     * every state word the backend used (only it knows how many: the
     * driver does not wipe the whole area on every message). */
    void (*finish)(uint64_t *st, uint8_t tag[16]);
} ic_poly1305_ops;

/* Portable arithmetic (poly1305_c.c).  Radix 2^64 needs the compiler's
 * 64x64->128 multiply (unsigned __int128), radix 2^26 only 32x32->64; the
 * table's portable entry uses the first where it exists.  Both are always
 * built where they can be, so the tests compare the two on every host. */
#if defined(__SIZEOF_INT128__)
#define IC_POLY1305_HAVE_C64 1
extern const ic_poly1305_ops ic_poly1305_c64_ops;
#endif
extern const ic_poly1305_ops ic_poly1305_c32_ops;

#if defined(IC_POLY1305_HAVE_C64)
/* For the vector backends: h = h0 + h1 2^64 + h2 2^128 (the lane sums
 * converted to radix 2^64, h2 a few bits over 2 bits) into the portable
 * code's state words 0..2, with the bits at 2^130 and up folded once
 * (2^130 = 5 mod p): h2 <= 4 afterwards, as poly1305_c.c's blocks and
 * finish expect. */
static inline void ic_poly1305_fold_store(uint64_t *st, uint64_t h0, uint64_t h1, uint64_t h2)
{
    unsigned __int128 a = (unsigned __int128)h0 + (h2 >> 2) * 5;
    st[0] = (uint64_t)a;
    a = (unsigned __int128)h1 + (uint64_t)(a >> 64);
    st[1] = (uint64_t)a;
    st[2] = (h2 & 3) + (uint64_t)(a >> 64);
}
#endif

/* AArch64 NEON, 4 lanes of 26-bit limbs on the same scheme
 * (poly1305_arm_neon.c). */
#if defined(__aarch64__) && defined(IC_POLY1305_HAVE_C64) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define IC_POLY1305_NEON 1
#endif

/* ic_poly1305_init for a checked key, without first wiping the whole
 * context (about 600 bytes), so it cannot fail: for a context that holds no key material of an earlier key, i.e. one that
 * was just wiped, finished (finish erases every word the backend wrote) or
 * is fresh on the stack of a one-shot.  The backend's init writes every
 * state word it reads before reading it. */
void ic_poly1305_setkey_clean(ic_poly1305_ctx *ctx, const uint8_t key[32]);

/* For the AEAD (RFC 8439 section 2.8): zero-pad the buffered partial block
 * to 16 bytes and absorb it as a whole block (hibit 1), as the pad16()
 * fields of the construction require.  No-op when nothing is buffered. */
void ic_poly1305_pad16(ic_poly1305_ctx *ctx);

/* ic_poly1305_update and ic_poly1305_final without their checks, for a
 * context known to be live (the one-shots, the AEAD's own context): they
 * cannot fail, so there is no status to drop.  finish ends and wipes the
 * context as final does. */
void ic_poly1305_absorb(ic_poly1305_ctx *ctx, const uint8_t *in, size_t len);
void ic_poly1305_finish(ic_poly1305_ctx *ctx, uint8_t tag[16]);

/* The whole MAC of an AEAD message (RFC 8439 section 2.8) on a context
 * just keyed (nothing absorbed): aad || pad16 || ct || pad16 ||
 * le64(aadlen) || le64(len), then the tag, the context ended as by
 * ic_poly1305_finish.  The backend's blocks op straight on the buffers,
 * the padded tails and the lengths block from one stack block (one call
 * for the ciphertext's tail and the lengths): a one-shot's short MAC pays
 * no buffering layer. */
void ic_poly1305_aead_mac(ic_poly1305_ctx *ctx, const uint8_t *aad, size_t aadlen, const uint8_t *ct, size_t len,
                          uint8_t tag[16]);

#endif
