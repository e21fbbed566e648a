/*
 * incore/gcm.h - AES-GCM authenticated encryption (NIST SP 800-38D), the
 * AES block cipher of incore/aes.h in counter mode plus the GHASH universal
 * hash over GF(2^128).
 *
 * Three ways to use it:
 *
 *  - one-shot: ic_aes_gcm_seal() / ic_aes_gcm_open().  Prefer these.
 *    ic_aes_gcm_open() decrypts and checks the tag in one pass; on
 *    IC_ERR_AUTH it zeroes out before it returns, so a forged message
 *    releases no plaintext, and nothing else is written.  out holds
 *    unauthenticated plaintext while the call runs: decrypt into memory
 *    no other process reads meanwhile.
 *
 *  - one-shot with a reusable key: ic_aes_gcm_key_init (once per key) then
 *    ic_aes_gcm_key_seal / ic_aes_gcm_key_open per message, and
 *    ic_aes_gcm_key_wipe.  The AES key schedule and the powers of H are
 *    expanded once, not per message (the raw-key one-shot calls do that
 *    expansion every time): for many short messages under one key, as TLS
 *    or QUIC records.  Same rules and statuses as the one-shot calls; the
 *    key object is only read by seal/open and by streaming contexts, so
 *    several threads may seal, open and stream with one key at once (with
 *    distinct IVs).
 *
 *  - streaming, from a key object: ic_aes_gcm_init (key object and IV)
 *    begins a message, then ic_aes_gcm_aad (any number of calls, any
 *    lengths), ic_aes_gcm_encrypt or ic_aes_gcm_decrypt (any number of
 *    calls, any lengths), and ic_aes_gcm_final (sender: writes the tag) or
 *    ic_aes_gcm_final_verify (receiver: checks it in constant time).  Both
 *    end the message and wipe the context; the next message is another
 *    ic_aes_gcm_init on the same context.  The context keeps a pointer to
 *    the key object and copies no key material: the key must stay in place
 *    and live (not wiped, not freed) until the message ends.  A call that
 *    finds the key wiped is refused with IC_ERR_STATE.
 *    WARNING: streaming decryption necessarily hands out plaintext before
 *    the tag has been checked.  The caller must not use or release any of it
 *    until ic_aes_gcm_final_verify() returned IC_OK, and must discard all of
 *    it otherwise.  When the whole message fits in memory use
 *    ic_aes_gcm_open() or ic_aes_gcm_key_open().
 *
 * Rules (each violation has its own status, nothing is written on error):
 *  - key: 16, 24 or 32 bytes (IC_ERR_KEYLEN).
 *  - IV: any length >= 1 byte (IC_ERR_IVLEN for 0; ic_aes_gcm_open then
 *    leaves out untouched: nothing was decrypted, so nothing is released).
 *    12 bytes is the fast and recommended case (J0 = IV || 0^31 || 1); any
 *    other length is run through GHASH (SP 800-38D section 7.1, step 2).
 *    Never reuse an IV with the same key.
 *  - tag: 4, 8, 12, 13, 14, 15 or 16 bytes (SP 800-38D section 5.2.1.2);
 *    anything else is IC_ERR_TAGLEN.  4 and 8 only for the uses Appendix C
 *    of SP 800-38D allows.
 *  - at most 2^36 - 32 bytes of plaintext per message and 2^61 - 1 bytes of
 *    AAD (IC_ERR_TOOLONG, checked before any byte is touched).
 *  - order: AAD after data, encrypt and decrypt mixed in one message,
 *    final after decrypt or final_verify after encrypt, and any call on a
 *    context whose message ended (final, final_verify, wipe) or never
 *    began: IC_ERR_STATE.  An ic_aes_gcm_init in the middle of a message
 *    abandons it.
 *  - out may equal in exactly; any other overlap is IC_ERR_OVERLAP.
 *  - NULL is accepted only together with a length of 0 (IC_ERR_NULL).
 *  - a key object or context that was never initialised, was wiped, or is
 *    garbage: IC_ERR_STATE, nothing touched.  Checks run in the order
 *    common.h gives, so an over-long length with a small buffer is
 *    IC_ERR_TOOLONG.
 *
 * A key object is bound at ic_aes_gcm_key_init() to the AES and GHASH
 * implementations selected at that moment, and keeps them for every
 * message under it.  It holds key material: wipe it with
 * ic_aes_gcm_key_wipe() when done.  A context holds the secrets of one
 * message (ic_aes_gcm_wipe() erases an abandoned one) and must not be used
 * by two threads at once.
 */
