/*
 * ghash_impl.h - the operations every GHASH implementation provides, and
 * what AES-GCM (gcm.c) calls through.
 *
 * GHASH (SP 800-38D section 6.4) folds 16-byte blocks X_i into an
 * accumulator Y with Y = (Y ^ X_i) * H in GF(2^128), using the reflected
 * bit order of the standard: bit 0 of byte 0 (its MSB) is the coefficient
 * of x^0.  The interface is "many blocks per call" so that a backend can
 * aggregate (multiply several blocks by precomputed powers H^k and reduce
 * once, as PCLMULQDQ / PMULL / vpmsumd code does): init may store whatever
 * it wants about H in the key's IC_GHASH_KEY_STORAGE bytes.
 */
#ifndef INCORE_GHASH_IMPL_H
#define INCORE_GHASH_IMPL_H

#include "core/internal.h"
#include "incore/gcm.h"
#include "aes/aes_impl.h"

typedef struct ic_ghash_ops {
    /* Precompute from h (the 16 bytes E(K, 0^128), as the standard writes
     * them) into hk->storage.  Does not touch hk->impl / hk->check. */
    void (*init)(ic_ghash_key *hk, const uint8_t h[16]);
    /* For each of the nblocks 16-byte blocks of in: y = (y ^ block) * H.
     * y is the accumulator in the standard's byte order; in has any
     * alignment; nblocks may be 0. */
    void (*blocks)(const ic_ghash_key *hk, uint8_t y[16], const uint8_t *in, size_t nblocks);
    /* The stitched AES-GCM loops (IC_STITCH_BIT of each, aes/aes_impl.h)
     * whose GHASH half this backend's key layout holds (the powers of H
     * the loop reads) on any CPU that runs the backend; 0 for none. */
    uint32_t stitch;
} ic_ghash_ops;

/* A stitched loop (aes_impl.h lists them): AES-GCM's bulk in one pass,
 * counter mode and GHASH of the ciphertext interleaved so that the AES
 * rounds and the carry-less multiplies overlap.  Encrypts
 * (flags & IC_GCM_HOOK_ENCRYPT) or decrypts up to nblocks whole blocks of
 * in to out (out == in allowed) with the inc32 counter ctr (SP 800-38D;
 * left at the next unused block) and hashes the ciphertext into y
 * (standard byte order), exactly as ctr32 followed (encrypting) or
 * preceded (decrypting) by blocks would.  It does whole batches only and
 * returns how many blocks it did; the caller does the rest the plain way.
 * It is only called with keys of backends that both declare it (gcm.c
 * checks), so it looks at neither's identity.
 * IC_GCM_HOOK_CTR_PUBLIC says the counter is public (the IV had 12
 * bytes, so J0 is the IV itself): only then may a loop branch on the
 * counter's value, e.g. to take a carry-free shortcut.  For any other IV
 * length the counter is GHASH_H(IV), a function of the key, and the
 * counter blocks must be made without looking at it. */
typedef size_t (*ic_gcm_stitch_fn)(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, uint8_t ctr[16],
                                   uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks);

#define IC_GCM_HOOK_ENCRYPT    1u
#define IC_GCM_HOOK_CTR_PUBLIC 2u

/* A whole message in one call, beside some stitched loops (gcm.c's seal
 * and open under a 12-byte IV): J0 given, the AAD hashed, every byte of in
 * encrypted (flags & IC_GCM_HOOK_ENCRYPT) or decrypted to out (out == in
 * allowed), the lengths block hashed.  Encrypting, the full tag goes to
 * tag and 1 is returned (etag unused).  Decrypting, the computed tag is
 * compared in constant time with the taglen (4 .. 16) bytes at etag; when
 * the call returns, the output is the plaintext when they agree and zeros
 * when not, and the verdict is returned as 1 or 0, declassified
 * (ic_ct_declassify: public once made) so that the caller may branch on
 * it (tag unused).  Lengths within GCM's limits.  The
 * message is one struct passed by pointer: as a dozen arguments it was
 * copied through the stack at every layer (about 60 instructions of a
 * 16-byte seal). */
typedef struct ic_gcm_msg {
    uint8_t j0[16];
    const uint8_t *aad;
    size_t aadlen;
    const uint8_t *in;
    size_t len;
    uint8_t *out;
    const uint8_t *etag;   /* opening */
    size_t taglen;
    uint8_t *tag;          /* sealing: 16 bytes */
} ic_gcm_msg;
typedef int (*ic_gcm_msg_fn)(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, const ic_gcm_msg *m);

/* The loop the implementations a and g run together: of the loops both
 * declare, the highest-numbered; IC_STITCH_NONE when they share none
 * (gcm.c: ic_aes_gcm_key_init records it in the key). */
uint32_t ic_gcm_stitch_pick(const ic_aes_ops *a, const ic_ghash_ops *g);
/* Loop s's function: NULL for IC_STITCH_NONE, an id out of range, and a
 * loop not built for this architecture. */
ic_gcm_stitch_fn ic_gcm_stitch_loop(uint32_t s);

/* The ops of the implementation that expanded hk, or NULL when hk is NULL,
 * not initialised, wiped or corrupt (gcm.c). */
const ic_ghash_ops *ic_ghash_key_ops(const ic_ghash_key *hk);
/* Its test alone, branch free, as ic_aes_key_valid. */
static inline int ic_ghash_key_valid(const ic_ghash_key *hk)
{
    return (hk->check == IC_CHECK_GHASH) & ic_impl_index_ok(IC_PRIM_GHASH, hk->impl);
}
/* hk = H expanded by the implementation g (an entry of the "ghash" table),
 * recorded in hk as ic_aes_gcm_key_init does: for tests that pair backends. */
void ic_ghash_key_setup(ic_ghash_key *hk, const ic_ghash_ops *g, const uint8_t h[16]);

#if defined(__x86_64__) || defined(__i386__)
/* The stitched loops IC_STITCH_X86_XMM: AES-NI, 8 blocks in flight
 * (gcm_x86_ni.c), and IC_STITCH_X86_YMM: VAES on YMM, 16 blocks in flight
 * (gcm_x86_vaes.c). */
size_t ic_gcm_x86_ni_crypt(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, uint8_t ctr[16],
                        uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks);
size_t ic_gcm_x86_vaes_crypt(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, uint8_t ctr[16],
                          uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks);
/* IC_STITCH_X86_ZMM: VAES on ZMM, 32 blocks in flight (gcm_x86_vaes512.c). */
size_t ic_gcm_x86_vaes512_crypt(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, uint8_t ctr[16],
                                uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks);
/* Its whole-message function (ic_gcm_msg_fn). */
int ic_gcm_x86_vaes512_msg(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, const ic_gcm_msg *m);
#endif

#endif
