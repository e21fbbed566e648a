/*
 * incore/chacha.h - the ChaCha20 stream cipher (RFC 8439 sections 2.3-2.4),
 * HChaCha20 and XChaCha20 (draft-irtf-cfrg-xchacha-03 section 2), and the
 * AEADs ChaCha20-Poly1305 (RFC 8439 section 2.8) and XChaCha20-Poly1305.
 *
 * Naming follows libsodium: ic_chacha20_xor is crypto_stream_chacha20_ietf_xor_ic,
 * ic_xchacha20_xor is crypto_stream_xchacha20_xor_ic, and the AEADs are the
 * _ietf_encrypt_detached / decrypt_detached pairs.  Every call takes the
 * implementation selected at that moment (portable now, SIMD backends later).
 *
 * Every function returns IC_OK or a negative status:
 *   IC_ERR_NULL     a NULL key / nonce / tag, or NULL data with a non-zero length;
 *   IC_ERR_OVERLAP  out and in overlap other than exactly (out == in is fine);
 *   IC_ERR_TOOLONG  the message would run the block counter past its end;
 *   IC_ERR_AUTH     (open) the tag does not match: out is zeroed, no plaintext.
 */
#ifndef INCORE_CHACHA_H
#define INCORE_CHACHA_H

#include "incore/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IC_CHACHA20_KEY_SIZE              32
#define IC_CHACHA20_NONCE_SIZE            12   /* RFC 8439: 96-bit nonce, 32-bit counter */
#define IC_CHACHA20_BLOCK_SIZE            64
#define IC_HCHACHA20_INPUT_SIZE           16
#define IC_HCHACHA20_OUTPUT_SIZE          32
#define IC_XCHACHA20_NONCE_SIZE           24
#define IC_CHACHA20_POLY1305_KEY_SIZE     32
#define IC_CHACHA20_POLY1305_NONCE_SIZE   12
#define IC_XCHACHA20_POLY1305_NONCE_SIZE  24
#define IC_CHACHA20_POLY1305_TAG_SIZE     16
/* Longest AEAD message: the payload uses block counters 1 .. 2^32-1
 * (counter 0 makes the Poly1305 key), RFC 8439 section 2.8. */
#define IC_CHACHA20_POLY1305_MAX_LEN      (UINT64_C(0xffffffff) * 64)

/* out = in xor the ChaCha20 keystream of (key, nonce) starting at block
 * `counter`.  Block i of the message uses counter + i, a 32-bit word that
 * must not wrap: more than (2^32 - counter) * 64 bytes is IC_ERR_TOOLONG.
 * Calls chain when every call but the last passes a multiple of 64 bytes
 * and the next counter is counter + len / 64. */
IC_API int ic_chacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
                    const uint8_t key[32], const uint8_t nonce[12], uint32_t counter);

/* HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2): a 32-byte subkey from
 * a key and a 16-byte input, the first step of XChaCha20. */
IC_API int ic_hchacha20(uint8_t subkey[32], const uint8_t key[32], const uint8_t in[16]);

/* XChaCha20: ChaCha20 under HChaCha20(key, nonce[0..15]) with nonce[16..23]
 * as the 64-bit nonce and a 64-bit block counter (libsodium's
 * crypto_stream_xchacha20, which equals the draft's construction for
 * counters below 2^32).  More than (2^64 - counter) * 64 bytes is
 * IC_ERR_TOOLONG. */
IC_API int ic_xchacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
                     const uint8_t key[32], const uint8_t nonce[24], uint64_t counter);

/* AEAD_CHACHA20_POLY1305 (RFC 8439 section 2.8), tag detached.
 * seal: out = ciphertext (len bytes), tag = 16 bytes.  out may equal in.
 * len above IC_CHACHA20_POLY1305_MAX_LEN is IC_ERR_TOOLONG.
 * open: checks the tag over aad and the ciphertext BEFORE decrypting; on
 * a mismatch returns IC_ERR_AUTH with out zeroed (also when out == in). */
IC_API int ic_chacha20_poly1305_seal(const uint8_t key[32], const uint8_t nonce[12],
                              const uint8_t *aad, size_t aadlen,
                              const uint8_t *in, size_t len,
                              uint8_t *out, uint8_t tag[16]);
IC_API int ic_chacha20_poly1305_open(const uint8_t key[32], const uint8_t nonce[12],
                              const uint8_t *aad, size_t aadlen,
                              const uint8_t *in, size_t len,
                              uint8_t *out, const uint8_t tag[16]);

/* AEAD_XChaCha20_Poly1305 (draft-irtf-cfrg-xchacha-03 section 2.3): the
 * above under HChaCha20(key, nonce[0..15]) with nonce 0^4 || nonce[16..23].
 * A random 24-byte nonce is safe to use.  Same statuses and limits. */
IC_API int ic_xchacha20_poly1305_seal(const uint8_t key[32], const uint8_t nonce[24],
                               const uint8_t *aad, size_t aadlen,
                               const uint8_t *in, size_t len,
                               uint8_t *out, uint8_t tag[16]);
IC_API int ic_xchacha20_poly1305_open(const uint8_t key[32], const uint8_t nonce[24],
                               const uint8_t *aad, size_t aadlen,
                               const uint8_t *in, size_t len,
                               uint8_t *out, const uint8_t tag[16]);

#ifdef __cplusplus
}
#endif
#endif