#ifndef INCORE_GCM_H
#define INCORE_GCM_H

#include "incore/common.h"
#include "incore/aes.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IC_GCM_BLOCK_SIZE   16
#define IC_GCM_IV_SIZE      12               /* the recommended IV length */
#define IC_GCM_TAG_SIZE     16               /* full tag                  */
#define IC_GCM_MIN_TAG_SIZE 4
#define IC_GCM_MAX_DATA     ((UINT64_C(1) << 36) - 32) /* bytes per message */
#define IC_GCM_MAX_AAD      ((UINT64_C(1) << 61) - 1)  /* bytes per message */

/* Room for the largest GHASH key layout of any backend (a carry-less
 * multiply backend may keep several powers of H and their Karatsuba sums:
 * x86 "vpclmul512" keeps H^32 .. H^1, 1 KiB). */
#define IC_GHASH_KEY_STORAGE 1024

/* The hash key H = E(K, 0^128) expanded by the GHASH implementation whose
 * registry index is impl; layout private to that implementation.  check
 * as in ic_aes_key. */
typedef struct ic_ghash_key {
    IC_ALIGNAS(64) uint8_t storage[IC_GHASH_KEY_STORAGE];
    uint32_t impl;
    uint32_t check;
} ic_ghash_key;

/* A reusable AES-GCM key: the AES schedule and H, each expanded by (and
 * recording the registry index of) the implementation selected at
 * ic_aes_gcm_key_init(), and the stitched loop (one pass of counter mode
 * and GHASH) that this pair of implementations runs, chosen there too.
 * check is set by init and cleared by wipe; every call that takes the key,
 * a streaming one included, validates it and the indexes (IC_ERR_STATE
 * when it is not a live key).  The fields are private.  Holds key
 * material: ic_aes_gcm_key_wipe() when done. */
typedef struct ic_aes_gcm_key {
    ic_aes_key   aes;
    ic_ghash_key ghash;
    uint32_t     check;
    uint32_t     stitch;
} ic_aes_gcm_key;

/* The state of one message (fields private): no key material, but the
 * message's secrets (the tag mask, the GHASH accumulator, keystream).  key
 * points to the caller's key object, which must outlive the message; the
 * check word is bound to that pointer. */
typedef struct ic_aes_gcm_ctx {
    uint8_t  ekj0[16];     /* E(K, J0): masks the tag                    */
    uint8_t  ctr[16];      /* next counter block (inc32 of J0 onwards)   */
    uint8_t  y[16];        /* GHASH accumulator                          */
    uint8_t  buf[16];      /* AAD or ciphertext bytes not yet hashed     */
    uint8_t  ks[16];       /* keystream block of a partial data block    */
    const ic_aes_gcm_key *key;  /* the message's key, not copied         */
    uint64_t aadlen;       /* AAD bytes of this message                  */
    uint64_t datalen;      /* plaintext bytes of this message            */
    unsigned buflen;       /* bytes waiting in buf (0..15)               */
    unsigned kslen;        /* unused keystream bytes at the end of ks    */
    unsigned ctr_public;   /* 1 when the IV had 12 bytes: ctr is not secret */
    int      state;        /* where in the message we are                */
    uint32_t check;        /* set by init, cleared by final and wipe     */
} ic_aes_gcm_ctx;

/* ---- one-shot, raw key ---------------------------------------------------- */

/* Encryption: out receives len bytes (out == in allowed), tag taglen
 * bytes.  Nothing is written when an argument is rejected. */
IC_NODISCARD IC_API int ic_aes_gcm_seal(uint8_t *out, uint8_t *tag, size_t taglen,
                                        const uint8_t *in, size_t len,
                                        const uint8_t *aad, size_t aadlen,
                                        const uint8_t *iv, size_t ivlen,
                                        const uint8_t *key, size_t keylen);
