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
 *   IC_ERR_AUTH     (open, verify) the tag does not match: for open out is
 *                   zeroed, no plaintext;
 *   IC_ERR_STATE    (streaming) a call out of order, see below.
 *
 * The AEADs come two ways, as AES-GCM does (incore/gcm.h):
 *
 *  - one-shot: ic_chacha20_poly1305_seal() / ic_chacha20_poly1305_open() and
 *    the XChaCha20 pair.  Prefer these.  open checks the tag over the
 *    ciphertext BEFORE it decrypts anything, so a forgery never releases
 *    plaintext.
 *
 *  - streaming: ic_chacha20_poly1305_init (key, once) then, per message,
 *    ic_chacha20_poly1305_start (12-byte nonce) or ic_xchacha20_poly1305_start
 *    (24-byte nonce), ic_chacha20_poly1305_aad (any number of calls, any
 *    lengths), ic_chacha20_poly1305_encrypt or ic_chacha20_poly1305_decrypt
 *    (any number of calls, any lengths), and ic_chacha20_poly1305_finish
 *    (sender: writes the tag) or ic_chacha20_poly1305_verify (receiver:
 *    checks it in constant time).  The result equals the one-shot's for any
 *    split of aad and data.
 *    WARNING: streaming decryption hands out plaintext before the tag has
 *    been checked.  The caller must not use or release any of it until
 *    ic_chacha20_poly1305_verify() returned IC_OK, and must discard all of
 *    it otherwise.  When the message fits in memory use the one-shot open.
 *
 * Streaming rules (nothing is written when a call is refused):
 *  - order: aad after data, aad / data / finish / verify before a start,
 *    encrypt and decrypt mixed in one message, finish after decrypt or
 *    verify after encrypt: IC_ERR_STATE.  finish and verify end the
 *    message; the next one needs a new start (the key is kept), and a start
 *    in the middle of a message abandons it.  Never reuse a nonce with the
 *    same key.
 *  - data: out may equal in exactly, any other overlap is IC_ERR_OVERLAP;
 *    more than IC_CHACHA20_POLY1305_MAX_LEN bytes in one message is
 *    IC_ERR_TOOLONG (checked before anything is touched, so a refused call
 *    can be retried shorter).
 *  - NULL is accepted only together with a length of 0 (IC_ERR_NULL).
 *
 * A context takes the ChaCha20 implementation selected at init and the
 * Poly1305 one selected at each start, and keeps them for the message.  It
 * holds the key: erase it with ic_chacha20_poly1305_wipe() when done.  One
 * context must not be used by two threads at once.
 */
#ifndef INCORE_CHACHA_H
#define INCORE_CHACHA_H

