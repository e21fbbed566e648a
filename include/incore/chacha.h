/*
 * incore/chacha.h - the ChaCha20 stream cipher (RFC 8439 sections 2.3-2.4),
 * HChaCha20 and XChaCha20 (draft-irtf-cfrg-xchacha-03 section 2), and the
 * AEADs ChaCha20-Poly1305 (RFC 8439 section 2.8) and XChaCha20-Poly1305.
 *
 * The calls read as libsodium's: ic_chacha20_xor(out, in, len, nonce,
 * counter, key) is crypto_stream_chacha20_ietf_xor_ic, ic_xchacha20_xor is
 * crypto_stream_xchacha20_xor_ic, and the AEADs are the _ietf_encrypt_detached
 * / _decrypt_detached pairs.  Outputs come first, then the data, then the
 * other inputs, the raw key last; with a key object or a context, that
 * object comes first (docs/api.md).
 *
 * Implementations ("chacha20" and "poly1305" in ic_impl_*, INCORE_IMPL):
 * ChaCha20 runs on AVX-512 ("avx512", 16 blocks at once), AVX2 ("avx2")
 * or NEON ("neon", AArch64 and 32-bit ARM), Poly1305 on AVX-512 IFMA
 * ("avx512ifma"), AVX-512 ("avx512"), AVX2 ("avx2") or NEON ("neon",
 * AArch64), each with the portable constant-time "c" as the fallback.
 * Every one-shot call takes the implementations selected at that moment.
 *
 * Every function that can fail returns IC_OK or a negative status:
 *   IC_ERR_NULL     a NULL key / key object / context / nonce / tag, or NULL
 *                   data with a non-zero length;
 *   IC_ERR_STATE    a key object or context that was never initialised, was
 *                   wiped or is garbage; (streaming) a call out of order, or
 *                   a context whose key object was wiped, see below;
 *   IC_ERR_TOOLONG  the message would run the block counter past its end;
 *   IC_ERR_OVERLAP  out and in overlap other than exactly (out == in is fine);
 *   IC_ERR_AUTH     (open, final_verify) the tag does not match: for open
 *                   out is zeroed, no plaintext.
 * The checks run in common.h's order (object, pointers, length limit,
 * overlap, call order, tag), and a refused call writes nothing.
 *
 * The AEADs come three ways, as AES-GCM does (incore/gcm.h):
 *
 *  - one-shot with the raw key: ic_chacha20_poly1305_seal() /
 *    ic_chacha20_poly1305_open() and the XChaCha20 pair.  Prefer these (or
 *    the next).  open checks the tag over the ciphertext BEFORE it decrypts
 *    anything, so a forgery never releases plaintext.
 *
 *  - one-shot with a key object: ic_chacha20_poly1305_key_init() once,
 *    then the _key_seal / _key_open calls (both nonce sizes) per message,
 *    ic_chacha20_poly1305_key_wipe() at the end.  ChaCha20 expands nothing
 *    per key, so this is for code that holds AEAD keys of either kind
 *    alike, not for speed.  The key object is only read: threads may share
 *    it.
 *
 *  - streaming, one message per context, from a key object:
 *    ic_chacha20_poly1305_init (12-byte nonce) or ic_xchacha20_poly1305_init
 *    (24-byte nonce), then ic_chacha20_poly1305_aad (any number of calls,
 *    any lengths), ic_chacha20_poly1305_encrypt or _decrypt (any number of
 *    calls, any lengths), and ic_chacha20_poly1305_final (sender: writes
 *    the tag) or ic_chacha20_poly1305_final_verify (receiver: checks it in
 *    constant time).  The result equals the one-shot's for any split of aad
 *    and data.
 *    WARNING: streaming decryption hands out plaintext before the tag has
 *    been checked.  The caller must not use or release any of it until
 *    ic_chacha20_poly1305_final_verify() returned IC_OK, and must discard
 *    all of it otherwise.  When the message fits in memory use the
 *    one-shot open.
 *
 * Streaming rules (nothing is written when a call is refused):
 *  - the context keeps a pointer to the caller's key object and copies no
 *    key from it: the key object must stay alive and unchanged until the
 *    message ends (final, final_verify or wipe).  Every call checks that it
 *    is still a live key object; one wiped in the middle of a message makes
 *    every later call IC_ERR_STATE.  What the context builds per message
 *    (the one-time Poly1305 key, the keystream of a partial block, and for
 *    XChaCha20 the HChaCha20 subkey) it wipes at final, final_verify and
 *    wipe.
 *  - order: aad after data, encrypt and decrypt mixed in one message,
 *    final after decrypt or final_verify after encrypt: IC_ERR_STATE (a
 *    message with no data may end either way).  final and final_verify
 *    end the message and wipe the context; the next message is a new init,
 *    which may also abandon a message half way.  Never reuse a nonce with
 *    the same key.
 *  - data: out may equal in exactly, any other overlap is IC_ERR_OVERLAP;
 *    more than IC_CHACHA20_POLY1305_MAX_LEN bytes in one message is
 *    IC_ERR_TOOLONG (checked before anything is touched, so a refused call
 *    can be retried shorter).
 *  - NULL is accepted only together with a length of 0 (IC_ERR_NULL).
 *
 * A context takes the ChaCha20 and Poly1305 implementations selected at
 * its init and keeps them for the message.  One context must not be used
 * by two threads at once.
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

/* ---- stream cipher ------------------------------------------------------ */