/* Authenticated decryption, arguments in the places of ic_aes_gcm_seal
 * (in is the ciphertext, out the plaintext, tag the one to check): the
 * tag is checked first; on IC_OK out holds the plaintext, on IC_ERR_AUTH
 * out (len bytes) is zeroed.  With out == in the ciphertext is therefore
 * gone after a failure. */
IC_NODISCARD IC_API int ic_aes_gcm_open(uint8_t *out, const uint8_t *tag, size_t taglen,
                                        const uint8_t *in, size_t len,
                                        const uint8_t *aad, size_t aadlen,
                                        const uint8_t *iv, size_t ivlen,
                                        const uint8_t *key, size_t keylen);

/* ---- key object ------------------------------------------------------------ */

/* Expand key (16, 24 or 32 bytes).  k is wiped first, so a failed re-init
 * leaves no older key usable. */
IC_NODISCARD IC_API int ic_aes_gcm_key_init(ic_aes_gcm_key *k, const uint8_t *key, size_t keylen);
/* As ic_aes_gcm_seal with the key already expanded. */
IC_NODISCARD IC_API int ic_aes_gcm_key_seal(const ic_aes_gcm_key *k, uint8_t *out, uint8_t *tag, size_t taglen,
                                            const uint8_t *in, size_t len,
                                            const uint8_t *aad, size_t aadlen,
                                            const uint8_t *iv, size_t ivlen);
/* As ic_aes_gcm_open: tag checked first, out zeroed on IC_ERR_AUTH. */
IC_NODISCARD IC_API int ic_aes_gcm_key_open(const ic_aes_gcm_key *k, uint8_t *out, const uint8_t *tag,
                                            size_t taglen, const uint8_t *in, size_t len,
                                            const uint8_t *aad, size_t aadlen,
                                            const uint8_t *iv, size_t ivlen);
/* Erase the key (it must be re-initialised to be used).  NULL is fine. */
IC_API void ic_aes_gcm_key_wipe(ic_aes_gcm_key *k);

/* ---- streaming -------------------------------------------------------------- */

/* Begin a message under the key object k with this IV (ivlen >= 1, 12
 * recommended).  c is wiped first (an abandoned message's secrets with
 * it).  NULL c or k: IC_ERR_NULL; k not a live key: IC_ERR_STATE.  k is
 * not copied: it must stay live until the message ends. */
IC_NODISCARD IC_API int ic_aes_gcm_init(ic_aes_gcm_ctx *c, const ic_aes_gcm_key *k, const uint8_t *iv,
                                        size_t ivlen);
/* Additional authenticated data; all of it before the first data call. */
IC_NODISCARD IC_API int ic_aes_gcm_aad(ic_aes_gcm_ctx *c, const uint8_t *aad, size_t len);
/* len bytes of in to len bytes of out (out == in allowed). */
IC_NODISCARD IC_API int ic_aes_gcm_encrypt(ic_aes_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len);
/* Releases unauthenticated plaintext: see the warning at the top. */
IC_NODISCARD IC_API int ic_aes_gcm_decrypt(ic_aes_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len);
/* Sender: write the first taglen bytes of the tag.  Ends the message and
 * wipes c. */
IC_NODISCARD IC_API int ic_aes_gcm_final(ic_aes_gcm_ctx *c, uint8_t *tag, size_t taglen);
/* Receiver: compare tag (taglen bytes) in constant time; IC_OK or
 * IC_ERR_AUTH.  Ends the message and wipes c either way (a refused call,
 * IC_ERR_NULL .. IC_ERR_STATE, leaves c as it was). */
IC_NODISCARD IC_API int ic_aes_gcm_final_verify(ic_aes_gcm_ctx *c, const uint8_t *tag, size_t taglen);
/* Erase the message state (an abandoned message); the key object is not
 * touched.  NULL is fine. */
IC_API void ic_aes_gcm_wipe(ic_aes_gcm_ctx *c);

#ifdef __cplusplus
}
#endif
#endif