#include "incore/common.h"
#include "incore/poly1305.h"

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
IC_NODISCARD IC_API int ic_chacha20_poly1305_open(const uint8_t key[32], const uint8_t nonce[12],
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
IC_NODISCARD IC_API int ic_xchacha20_poly1305_open(const uint8_t key[32], const uint8_t nonce[24],
                               const uint8_t *aad, size_t aadlen,
                               const uint8_t *in, size_t len,
                               uint8_t *out, const uint8_t tag[16]);

/* A key object of the same shape as the AES-GCM one of incore/gcm.h, so that
 * code holding AEAD keys treats both alike: init once, seal / open per
 * message with the calls above less the key, wipe.  ChaCha20 expands
 * nothing per key, so this is for the shape, not for speed.  check is set by
 * init and cleared by wipe; every call validates it first (NULL:
 * IC_ERR_NULL, not a live key object: IC_ERR_STATE), then the arguments as
 * the one-shot calls do.  seal / open only read it (threads may share it). */
typedef struct ic_chacha20_poly1305_key {
    uint8_t  key[32];
    uint32_t check;
    uint32_t reserved;
} ic_chacha20_poly1305_key;

IC_NODISCARD IC_API int ic_chacha20_poly1305_key_init(ic_chacha20_poly1305_key *k, const uint8_t key[32]);
IC_API int ic_chacha20_poly1305_key_seal(const ic_chacha20_poly1305_key *k, const uint8_t nonce[12],
                              const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len,
                              uint8_t *out, uint8_t tag[16]);
IC_NODISCARD IC_API int ic_chacha20_poly1305_key_open(const ic_chacha20_poly1305_key *k, const uint8_t nonce[12],
                              const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len,
                              uint8_t *out, const uint8_t tag[16]);
IC_API int ic_xchacha20_poly1305_key_seal(const ic_chacha20_poly1305_key *k, const uint8_t nonce[24],
                              const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len,
                              uint8_t *out, uint8_t tag[16]);
IC_NODISCARD IC_API int ic_xchacha20_poly1305_key_open(const ic_chacha20_poly1305_key *k, const uint8_t nonce[24],
                              const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len,
                              uint8_t *out, const uint8_t tag[16]);
IC_API void ic_chacha20_poly1305_key_wipe(ic_chacha20_poly1305_key *k);

/* Streaming ChaCha20-Poly1305 / XChaCha20-Poly1305 (rules at the top).
 * A complete type so callers can keep it on the stack; the fields are
 * private to chacha20_poly1305.c. */
typedef struct ic_chacha20_poly1305_ctx {
    ic_poly1305_ctx mac;   /* Poly1305 under this message's one-time key   */
    uint32_t st[16];       /* ChaCha20 state (RFC 8439 2.3): next block in
                              word 12; under the HChaCha20 subkey for X    */
    uint8_t  key[32];      /* the AEAD key, for every start                */
    uint8_t  ks[64];       /* keystream block of a partial data block      */
    uint64_t aadlen;       /* AAD bytes of this message                    */
    uint64_t datalen;      /* plaintext bytes of this message              */
    unsigned kslen;        /* unused keystream bytes at the end of ks      */
    int      state;        /* where in the message we are                  */
    uint32_t impl;         /* registry index of the ChaCha20 implementation */
    uint32_t check;        /* set by init, cleared by wipe                  */
} ic_chacha20_poly1305_ctx;

/* Keep the key; the context then waits for a start.  IC_ERR_NULL for a
 * NULL ctx or key. */
IC_NODISCARD IC_API int ic_chacha20_poly1305_init(ic_chacha20_poly1305_ctx *c, const uint8_t key[32]);
/* Begin a ChaCha20-Poly1305 message under a 12-byte nonce. */
IC_API int  ic_chacha20_poly1305_start(ic_chacha20_poly1305_ctx *c, const uint8_t nonce[12]);
/* Begin an XChaCha20-Poly1305 message under a 24-byte nonce: the context
 * switches to the subkey HChaCha20(key, nonce[0..15]) and the nonce
 * 0^4 || nonce[16..23] for this message (draft-irtf-cfrg-xchacha-03 2.3). */
IC_API int  ic_xchacha20_poly1305_start(ic_chacha20_poly1305_ctx *c, const uint8_t nonce[24]);
/* Additional authenticated data; all of it before the first data call. */
IC_API int  ic_chacha20_poly1305_aad(ic_chacha20_poly1305_ctx *c, const uint8_t *aad, size_t len);
/* len bytes of in to len bytes of out (out == in allowed). */
IC_API int  ic_chacha20_poly1305_encrypt(ic_chacha20_poly1305_ctx *c, uint8_t *out,
                                         const uint8_t *in, size_t len);
/* Releases unauthenticated plaintext: see the warning at the top. */
IC_API int  ic_chacha20_poly1305_decrypt(ic_chacha20_poly1305_ctx *c, uint8_t *out,
                                         const uint8_t *in, size_t len);
/* Sender: write the 16-byte tag; ends the message. */
IC_API int  ic_chacha20_poly1305_finish(ic_chacha20_poly1305_ctx *c, uint8_t tag[16]);
/* Receiver: IC_OK when tag matches, IC_ERR_AUTH otherwise (constant-time
 * comparison); ends the message either way. */
IC_NODISCARD IC_API int ic_chacha20_poly1305_verify(ic_chacha20_poly1305_ctx *c, const uint8_t tag[16]);
/* Erase key and state (the context must be re-initialised to be used). */
IC_API void ic_chacha20_poly1305_wipe(ic_chacha20_poly1305_ctx *c);

#ifdef __cplusplus
}
#endif
#endif