/* out = in xor the ChaCha20 keystream of (key, nonce) starting at block
 * `counter`.  Block i of the message uses counter + i, a 32-bit word that
 * must not wrap: more than (2^32 - counter) * 64 bytes is IC_ERR_TOOLONG.
 * Calls chain when every call but the last passes a multiple of 64 bytes
 * and the next counter is counter + len / 64. */
IC_NODISCARD IC_API int ic_chacha20_xor(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[12],
                                        uint32_t counter, const uint8_t key[32]);

/* XChaCha20: ChaCha20 under HChaCha20(key, nonce[0..15]) with nonce[16..23]
 * as the 64-bit nonce and a 64-bit block counter (libsodium's
 * crypto_stream_xchacha20, which equals the draft's construction for
 * counters below 2^32).  More than (2^64 - counter) * 64 bytes is
 * IC_ERR_TOOLONG. */
IC_NODISCARD IC_API int ic_xchacha20_xor(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[24],
                                         uint64_t counter, const uint8_t key[32]);

/* HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2): a 32-byte subkey out
 * of a key and a 16-byte input, the first step of XChaCha20. */
IC_NODISCARD IC_API int ic_hchacha20(uint8_t out[32], const uint8_t in[16], const uint8_t key[32]);

/* ---- one-shot AEADs, raw key ------------------------------------------- */

/* AEAD_CHACHA20_POLY1305 (RFC 8439 section 2.8), tag detached.
 * seal: out = ciphertext of in (len bytes), tag = 16 bytes.  out may equal
 * in.  len above IC_CHACHA20_POLY1305_MAX_LEN is IC_ERR_TOOLONG.
 * open: the same arguments with in the ciphertext and tag the one to
 * check; the tag is checked over aad and the ciphertext BEFORE anything is
 * decrypted; on a mismatch IC_ERR_AUTH with out zeroed (also when out ==
 * in). */
IC_NODISCARD IC_API int ic_chacha20_poly1305_seal(uint8_t *out, uint8_t tag[16], const uint8_t *in, size_t len,
                                                  const uint8_t *aad, size_t aadlen, const uint8_t nonce[12],
                                                  const uint8_t key[32]);
IC_NODISCARD IC_API int ic_chacha20_poly1305_open(uint8_t *out, const uint8_t tag[16], const uint8_t *in, size_t len,
                                                  const uint8_t *aad, size_t aadlen, const uint8_t nonce[12],
                                                  const uint8_t key[32]);

/* AEAD_XChaCha20_Poly1305 (draft-irtf-cfrg-xchacha-03 section 2.3): the
 * above under HChaCha20(key, nonce[0..15]) with nonce 0^4 || nonce[16..23].
 * A random 24-byte nonce is safe to use.  Same statuses and limits. */
IC_NODISCARD IC_API int ic_xchacha20_poly1305_seal(uint8_t *out, uint8_t tag[16], const uint8_t *in, size_t len,
                                                   const uint8_t *aad, size_t aadlen, const uint8_t nonce[24],
                                                   const uint8_t key[32]);
IC_NODISCARD IC_API int ic_xchacha20_poly1305_open(uint8_t *out, const uint8_t tag[16], const uint8_t *in, size_t len,
                                                   const uint8_t *aad, size_t aadlen, const uint8_t nonce[24],
                                                   const uint8_t key[32]);

/* ---- key object ---------------------------------------------------------- */

/* A key object of the same shape as AES-GCM's (incore/gcm.h): init
 * once, seal / open per message with the one-shot calls' arguments less the
 * key, wipe.  check is set by init and cleared by wipe; every call
 * validates it first (NULL: IC_ERR_NULL, not a live key object:
 * IC_ERR_STATE), then the arguments as the one-shot calls do.  seal / open
 * and the streaming contexts only read it, so threads may share it.  It
 * holds the key: erase it with ic_chacha20_poly1305_key_wipe() when done. */
typedef struct ic_chacha20_poly1305_key {
    uint8_t  key[32];
    uint32_t check;
    uint32_t reserved;
} ic_chacha20_poly1305_key;

/* Wipes k first, so a refused re-init leaves no older key usable. */
IC_NODISCARD IC_API int ic_chacha20_poly1305_key_init(ic_chacha20_poly1305_key *k, const uint8_t key[32]);
IC_NODISCARD IC_API int ic_chacha20_poly1305_key_seal(const ic_chacha20_poly1305_key *k, uint8_t *out, uint8_t tag[16],
                                                      const uint8_t *in, size_t len, const uint8_t *aad,
                                                      size_t aadlen, const uint8_t nonce[12]);
IC_NODISCARD IC_API int ic_chacha20_poly1305_key_open(const ic_chacha20_poly1305_key *k, uint8_t *out,
                                                      const uint8_t tag[16], const uint8_t *in, size_t len,
                                                      const uint8_t *aad, size_t aadlen, const uint8_t nonce[12]);
IC_NODISCARD IC_API int ic_xchacha20_poly1305_key_seal(const ic_chacha20_poly1305_key *k, uint8_t *out,
                                                       uint8_t tag[16], const uint8_t *in, size_t len,
                                                       const uint8_t *aad, size_t aadlen, const uint8_t nonce[24]);
IC_NODISCARD IC_API int ic_xchacha20_poly1305_key_open(const ic_chacha20_poly1305_key *k, uint8_t *out,
                                                       const uint8_t tag[16], const uint8_t *in, size_t len,
                                                       const uint8_t *aad, size_t aadlen, const uint8_t nonce[24]);
IC_API void ic_chacha20_poly1305_key_wipe(ic_chacha20_poly1305_key *k);

/* ---- streaming AEADs (rules at the top) ---------------------------------- */

/* One message of ChaCha20-Poly1305 or XChaCha20-Poly1305.  A complete type
 * so callers can keep it on the stack; the fields are private to
 * chacha20_poly1305.c. */
typedef struct ic_chacha20_poly1305_ctx {
    ic_poly1305_ctx mac;   /* Poly1305 under this message's one-time key    */
    const ic_chacha20_poly1305_key *key;  /* the caller's key object        */
    uint8_t  subkey[32];   /* XChaCha20: HChaCha20(key, nonce[0..15])       */
    uint8_t  nonce[12];    /* the message's ChaCha20 nonce (XChaCha20:
                              0^4 || nonce[16..23])                         */
    uint32_t counter;      /* next unused keystream block                   */
    uint8_t  ks[64];       /* keystream block of a partial data block       */
    uint64_t aadlen;       /* AAD bytes of this message                     */
    uint64_t datalen;      /* plaintext bytes of this message               */
    unsigned kslen;        /* unused keystream bytes at the end of ks       */
    int      state;        /* where in the message we are                   */
    uint32_t impl;         /* registry index of the ChaCha20 implementation */
    uint32_t subkeyed;     /* 1: the keystream is under subkey (XChaCha20) */
    uint32_t check;        /* set by init, cleared by final and wipe         */
} ic_chacha20_poly1305_ctx;

/* Begin a message under the key object k (which must outlive it) and a
 * 12-byte nonce.  ctx is wiped first (any earlier message is abandoned);
 * then NULL ctx, k or nonce: IC_ERR_NULL; k not a live key object:
 * IC_ERR_STATE. */
IC_NODISCARD IC_API int ic_chacha20_poly1305_init(ic_chacha20_poly1305_ctx *ctx, const ic_chacha20_poly1305_key *k,
                                                  const uint8_t nonce[12]);
/* The same for XChaCha20-Poly1305 and a 24-byte nonce: the context keeps
 * the subkey HChaCha20(key, nonce[0..15]) and the nonce 0^4 ||
 * nonce[16..23] for this message (draft-irtf-cfrg-xchacha-03 2.3). */
IC_NODISCARD IC_API int ic_xchacha20_poly1305_init(ic_chacha20_poly1305_ctx *ctx, const ic_chacha20_poly1305_key *k,
                                                   const uint8_t nonce[24]);
/* Additional authenticated data; all of it before the first data call. */
IC_NODISCARD IC_API int ic_chacha20_poly1305_aad(ic_chacha20_poly1305_ctx *ctx, const uint8_t *aad, size_t len);
/* len bytes of in to len bytes of out (out == in allowed). */
IC_NODISCARD IC_API int ic_chacha20_poly1305_encrypt(ic_chacha20_poly1305_ctx *ctx, uint8_t *out, const uint8_t *in,
                                                     size_t len);
/* Releases unauthenticated plaintext: see the warning at the top. */
IC_NODISCARD IC_API int ic_chacha20_poly1305_decrypt(ic_chacha20_poly1305_ctx *ctx, uint8_t *out, const uint8_t *in,
                                                     size_t len);
/* Sender: write the 16-byte tag; ends the message and wipes ctx. */
IC_NODISCARD IC_API int ic_chacha20_poly1305_final(ic_chacha20_poly1305_ctx *ctx, uint8_t tag[16]);
/* Receiver: IC_OK when tag matches, IC_ERR_AUTH otherwise (constant-time
 * comparison); ends the message and wipes ctx either way. */
IC_NODISCARD IC_API int ic_chacha20_poly1305_final_verify(ic_chacha20_poly1305_ctx *ctx, const uint8_t tag[16]);
/* Abandon a message: erase everything ctx holds (NULL does nothing). */
IC_API void ic_chacha20_poly1305_wipe(ic_chacha20_poly1305_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif
